import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { closeDb, migrateDb, openDb, type Db } from "./client.ts";
import { ensureSeeded, seedCatalogue } from "./seed.ts";
import { markStaleOffers, recordPriceChecks } from "./price-writer.ts";
import { generateCatalogue } from "../seed/generate.ts";
import { addOwnerCatalogue, ownerVisitor } from "./fixtures/owner-catalogue.ts";
import { createProduct } from "./catalogue-writer/products.ts";
import { productInput } from "../domain/catalogue-input.ts";

const today = new Date("2025-03-14T10:30:00.000Z");
const catalogue480 = generateCatalogue({ products: 480, today });

let dir: string;
let db: Db;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-seed-"));
  db = openDb(path.join(dir, "test.db"));
  await migrateDb(db);
});

afterEach(() => {
  closeDb(db);
  fs.rmSync(dir, { recursive: true, force: true });
});

const count = (sql: string, ...params: unknown[]) => (db.$client.prepare(sql).pluck().get(...params) as number) ?? 0;

function productId(slug: string): number {
  return db.$client.prepare("SELECT id FROM products WHERE slug = ?").pluck().get(slug) as number;
}

describe("seedCatalogue", () => {
  it("counts every seeded price as confirmed when seeded: none is stale until 24 hours later", () => {
    const before = Date.now();
    seedCatalogue(db, generateCatalogue({ products: 30, today: new Date() }));
    const checked = db.$client.prepare("SELECT DISTINCT last_checked_at FROM product_prices").pluck().all() as string[];
    expect(checked).toHaveLength(1);
    expect(Date.parse(checked[0]!)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(checked[0]!)).toBeLessThanOrEqual(Date.now());
    expect(markStaleOffers(db, new Date(Date.parse(checked[0]!) + 24 * 3600_000)).value.marked).toBe(0);
    expect(markStaleOffers(db, new Date(Date.parse(checked[0]!) + 24 * 3600_000 + 1)).value.marked).toBe(count("SELECT count(*) FROM product_prices"));
  });

  it("refuses a catalogue that names a product slug twice, writing nothing", () => {
    const small = generateCatalogue({ products: 5, today });
    const twice = { ...small, products: [...small.products, { ...small.products[0]!, name: "Another name" }] };
    expect(() => seedCatalogue(db, twice)).toThrow(`Catalogue has the product slug "${small.products[0]!.slug}" twice`);
    expect(count("SELECT count(*) FROM products")).toBe(0);
    expect(count("SELECT count(*) FROM retailers")).toBe(0);
  });

  it("writes each food's kcal per kg and its feeding guide as JSON; NULL for the rest", () => {
    seedCatalogue(db, catalogue480);
    const rows = db.$client.prepare("SELECT slug, kcal_per_kg AS kcal, feeding_guide AS guide FROM products").all() as { slug: string; kcal: number | null; guide: string | null }[];
    const bySlug = new Map(rows.map((row) => [row.slug, row]));
    for (const product of catalogue480.products) {
      const row = bySlug.get(product.slug)!;
      expect(row.kcal, product.slug).toBe(product.kcalPerKg);
      expect(row.guide === null ? null : JSON.parse(row.guide), product.slug).toEqual(product.feedingGuide);
    }
    expect(rows.filter((row) => row.guide !== null).length).toBeGreaterThan(50);
  });

  it("states each food's special diets as its description claims them; none for the rest", () => {
    seedCatalogue(db, catalogue480);
    const diets = new Map(
      (db.$client.prepare("SELECT slug, special_diets FROM products").raw().all() as [string, string][]).map(([slug, value]) => [slug, value]),
    );
    for (const product of catalogue480.products) {
      const food = product.categorySlug === "dog-food" || product.categorySlug === "cat-food";
      const claimed = [/grain[- ]?free/i.test(product.description) && "grain-free", /hypo-?allergenic/i.test(product.description) && "hypoallergenic", /sensitive/i.test(product.description) && "sensitive"].filter(Boolean);
      expect(diets.get(product.slug), product.slug).toBe(food ? claimed.join(",") : "");
    }
    // The demo has grain-free and hypoallergenic foods to compare.
    expect([...diets.values()].filter((value) => value.includes("grain-free")).length).toBeGreaterThan(5);
    expect([...diets.values()].filter((value) => value.includes("hypoallergenic")).length).toBeGreaterThan(0);
  });

  it("writes the whole catalogue and reports its counts", () => {
    const counts = seedCatalogue(db, catalogue480);
    const offers = catalogue480.products.reduce((sum, p) => sum + p.offers.length, 0);
    const points = catalogue480.products.reduce((sum, p) => sum + p.history.length, 0);
    expect(counts).toEqual({ products: 480, offers, historyPoints: points });
    expect(count("SELECT count(*) FROM products")).toBe(480);
    expect(count("SELECT count(*) FROM product_prices")).toBe(offers);
    expect(count("SELECT count(*) FROM price_history")).toBe(points);
    expect(count("SELECT count(*) FROM categories")).toBe(catalogue480.categories.length);
    expect(count("SELECT count(*) FROM retailers")).toBe(catalogue480.retailers.length);
    expect(count("SELECT count(*) FROM vouchers")).toBe(8);
    expect(count("SELECT count(*) FROM affiliate_settings")).toBe(5);
    expect(count("SELECT count(*) FROM products WHERE is_featured = 1")).toBe(12);
    expect(count("SELECT count(DISTINCT rank) FROM products WHERE rank BETWEEN 1 AND 480")).toBe(480);
  });

  it("derives every product's best price from its lowest in-stock total to the door", () => {
    seedCatalogue(db, catalogue480);
    // Total to the door, spelled out here independently of the code under test: the offer's own
    // delivery, else free when marked free, else free from the retailer's threshold, else its charge.
    const total = `(pp.price_pence + coalesce(CASE
        WHEN pp.delivery_pence IS NOT NULL THEN pp.delivery_pence
        WHEN pp.free_delivery = 1 THEN 0
        WHEN r.free_delivery_from_pence IS NOT NULL AND pp.price_pence >= r.free_delivery_from_pence THEN 0
        ELSE r.delivery_pence END, 0))`;
    const mismatches = count(`
      SELECT count(*) FROM products p
      WHERE p.best_price_pence IS NOT (
        SELECT min(${total}) FROM product_prices pp JOIN retailers r ON r.id = pp.retailer_id WHERE pp.product_id = p.id AND pp.in_stock = 1
      )`);
    expect(mismatches).toBe(0);
    const wrongRetailer = count(`
      SELECT count(*) FROM products p
      WHERE p.best_price_pence IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM product_prices pp JOIN retailers r ON r.id = pp.retailer_id
        WHERE pp.product_id = p.id AND pp.retailer_id = p.best_retailer_id AND pp.in_stock = 1 AND ${total} = p.best_price_pence
          AND ${total} - pp.price_pence IS p.best_delivery_pence
      )`);
    expect(wrongRetailer).toBe(0);
    // Delivery matters in the seed: many best prices include a charge, and some item prices lose on it.
    expect(count("SELECT count(*) FROM products WHERE best_delivery_pence > 0")).toBeGreaterThan(20);
    expect(
      count(`SELECT count(*) FROM products p WHERE EXISTS (SELECT 1 FROM product_prices pp WHERE pp.product_id = p.id AND pp.in_stock = 1
        AND pp.price_pence < p.best_price_pence - p.best_delivery_pence)`),
    ).toBeGreaterThan(5);
    expect(count("SELECT count(*) FROM products WHERE original_price_pence <= best_price_pence")).toBe(0);
  });

  it("gives some products a was-price their price history supports (seeded as of today), always above the best price", () => {
    // A was-price needs 28 days of the last 90 at that price: a catalogue generated for today has them.
    seedCatalogue(db, generateCatalogue({ products: 120, today: new Date() }));
    const withWas = count("SELECT count(*) FROM products WHERE original_price_pence IS NOT NULL");
    expect(withWas).toBeGreaterThan(3);
    expect(withWas).toBeLessThan(count("SELECT count(*) FROM products WHERE best_price_pence IS NOT NULL"));
    expect(count("SELECT count(*) FROM products WHERE original_price_pence <= best_price_pence")).toBe(0);
  });

  it("dates each offer at its newest price point, which holds the current price", () => {
    seedCatalogue(db, catalogue480);
    const stale = count(`
      SELECT count(*) FROM product_prices pp
      WHERE pp.updated_at IS NOT (SELECT max(h.recorded_at) FROM price_history h WHERE h.product_id = pp.product_id AND h.retailer_id = pp.retailer_id)
         OR pp.price_pence IS NOT (
           SELECT h.price_pence FROM price_history h WHERE h.product_id = pp.product_id AND h.retailer_id = pp.retailer_id
           ORDER BY h.recorded_at DESC LIMIT 1)`);
    expect(stale).toBe(0);
  });

  it("writes each offer's repeat-delivery price and terms as generated", () => {
    seedCatalogue(db, catalogue480);
    const stored = db.$client
      .prepare(
        `SELECT p.slug, r.name AS retailer, pp.repeat_price_pence AS repeatPricePence, pp.repeat_terms AS repeatTerms
         FROM product_prices pp JOIN products p ON p.id = pp.product_id JOIN retailers r ON r.id = pp.retailer_id`,
      )
      .all() as { slug: string; retailer: string; repeatPricePence: number | null; repeatTerms: string | null }[];
    const generated = catalogue480.products.flatMap((product) =>
      product.offers.map((offer) => ({ slug: product.slug, retailer: offer.retailerName, repeatPricePence: offer.repeatPricePence, repeatTerms: offer.repeatTerms })),
    );
    const key = (row: { slug: string; retailer: string }) => `${row.slug}|${row.retailer}`;
    const byKey = (a: { slug: string; retailer: string }, b: { slug: string; retailer: string }) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
    expect(stored.sort(byKey)).toEqual(generated.sort(byKey));
    expect(stored.some((row) => row.repeatPricePence !== null)).toBe(true);
  });

  it("indexes the products for full-text search", () => {
    seedCatalogue(db, catalogue480);
    const royal = count("SELECT count(*) FROM product_search WHERE product_search MATCH 'royal*'");
    expect(royal).toBe(catalogue480.products.filter((p) => /royal/i.test(`${p.name} ${p.description}`)).length);
    expect(royal).toBeGreaterThan(0);
    // Apostrophes are dropped by the index triggers, so "hills" finds Hill's.
    expect(count("SELECT count(*) FROM product_search WHERE product_search MATCH 'hills'")).toBeGreaterThan(0);
  });

  it("keeps surviving products' ids and favourites when re-seeded", () => {
    seedCatalogue(db, catalogue480);
    const slug = catalogue480.products[10]?.slug as string;
    const id = productId(slug);
    db.$client.prepare("INSERT INTO favorites (user_id, product_id, notes) VALUES (?, ?, ?)").run("user_abc000000000000000000000", id, "for Biscuit");
    db.$client.prepare("INSERT INTO price_alerts (user_id, product_id, target_price_pence, email) VALUES (?, ?, ?, ?)").run("user_abc000000000000000000000", id, 999, "a@example.com");

    const later = generateCatalogue({ products: 480, today: new Date(today.getTime() + 7 * 86_400_000) });
    seedCatalogue(db, later);

    expect(productId(slug)).toBe(id);
    expect(count("SELECT count(*) FROM favorites WHERE product_id = ? AND notes = 'for Biscuit'", id)).toBe(1);
    expect(count("SELECT count(*) FROM price_alerts WHERE product_id = ?", id)).toBe(1);
    expect(count("SELECT count(*) FROM products")).toBe(480);
    // Offers and history were replaced, not duplicated.
    expect(count("SELECT count(*) FROM product_prices")).toBe(later.products.reduce((sum, p) => sum + p.offers.length, 0));
    expect(count("SELECT count(*) FROM price_history")).toBe(later.products.reduce((sum, p) => sum + p.history.length, 0));
    expect(count("SELECT count(*) FROM vouchers")).toBe(8);
    expect(count("SELECT count(*) FROM product_search")).toBe(480);
  });

  it("deletes products (and their favourites) that leave a smaller catalogue", () => {
    seedCatalogue(db, catalogue480);
    const keptSlug = catalogue480.products[5]?.slug as string;
    const droppedSlug = catalogue480.products[400]?.slug as string;
    const keptId = productId(keptSlug);
    const droppedId = productId(droppedSlug);
    const addFavourite = db.$client.prepare("INSERT INTO favorites (user_id, product_id) VALUES (?, ?)");
    addFavourite.run("user_abc000000000000000000000", keptId);
    addFavourite.run("user_abc000000000000000000000", droppedId);
    db.$client.prepare("INSERT INTO recently_viewed (user_id, product_id) VALUES (?, ?)").run("user_abc000000000000000000000", droppedId);

    seedCatalogue(db, generateCatalogue({ products: 100, today }));

    expect(count("SELECT count(*) FROM products")).toBe(100);
    expect(productId(keptSlug)).toBe(keptId);
    expect(count("SELECT count(*) FROM products WHERE slug = ?", droppedSlug)).toBe(0);
    expect(count("SELECT count(*) FROM favorites WHERE user_id = 'user_abc000000000000000000000'")).toBe(1);
    expect(count("SELECT count(*) FROM favorites WHERE product_id = ?", keptId)).toBe(1);
    expect(count("SELECT count(*) FROM recently_viewed")).toBe(0);
    expect(count("SELECT count(*) FROM product_search")).toBe(100);
    expect(count("SELECT count(*) FROM product_prices WHERE product_id NOT IN (SELECT id FROM products)")).toBe(0);
  });

  it("never overwrites affiliate IDs an admin has saved", () => {
    seedCatalogue(db, catalogue480);
    db.$client.prepare("UPDATE affiliate_settings SET value = 'admin-tag-21' WHERE key = 'AMAZON'").run();
    db.$client.prepare("DELETE FROM affiliate_settings WHERE key = 'EBAY'").run();

    seedCatalogue(db, catalogue480);

    const ids = Object.fromEntries(db.$client.prepare("SELECT key, value FROM affiliate_settings").raw().all() as [string, string][]);
    expect(ids.AMAZON).toBe("admin-tag-21");
    expect(ids.EBAY).toBe(catalogue480.affiliateIds.EBAY);
    expect(Object.keys(ids)).toHaveLength(5);
  });

  it("removes categories and retailers that are no longer in the catalogue, keeping ids of the rest", () => {
    seedCatalogue(db, catalogue480);
    const dogFoodId = count("SELECT id FROM categories WHERE slug = 'dog-food'");
    db.$client.prepare("INSERT INTO categories (name, slug, icon) VALUES ('Old Stuff', 'old-stuff', 'heart')").run();
    db.$client.prepare("INSERT INTO retailers (name, logo, website) VALUES ('Gone Ltd', '/retailers/gone.svg', 'https://gone.example')").run();

    seedCatalogue(db, catalogue480);

    expect(count("SELECT count(*) FROM categories WHERE slug = 'old-stuff'")).toBe(0);
    expect(count("SELECT count(*) FROM retailers WHERE name = 'Gone Ltd'")).toBe(0);
    expect(count("SELECT id FROM categories WHERE slug = 'dog-food'")).toBe(dogFoodId);
  });

  it("rolls back completely when the catalogue is inconsistent", () => {
    seedCatalogue(db, catalogue480);
    const broken = generateCatalogue({ products: 20, today });
    const first = broken.products[0];
    if (!first) throw new Error("no product generated");
    first.categorySlug = "no-such-category";

    expect(() => seedCatalogue(db, broken)).toThrow('Catalogue refers to unknown category "no-such-category"');
    expect(count("SELECT count(*) FROM products")).toBe(480);
    expect(count("SELECT count(*) FROM product_prices")).toBe(catalogue480.products.reduce((sum, p) => sum + p.offers.length, 0));
  });

  it("names the retailer an offer or a price point refers to that the catalogue lacks, or the offer without history", () => {
    const fresh = () => generateCatalogue({ products: 3, today });
    const unknownOffer = fresh();
    unknownOffer.products[0]!.offers[0]!.retailerName = "Nowhere Pets";
    unknownOffer.products[0]!.history.push({ ...unknownOffer.products[0]!.history[0]!, retailerName: "Nowhere Pets" });
    expect(() => seedCatalogue(db, unknownOffer)).toThrow('Catalogue refers to unknown retailer "Nowhere Pets"');
    const unknownPoint = fresh();
    unknownPoint.products[1]!.history.push({ ...unknownPoint.products[1]!.history[0]!, retailerName: "Elsewhere Pets" });
    expect(() => seedCatalogue(db, unknownPoint)).toThrow('Catalogue refers to unknown retailer "Elsewhere Pets"');
    const noHistory = fresh();
    const offer = noHistory.products[2]!.offers[0]!;
    noHistory.products[2]!.history = noHistory.products[2]!.history.filter((point) => point.retailerName !== offer.retailerName);
    expect(() => seedCatalogue(db, noHistory)).toThrow(`Offer of "${noHistory.products[2]!.slug}" at ${offer.retailerName} has no price history`);
    expect(count("SELECT count(*) FROM products")).toBe(0);
  });
});

describe("seedCatalogue beside the owner's data", () => {
  const offersOf = (productId: number) =>
    db.$client.prepare("SELECT retailer_id AS retailerId, price_pence AS price, source FROM product_prices WHERE product_id = ? ORDER BY retailer_id").all(productId);

  it("marks everything it writes as demo: products, offers (source demo) and vouchers", () => {
    seedCatalogue(db, generateCatalogue({ products: 30, today }));
    expect(count("SELECT count(*) FROM products WHERE demo = 1")).toBe(30);
    expect(count("SELECT count(*) FROM products WHERE demo = 0")).toBe(0);
    expect(count("SELECT count(*) FROM product_prices WHERE source <> 'demo'")).toBe(0);
    expect(count("SELECT count(*) FROM product_prices")).toBeGreaterThan(30);
    expect(count("SELECT count(*) FROM vouchers WHERE demo = 1")).toBe(8);
    expect(count("SELECT count(*) FROM vouchers WHERE demo = 0")).toBe(0);
  });

  it("re-seeds only the demo: the owner's product keeps its id, offers, history and favourite, with its category, retailer and voucher", () => {
    seedCatalogue(db, catalogue480);
    const leaving = catalogue480.products[400]!.slug;
    const owner = addOwnerCatalogue(db, leaving);
    const ownerOffers = offersOf(owner.productId);
    const ownerHistory = db.$client.prepare("SELECT * FROM price_history WHERE product_id = ? ORDER BY id").all(owner.productId);
    expect(ownerOffers).toHaveLength(2);

    const smaller = generateCatalogue({ products: 100, today: new Date(today.getTime() + 86_400_000) });
    const counts = seedCatalogue(db, smaller);

    expect(counts.products).toBe(100);
    expect(count("SELECT count(*) FROM products WHERE demo = 1")).toBe(100);
    expect(offersOf(owner.productId)).toEqual(ownerOffers);
    expect(db.$client.prepare("SELECT * FROM price_history WHERE product_id = ? ORDER BY id").all(owner.productId)).toEqual(ownerHistory);
    expect(count("SELECT count(*) FROM favorites WHERE product_id = ? AND user_id = ?", owner.productId, ownerVisitor)).toBe(1);
    expect(count("SELECT count(*) FROM products WHERE id = ? AND demo = 0 AND category_id = ?", owner.productId, owner.categoryId)).toBe(1);
    expect(count("SELECT count(*) FROM categories WHERE id = ?", owner.categoryId)).toBe(1);
    expect(count("SELECT count(*) FROM retailers WHERE id = ?", owner.retailerId)).toBe(1);
    expect(count("SELECT count(*) FROM vouchers WHERE id = ? AND demo = 0", owner.voucherId)).toBe(1);
    expect(count("SELECT count(*) FROM vouchers")).toBe(9);
    // The demo product that left the catalogue had the owner's feed offer: it stayed, as the owner's, with that offer only.
    expect(count("SELECT count(*) FROM products WHERE id = ? AND demo = 0", owner.adopted.productId)).toBe(1);
    expect(offersOf(owner.adopted.productId)).toEqual([{ retailerId: owner.retailerId, price: owner.adopted.pricePence, source: "feed:scales" }]);
    // Every other offer is the new catalogue's.
    const generatedOffers = smaller.products.reduce((sum, p) => sum + p.offers.length, 0);
    expect(count("SELECT count(*) FROM product_prices WHERE source = 'demo'")).toBe(generatedOffers);
    expect(counts.offers).toBe(generatedOffers);
    expect(count("SELECT count(*) FROM product_prices WHERE source = 'demo' AND product_id NOT IN (SELECT id FROM products WHERE demo = 1)")).toBe(0);
    expect(count("SELECT best_price_pence FROM products WHERE id = ?", owner.productId)).toBe(2499);
  });

  it("leaves out a generated offer where the owner has one for that demo product, and keeps the owner's", () => {
    seedCatalogue(db, catalogue480);
    const slug = catalogue480.products[3]!.slug;
    const id = productId(slug);
    const [first] = offersOf(id) as { retailerId: number; price: number }[];
    // The owner's page read of one of its offers: that offer is the owner's from now on.
    recordPriceChecks(db, [{ productId: id, retailerId: first!.retailerId, pricePence: first!.price + 10, inStock: null, source: "page" }]);
    const before = offersOf(id);

    seedCatalogue(db, catalogue480);

    expect(count("SELECT count(*) FROM products WHERE id = ? AND demo = 1", id)).toBe(1);
    expect(offersOf(id)).toEqual(before);
    expect(before).toContainEqual({ retailerId: first!.retailerId, price: first!.price + 10, source: "page" });
  });

  it("leaves alone an owner's product whose slug the generated catalogue also has", () => {
    seedCatalogue(db, generateCatalogue({ products: 100, today }));
    const taken = catalogue480.products[300]!;
    const category = count("SELECT id FROM categories WHERE slug = ?", taken.categorySlug);
    const { id } = createProduct(db, productInput.parse({ name: "The owner's own listing", slug: taken.slug, categoryId: category }), today).value;

    const counts = seedCatalogue(db, catalogue480);

    expect(counts.products).toBe(479);
    expect(db.$client.prepare("SELECT id, name, demo FROM products WHERE slug = ?").get(taken.slug)).toEqual({ id, name: "The owner's own listing", demo: 0 });
    expect(count("SELECT count(*) FROM product_prices WHERE product_id = ?", id)).toBe(0);
    expect(count("SELECT count(*) FROM price_history WHERE product_id = ?", id)).toBe(0);
  });
});

describe("ensureSeeded", () => {
  it("seeds an empty database once", () => {
    expect(ensureSeeded(db)).toBe(true);
    expect(count("SELECT count(*) FROM products")).toBe(480);
    expect(ensureSeeded(db)).toBe(false);
    expect(count("SELECT count(*) FROM products")).toBe(480);
  });
});
