/** Writes of products with their offers, and what imports adopt from feeds (images, legal categories). */
import type { Db } from "../client.ts";
import { changedFields, recordAudit } from "../audit.ts";
import { recomputeBestPrices } from "../offers.ts";
import { detailColumnsSql, productRow, type ProductOwnRow } from "../product-rows.ts";
import { detailsFromRow, detailsOf, productDetailList, type ProductDetailValues } from "../../domain/product-details.ts";
import { statement } from "../statements.ts";
import type { ProductPriceRow } from "../rows.ts";
import { storedTextList } from "../catalogue.ts";
import type { OfferInput, ProductInput } from "../../domain/catalogue-input.ts";
import { featuredPrescriptionMessage } from "../../domain/catalogue-input.ts";
import { formatPence, type Pence } from "../../domain/money.ts";
import { type FeedingGuide } from "../../domain/feeding.ts";
import { parseFeedingGuide } from "../../domain/feeding.schema.ts";
import { effectivePence } from "../../domain/offers.ts";
import { offerUrlProblem, retailerHosts } from "../../domain/retailers.ts";
import { isPrescriptionOnly, type LegalCategory } from "../../domain/legal-category.ts";
import { catalogueTransaction, noChange, plural, WriteRefused, type Written } from "./transaction.ts";

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
  | "multi_buy"
  | "member_price_pence"
  | "member_scheme"
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
       repeat_price_pence, repeat_terms, multi_buy, member_price_pence, member_scheme
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
          ...detailsFromRow(product),
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
          ...detailsOf(product),
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
          multiBuy: offer.multi_buy,
          memberPrice: offer.member_price_pence,
          memberScheme: offer.member_scheme,
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
          multiBuy: offer.multiBuy,
          memberPrice: offer.memberPrice,
          memberScheme: offer.memberScheme,
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
       manual_price_pence, repeat_price_pence, repeat_terms, multi_buy, member_price_pence, member_scheme, updated_at, last_checked_at, stale, source, delivery_pence)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)`,
  );
  const update = statement(
    db,
    `UPDATE product_prices SET price_pence = ?, original_price_pence = ?, url = ?, in_stock = ?, free_delivery = ?, price_override = ?,
       manual_price_pence = ?, repeat_price_pence = ?, repeat_terms = ?, multi_buy = ?, member_price_pence = ?, member_scheme = ?, updated_at = ?, last_checked_at = ?, stale = 0, source = 'manual' WHERE id = ?`,
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
      link.multiBuy,
      link.memberPrice,
      link.memberScheme,
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
      offer.multi_buy,
      offer.member_price_pence,
      offer.member_scheme,
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

/** The details' values in the order of their columns in the statements below. */
const detailValues = (input: ProductDetailValues): string[] => productDetailList.map((detail) => input[detail.key]);
const detailMarks = productDetailList.map(() => "?").join(", ");

// A new product sorts last under Best Selling until its rank is set.
const insertProductSql = `INSERT INTO products (name, slug, ${detailColumnsSql()}, image, brand, category_id, rating, review_count, is_featured, rank, created_at,
    gtin, mpn, family_key, kcal_per_kg, feeding_guide, legal_category)
  VALUES (?, ?, ${detailMarks}, ?, ?, ?, ?, ?, ?, (SELECT coalesce(max(rank), 0) + 1 FROM products), ?, ?, ?, ?, ?, ?, ?) RETURNING id`;

const updateProductSql = `UPDATE products SET name = ?, slug = ?, ${productDetailList.map((detail) => `${detail.column} = ?`).join(", ")}, image = ?, brand = ?,
    category_id = ?, rating = ?, review_count = ?, is_featured = ?, last_edited_at = ?, family_key = ?, kcal_per_kg = ?, feeding_guide = ?, legal_category = ?
  WHERE id = ?`;

export function createProduct(db: Db, input: ProductInput, now = new Date(), origin?: ProductOrigin): Written<{ id: number; slug: string }> {
  return catalogueTransaction(db, () => {
    if (input.isFeatured && isPrescriptionOnly(input.legalCategory)) throw new WriteRefused(400, featuredPrescriptionMessage);
    assertCategory(db, input.categoryId);
    assertRetailers(db, input.retailerLinks);
    assertProductSlugFree(db, input.slug, null);
    const at = now.toISOString();
    const { id } = statement(
      db,
      insertProductSql,
    ).get(
      input.name,
      input.slug,
      ...detailValues(input),
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
      updateProductSql,
    ).run(
      input.name,
      input.slug,
      ...detailValues(input),
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
