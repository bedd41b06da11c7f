import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, migrateDb, openDb, type Db } from "./client.ts";
import { defaultHistoryDays, familySizes, loadProductPages, productSitemaps, sizesOf, withFamilyMembers, type HistoryPoint, type ProductPageData } from "./product-pages.ts";
import { readOfferPricing } from "./offer-pricing.ts";
import { recomputeBestPrices } from "./offers.ts";
import { pointsToDoor, priceChart } from "../domain/price-chart.ts";
import { productSizes, type FamilyMember } from "../domain/families.ts";
import { getProductBySlug } from "./products.ts";
import { seedCatalogue } from "./seed.ts";
import { generateCatalogue } from "../seed/generate.ts";

const now = new Date();
const dayMs = 24 * 60 * 60 * 1000;
const daysAgo = (days: number) => new Date(now.getTime() - days * dayMs).toISOString();

let dir: string;
let db: Db;
let pages: ProductPageData[];

interface HistoryRow {
  product_id: number;
  retailer_id: number;
  price_pence: number;
  recorded_at: string;
}

/** What a chart of the window needs, worked out the slow, obvious way from every stored point. */
function expectedHistory(productId: number, retailerIds: Set<number>, windowStart: string): Omit<HistoryPoint, "retailerName">[] {
  const rows = db.$client
    .prepare("SELECT product_id, retailer_id, price_pence, recorded_at FROM price_history WHERE product_id = ? ORDER BY retailer_id, recorded_at")
    .all(productId) as HistoryRow[];
  const expected: Omit<HistoryPoint, "retailerName">[] = [];
  for (const retailerId of [...retailerIds].sort((a, b) => a - b)) {
    const mine = rows.filter((row) => row.retailer_id === retailerId);
    const before = mine.filter((row) => row.recorded_at < windowStart).at(-1);
    for (const row of [...(before ? [before] : []), ...mine.filter((row) => row.recorded_at >= windowStart)]) {
      expected.push({ retailerId, pricePence: row.price_pence, recordedAt: row.recorded_at });
    }
  }
  return expected;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "product-pages-"));
  db = openDb(path.join(dir, "test.db"));
  await migrateDb(db);
  seedCatalogue(db, generateCatalogue({ products: 60, today: now }));

  // Older points for the first product's first offer: a year ago and 100 days ago (both before a
  // 90-day window), and a point at a retailer the product has no offer at (never charted).
  const product = db.$client.prepare("SELECT id FROM products ORDER BY id LIMIT 1").get() as { id: number };
  const offer = db.$client.prepare("SELECT retailer_id FROM product_prices WHERE product_id = ? ORDER BY retailer_id LIMIT 1").get(product.id) as {
    retailer_id: number;
  };
  const stranger = db.$client
    .prepare("SELECT id FROM retailers WHERE id NOT IN (SELECT retailer_id FROM product_prices WHERE product_id = ?) ORDER BY id LIMIT 1")
    .get(product.id) as { id: number };
  const insert = db.$client.prepare("INSERT INTO price_history (product_id, retailer_id, price_pence, recorded_at) VALUES (?, ?, ?, ?)");
  insert.run(product.id, offer.retailer_id, 111, daysAgo(365));
  insert.run(product.id, offer.retailer_id, 222, daysAgo(100));
  insert.run(product.id, stranger.id, 333, daysAgo(10));

  pages = loadProductPages(db, { now });
});

afterAll(() => {
  closeDb(db);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("loadProductPages", () => {
  it("returns every product exactly once, by id", () => {
    // How fast this read is, is measured by npm run bench:build (pageDataMs), not asserted here.
    expect(pages.map((page) => page.product.id)).toEqual(
      (db.$client.prepare("SELECT id FROM products ORDER BY id").all() as { id: number }[]).map((row) => row.id),
    );
  });

  it("shapes each product exactly as the API's getProductBySlug does, offers in the same order", () => {
    for (const { product } of loadProductPages(db, { now })) {
      expect(product).toEqual(getProductBySlug(db, product.slug));
    }
  });

  it("keeps the points in the window plus the last one before it, for current offers only", () => {
    const windowStart = daysAgo(90);
    for (const { product, history } of pages) {
      const retailerIds = new Set(product.prices.map((offer) => offer.retailerId));
      expect(history.map(({ retailerName: _, ...point }) => point)).toEqual(expectedHistory(product.id, retailerIds, windowStart));
      const names = new Map(product.prices.map((offer) => [offer.retailerId, offer.retailer.name]));
      for (const point of history) expect(point.retailerName).toBe(names.get(point.retailerId));
    }
  });

  it("carries in only the latest point before the window", () => {
    const [first] = pages;
    const retailerId = Math.min(...first!.product.prices.map((offer) => offer.retailerId));
    const prices = first!.history.filter((point) => point.retailerId === retailerId).map((point) => point.pricePence);
    expect(prices).not.toContain(111);
    // The seed's points are all within the last 12 weeks, so the 100-day-old one is the carried-in point.
    expect(prices[0]).toBe(222);
    expect(first!.history.map((point) => point.pricePence)).not.toContain(333);
  });

  it("narrows to a shorter window, keeping one carried-in point per retailer", () => {
    const windowStart = daysAgo(30);
    const short = loadProductPages(db, { now, historyDays: 30 });
    expect(short).toHaveLength(60);
    for (const { product, history } of short) {
      const retailerIds = new Set(product.prices.map((offer) => offer.retailerId));
      expect(history.map(({ retailerName: _, ...point }) => point)).toEqual(expectedHistory(product.id, retailerIds, windowStart));
      for (const retailerId of retailerIds) {
        expect(history.filter((point) => point.retailerId === retailerId && point.recordedAt < windowStart).length).toBeLessThanOrEqual(1);
      }
    }
  });
});

describe("the price chart of a product page", () => {
  it("plots each offer's price to the door: its line ends on the total the retailer table shows for today", () => {
    const pricing = readOfferPricing(db, null);
    let withDelivery = 0;
    for (const { product, history } of pages) {
      const chart = priceChart(pointsToDoor(history, pricing.get(product.id) ?? []), { now, days: defaultHistoryDays, width: 720, height: 240 });
      for (const offer of product.prices) {
        const line = chart.lines.find((entry) => entry.retailerName === offer.retailer.name);
        if (line === undefined) continue;
        expect(line.lastPricePence, `${product.slug} at ${offer.retailer.name}`).toBe(offer.totalPence);
        if ((offer.deliveryPence ?? 0) > 0) withDelivery++;
      }
    }
    // Offers whose delivery makes the total differ from the item price are among them.
    expect(withDelivery).toBeGreaterThan(10);
  });
});

describe("a product without offers", () => {
  it("gets a page with no prices and no history", () => {
    const { id } = db.$client.prepare("SELECT id FROM products ORDER BY id DESC LIMIT 1").get() as { id: number };
    db.$client.prepare("DELETE FROM product_prices WHERE product_id = ?").run(id);
    const page = loadProductPages(db, { now }).find((entry) => entry.product.id === id)!;
    expect(page.product.prices).toEqual([]);
    expect(page.history).toEqual([]);
  });
});

describe("productSitemaps", () => {
  it("lists every product once, split into files of the given size", () => {
    const files = productSitemaps(db, 25);
    expect(files.map((file) => file.name)).toEqual(["products-1", "products-2", "products-3"]);
    expect(files.map((file) => file.entries.length)).toEqual([25, 25, 10]);
    const slugs = files.flatMap((file) => file.entries.map((entry) => entry.slug));
    expect(new Set(slugs)).toEqual(new Set(pages.map((page) => page.product.slug)));
    for (const entry of files.flatMap((file) => file.entries)) expect(Number.isNaN(Date.parse(entry.lastModified))).toBe(false);
  });

  it("makes no empty file when the products fill the last one exactly", () => {
    expect(productSitemaps(db, 30).map((file) => [file.name, file.entries.length])).toEqual([
      ["products-1", 30],
      ["products-2", 30],
    ]);
    expect(productSitemaps(db, 60).map((file) => file.entries.length)).toEqual([60]);
  });

  it("puts up to 40,000 products in one file by default", () => {
    expect(productSitemaps(db).map((file) => file.entries.length)).toEqual([60]);
  });
});

describe("loadProductPages for some products", () => {
  it("reads just those, by id, exactly as the whole catalogue's read has them; unknown ids are skipped", () => {
    const all = loadProductPages(db, { now });
    const wanted = [all[7]!.product.id, all[2]!.product.id, 999_999, all[0]!.product.id];
    const some = loadProductPages(db, { now, productIds: wanted });
    expect(some).toEqual([all[0], all[2], all[7]]);
    expect(loadProductPages(db, { now, productIds: [] })).toEqual([]);
  });

  it("narrows the window for them as for everyone", () => {
    const first = loadProductPages(db, { now, historyDays: 30 })[0]!;
    expect(loadProductPages(db, { now, historyDays: 30, productIds: [first.product.id] })).toEqual([first]);
  });
});

describe("family sizes", () => {
  const members = (familyKey: string): FamilyMember[] =>
    (
      db.$client
        .prepare(
          `SELECT p.id, p.slug, p.name, p.best_price_pence, r.name AS retailer FROM products p LEFT JOIN retailers r ON r.id = p.best_retailer_id
           WHERE p.family_key = ? ORDER BY p.id`,
        )
        .all(familyKey) as { id: number; slug: string; name: string; best_price_pence: number | null; retailer: string | null }[]
    ).map((row) => ({ id: row.id, slug: row.slug, name: row.name, bestPricePence: row.best_price_pence, bestRetailer: row.retailer }));
  let family: number[];
  let lone: number;

  beforeAll(() => {
    const ids = (db.$client.prepare("SELECT id FROM products WHERE id IN (SELECT product_id FROM product_prices) ORDER BY id DESC LIMIT 4").all() as { id: number }[]).map((row) => row.id);
    family = ids.slice(0, 3);
    lone = ids[3]!;
    const set = db.$client.prepare("UPDATE products SET name = ?, family_key = ? WHERE id = ?");
    set.run("Test Kibble 12kg", "test-kibble", family[0]);
    set.run("Test Kibble 2kg", "test-kibble", family[1]);
    set.run("Test Kibble 6kg", "test-kibble", family[2]);
    db.$client.prepare("UPDATE products SET family_key = NULL WHERE id = ?").run(lone);
    // Delivered free: 12kg at £42.00 (350p/kg), 2kg at £9.00 (450p/kg), 6kg at £21.00 (350p/kg): a tie.
    const price = db.$client.prepare("UPDATE product_prices SET price_pence = ? + 100 * (SELECT count(*) FROM product_prices o WHERE o.product_id = product_prices.product_id AND o.id < product_prices.id), in_stock = 1, price_override = 0, delivery_pence = 0, free_delivery = 1 WHERE product_id = ?");
    price.run(4200, family[0]);
    price.run(900, family[1]);
    price.run(2100, family[2]);
    recomputeBestPrices(db, family);
  });

  it("gives every product its family's sizes, worked out from the family's rows, one array per family; none alone or without a family", () => {
    const sizes = familySizes(db);
    const keyed = db.$client.prepare("SELECT id, family_key FROM products").all() as { id: number; family_key: string | null }[];
    for (const { id, family_key } of keyed) {
      const expected = family_key === null ? [] : productSizes(members(family_key));
      expect(sizes.get(id) ?? []).toEqual(expected);
    }
    expect(sizes.has(lone)).toBe(false);
    expect(sizes.get(family[0]!)).toBe(sizes.get(family[1]!));
  });

  it("orders a family by pack amount, marks the tie for best value per kg, prices to the door", () => {
    const sizes = sizesOf(db, family[1]!);
    expect(sizes.map((s) => [s.id, s.label, s.bestPricePence, s.unitPrice, s.bestValue])).toEqual([
      [family[1], "2kg", 900, { pence: 450, unit: "kg" }, false],
      [family[2], "6kg", 2100, { pence: 350, unit: "kg" }, true],
      [family[0], "12kg", 4200, { pence: 350, unit: "kg" }, true],
    ]);
    expect(sizesOf(db, lone)).toEqual([]);
    expect(sizesOf(db, 999_999)).toEqual([]);
  });

  it("puts the sizes on the product pages, for a fast pass's products as for all", () => {
    const all = new Map(loadProductPages(db, { now }).map((page) => [page.product.id, page]));
    expect(all.get(family[2]!)!.sizes.map((s) => s.id)).toEqual([family[1], family[2], family[0]]);
    expect(all.get(lone)!.sizes).toEqual([]);
    const some = loadProductPages(db, { now, productIds: [family[0]!, lone] });
    // By id: the lone product's id is below the family's.
    expect(some.map((page) => [page.product.id, page.sizes])).toEqual([
      [lone, []],
      [family[0], all.get(family[0]!)!.sizes],
    ]);
  });

  it("rebuilds a size's siblings with it: changed products with their families' other sizes, unknown ids kept", () => {
    expect(withFamilyMembers(db, [family[1]!])).toEqual([...family].sort((a, b) => a - b));
    expect(withFamilyMembers(db, [lone, 999_999])).toEqual([lone, 999_999]);
    expect(withFamilyMembers(db, [])).toEqual([]);
  });
});
