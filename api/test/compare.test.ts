/**
 * GET /api/compare: the compare page's products, in the order asked, each with the values its
 * rows show, checked against the database; bad ids answer 400 and say what is wrong.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recomputeBestPrices } from "../../data/db/offers.ts";
import type { CompareProduct } from "../../data/domain/compare-page.ts";
import { packSizeOf, unitPriceOf } from "../../data/domain/product-quantity.ts";
import { startTestServer, type TestServer } from "./server.ts";

let api: TestServer;
const guide = { rows: [{ weightKg: 5, gramsPerDay: 95 }, { weightKg: 10, gramsPerDay: 160 }, { weightKg: 20, gramsPerDay: 270 }] };
/** A dog food with an energy figure, a cat food with a feeding guide, a dog food with a damaged guide, a non-food. */
const ids = { dogFood: 0, catFood: 0, damaged: 0, toy: 0, soldOut: 0 };
beforeAll(async () => {
  api = await startTestServer({ products: 120 });
  const sqlite = api.db.$client;
  const first = (slug: string, offset = 0) =>
    (sqlite.prepare("SELECT p.id FROM products p JOIN categories c ON c.id = p.category_id WHERE c.slug = ? ORDER BY p.id LIMIT 1 OFFSET ?").get(slug, offset) as { id: number }).id;
  ids.dogFood = first("dog-food");
  ids.catFood = first("cat-food");
  ids.damaged = first("dog-food", 1);
  ids.toy = first("dog-toys");
  // Food facts before any request, so nothing cached predates them.
  const facts = sqlite.prepare("UPDATE products SET kcal_per_kg = ?, feeding_guide = ? WHERE id = ?");
  facts.run(3650, null, ids.dogFood);
  facts.run(null, JSON.stringify(guide), ids.catFood);
  facts.run(null, '{"rows":[{"weightKg":10,"gramsPerDay":160}]}', ids.damaged);
  facts.run(null, null, ids.toy);
  // A dog food with a pack size that no retailer has in stock: no best price, so no unit price.
  ids.soldOut = first("dog-food", 2);
  sqlite.prepare("UPDATE product_prices SET in_stock = 0 WHERE product_id = ?").run(ids.soldOut);
  recomputeBestPrices(api.db, [ids.soldOut]);
});
afterAll(() => api.close());

interface StoredProduct {
  id: number;
  slug: string;
  name: string;
  image: string;
  brand: string | null;
  category_name: string;
  category_slug: string;
  best_price_pence: number | null;
  best_delivery_pence: number | null;
  rating: number;
  review_count: number;
  retailer_key: string | null;
  retailer_name: string | null;
  retailers: number;
  in_stock: number;
}

/** What the answer must say of a product, worked out from its rows. */
function expected(id: number): Omit<CompareProduct, "species" | "kcalPerKg" | "feedingGuide"> {
  const row = api.db.$client
    .prepare(
      `SELECT p.id, p.slug, p.name, p.image, p.brand, c.name AS category_name, c.slug AS category_slug, p.best_price_pence, p.best_delivery_pence,
              p.rating, p.review_count, r.key AS retailer_key, r.name AS retailer_name,
              (SELECT count(DISTINCT retailer_id) FROM product_prices WHERE product_id = p.id) AS retailers,
              (SELECT count(DISTINCT retailer_id) FROM product_prices WHERE product_id = p.id AND in_stock = 1) AS in_stock
         FROM products p JOIN categories c ON c.id = p.category_id LEFT JOIN retailers r ON r.id = p.best_retailer_id WHERE p.id = ?`,
    )
    .get(id) as StoredProduct;
  // The best deal: the best retailer's own offer, only while it is in stock.
  const deal = api.db.$client
    .prepare("SELECT r.key, pp.url FROM product_prices pp JOIN products p ON p.id = pp.product_id JOIN retailers r ON r.id = pp.retailer_id WHERE p.id = ? AND pp.retailer_id = p.best_retailer_id AND pp.in_stock = 1")
    .get(id) as { key: string; url: string } | undefined;
  const packSize = packSizeOf(row.name);
  const unit = row.best_price_pence === null ? null : unitPriceOf(row.best_price_pence, packSize);
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    image: row.image,
    brand: row.brand,
    category: { name: row.category_name, slug: row.category_slug },
    bestPrice: row.best_price_pence === null ? null : row.best_price_pence / 100,
    bestDelivery: row.best_delivery_pence === null ? null : row.best_delivery_pence / 100,
    packSize,
    unitPrice: unit === null ? null : { price: unit.pence / 100, unit: unit.unit },
    rating: row.rating,
    reviewCount: row.review_count,
    retailerCount: row.retailers,
    inStockCount: row.in_stock,
    bestRetailer: row.retailer_name === null ? null : expect.objectContaining({ key: row.retailer_key, name: row.retailer_name }),
    bestDeal: deal === undefined ? null : { retailerKey: deal.key, url: deal.url },
  };
}

const compare = (query: string) => api.json<{ products: CompareProduct[] }>(`/api/compare?ids=${query}`).then((body) => body.products);

describe("GET /api/compare", () => {
  it("answers each product in the order asked with its rows' values and food facts", async () => {
    const order = [ids.toy, ids.catFood, ids.dogFood, ids.damaged];
    const products = await compare(order.join(","));
    expect(products.map((product) => product.id)).toEqual(order);
    for (const product of products) expect(product, `product ${product.id}`).toMatchObject(expected(product.id));
    // Each in stock: each links to an offer.
    for (const product of products) expect(product.bestDeal, `product ${product.id}`).not.toBeNull();
    const byId = new Map(products.map((product) => [product.id, product]));
    expect(byId.get(ids.dogFood)).toMatchObject({ species: "dog", kcalPerKg: 3650, feedingGuide: null });
    expect(byId.get(ids.catFood)).toMatchObject({ species: "cat", kcalPerKg: null, feedingGuide: guide });
    // A guide of one row is not a valid guide: counted as none.
    expect(byId.get(ids.damaged)).toMatchObject({ species: "dog", kcalPerKg: null, feedingGuide: null });
    expect(byId.get(ids.toy)).toMatchObject({ species: null, kcalPerKg: null, feedingGuide: null });
    // The reversed order is answered reversed (the cache keys on the order too).
    expect((await compare([...order].reverse().join(","))).map((product) => product.id)).toEqual([...order].reverse());
  });

  it("counts retailers with an offer and those in stock, and a product with nothing in stock has no best price", async () => {
    const sqlite = api.db.$client;
    const spread = sqlite
      .prepare(
        "SELECT product_id AS id FROM product_prices GROUP BY product_id HAVING count(DISTINCT retailer_id) >= 2 AND sum(in_stock) < count(*) AND sum(in_stock) > 0 ORDER BY product_id LIMIT 1",
      )
      .get() as { id: number } | undefined;
    expect(spread, "the seed has a product out of stock at some of its retailers").toBeDefined();
    const [product] = await compare(String(spread!.id));
    expect(product!.inStockCount).toBeLessThan(product!.retailerCount);
    expect(product).toMatchObject(expected(spread!.id));
  });

  it("gives a product in stock nowhere no best price and no unit price, whatever its pack size", async () => {
    const [product] = await compare(String(ids.soldOut));
    expect(product!.packSize).not.toBeNull();
    expect(product).toMatchObject({ bestPrice: null, unitPrice: null, inStockCount: 0, bestDeal: null });
    expect(product!.retailerCount).toBeGreaterThan(0);
    expect(product).toMatchObject(expected(ids.soldOut));
  });

  it("leaves unknown ids out, and answers no products when none is known", async () => {
    expect((await compare(`999999,${ids.dogFood}`)).map((product) => product.id)).toEqual([ids.dogFood]);
    expect(await compare("999998,999999")).toEqual([]);
  });

  it("takes exactly 4 ids", async () => {
    const four = [ids.toy, ids.catFood, ids.dogFood, ids.damaged];
    expect(await compare(four.join(","))).toHaveLength(4);
  });

  it.each([
    ["/api/compare", "ids is required"],
    ["/api/compare?ids=", "ids must be 1 to 4 product ids separated by commas, like 12,34"],
    ["/api/compare?ids=1,2,3,4,5", "ids: at most 4 products can be compared"],
    ["/api/compare?ids=0", "ids must be positive whole numbers (0 is not)"],
    ["/api/compare?ids=4,0", "ids must be positive whole numbers (0 is not)"],
    ["/api/compare?ids=7,7", "ids must not repeat (7 is given twice)"],
    ["/api/compare?ids=dog", "ids must be 1 to 4 product ids separated by commas, like 12,34"],
    ["/api/compare?ids=1.5", "ids must be 1 to 4 product ids separated by commas, like 12,34"],
    ["/api/compare?ids=-3", "ids must be 1 to 4 product ids separated by commas, like 12,34"],
    ["/api/compare?ids=1,,2", "ids must be 1 to 4 product ids separated by commas, like 12,34"],
    ["/api/compare?ids=99999999999999999", "ids must be 1 to 4 product ids separated by commas, like 12,34"],
    ["/api/compare?ids=1&ids=2", "ids must be given once"],
    ["/api/compare?ids=1&sort=price", 'Unknown query parameter "sort": this endpoint takes ids'],
  ])("%s answers 400: %s", async (path, message) => {
    const response = await api.get(path);
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toMatch(/application\/json/);
    expect(await response.json()).toEqual({ error: message });
  });
});
