/**
 * Writes the generated demo catalogue into the database, idempotently: run it again and every
 * surviving product keeps its id (so favourites, price alerts and recently viewed entries stay
 * attached), while demo products no longer in the catalogue are removed with their visitor data.
 * What it writes is marked as demo (products.demo, offers with source 'demo', vouchers.demo), and
 * a re-seed replaces only that: the owner's products, offers and vouchers are left as they are.
 */
import { foodSpeciesOf } from "../domain/food.ts";
import { dietsIn } from "../domain/food-facts.ts";
import type { Db } from "./client.ts";
import { bumpCatalogueRevision } from "./catalogue-revision.ts";
import { recomputeBestPrices } from "./offers.ts";
import { defaultProductCount, generateCatalogue, type GeneratedCatalogue } from "../seed/generate.ts";

export interface SeedCounts {
  products: number;
  offers: number;
  historyPoints: number;
}

/**
 * Products go in as ONE statement reading a JSON array. Every statement that writes through
 * the FTS triggers makes FTS5 flush its pending index data (a statement savepoint), so
 * row-by-row upserts cost a flush per product; one statement flushes once (50,000 products:
 * about 2 s instead of 6-8 s).
 */
const upsertProductsSql = `
  INSERT INTO products (name, slug, description, image, brand, category_id, rating, review_count, is_featured, rank, family_key, kcal_per_kg, feeding_guide, special_diets, demo)
  SELECT value ->> 'name', value ->> 'slug', value ->> 'description', value ->> 'image', value ->> 'brand',
         value ->> 'categoryId', value ->> 'rating', value ->> 'reviewCount', value ->> 'isFeatured', value ->> 'rank', value ->> 'familyKey',
         value ->> 'kcalPerKg', value ->> 'feedingGuide', value ->> 'specialDiets', 1
  FROM json_each(?) WHERE value ->> 'slug' NOT IN (SELECT slug FROM products WHERE demo = 0)
  ON CONFLICT(slug) DO UPDATE SET
    name = excluded.name, description = excluded.description, image = excluded.image,
    brand = excluded.brand, category_id = excluded.category_id, rating = excluded.rating,
    review_count = excluded.review_count, is_featured = excluded.is_featured, rank = excluded.rank, family_key = excluded.family_key,
    kcal_per_kg = excluded.kcal_per_kg, feeding_guide = excluded.feeding_guide, special_diets = excluded.special_diets`;

/** JSON array parameter for `IN (SELECT value FROM json_each(?))`: one bind for any count. */
const jsonList = (values: readonly string[]) => JSON.stringify(values);

function idFor(ids: ReadonlyMap<string, number>, key: string, what: string): number {
  const id = ids.get(key);
  if (id === undefined) throw new Error(`Catalogue refers to unknown ${what} "${key}"`);
  return id;
}

/** Upserting by slug would silently merge duplicates, so they are refused up front. */
function assertUniqueSlugs(catalogue: GeneratedCatalogue): void {
  const seen = new Set<string>();
  for (const { slug } of catalogue.products) {
    if (seen.has(slug)) throw new Error(`Catalogue has the product slug "${slug}" twice`);
    seen.add(slug);
  }
}

/**
 * Replaces the demo catalogue in one transaction (all or nothing):
 * - categories and retailers are upserted by slug and key; those missing from the catalogue are
 *   deleted unless a product is in the category or an offer is at the retailer;
 * - demo products are upserted by slug; a generated product whose slug one of the owner's
 *   products has is left out (with its offers). A demo product missing from the catalogue is
 *   deleted (cascading its visitor data), unless it has an offer of the owner's: then it becomes
 *   the owner's, as clearing the demo does;
 * - demo offers with their price history, and demo vouchers, are replaced; a generated offer at
 *   a retailer where the owner has an offer for that product, or a voucher code the owner has at
 *   that retailer, is left out;
 * - affiliate IDs are only filled in where missing, so an admin's IDs survive.
 * Best prices are re-derived from the offers.
 */
export function seedCatalogue(db: Db, catalogue: GeneratedCatalogue): SeedCounts {
  assertUniqueSlugs(catalogue);
  const sqlite = db.$client;

  const upsertCategory = sqlite.prepare<[string, string, string], { id: number }>(
    `INSERT INTO categories (name, slug, icon) VALUES (?, ?, ?)
     ON CONFLICT(slug) DO UPDATE SET name = excluded.name, icon = excluded.icon
     RETURNING id`,
  );
  // By key: an admin's rename of a seeded retailer is overwritten, its id (and offers) kept.
  const upsertRetailer = sqlite.prepare<[string, string, string, string, number, number | null, number | null], { id: number }>(
    `INSERT INTO retailers (key, name, logo, website, compares_prices, delivery_pence, free_delivery_from_pence) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(key) DO UPDATE SET name = excluded.name, logo = excluded.logo, website = excluded.website,
       compares_prices = excluded.compares_prices, delivery_pence = excluded.delivery_pence,
       free_delivery_from_pence = excluded.free_delivery_from_pence
     RETURNING id`,
  );
  const insertOffer = sqlite.prepare<
    [number, number, number, number | null, string, number, number, number | null, string, string, number | null, string | null, string | null, number | null, string | null]
  >(
    `INSERT INTO product_prices (product_id, retailer_id, price_pence, original_price_pence, url, in_stock, free_delivery, delivery_pence,
       updated_at, last_checked_at, repeat_price_pence, repeat_terms, multi_buy, member_price_pence, member_scheme, source)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'demo')`,
  );
  const insertHistory = sqlite.prepare<[number, number, number, string]>(
    "INSERT INTO price_history (product_id, retailer_id, price_pence, recorded_at) VALUES (?, ?, ?, ?)",
  );
  const insertVoucher = sqlite.prepare<[string, string, string, string, string, string, number]>(
    `INSERT INTO vouchers (code, description, retailer, url, discount, expiry_date, uses, demo)
     VALUES (?, ?, ?, ?, ?, ?, ?, 1) ON CONFLICT(retailer, code) DO NOTHING`,
  );
  const insertAffiliateId = sqlite.prepare<[string, string]>(
    "INSERT INTO affiliate_settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO NOTHING",
  );

  const write = sqlite.transaction((): SeedCounts => {
    const categoryIds = new Map<string, number>();
    for (const category of catalogue.categories) {
      const row = upsertCategory.get(category.name, category.slug, category.icon);
      if (row) categoryIds.set(category.slug, row.id);
    }
    const retailerIds = new Map<string, number>();
    for (const retailer of catalogue.retailers) {
      const row = upsertRetailer.get(
        retailer.key,
        retailer.name,
        retailer.logo,
        retailer.website,
        retailer.comparesPrices ? 1 : 0,
        retailer.delivery.standardPence,
        retailer.delivery.freeFromPence,
      );
      if (row) retailerIds.set(retailer.name, row.id);
    }

    // Demo products that leave the catalogue go first (their favourites, alerts and views
    // cascade), but one the owner has given an offer becomes the owner's.
    const slugs = jsonList(catalogue.products.map((product) => product.slug));
    sqlite
      .prepare(
        `UPDATE products SET demo = 0 WHERE demo = 1 AND slug NOT IN (SELECT value FROM json_each(?))
           AND EXISTS (SELECT 1 FROM product_prices pp WHERE pp.product_id = products.id AND pp.source <> 'demo')`,
      )
      .run(slugs);
    sqlite.prepare("DELETE FROM products WHERE demo = 1 AND slug NOT IN (SELECT value FROM json_each(?))").run(slugs);
    // The demo offers and their history are replaced (with what a demo product still has at a
    // retailer it no longer has an offer at); the owner's offers and their history stay.
    sqlite.exec(`
      DELETE FROM price_history WHERE EXISTS (
          SELECT 1 FROM product_prices pp WHERE pp.product_id = price_history.product_id AND pp.retailer_id = price_history.retailer_id AND pp.source = 'demo')
        OR (product_id IN (SELECT id FROM products WHERE demo = 1) AND NOT EXISTS (
          SELECT 1 FROM product_prices pp WHERE pp.product_id = price_history.product_id AND pp.retailer_id = price_history.retailer_id));
      DELETE FROM product_prices WHERE source = 'demo';`);

    const productRows = catalogue.products.map((product) => ({
      name: product.name,
      slug: product.slug,
      description: product.description,
      image: product.image,
      brand: product.brand,
      categoryId: idFor(categoryIds, product.categorySlug, "category"),
      rating: product.rating,
      reviewCount: product.reviewCount,
      isFeatured: product.isFeatured ? 1 : 0,
      rank: product.rank,
      familyKey: product.familyKey,
      kcalPerKg: product.kcalPerKg,
      // Stored as JSON text (products.feeding_guide).
      feedingGuide: product.feedingGuide === null ? null : JSON.stringify(product.feedingGuide),
      // A food's special diets as its description claims them ("grain-free recipe"), as a feed import states them.
      specialDiets: foodSpeciesOf(product.categorySlug) === null ? "" : dietsIn(product.description).join(","),
    }));
    sqlite.prepare(upsertProductsSql).run(JSON.stringify(productRows));
    // The demo products are now exactly the catalogue's, less those whose slug the owner has.
    const productIds = new Map(
      (sqlite.prepare("SELECT slug, id FROM products WHERE demo = 1").raw().all() as [string, number][]).map(([slug, id]) => [slug, id]),
    );
    const demoProducts = catalogue.products.filter((product) => productIds.has(product.slug));
    // Retailers where the owner has an offer for a demo product: the generated offer there is left out.
    const ownerOffers = new Set(
      (
        sqlite
          .prepare("SELECT product_id, retailer_id FROM product_prices WHERE product_id IN (SELECT id FROM products WHERE demo = 1)")
          .raw()
          .all() as [number, number][]
      ).map(([productId, retailerId]) => `${productId}:${retailerId}`),
    );
    const isOwners = (productId: number, retailerId: number) => ownerOffers.has(`${productId}:${retailerId}`);

    // One table at a time (offers, then history) keeps each B-tree's pages hot.
    const seededAt = new Date().toISOString();
    let offers = 0;
    for (const product of demoProducts) {
      const productId = idFor(productIds, product.slug, "product");
      // An offer was last updated at its newest price point (history is in time order per retailer).
      const lastPointAt = new Map<string, string>();
      for (const point of product.history) lastPointAt.set(point.retailerName, point.recordedAt);
      for (const offer of product.offers) {
        const updatedAt = lastPointAt.get(offer.retailerName);
        if (updatedAt === undefined) throw new Error(`Offer of "${product.slug}" at ${offer.retailerName} has no price history`);
        const retailerId = idFor(retailerIds, offer.retailerName, "retailer");
        if (isOwners(productId, retailerId)) continue;
        insertOffer.run(
          productId,
          retailerId,
          offer.pricePence,
          offer.originalPricePence,
          offer.url,
          offer.inStock ? 1 : 0,
          offer.freeDelivery ? 1 : 0,
          offer.deliveryPence,
          updatedAt,
          // The catalogue's prices are as of seeding: confirmed now (the demo refresher confirms
          // them again before the freshness window ends).
          seededAt,
          offer.repeatPricePence,
          offer.repeatTerms,
          offer.multiBuy,
          offer.memberPricePence,
          offer.memberScheme,
        );
        offers += 1;
      }
    }

    let historyPoints = 0;
    for (const product of demoProducts) {
      const productId = idFor(productIds, product.slug, "product");
      for (const point of product.history) {
        const retailerId = idFor(retailerIds, point.retailerName, "retailer");
        if (isOwners(productId, retailerId)) continue;
        insertHistory.run(productId, retailerId, point.pricePence, point.recordedAt);
        historyPoints += 1;
      }
    }

    // Only categories no product is in, and retailers no offer is at, can go (the owner's stay).
    sqlite
      .prepare("DELETE FROM categories WHERE slug NOT IN (SELECT value FROM json_each(?)) AND id NOT IN (SELECT category_id FROM products)")
      .run(jsonList(catalogue.categories.map((category) => category.slug)));
    sqlite
      .prepare("DELETE FROM retailers WHERE key NOT IN (SELECT value FROM json_each(?)) AND id NOT IN (SELECT retailer_id FROM product_prices)")
      .run(jsonList(catalogue.retailers.map((retailer) => retailer.key)));

    sqlite.exec("DELETE FROM vouchers WHERE demo = 1");
    for (const voucher of catalogue.vouchers) {
      insertVoucher.run(voucher.code, voucher.description, voucher.retailer, voucher.url, voucher.discount, voucher.expiryDate, voucher.uses);
    }

    for (const [key, value] of Object.entries(catalogue.affiliateIds)) insertAffiliateId.run(key, value);

    recomputeBestPrices(db);
    bumpCatalogueRevision(db);
    return { products: demoProducts.length, offers, historyPoints };
  });

  return write();
}

/**
 * Seeds the default catalogue into an empty database (first server start) and reports whether
 * it did; a database that already has products is left alone.
 */
export function ensureSeeded(db: Db): boolean {
  const row = db.$client.prepare<unknown[], { has_products: number }>("SELECT EXISTS (SELECT 1 FROM products) AS has_products").get()!;
  if (row.has_products === 1) return false;
  seedCatalogue(db, generateCatalogue({ products: defaultProductCount, today: new Date() }));
  return true;
}
