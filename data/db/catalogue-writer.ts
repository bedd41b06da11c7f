/**
 * The one write path of the catalogue: products with their offers, categories, retailers,
 * vouchers and affiliate IDs. Admin screens, imports and the price refresh all write through
 * here, so every write
 * - runs in one IMMEDIATE transaction (it holds the write lock from the start, so the checks it
 *   makes cannot be overtaken by another writer before it stores),
 * - is validated against the database (known category and retailers, unique slugs, nothing
 *   deleted that products still use) and refused with a `WriteRefused` that changes nothing,
 * - appends to price_history whenever an offer's effective price changes,
 * - re-derives best price, best retailer and original price with the domain rule the pages use
 *   (data/domain/offers.ts, through recomputeBestPrices),
 * - records an audit entry,
 * - and returns what changed, which the caller hands to the change signal after the commit
 *   (drop cached responses, check price alerts, rebuild the affected pages).
 */
import type { Db } from "./client.ts";
import { changedFields, recordAudit } from "./audit.ts";
import { bumpCatalogueRevision } from "./catalogue-revision.ts";
import { recomputeBestPrices } from "./offers.ts";
import { productRow, type ProductOwnRow } from "./product-rows.ts";
import { statement } from "./statements.ts";
import type { ProductPriceRow } from "./rows.ts";
import { affiliateKeys, type AffiliateIds } from "../domain/catalogue.ts";
import type { CategoryInput, OfferInput, ProductInput, RetailerInput, VoucherInput } from "../domain/catalogue-input.ts";
import { featuredPrescriptionMessage } from "../domain/catalogue-input.ts";
import { slugify } from "../domain/slug.ts";
import { formatPence, type Pence } from "../domain/money.ts";
import { type FeedingGuide } from "../domain/feeding.ts";
import { parseFeedingGuide } from "../domain/feeding.schema.ts";
import { effectivePence } from "../domain/offers.ts";
import { offerUrlProblem, retailerHosts } from "../domain/retailers.ts";
import { isPrescriptionOnly, type LegalCategory } from "../domain/legal-category.ts";
import { storedTextList } from "./catalogue.ts";

/** What a committed write changed, for the change signal. */
export interface CatalogueChange {
  /** Products whose public data changed (their pages, and the lists they appear in). */
  productIds: readonly number[];
  /** Categories whose product lists changed (a product's old and new category when it moves). */
  categoryIds: readonly number[];
  /**
   * Whether something every page shows changed (the category menu, retailer names, affiliate
   * IDs in every link, vouchers) or a page disappeared: every page must be rebuilt.
   */
  siteWide: boolean;
  /**
   * The catalogue revisions the writes behind this change moved to (one per committed write), so
   * the change signal can tell a batch of this process's own writes from another process's.
   */
  revisions?: readonly number[];
}

/** A write refused before anything was stored: bad reference (400), missing (404), conflict (409). */
export class WriteRefused extends Error {
  readonly status: 400 | 404 | 409;

  constructor(status: 400 | 404 | 409, message: string) {
    super(message);
    this.name = "WriteRefused";
    this.status = status;
  }
}

export interface Written<T> {
  value: T;
  change: CatalogueChange;
}

const noChange: CatalogueChange = { productIds: [], categoryIds: [], siteWide: false };

/** Everything several writes changed, as one change (a batch job signals once, at its end). */
export function mergeChanges(changes: readonly CatalogueChange[]): CatalogueChange {
  const productIds = new Set<number>();
  const categoryIds = new Set<number>();
  const revisions = new Set<number>();
  let siteWide = false;
  for (const change of changes) {
    for (const id of change.productIds) productIds.add(id);
    for (const id of change.categoryIds) categoryIds.add(id);
    for (const revision of change.revisions ?? []) revisions.add(revision);
    siteWide ||= change.siteWide;
  }
  const sorted = (ids: Set<number>) => [...ids].sort((a, b) => a - b);
  return { productIds: sorted(productIds), categoryIds: sorted(categoryIds), siteWide, revisions: sorted(revisions) };
}

/** Whether the change touches anything a page shows. */
export const isChange = (change: CatalogueChange) => change.siteWide || change.productIds.length > 0 || change.categoryIds.length > 0;
const siteWideChange: CatalogueChange = { productIds: [], categoryIds: [], siteWide: true };

/**
 * Runs `write` in one IMMEDIATE transaction (all or nothing); a write that changed something
 * moves the catalogue revision in the same transaction, so other processes' watchers notice it.
 */
export function catalogueTransaction<T>(db: Db, write: () => Written<T>): Written<T> {
  return db.$client
    .transaction(() => {
      const written = write();
      const { change } = written;
      if (!isChange(change)) return written;
      const revision = bumpCatalogueRevision(db);
      return { ...written, change: { ...change, revisions: [revision] } };
    })
    .immediate();
}

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

// ---------------------------------------------------------------------------------------------
// Products and offers

type StoredOffer = Pick<
  ProductPriceRow,
  | "id"
  | "retailer_id"
  | "price_pence"
  | "original_price_pence"
  | "url"
  | "in_stock"
  | "free_delivery"
  | "price_override"
  | "manual_price_pence"
  | "repeat_price_pence"
  | "repeat_terms"
>;

const offerEffective = (offer: { priceOverride: boolean; manualPricePence: Pence | null; pricePence: Pence }) =>
  effectivePence({ retailerId: 0, inStock: true, ...offer });

function storedEffective(offer: StoredOffer): Pence {
  return offerEffective({ priceOverride: offer.price_override === 1, manualPricePence: offer.manual_price_pence, pricePence: offer.price_pence });
}

function inputEffective(link: OfferInput): Pence {
  return offerEffective({ priceOverride: link.priceOverride, manualPricePence: link.manualPrice, pricePence: link.price });
}

function assertCategory(db: Db, categoryId: number): void {
  if (statement(db, "SELECT 1 FROM categories WHERE id = ?").get(categoryId) === undefined) {
    throw new WriteRefused(400, "categoryId: unknown category");
  }
}

/** A retailer as an offer's URL is checked against: its name and every host its offers may use. */
export interface OfferRetailer {
  name: string;
  comparesPrices: boolean;
  hosts: string[];
}

/** The retailers of these ids that exist, with their offer hosts (registry, added, website). */
export function offerRetailers(db: Db, ids: readonly number[]): Map<number, OfferRetailer> {
  const rows = statement(db, "SELECT id, key, name, website, hosts, compares_prices FROM retailers WHERE id IN (SELECT value FROM json_each(?))").all(
    JSON.stringify(ids),
  ) as { id: number; key: string; name: string; website: string; hosts: string; compares_prices: number }[];
  return new Map(
    rows.map((row) => [
      row.id,
      { name: row.name, comparesPrices: row.compares_prices === 1, hosts: retailerHosts({ key: row.key, website: row.website, hosts: storedTextList(row.hosts) }) },
    ]),
  );
}

/**
 * Every linked retailer must exist and be one whose prices the site compares, and each offer's URL
 * must be on one of its retailer's hosts (a link naming Amazon must lead to Amazon).
 */
function assertRetailers(db: Db, links: readonly OfferInput[]): void {
  if (links.length === 0) return;
  const known = offerRetailers(db, links.map((link) => link.retailerId));
  for (const [index, link] of links.entries()) {
    const retailer = known.get(link.retailerId);
    if (!retailer) throw new WriteRefused(400, `retailerLinks.${index}.retailerId: unknown retailer`);
    if (!retailer.comparesPrices) {
      throw new WriteRefused(400, `retailerLinks.${index}.retailerId: prices are not compared at ${retailer.name}; turn on price comparison for it first`);
    }
    const problem = offerUrlProblem(link.affiliateUrl, retailer);
    if (problem !== null) throw new WriteRefused(400, `retailerLinks.${index}.affiliateUrl: ${problem}`);
  }
}

function assertProductSlugFree(db: Db, slug: string, exceptId: number | null): void {
  const row = statement(db, "SELECT id FROM products WHERE slug = ?").get(slug) as { id: number } | undefined;
  if (row && row.id !== exceptId) throw new WriteRefused(409, `A product with the slug "${slug}" already exists`);
}

function storedOffers(db: Db, productId: number): StoredOffer[] {
  return statement(
    db,
    `SELECT id, retailer_id, price_pence, original_price_pence, url, in_stock, free_delivery, price_override, manual_price_pence,
       repeat_price_pence, repeat_terms
     FROM product_prices WHERE product_id = ? ORDER BY retailer_id`,
  ).all(productId) as StoredOffer[];
}

function retailerNames(db: Db): Map<number, string> {
  const rows = statement(db, "SELECT id, name FROM retailers").all() as { id: number; name: string }[];
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** The product as the audit log compares it: its fields, and each offer keyed by retailer name. */
function auditView(product: ProductOwnRow | ProductInput, offers: readonly StoredOffer[] | readonly OfferInput[], names: Map<number, string>) {
  const fields =
    "category_id" in product
      ? {
          name: product.name,
          slug: product.slug,
          description: product.description,
          image: product.image,
          brand: product.brand,
          categoryId: product.category_id,
          rating: product.rating,
          reviewCount: product.review_count,
          isFeatured: product.is_featured === 1,
          familyKey: product.family_key,
          kcalPerKg: product.kcal_per_kg,
          feedingGuide: parseFeedingGuide(product.feeding_guide),
          legalCategory: product.legal_category,
        }
      : {
          name: product.name,
          slug: product.slug,
          description: product.description,
          image: product.image,
          brand: product.brand,
          categoryId: product.categoryId,
          rating: product.rating,
          reviewCount: product.reviewCount,
          isFeatured: product.isFeatured,
          familyKey: product.familyKey ?? null,
          kcalPerKg: product.kcalPerKg ?? null,
          feedingGuide: product.feedingGuide ?? null,
          legalCategory: product.legalCategory ?? "none",
        };
  const offerViews: Record<string, unknown> = {};
  for (const offer of offers) {
    const stored = "retailer_id" in offer;
    const retailerId = stored ? offer.retailer_id : offer.retailerId;
    offerViews[`offer at ${names.get(retailerId) ?? `retailer ${retailerId}`}`] = stored
      ? {
          price: offer.price_pence,
          originalPrice: offer.original_price_pence,
          url: offer.url,
          inStock: offer.in_stock === 1,
          freeDelivery: offer.free_delivery === 1,
          priceOverride: offer.price_override === 1,
          manualPrice: offer.manual_price_pence,
          repeatPrice: offer.repeat_price_pence,
          repeatTerms: offer.repeat_terms,
        }
      : {
          price: offer.price,
          originalPrice: offer.originalPrice,
          url: offer.affiliateUrl,
          inStock: offer.inStock,
          freeDelivery: offer.freeDelivery,
          priceOverride: offer.priceOverride,
          manualPrice: offer.manualPrice,
          repeatPrice: offer.repeatPrice,
          repeatTerms: offer.repeatTerms,
        };
  }
  return { ...fields, ...offerViews };
}

/** "price at Amazon £12.99 -> £11.49" for each offer whose effective price moved. */
function priceMoves(
  before: readonly StoredOffer[],
  after: readonly OfferInput[],
  names: Map<number, string>,
): { retailer: string; text: string }[] {
  const old = new Map(before.map((offer) => [offer.retailer_id, storedEffective(offer)]));
  const moves: { retailer: string; text: string }[] = [];
  for (const link of after) {
    const was = old.get(link.retailerId);
    const now = inputEffective(link);
    const retailer = names.get(link.retailerId) ?? `retailer ${link.retailerId}`;
    if (was !== undefined && was !== now) moves.push({ retailer, text: `price at ${retailer} ${formatPence(was)} -> ${formatPence(now)}` });
  }
  return moves;
}

/** "repeat price at Amazon none -> £11.39" for each kept offer whose repeat-delivery price moved. */
function repeatPriceMoves(
  before: readonly StoredOffer[],
  after: readonly OfferInput[],
  names: Map<number, string>,
): { retailer: string; text: string }[] {
  const old = new Map(before.map((offer) => [offer.retailer_id, offer.repeat_price_pence]));
  const text = (pence: Pence | null) => (pence === null ? "none" : formatPence(pence));
  const moves: { retailer: string; text: string }[] = [];
  for (const link of after) {
    const was = old.get(link.retailerId);
    const retailer = names.get(link.retailerId) ?? `retailer ${link.retailerId}`;
    if (was !== undefined && was !== link.repeatPrice) moves.push({ retailer, text: `repeat price at ${retailer} ${text(was)} -> ${text(link.repeatPrice)}` });
  }
  return moves;
}

/** Where a new product came from, when not typed in by the admin (an import). */
export interface ProductOrigin {
  gtin: string | null;
  mpn: string | null;
  /** The offers' price source, e.g. feed:sample. */
  source: string;
  /** Mandatory delivery per retailer id, when the source states it. */
  deliveryPence: ReadonlyMap<number, Pence | null>;
}

/**
 * Makes the product's offers exactly `links`: updates offers of retailers it already had, adds
 * new ones, removes the rest. A new offer, or an offer whose effective price (the manual price
 * under override, else the listed price) changes, appends a price_history point at `now`. An
 * offer the admin adds or changes counts as confirmed now (not stale, source manual) unless an
 * import's `origin` names its source.
 */
function writeOffers(db: Db, productId: number, links: readonly OfferInput[], now: string, origin?: ProductOrigin): void {
  const existing = new Map(storedOffers(db, productId).map((offer) => [offer.retailer_id, offer]));
  const insert = statement(
    db,
    `INSERT INTO product_prices (product_id, retailer_id, price_pence, original_price_pence, url, in_stock, free_delivery, price_override,
       manual_price_pence, repeat_price_pence, repeat_terms, updated_at, last_checked_at, stale, source, delivery_pence)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)`,
  );
  const update = statement(
    db,
    `UPDATE product_prices SET price_pence = ?, original_price_pence = ?, url = ?, in_stock = ?, free_delivery = ?, price_override = ?,
       manual_price_pence = ?, repeat_price_pence = ?, repeat_terms = ?, updated_at = ?, last_checked_at = ?, stale = 0, source = 'manual' WHERE id = ?`,
  );
  const history = statement(db, "INSERT INTO price_history (product_id, retailer_id, price_pence, recorded_at) VALUES (?, ?, ?, ?)");
  for (const link of links) {
    const values = [
      link.price,
      link.originalPrice,
      link.affiliateUrl,
      link.inStock ? 1 : 0,
      link.freeDelivery ? 1 : 0,
      link.priceOverride ? 1 : 0,
      link.manualPrice,
      link.repeatPrice,
      link.repeatTerms,
    ] as const;
    const offer = existing.get(link.retailerId);
    existing.delete(link.retailerId);
    if (!offer) {
      insert.run(productId, link.retailerId, ...values, now, now, origin?.source ?? "manual", origin?.deliveryPence.get(link.retailerId) ?? null);
      history.run(productId, link.retailerId, inputEffective(link), now);
      continue;
    }
    const stored = [
      offer.price_pence,
      offer.original_price_pence,
      offer.url,
      offer.in_stock,
      offer.free_delivery,
      offer.price_override,
      offer.manual_price_pence,
      offer.repeat_price_pence,
      offer.repeat_terms,
    ] as const;
    // An unchanged offer keeps its updated_at: that is when its price was last set.
    if (stored.every((value, index) => value === values[index])) continue;
    update.run(...values, now, now, offer.id);
    if (storedEffective(offer) !== inputEffective(link)) history.run(productId, link.retailerId, inputEffective(link), now);
  }
  const remove = statement(db, "DELETE FROM product_prices WHERE id = ?");
  for (const offer of existing.values()) remove.run(offer.id);
}

/** The stored feeding guide as the input has it (null when none or unreadable). */
function storedGuideRows(json: string | null): { rows: { weightKg: number; gramsPerDay: number }[] } | null {
  const guide = parseFeedingGuide(json);
  return guide === null ? null : { rows: [...guide.rows] };
}

/** A feeding guide as products.feeding_guide stores it: JSON of its rows, or null. */
const storedGuide = (guide: FeedingGuide | null): string | null => (guide === null ? null : JSON.stringify({ rows: guide.rows }));

export function createProduct(db: Db, input: ProductInput, now = new Date(), origin?: ProductOrigin): Written<{ id: number; slug: string }> {
  return catalogueTransaction(db, () => {
    if (input.isFeatured && isPrescriptionOnly(input.legalCategory)) throw new WriteRefused(400, featuredPrescriptionMessage);
    assertCategory(db, input.categoryId);
    assertRetailers(db, input.retailerLinks);
    assertProductSlugFree(db, input.slug, null);
    const at = now.toISOString();
    // A new product sorts last under Best Selling until its rank is set.
    const { id } = statement(
      db,
      `INSERT INTO products (name, slug, description, image, brand, category_id, rating, review_count, is_featured, rank, created_at, gtin, mpn, family_key,
         kcal_per_kg, feeding_guide, legal_category)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT coalesce(max(rank), 0) + 1 FROM products), ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    ).get(
      input.name,
      input.slug,
      input.description,
      input.image,
      input.brand,
      input.categoryId,
      input.rating,
      input.reviewCount,
      input.isFeatured ? 1 : 0,
      at,
      origin?.gtin ?? null,
      origin?.mpn ?? null,
      input.familyKey ?? null,
      input.kcalPerKg ?? null,
      storedGuide(input.feedingGuide ?? null),
      input.legalCategory ?? "none",
    ) as { id: number };
    writeOffers(db, id, input.retailerLinks, at, origin);
    recomputeBestPrices(db, [id], now);
    recordAudit(
      db,
      {
        action: "create",
        entity: "product",
        entityId: id,
        summary: `Created product "${input.name}" with ${plural(input.retailerLinks.length, "offer")}${origin ? ` (imported from ${origin.source})` : ""}`,
        after: auditView(input, input.retailerLinks, retailerNames(db)),
      },
      now,
    );
    return { value: { id, slug: input.slug }, change: { productIds: [id], categoryIds: [input.categoryId], siteWide: false } };
  });
}

export function updateProduct(db: Db, id: number, given: ProductInput, now = new Date()): Written<{ id: number; slug: string }> {
  return catalogueTransaction(db, () => {
    const before = productRow(db, id);
    if (!before) throw new WriteRefused(404, "Product not found");
    // A family, energy, feeding guide or legal category left out is kept.
    const input = {
      ...given,
      familyKey: given.familyKey === undefined ? before.family_key : given.familyKey,
      kcalPerKg: given.kcalPerKg === undefined ? before.kcal_per_kg : given.kcalPerKg,
      feedingGuide: given.feedingGuide === undefined ? storedGuideRows(before.feeding_guide) : given.feedingGuide,
      legalCategory: given.legalCategory === undefined ? before.legal_category : given.legalCategory,
    };
    // The input's own check sees only the category it was sent; a kept one is checked here.
    if (input.isFeatured && isPrescriptionOnly(input.legalCategory)) throw new WriteRefused(400, featuredPrescriptionMessage);
    assertCategory(db, input.categoryId);
    assertRetailers(db, input.retailerLinks);
    assertProductSlugFree(db, input.slug, id);
    const offersBefore = storedOffers(db, id);
    const names = retailerNames(db);
    const diff = changedFields(auditView(before, offersBefore, names), auditView(input, input.retailerLinks, names));
    if (diff.names.length === 0) return { value: { id, slug: input.slug }, change: noChange };

    const at = now.toISOString();
    statement(
      db,
      `UPDATE products SET name = ?, slug = ?, description = ?, image = ?, brand = ?, category_id = ?, rating = ?, review_count = ?,
         is_featured = ?, last_edited_at = ?, family_key = ?, kcal_per_kg = ?, feeding_guide = ?, legal_category = ? WHERE id = ?`,
    ).run(
      input.name,
      input.slug,
      input.description,
      input.image,
      input.brand,
      input.categoryId,
      input.rating,
      input.reviewCount,
      input.isFeatured ? 1 : 0,
      at,
      input.familyKey,
      input.kcalPerKg,
      storedGuide(input.feedingGuide ?? null),
      input.legalCategory,
      id,
    );
    writeOffers(db, id, input.retailerLinks, at);
    recomputeBestPrices(db, [id], now);
    // "price at Amazon £12.99 -> £11.49" stands for its offer; other changed fields are named.
    const moves = [...priceMoves(offersBefore, input.retailerLinks, names), ...repeatPriceMoves(offersBefore, input.retailerLinks, names)];
    const movedOffers = new Set(moves.map((move) => move.retailer));
    const details = [
      ...moves.map((move) => move.text),
      ...diff.names.filter((name) => !movedOffers.has(name.replace(/^offer at /, ""))),
    ].join(", ");
    recordAudit(
      db,
      { action: "update", entity: "product", entityId: id, summary: `Updated product "${input.name}": ${details}`, before: diff.before, after: diff.after },
      now,
    );
    // A changed slug moves the page: the old address must disappear, which only a full build does.
    const siteWide = before.slug !== input.slug;
    const categoryIds = [...new Set([before.category_id, input.categoryId])];
    // Leaving a family changes the size lists on the pages of the sizes left behind.
    const leftBehind =
      before.family_key !== null && before.family_key !== input.familyKey
        ? (statement(db, "SELECT id FROM products WHERE family_key = ? ORDER BY id").all(before.family_key) as { id: number }[]).map((row) => row.id)
        : [];
    return { value: { id, slug: input.slug }, change: { productIds: [id, ...leftBehind], categoryIds, siteWide } };
  });
}

export function deleteProduct(db: Db, id: number, now = new Date()): Written<null> {
  return catalogueTransaction(db, () => {
    const before = productRow(db, id);
    if (!before) throw new WriteRefused(404, "Product not found");
    // Offers, history, favourites, alerts and views go with it (ON DELETE CASCADE).
    statement(db, "DELETE FROM products WHERE id = ?").run(id);
    recordAudit(db, { action: "delete", entity: "product", entityId: id, summary: `Deleted product "${before.name}"` }, now);
    // Its page must disappear: a full build.
    return { value: null, change: { productIds: [id], categoryIds: [before.category_id], siteWide: true } };
  });
}

/**
 * A feed's photos for products that have none of their own: a product whose image is empty or its
 * drawn packshot takes the feed's image (http(s) only); an image set by hand is never replaced.
 * One audit entry for the batch.
 */
export function adoptFeedImages(db: Db, images: ReadonlyMap<number, string>, now = new Date()): Written<number> {
  return catalogueTransaction(db, () => {
    const adopt = statement(
      db,
      "UPDATE products SET image = ? WHERE id = ? AND (trim(image) = '' OR image = '/api/packshot/' || slug || '.svg') RETURNING category_id",
    );
    const productIds: number[] = [];
    const categoryIds = new Set<number>();
    for (const [productId, image] of images) {
      if (!/^https?:\/\/\S+$/i.test(image)) continue;
      const row = adopt.get(image, productId) as { category_id: number } | undefined;
      if (!row) continue;
      productIds.push(productId);
      categoryIds.add(row.category_id);
    }
    if (productIds.length === 0) return { value: 0, change: noChange };
    recordAudit(db, { action: "update", entity: "product", entityId: productIds.length === 1 ? productIds[0]! : null, summary: `Took the feed's image for ${plural(productIds.length, "product")} without one` }, now);
    return { value: productIds.length, change: { productIds: productIds.sort((a, b) => a - b), categoryIds: [...categoryIds].sort((a, b) => a - b), siteWide: false } };
  });
}

/**
 * The legal categories feeds state for products they matched: a product whose category is
 * "none" takes the feed's (so a feed can say a product is a prescription-only medicine); a
 * category already set, by hand or by an earlier feed, is never replaced by a feed. A product
 * that becomes prescription-only stops being featured and loses its was price. One audit entry
 * for the batch.
 */
export function adoptFeedLegalCategories(db: Db, categories: ReadonlyMap<number, LegalCategory>, now = new Date()): Written<number> {
  return catalogueTransaction(db, () => {
    const adopt = statement(db, "UPDATE products SET legal_category = ? WHERE id = ? AND legal_category = 'none' RETURNING category_id");
    const unfeature = statement(db, "UPDATE products SET is_featured = 0 WHERE id = ?");
    const productIds: number[] = [];
    const categoryIds = new Set<number>();
    for (const [productId, legalCategory] of categories) {
      if (legalCategory === "none") continue;
      const row = adopt.get(legalCategory, productId) as { category_id: number } | undefined;
      if (!row) continue;
      if (isPrescriptionOnly(legalCategory)) unfeature.run(productId);
      productIds.push(productId);
      categoryIds.add(row.category_id);
    }
    if (productIds.length === 0) return { value: 0, change: noChange };
    productIds.sort((a, b) => a - b);
    recomputeBestPrices(db, productIds, now);
    recordAudit(
      db,
      { action: "update", entity: "product", entityId: productIds.length === 1 ? productIds[0]! : null, summary: `Took the feed's legal category for ${plural(productIds.length, "product")} without one` },
      now,
    );
    return { value: productIds.length, change: { productIds, categoryIds: [...categoryIds].sort((a, b) => a - b), siteWide: false } };
  });
}

// ---------------------------------------------------------------------------------------------
// Categories

interface StoredCategory {
  id: number;
  name: string;
  slug: string;
  icon: string;
  description: string;
}

function storedCategory(db: Db, id: number): StoredCategory | undefined {
  return statement(db, "SELECT id, name, slug, icon, description FROM categories WHERE id = ?").get(id) as StoredCategory | undefined;
}

function assertCategorySlugFree(db: Db, slug: string, exceptId: number | null): void {
  const row = statement(db, "SELECT id FROM categories WHERE slug = ?").get(slug) as { id: number } | undefined;
  if (row && row.id !== exceptId) throw new WriteRefused(409, `A category with the slug "${slug}" already exists`);
}

export function createCategory(db: Db, input: CategoryInput, now = new Date()): Written<StoredCategory> {
  return catalogueTransaction(db, () => {
    assertCategorySlugFree(db, input.slug, null);
    const row = statement(db, "INSERT INTO categories (name, slug, icon, description) VALUES (?, ?, ?, ?) RETURNING id, name, slug, icon, description").get(
      input.name,
      input.slug,
      input.icon,
      input.description,
    ) as StoredCategory;
    recordAudit(db, { action: "create", entity: "category", entityId: row.id, summary: `Created category "${row.name}"`, after: { ...input } }, now);
    return { value: row, change: siteWideChange };
  });
}

export function updateCategory(db: Db, id: number, input: CategoryInput, now = new Date()): Written<StoredCategory> {
  return catalogueTransaction(db, () => {
    const before = storedCategory(db, id);
    if (!before) throw new WriteRefused(404, "Category not found");
    assertCategorySlugFree(db, input.slug, id);
    const { id: _, ...fields } = before;
    const diff = changedFields(fields, { ...input });
    const after = { id, ...input };
    if (diff.names.length === 0) return { value: after, change: noChange };
    statement(db, "UPDATE categories SET name = ?, slug = ?, icon = ?, description = ? WHERE id = ?").run(
      input.name,
      input.slug,
      input.icon,
      input.description,
      id,
    );
    recordAudit(
      db,
      { action: "update", entity: "category", entityId: id, summary: `Updated category "${input.name}": ${diff.names.join(", ")}`, before: diff.before, after: diff.after },
      now,
    );
    return { value: after, change: siteWideChange };
  });
}

export function deleteCategory(db: Db, id: number, now = new Date()): Written<null> {
  return catalogueTransaction(db, () => {
    const before = storedCategory(db, id);
    if (!before) throw new WriteRefused(404, "Category not found");
    const { n } = statement(db, "SELECT count(*) AS n FROM products WHERE category_id = ?").get(id) as { n: number };
    if (n > 0) throw new WriteRefused(409, `Category "${before.name}" still has ${plural(n, "product")}; move or delete them first`);
    statement(db, "DELETE FROM categories WHERE id = ?").run(id);
    recordAudit(db, { action: "delete", entity: "category", entityId: id, summary: `Deleted category "${before.name}"` }, now);
    return { value: null, change: siteWideChange };
  });
}

// ---------------------------------------------------------------------------------------------
// Retailers

interface StoredRetailer {
  id: number;
  key: string;
  name: string;
  logo: string;
  website: string;
  description: string;
  comparesPrices: boolean;
  /** The standard delivery rule, in pence. */
  deliveryPence: Pence | null;
  freeDeliveryFromPence: Pence | null;
  /** Hosts the site owner added for its offer URLs. */
  hosts: string[];
  feedNames: string[];
}

function storedRetailer(db: Db, id: number): StoredRetailer | undefined {
  const row = statement(
    db,
    `SELECT id, key, name, logo, website, description, compares_prices, delivery_pence AS deliveryPence,
       free_delivery_from_pence AS freeDeliveryFromPence, hosts, feed_names
     FROM retailers WHERE id = ?`,
  ).get(id) as (Omit<StoredRetailer, "comparesPrices" | "hosts" | "feedNames"> & { compares_prices: number; hosts: string; feed_names: string }) | undefined;
  if (!row) return undefined;
  const { compares_prices, hosts, feed_names, ...rest } = row;
  return { ...rest, comparesPrices: compares_prices === 1, hosts: storedTextList(hosts), feedNames: storedTextList(feed_names) };
}

/**
 * The retailer as stored after a write of `input`; a delivery part, host list or feed names the
 * input leaves out are taken from `kept` (a client that does not know them cannot wipe them).
 */
function retailerAfter(id: number, key: string, input: RetailerInput, kept: Pick<StoredRetailer, "deliveryPence" | "freeDeliveryFromPence" | "hosts" | "feedNames">): StoredRetailer {
  return {
    id,
    key,
    name: input.name,
    logo: input.logo,
    website: input.website,
    description: input.description,
    comparesPrices: input.comparesPrices,
    deliveryPence: input.deliveryCharge === undefined ? kept.deliveryPence : input.deliveryCharge,
    freeDeliveryFromPence: input.freeDeliveryFrom === undefined ? kept.freeDeliveryFromPence : input.freeDeliveryFrom,
    hosts: input.hosts ?? kept.hosts,
    feedNames: input.feedNames ?? kept.feedNames,
  };
}

/** Products with an offer at the retailer: their totals to the door follow its delivery rule. */
function productsSoldAt(db: Db, retailerId: number): number[] {
  return (statement(db, "SELECT DISTINCT product_id FROM product_prices WHERE retailer_id = ? ORDER BY product_id").all(retailerId) as {
    product_id: number;
  }[]).map((row) => row.product_id);
}

function assertRetailerFree(db: Db, key: string, name: string, exceptId: number | null): void {
  const byKey = statement(db, "SELECT id FROM retailers WHERE key = ?").get(key) as { id: number } | undefined;
  if (byKey && byKey.id !== exceptId) throw new WriteRefused(409, `A retailer with the key "${key}" already exists`);
  const byName = statement(db, "SELECT id FROM retailers WHERE name = ? COLLATE NOCASE").get(name) as { id: number } | undefined;
  if (byName && byName.id !== exceptId) throw new WriteRefused(409, `A retailer named "${name}" already exists`);
}

function offerCount(db: Db, retailerId: number): number {
  return (statement(db, "SELECT count(*) AS n FROM product_prices WHERE retailer_id = ?").get(retailerId) as { n: number }).n;
}

export function createRetailer(db: Db, input: RetailerInput, now = new Date()): Written<StoredRetailer> {
  return catalogueTransaction(db, () => {
    const key = input.key ?? slugify(input.name);
    if (!key) throw new WriteRefused(400, "name must contain a letter or digit (the retailer's key is made from it)");
    assertRetailerFree(db, key, input.name, null);
    const deliveryPence = input.deliveryCharge ?? null;
    const freeDeliveryFromPence = input.freeDeliveryFrom ?? null;
    const hosts = input.hosts ?? [];
    const feedNames = input.feedNames ?? [];
    const { id } = statement(
      db,
      `INSERT INTO retailers (key, name, logo, website, description, compares_prices, delivery_pence, free_delivery_from_pence, hosts, feed_names)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    ).get(
      key,
      input.name,
      input.logo,
      input.website,
      input.description,
      input.comparesPrices ? 1 : 0,
      deliveryPence,
      freeDeliveryFromPence,
      JSON.stringify(hosts),
      JSON.stringify(feedNames),
    ) as {
      id: number;
    };
    const value = retailerAfter(id, key, input, { deliveryPence, freeDeliveryFromPence, hosts, feedNames });
    recordAudit(db, { action: "create", entity: "retailer", entityId: id, summary: `Created retailer "${input.name}"`, after: { ...value } }, now);
    return { value, change: siteWideChange };
  });
}

export function updateRetailer(db: Db, id: number, input: RetailerInput, now = new Date()): Written<StoredRetailer> {
  return catalogueTransaction(db, () => {
    const before = storedRetailer(db, id);
    if (!before) throw new WriteRefused(404, "Retailer not found");
    // The key is the retailer's identity for affiliate rules and feeds: kept unless given.
    const key = input.key ?? before.key;
    assertRetailerFree(db, key, input.name, id);
    if (before.comparesPrices && !input.comparesPrices) {
      const offers = offerCount(db, id);
      if (offers > 0) {
        throw new WriteRefused(409, `${before.name} still has ${plural(offers, "offer")}; remove them before turning off price comparison`);
      }
    }
    const after = retailerAfter(id, key, input, before);
    const diff = changedFields({ ...before }, { ...after });
    if (diff.names.length === 0) return { value: after, change: noChange };
    statement(
      db,
      `UPDATE retailers SET key = ?, name = ?, logo = ?, website = ?, description = ?, compares_prices = ?, delivery_pence = ?,
         free_delivery_from_pence = ?, hosts = ?, feed_names = ? WHERE id = ?`,
    ).run(
      key,
      input.name,
      input.logo,
      input.website,
      input.description,
      input.comparesPrices ? 1 : 0,
      after.deliveryPence,
      after.freeDeliveryFromPence,
      JSON.stringify(after.hosts),
      JSON.stringify(after.feedNames),
      id,
    );
    // A new delivery rule moves the totals to the door, and so the best prices, of everything sold here.
    const ruleChanged = before.deliveryPence !== after.deliveryPence || before.freeDeliveryFromPence !== after.freeDeliveryFromPence;
    const repriced = ruleChanged ? productsSoldAt(db, id) : [];
    if (repriced.length > 0) recomputeBestPrices(db, repriced, now);
    recordAudit(
      db,
      { action: "update", entity: "retailer", entityId: id, summary: `Updated retailer "${input.name}": ${diff.names.join(", ")}`, before: diff.before, after: diff.after },
      now,
    );
    return { value: after, change: { ...siteWideChange, productIds: repriced } };
  });
}

export function deleteRetailer(db: Db, id: number, now = new Date()): Written<null> {
  return catalogueTransaction(db, () => {
    const before = storedRetailer(db, id);
    if (!before) throw new WriteRefused(404, "Retailer not found");
    const offers = offerCount(db, id);
    if (offers > 0) throw new WriteRefused(409, `Retailer "${before.name}" still has ${plural(offers, "offer")}; remove them first`);
    statement(db, "DELETE FROM retailers WHERE id = ?").run(id);
    recordAudit(db, { action: "delete", entity: "retailer", entityId: id, summary: `Deleted retailer "${before.name}"` }, now);
    return { value: null, change: siteWideChange };
  });
}

// ---------------------------------------------------------------------------------------------
// Vouchers

interface StoredVoucher extends VoucherInput {
  id: number;
}

function storedVoucher(db: Db, id: number): StoredVoucher | undefined {
  return statement(db, "SELECT id, code, description, retailer, url, discount, expiry_date AS expiryDate FROM vouchers WHERE id = ?").get(id) as
    | StoredVoucher
    | undefined;
}

function assertVoucherFree(db: Db, input: VoucherInput, exceptId: number | null): void {
  const row = statement(db, "SELECT id FROM vouchers WHERE retailer = ? AND code = ?").get(input.retailer, input.code) as { id: number } | undefined;
  if (row && row.id !== exceptId) throw new WriteRefused(409, `${input.retailer} already has the voucher code "${input.code}"`);
}

export function createVoucher(db: Db, input: VoucherInput, now = new Date()): Written<StoredVoucher> {
  return catalogueTransaction(db, () => {
    assertVoucherFree(db, input, null);
    const { id } = statement(
      db,
      "INSERT INTO vouchers (code, description, retailer, url, discount, expiry_date) VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
    ).get(input.code, input.description, input.retailer, input.url, input.discount, input.expiryDate) as { id: number };
    recordAudit(db, { action: "create", entity: "voucher", entityId: id, summary: `Created voucher ${input.code} (${input.retailer})`, after: { ...input } }, now);
    return { value: { id, ...input }, change: siteWideChange };
  });
}

export function updateVoucher(db: Db, id: number, input: VoucherInput, now = new Date()): Written<StoredVoucher> {
  return catalogueTransaction(db, () => {
    const before = storedVoucher(db, id);
    if (!before) throw new WriteRefused(404, "Voucher not found");
    assertVoucherFree(db, input, id);
    const diff = changedFields({ ...before }, { id, ...input });
    if (diff.names.length === 0) return { value: { id, ...input }, change: noChange };
    statement(db, "UPDATE vouchers SET code = ?, description = ?, retailer = ?, url = ?, discount = ?, expiry_date = ? WHERE id = ?").run(
      input.code,
      input.description,
      input.retailer,
      input.url,
      input.discount,
      input.expiryDate,
      id,
    );
    recordAudit(
      db,
      { action: "update", entity: "voucher", entityId: id, summary: `Updated voucher ${input.code} (${input.retailer}): ${diff.names.join(", ")}`, before: diff.before, after: diff.after },
      now,
    );
    return { value: { id, ...input }, change: siteWideChange };
  });
}

export function deleteVoucher(db: Db, id: number, now = new Date()): Written<null> {
  return catalogueTransaction(db, () => {
    const before = storedVoucher(db, id);
    if (!before) throw new WriteRefused(404, "Voucher not found");
    statement(db, "DELETE FROM vouchers WHERE id = ?").run(id);
    recordAudit(db, { action: "delete", entity: "voucher", entityId: id, summary: `Deleted voucher ${before.code} (${before.retailer})` }, now);
    return { value: null, change: siteWideChange };
  });
}

// ---------------------------------------------------------------------------------------------
// Affiliate IDs

/** Stores all five IDs; every outbound link carries them, so every page is rebuilt. */
export function setAffiliateIds(db: Db, ids: AffiliateIds, now = new Date()): Written<AffiliateIds> {
  return catalogueTransaction(db, () => {
    const rows = statement(db, "SELECT key, value FROM affiliate_settings").all() as { key: string; value: string }[];
    const stored = new Map(rows.map((row) => [row.key, row.value]));
    const before = Object.fromEntries(affiliateKeys.map((key) => [key, stored.get(key) ?? ""]));
    const diff = changedFields(before, { ...ids });
    if (diff.names.length === 0) return { value: ids, change: noChange };
    const upsert = statement(
      db,
      "INSERT INTO affiliate_settings (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
    );
    for (const key of affiliateKeys) upsert.run(key, ids[key], now.toISOString());
    recordAudit(
      db,
      { action: "update", entity: "affiliate-ids", entityId: null, summary: `Updated affiliate IDs: ${diff.names.join(", ")}`, before: diff.before, after: diff.after },
      now,
    );
    return { value: ids, change: siteWideChange };
  });
}
