/**
 * Product reads for the API and the static build. Rows are reshaped into domain `Product`s here
 * (pence to pounds, booleans, embedded category and retailers); callers never see raw rows.
 * A page of products costs two queries: the products, then all their offers at once.
 */
import type { Db } from "./client.ts";
import { statement } from "./statements.ts";
import type { Offer, Product } from "../domain/catalogue.ts";
import { toPence, toPounds, type Pence } from "../domain/money.ts";
import { deliveryFor, totalPence } from "../domain/delivery.ts";
import { offerListOrder, type ListedOffer } from "../domain/offers.ts";
import { repeatTotalPence } from "../domain/repeat-delivery.ts";
import { packSizeOf } from "../domain/product-quantity.ts";
import { parseFeedingGuide } from "../domain/feeding.schema.ts";
import { foodSpeciesOf } from "../domain/food.ts";
import type { LegalCategory } from "../domain/legal-category.ts";
import type { ProductFilters } from "../domain/queries.ts";
import type { SortKey } from "../domain/sorting.ts";
import { bareSpecies, SearchIndex, searchColumnWeights, searchTerms, toFtsQuery, toWholeWordQueries, type SearchHits } from "../domain/search.ts";
import { SearchVocabulary, type SearchSuggestion } from "../domain/search-suggest.ts";
import { memberPriceOf, memberTotalPence } from "../domain/member-price.ts";
import { catalogueRevision } from "./catalogue-revision.ts";
import { detailColumnsSql, prescriptionOnlySqlList, type ProductOwnRow } from "./product-rows.ts";
import { detailsFromRow } from "../domain/product-details.ts";
import type { CategoryRow, CountRow, ProductPriceRow, ProductRow, RetailerRow } from "./rows.ts";

/** FTS5's bm25 score of a product_search match, with the search ranking's column weights (name, brand, category, description). */
export const searchBm25 = `bm25(product_search, ${searchColumnWeights.map((weight) => weight.toFixed(1)).join(", ")})`;

/** A product's own columns (its family apart) with its category and best-price facts. */
type ListedProductRow = Omit<ProductOwnRow, "family_key"> &
  Pick<ProductRow, "best_price_pence" | "original_price_pence" | "best_delivery_pence" | "best_retailer_id" | "rank" | "created_at" | "last_edited_at"> & {
    category_name: CategoryRow["name"];
    category_slug: CategoryRow["slug"];
    best_retailer_key: RetailerRow["key"] | null;
    best_retailer_name: RetailerRow["name"] | null;
    best_retailer_logo: RetailerRow["logo"] | null;
  };

/** An offer (its effective price as price_pence) with its retailer's name and delivery rule. */
type OfferRow = Pick<
  ProductPriceRow,
  | "id"
  | "product_id"
  | "retailer_id"
  | "price_pence"
  | "original_price_pence"
  | "url"
  | "in_stock"
  | "free_delivery"
  | "price_override"
  | "manual_price_pence"
  | "updated_at"
  | "last_checked_at"
  | "stale"
  | "delivery_pence"
  | "repeat_price_pence"
  | "repeat_terms"
  | "multi_buy"
  | "member_price_pence"
  | "member_scheme"
> & {
  retailer_key: RetailerRow["key"];
  retailer_name: RetailerRow["name"];
  retailer_logo: RetailerRow["logo"];
  rule_delivery_pence: RetailerRow["delivery_pence"];
  rule_free_from_pence: RetailerRow["free_delivery_from_pence"];
};

const productColumns = `p.id, p.name, p.slug, ${detailColumnsSql("p.")}, p.image, p.brand, p.category_id,
  c.name AS category_name, c.slug AS category_slug, p.rating, p.review_count, p.best_price_pence,
  p.original_price_pence, p.best_delivery_pence, p.best_retailer_id, r.key AS best_retailer_key, r.name AS best_retailer_name, r.logo AS best_retailer_logo,
  p.is_featured, p.rank, p.created_at, p.last_edited_at, p.kcal_per_kg, p.feeding_guide, p.legal_category`;

const productFrom = `FROM products p
  JOIN categories c ON c.id = p.category_id
  LEFT JOIN retailers r ON r.id = p.best_retailer_id`;

/** Effective price of an offer in SQL; the same rule as `effectivePence` in domain/offers.ts. */
const effectivePriceSql = "CASE WHEN pp.price_override = 1 AND pp.manual_price_pence IS NOT NULL THEN pp.manual_price_pence ELSE pp.price_pence END";

/**
 * ORDER BY per sort key. Each matches an index of data/db/schema.ts expression for expression
 * (products_*_asc_idx, _desc_idx, _rating_idx, _savings_idx), so a page is read in index order
 * rather than by sorting the whole category; products.test.ts checks the query plans. Products
 * without a best price (nothing in stock) go last in price sorts, and without a price per kg
 * (not sold by weight, or nothing in stock) last in the per-kg sort.
 */
export const orderBy: Record<SortKey, string> = {
  rank_asc: "p.rank, p.id",
  price_asc: "coalesce(p.best_price_pence, 9007199254740991), p.rank, p.id",
  price_desc: "p.best_price_pence DESC, p.rank, p.id",
  // Products with reviews by rating; those without (no rating: NULL) after them all, by rank.
  rating_desc: "(CASE WHEN p.review_count > 0 THEN p.rating END) DESC, p.review_count DESC, p.rank, p.id",
  savings_desc:
    "(CASE WHEN p.original_price_pence > p.best_price_pence THEN (p.original_price_pence - p.best_price_pence) * 1.0 / p.original_price_pence ELSE 0 END) DESC, p.rank, p.id",  // products_category_price_per_kg_idx; offered only within a category (sorting.ts sortOffered).
  price_per_kg_asc: "coalesce(p.best_price_per_kg_pence, 9007199254740991), p.rank, p.id",
};

/** The SQL of a product page query, for tests that check its plan. */
export function productListSql(filters: ProductFilters, sort: SortKey): { sql: string; params: unknown[] } {
  const { where, params } = filterClause(filters);
  return { sql: `SELECT ${productColumns} ${productFrom} ${where} ORDER BY ${orderBy[sort]} LIMIT ? OFFSET ?`, params };
}

export function filterClause(filters: ProductFilters): { where: string; params: unknown[] } {
  const conditions: string[] = [];
  const params: unknown[] = [];
  if (filters.category !== undefined) {
    conditions.push("p.category_id = (SELECT id FROM categories WHERE slug = ?)");
    params.push(filters.category);
  }
  if (filters.retailer !== undefined) {
    conditions.push("EXISTS (SELECT 1 FROM product_prices fp WHERE fp.product_id = p.id AND fp.retailer_id = ?)");
    params.push(filters.retailer);
  }
  if (filters.brand !== undefined) {
    conditions.push("p.brand = ? COLLATE NOCASE");
    params.push(filters.brand);
  }
  if (filters.minPrice !== undefined) {
    conditions.push("p.best_price_pence >= ?");
    params.push(toPence(filters.minPrice));
  }
  if (filters.maxPrice !== undefined) {
    conditions.push("p.best_price_pence <= ?");
    params.push(toPence(filters.maxPrice));
  }
  return { where: conditions.length ? `WHERE ${conditions.join(" AND ")}` : "", params };
}

/**
 * The offer's repeat-delivery total to the door: its repeat item price plus the delivery a one-off
 * order at that price costs (the offer's stated delivery, its free mark, else its retailer's rule).
 */
function repeatTotalOf(row: Pick<OfferRow, "repeat_price_pence" | "delivery_pence" | "free_delivery" | "rule_delivery_pence" | "rule_free_from_pence">): number | null {
  return repeatTotalPence({
    retailerId: 0,
    pricePence: row.repeat_price_pence ?? 0,
    inStock: true,
    priceOverride: false,
    manualPricePence: null,
    deliveryPence: row.delivery_pence,
    freeDelivery: row.free_delivery === 1,
    deliveryRule: { standardPence: row.rule_delivery_pence, freeFromPence: row.rule_free_from_pence },
    repeatPricePence: row.repeat_price_pence,
  });
}

/** The delivery one unit of the offer costs (its own statement, its free mark, else its retailer's rule); null: not known. */
function rowDeliveryPence(row: OfferRow): Pence | null {
  return deliveryFor(
    row.price_pence,
    { deliveryPence: row.delivery_pence, freeDelivery: row.free_delivery === 1 },
    { standardPence: row.rule_delivery_pence, freeFromPence: row.rule_free_from_pence },
  );
}

/** The offer, its money in pence. */
function toOffer(row: OfferRow, delivery: Pence | null = rowDeliveryPence(row)): Offer {
  return {
    id: row.id,
    productId: row.product_id,
    retailerId: row.retailer_id,
    retailer: { key: row.retailer_key, name: row.retailer_name, logo: row.retailer_logo },
    pricePence: row.price_pence,
    originalPricePence: row.original_price_pence,
    url: row.url,
    inStock: row.in_stock === 1,
    freeDelivery: row.free_delivery === 1,
    deliveryPence: delivery,
    totalPence: totalPence(row.price_pence, delivery),
    priceOverride: row.price_override === 1,
    manualPricePence: row.manual_price_pence,
    updatedAt: row.updated_at,
    lastCheckedAt: row.last_checked_at,
    stale: row.stale === 1,
    repeatPricePence: row.repeat_price_pence,
    repeatTotalPence: repeatTotalOf(row),
    repeatTerms: row.repeat_terms,
    multiBuy: row.multi_buy,
    ...memberOf(row),
  };
}

/** The offer's member price, its scheme and a member's total to the door, when it has one that counts (member-price.ts). */
function memberOf(row: OfferRow): Pick<Offer, "memberPricePence" | "memberScheme" | "memberTotalPence"> {
  const member = memberPriceOf(row.price_pence, row.member_price_pence, row.member_scheme);
  if (member === null) return { memberPricePence: null, memberScheme: null, memberTotalPence: null };
  return {
    memberPricePence: member.pricePence,
    memberScheme: member.scheme,
    memberTotalPence: memberTotalPence(
      member.pricePence,
      { deliveryPence: row.delivery_pence, freeDelivery: row.free_delivery === 1 },
      { standardPence: row.rule_delivery_pence, freeFromPence: row.rule_free_from_pence },
    ),
  };
}

function toProduct(row: ListedProductRow, prices: Offer[]): Product {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    ...detailsFromRow(row),
    image: row.image,
    brand: row.brand,
    categoryId: row.category_id,
    category: { name: row.category_name, slug: row.category_slug },
    rating: row.rating,
    reviewCount: row.review_count,
    bestPricePence: row.best_price_pence,
    originalPricePence: row.original_price_pence,
    bestDeliveryPence: row.best_delivery_pence,
    packSize: packSizeOf(row.name),
    bestRetailerId: row.best_retailer_id,
    bestRetailer:
      row.best_retailer_name === null ? null : { key: row.best_retailer_key ?? "", name: row.best_retailer_name, logo: row.best_retailer_logo ?? "" },
    prices,
    isFeatured: row.is_featured === 1,
    rank: row.rank,
    createdAt: row.created_at,
    lastEditedAt: row.last_edited_at,
    kcalPerKg: row.kcal_per_kg,
    feedingGuide: parseFeedingGuide(row.feeding_guide),
    foodFor: foodSpeciesOf(row.category_slug),
    legalCategory: row.legal_category,
  };
}

/** The offer columns and joins shared by offersFor and listAllProducts. */
const offerSelect = `SELECT pp.id, pp.product_id, pp.retailer_id, r.key AS retailer_key, r.name AS retailer_name, r.logo AS retailer_logo,
       ${effectivePriceSql} AS price_pence, pp.original_price_pence, pp.url, pp.in_stock, pp.free_delivery,
       pp.price_override, pp.manual_price_pence, pp.updated_at, pp.last_checked_at, pp.stale, pp.delivery_pence,
       r.delivery_pence AS rule_delivery_pence, r.free_delivery_from_pence AS rule_free_from_pence, pp.repeat_price_pence, pp.repeat_terms,
       pp.multi_buy, pp.member_price_pence, pp.member_scheme
     FROM product_prices pp JOIN retailers r ON r.id = pp.retailer_id`;

/** Rows come by product; each product's offers are then put in listing order (offerListOrder). */
const offerOrder = "ORDER BY pp.product_id";

/** An offer with what its listing order looks at, its total to the door in pence among it. */
type Listed = ListedOffer & { offer: Offer };

function toListed(row: OfferRow): Listed {
  const delivery = rowDeliveryPence(row);
  const offer = toOffer(row, delivery);
  return { offer, inStock: offer.inStock, stale: offer.stale, retailer: offer.retailer, totalPence: offer.totalPence };
}

/** Each product's offers in listing order, compared on pence (never on pounds). */
function sortOffers(byProduct: Map<number, Listed[]>): Map<number, Offer[]> {
  const sorted = new Map<number, Offer[]>();
  for (const [productId, listed] of byProduct) {
    if (listed.length > 1) listed.sort(offerListOrder);
    sorted.set(productId, listed.map((entry) => entry.offer));
  }
  return sorted;
}

/**
 * The offers of these products in one query, in listing order: in stock first, cheapest total
 * to the door first. `price` is the item price the shopper pays (the manual price when the admin
 * overrides); `delivery` and `total` add the delivery one unit costs.
 */
export function offersFor(db: Db, productIds: readonly number[]): Map<number, Offer[]> {
  const byProduct = new Map<number, Listed[]>(productIds.map((id) => [id, []]));
  if (productIds.length === 0) return new Map(productIds.map((id) => [id, []]));
  const rows = statement<OfferRow>(db, `${offerSelect} WHERE pp.product_id IN (SELECT value FROM json_each(?)) ${offerOrder}`).all(
    JSON.stringify(productIds),
  );
  for (const row of rows) byProduct.get(row.product_id)?.push(toListed(row));
  return sortOffers(byProduct);
}

/**
 * Every product with its offers (ordered as in offersFor), by id, in two queries whatever the
 * catalogue size: the static build's bulk read, so no page queries the database on its own.
 */
export function listAllProducts(db: Db): Product[] {
  const rows = statement<ListedProductRow>(db, `SELECT ${productColumns} ${productFrom} ORDER BY p.id`).all();
  const listed = new Map<number, Listed[]>();
  for (const row of statement<OfferRow>(db, `${offerSelect} ${offerOrder}`).all()) {
    const list = listed.get(row.product_id);
    if (list) list.push(toListed(row));
    else listed.set(row.product_id, [toListed(row)]);
  }
  const offers = sortOffers(listed);
  return rows.map((row) => toProduct(row, offers.get(row.id) ?? []));
}

function withOffers(db: Db, rows: ListedProductRow[]): Product[] {
  const offers = offersFor(db, rows.map((row) => row.id));
  return rows.map((row) => toProduct(row, offers.get(row.id) ?? []));
}

export interface ProductPage {
  sort: SortKey;
  offset: number;
  limit: number;
}

export function listProducts(db: Db, filters: ProductFilters, page: ProductPage): Product[] {
  const { sql, params } = productListSql(filters, page.sort);
  const rows = statement<ListedProductRow>(db, sql).all(...params, page.limit, page.offset);
  return withOffers(db, rows);
}

export function countProducts(db: Db, filters: ProductFilters): number {
  const { where, params } = filterClause(filters);
  const row = statement<CountRow<"count">>(db, `SELECT count(*) AS count FROM products p ${where}`).get(...params);
  return row!.count;
}

/**
 * Featured products by rank (the home page's example deal, GET /api/products/featured). A
 * prescription-only medicine is never featured: the writer refuses the flag, and this read
 * leaves one out whatever its row says.
 */
export function listFeaturedProducts(db: Db, limit: number): Product[] {
  const rows = statement<ListedProductRow>(
    db,
    `SELECT ${productColumns} ${productFrom} WHERE p.is_featured = 1 AND p.legal_category NOT IN ${prescriptionOnlySqlList} ORDER BY p.rank, p.id LIMIT ?`,
  ).all(limit);
  return withOffers(db, rows);
}

export function getProductBySlug(db: Db, slug: string): Product | null {
  const row = statement<ListedProductRow>(db, `SELECT ${productColumns} ${productFrom} WHERE p.slug = ?`).get(slug);
  return row ? withOffers(db, [row])[0]! : null;
}

export function getProductById(db: Db, id: number): Product | null {
  const row = statement<ListedProductRow>(db, `SELECT ${productColumns} ${productFrom} WHERE p.id = ?`).get(id);
  return row ? withOffers(db, [row])[0]! : null;
}

/** Products by id in one query (plus one for their offers), keyed by id; unknown ids are absent. */
export function getProductsByIds(db: Db, ids: readonly number[]): Map<number, Product> {
  if (ids.length === 0) return new Map();
  const rows = statement<ListedProductRow>(db, `SELECT ${productColumns} ${productFrom} WHERE p.id IN (SELECT value FROM json_each(?))`).all(
    JSON.stringify(ids),
  );
  return new Map(withOffers(db, rows).map((product) => [product.id, product]));
}

/** Every prescription-only medicine (POM-V, POM-VPS) in the catalogue, by name: what a newsletter issue may not promote. */
export function listPrescriptionOnlyProducts(db: Db): { name: string; slug: string }[] {
  return statement<Pick<ProductRow, "name" | "slug">>(db, `SELECT name, slug FROM products WHERE legal_category IN ${prescriptionOnlySqlList} ORDER BY name, id`).all();
}

/** A product's legal category as a veterinary medicine; undefined when there is no such product. */
export function productLegalCategory(db: Db, id: number): LegalCategory | undefined {
  const row = statement<Pick<ProductRow, "legal_category">>(db, "SELECT legal_category FROM products WHERE id = ?").get(id);
  return row?.legal_category;
}

export function productExists(db: Db, id: number): boolean {
  return statement(db, "SELECT 1 FROM products WHERE id = ?").get(id) !== undefined;
}

export interface SearchResult {
  products: Product[];
  total: number;
}

/**
 * Full-text search, best match first (for a species' name alone, "cat", that species' food
 * first; then products holding the query's words as whole words of their name or category;
 * then name counts most, then brand, category, description), then rank. Answered from an in-memory copy of the FTS5 index (SearchIndex, same matching and bm25
 * ranking, ~1 ms where FTS5's per-row ranking takes tens of ms for common words); FTS5 answers
 * while that copy is being brought up to date after a change, and for text the copy cannot
 * take as one token per word.
 */
export function searchProducts(db: Db, text: string, page: { offset: number; limit: number }): SearchResult {
  const terms = searchTerms(text);
  if (terms.length === 0) return { products: [], total: 0 };
  const hits = searchIndexFor(db)?.search(terms, page.offset, page.limit) ?? searchWithFts(db, text, page);
  if (hits.ids.length === 0) return { products: [], total: hits.total };
  const products = getProductsByIds(db, hits.ids);
  return { products: hits.ids.map((id) => products.get(id)).filter((product) => product !== undefined), total: hits.total };
}

/**
 * A correction of the text's unknown words (search-suggest.ts: words no known word starting with
 * them is used by `minProducts` products), the one `matches` counts most products for, or null. The words come from the catalogue's names and brands as last indexed.
 */
export function suggestSearch(db: Db, text: string, matches: (q: string) => number, minProducts = 1): SearchSuggestion | null {
  searchIndexFor(db);
  return searchIndexes.get(db.$client)?.vocabulary.suggest(text, matches, minProducts) ?? null;
}

/** Every product matching the text, best match first: the order searchProducts pages through. */
export function searchMatchIds(db: Db, text: string): number[] {
  const terms = searchTerms(text);
  if (terms.length === 0) return [];
  const index = searchIndexFor(db);
  // SQLite takes a negative LIMIT as none.
  return (index?.search(terms, 0, index.size) ?? searchWithFts(db, text, { offset: 0, limit: -1 })).ids;
}

/**
 * FTS5's answer, ranked as SearchIndex ranks (for a species' name alone, its food categories
 * first; the tier of whole-word matches, bm25, rank, id). A food category's slug is
 * "<species>-food" or one of its sub-aisles, "<species>-food-…" (foodSpeciesOf).
 */
function searchWithFts(db: Db, text: string, page: { offset: number; limit: number }): SearchHits {
  const match = toFtsQuery(text)!;
  const { total } = statement<CountRow<"total">>(db, "SELECT count(*) AS total FROM product_search WHERE product_search MATCH ?").get(match)!;
  if (total === 0 || page.offset >= total) return { ids: [], total };
  const wholeWords = toWholeWordQueries(text);
  const tier = wholeWords.map(() => "(hits.id NOT IN (SELECT rowid FROM product_search WHERE product_search MATCH ?))").join(" + ");
  const species = bareSpecies(searchTerms(text));
  const speciesTier = species === null ? "" : "(c.slug <> ? AND c.slug NOT GLOB ?), ";
  const speciesParams = species === null ? [] : [`${species}-food`, `${species}-food-*`];
  const rows = statement<Pick<ProductRow, "id">>(
    db,
    `WITH hits AS (
       SELECT rowid AS id, ${searchBm25} AS score
       FROM product_search WHERE product_search MATCH ?
     )
     SELECT p.id FROM hits JOIN products p ON p.id = hits.id JOIN categories c ON c.id = p.category_id
     ORDER BY ${speciesTier}${tier}, hits.score, p.rank, p.id LIMIT ? OFFSET ?`,
  ).all(match, ...speciesParams, ...wholeWords, page.limit, page.offset);
  return { ids: rows.map((row) => row.id), total };
}

interface SearchIndexState {
  index: SearchIndex | null;
  /** The words of names and brands typos are corrected to: the last one built, kept while the index is rebuilt. */
  vocabulary: SearchVocabulary;
  /** The searchable catalogue's state the index was built from. */
  version: string;
  rebuildScheduled: boolean;
}

const searchIndexes = new WeakMap<Db["$client"], SearchIndexState>();
/** A burst of writes (an import, a price refresh in batches) costs one rebuild, a second after it starts. */
const rebuildDelayMs = 1000;

/**
 * The searchable catalogue's state, read fresh (other connections' writes included): FTS5's
 * structure record, which every committed change to the indexed text rewrites, and the
 * catalogue revision, which every catalogue write moves (ranks included).
 */
function searchVersion(db: Db): string {
  const structure = statement<{ block: Uint8Array }>(db, "SELECT block FROM product_search_data WHERE id = 10").get();
  return `${catalogueRevision(db)}:${structure ? Buffer.from(structure.block).toString("base64") : ""}`;
}

/**
 * What FTS5 indexed of a product (its text columns; brand, category and description may be null
 * in the index) with its rank and category slug.
 */
interface SearchRow {
  id: number;
  rank: ProductRow["rank"];
  name: string;
  brand: string | null;
  category: string | null;
  description: string | null;
  category_slug: CategoryRow["slug"];
}

/** Reads exactly what FTS5 indexed, with each product's rank, in one snapshot. */
function buildSearchIndex(db: Db): { index: SearchIndex; version: string; vocabulary: SearchVocabulary } {
  return db.$client.transaction(() => {
    const version = searchVersion(db);
    const rows = statement<SearchRow>(
      db,
      `SELECT s.rowid AS id, p.rank, s.name, s.brand, s.category, s.description, c.slug AS category_slug
       FROM product_search s JOIN products p ON p.id = s.rowid JOIN categories c ON c.id = p.category_id`,
    ).all();
    const index = new SearchIndex(
      rows.map((row) => ({
        id: row.id,
        rank: row.rank,
        columns: [row.name, row.brand ?? "", row.category ?? "", row.description ?? ""] as const,
        foodFor: foodSpeciesOf(row.category_slug),
      })),
    );
    return { index, version, vocabulary: new SearchVocabulary(rows) };
  })();
}

/**
 * The up-to-date in-memory index, or null while FTS5 must answer. The first search builds it
 * (about a second for 50,000 products on a slow machine); after a change the stale copy is
 * dropped at once and rebuilt a second later, so no request waits for it or sees stale results.
 */
function searchIndexFor(db: Db): SearchIndex | null {
  let state = searchIndexes.get(db.$client);
  if (!state) {
    state = { ...buildSearchIndex(db), rebuildScheduled: false };
    searchIndexes.set(db.$client, state);
    return state.index;
  }
  if (state.index && state.version === searchVersion(db)) return state.index;
  state.index = null;
  if (!state.rebuildScheduled) {
    state.rebuildScheduled = true;
    const scheduled = state;
    setTimeout(() => {
      scheduled.rebuildScheduled = false;
      try {
        if (db.$client.open) Object.assign(scheduled, buildSearchIndex(db));
      } catch {
        // The database went away or failed: FTS5 keeps answering, the next search tries again.
      }
    }, rebuildDelayMs).unref();
  }
  return null;
}

export interface AffiliateLink {
  retailerId: number;
  url: string;
  price: number;
  originalPrice: number | null;
  priceOverride: boolean;
  manualPrice: number | null;
  freeDelivery: boolean;
  inStock: boolean;
  /** The repeat-delivery item price; null: none. */
  repeatPrice: number | null;
  /** The repeat order's total to the door (see Offer.repeatTotal); null: no repeat price. */
  repeatTotal: number | null;
  repeatTerms: string | null;
  /** The multi-buy in the site's words ("3 for 2"); null: none. */
  multiBuy: string | null;
  /** The member price as stored (pounds) and its scheme; null: none. */
  memberPrice: number | null;
  memberScheme: string | null;
}

/** A product's price entries as the admin form reads them: the listed price, not the effective one. */
export function listAffiliateLinks(db: Db, productId: number): AffiliateLink[] {
  const rows = statement<Omit<OfferRow, "id" | "product_id" | "retailer_key" | "retailer_name" | "retailer_logo" | "updated_at">>(
    db,
    `SELECT pp.retailer_id, pp.url, pp.price_pence, pp.original_price_pence, pp.price_override, pp.manual_price_pence, pp.free_delivery, pp.in_stock,
       pp.repeat_price_pence, pp.repeat_terms, pp.multi_buy, pp.member_price_pence, pp.member_scheme, pp.delivery_pence, r.delivery_pence AS rule_delivery_pence, r.free_delivery_from_pence AS rule_free_from_pence
     FROM product_prices pp JOIN retailers r ON r.id = pp.retailer_id WHERE pp.product_id = ? ORDER BY pp.retailer_id`,
  ).all(productId);
  return rows.map((row) => ({
    retailerId: row.retailer_id,
    url: row.url,
    price: toPounds(row.price_pence),
    originalPrice: toPounds(row.original_price_pence),
    priceOverride: row.price_override === 1,
    manualPrice: toPounds(row.manual_price_pence),
    freeDelivery: row.free_delivery === 1,
    inStock: row.in_stock === 1,
    repeatPrice: toPounds(row.repeat_price_pence),
    repeatTotal: toPounds(repeatTotalOf(row)),
    repeatTerms: row.repeat_terms,
    multiBuy: row.multi_buy,
    memberPrice: toPounds(row.member_price_pence),
    memberScheme: row.member_scheme,
  }));
}
