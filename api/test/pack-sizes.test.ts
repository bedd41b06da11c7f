/**
 * Pack sizes in the API: GET /api/products?sort=price_per_kg_asc (the best price to the door per kg, cheapest first,
 * ties by rank, products without a price per kg (not sold by weight, nothing in stock) last by
 * rank; offered only with a category sold by weight), and the sizes of a product's family in its detail.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProductJson as Product } from "../../data/domain/catalogue-json.ts";
import { toPence } from "../../data/domain/money.ts";
import { packSizeOf, pricePerKgOf, unitPriceOf } from "../../data/domain/product-quantity.ts";
import type { ProductSizeJson as ProductSize } from "../../data/domain/catalogue-json.ts";
import { recomputeBestPrices } from "../../data/db/offers.ts";
import { startTestServer, type TestServer } from "./server.ts";

let api: TestServer;
const edge = { tieBetter: 0, tieWorse: 0, noPack: 0, outOfStock: 0 };
beforeAll(async () => {
  api = await startTestServer({ products: 120 });
  const sqlite = api.db.$client;
  const dogFood = (sqlite.prepare("SELECT p.id FROM products p JOIN categories c ON c.id = p.category_id WHERE c.slug = 'dog-food' ORDER BY p.rank").all() as { id: number }[]).map((row) => row.id);
  // Two products on exactly the same price per kg (2000 / 4 = 1000 / 2 = 500p), the worse-ranked
  // one with the lower id, so only the rank can put the better-ranked one first.
  const better = dogFood.findIndex((id, index) => index > 0 && dogFood.slice(index + 1).some((later) => later < id));
  edge.tieBetter = dogFood[better]!;
  edge.tieWorse = dogFood.slice(better + 1).find((id) => id < edge.tieBetter)!;
  [edge.noPack, edge.outOfStock] = [dogFood.find((id) => id !== edge.tieBetter && id !== edge.tieWorse && id !== dogFood[0])!, dogFood[0]!];
  const rename = sqlite.prepare("UPDATE products SET name = ? WHERE id = ?");
  const price = sqlite.prepare("UPDATE product_prices SET price_pence = ? + 100 * (SELECT count(*) FROM product_prices o WHERE o.product_id = product_prices.product_id AND o.id < product_prices.id), in_stock = 1, price_override = 0, delivery_pence = 0 WHERE product_id = ?");
  rename.run("Per Kg Tie Kibble 4kg", edge.tieBetter);
  price.run(2000, edge.tieBetter);
  rename.run("Per Kg Tie Kibble 2kg", edge.tieWorse);
  price.run(1000, edge.tieWorse);
  rename.run("Per Kg Feeding Bowl Large", edge.noPack);
  sqlite.prepare("UPDATE product_prices SET in_stock = 0 WHERE product_id = ?").run(edge.outOfStock);
  recomputeBestPrices(api.db, Object.values(edge));
});
afterAll(() => api.close());

async function all(query: string): Promise<Product[]> {
  const result: Product[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await api.json<Product[]>(`/api/products?${query}&limit=100&offset=${offset}`);
    result.push(...page);
    if (page.length < 100) return result;
  }
}

const perKg = (product: Product) => pricePerKgOf(toPence(product.bestPrice), product.packSize);

describe("GET /api/products?sort=price_per_kg_asc", () => {
  it("lists a category sold by weight cheapest per kg first, ties by rank, those without a price per kg last by rank", async () => {
    const products = await all("category=dog-food&sort=price_per_kg_asc");
    expect(products.length).toBe((await api.json<{ count: number }>("/api/products/count?category=dog-food")).count);
    const expected = [...products].sort((a, b) => (perKg(a) ?? Number.MAX_SAFE_INTEGER) - (perKg(b) ?? Number.MAX_SAFE_INTEGER) || a.rank - b.rank);
    expect(products.map((p) => p.id)).toEqual(expected.map((p) => p.id));
    // The boundary data is there: a tie, and products without a price per kg, at the end.
    const ids = products.map((p) => p.id);
    expect(perKg(products.find((p) => p.id === edge.tieBetter)!)).toBe(500);
    expect(perKg(products.find((p) => p.id === edge.tieWorse)!)).toBe(500);
    expect(ids.indexOf(edge.tieWorse)).toBe(ids.indexOf(edge.tieBetter) + 1);
    const withoutPerKg = products.filter((p) => perKg(p) === null);
    expect(withoutPerKg.map((p) => p.id)).toEqual(expect.arrayContaining([edge.noPack, edge.outOfStock]));
    expect(ids.slice(-withoutPerKg.length)).toEqual(withoutPerKg.map((p) => p.id));
    expect(withoutPerKg.map((p) => p.rank)).toEqual([...withoutPerKg.map((p) => p.rank)].sort((a, b) => a - b));
    expect(products.find((p) => p.id === edge.outOfStock)!.bestPrice).toBeNull();
  });

  it("pages through the same order without gaps or repeats", async () => {
    const whole = (await all("category=dog-food&sort=price_per_kg_asc")).map((p) => p.id);
    const pages: number[] = [];
    for (let offset = 0; offset < whole.length; offset += 7) {
      pages.push(...(await api.json<Product[]>(`/api/products?category=dog-food&sort=price_per_kg_asc&limit=7&offset=${offset}`)).map((p) => p.id));
    }
    expect(pages).toEqual(whole);
  });

  it("is refused (400 naming sort) without a category or in one not sold by weight, and taken in every one that is", async () => {
    for (const path of ["/api/products?sort=price_per_kg_asc", "/api/products?category=dog-toys&sort=price_per_kg_asc"]) {
      const response = await api.get(path);
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: string };
      expect(Object.keys(body)).toEqual(["error"]);
      expect(body.error).toContain("sort");
      expect(body.error).toContain("dog-food");
    }
    for (const category of ["dog-food", "cat-food", "dog-treats", "cat-litter", "small-animal", "bird-food"]) {
      expect((await api.get(`/api/products?category=${category}&sort=price_per_kg_asc`)).status).toBe(200);
    }
  });
});

describe("GET /api/products/:slug sizes", () => {
  it("carries the sizes of the product's family, smallest pack first, each with its own slug, best price and unit price", async () => {
    // A seeded family whose every size's name states its quantity.
    const rows = api.db.$client
      .prepare("SELECT family_key, slug, name FROM products WHERE family_key IN (SELECT family_key FROM products GROUP BY family_key HAVING count(*) > 1)")
      .all() as { family_key: string; slug: string; name: string }[];
    const byWeight = rows.find((row) => rows.filter((other) => other.family_key === row.family_key).every((other) => packSizeOf(other.name) !== null))!;
    const members = rows.filter((row) => row.family_key === byWeight.family_key);
    expect(members.length).toBeGreaterThan(1);
    const products = await Promise.all(members.map(({ slug }) => api.json<Product & { sizes: ProductSize[] }>(`/api/products/${slug}`)));
    products.sort((a, b) => a.packSize!.amount - b.packSize!.amount);
    for (const product of products) {
      expect(product.sizes.map((size) => size.id)).toEqual(products.map((p) => p.id));
      expect(product.sizes.map((size) => size.slug)).toEqual(products.map((p) => p.slug));
      expect(product.sizes.map((size) => size.label)).toEqual(products.map((p) => packSizeOf(p.name)!.label));
      expect(product.sizes.map((size) => size.bestPrice)).toEqual(products.map((p) => p.bestPrice));
      expect(product.sizes.map((size) => size.unitPrice)).toEqual(
        products.map((p) => {
          const unit = p.bestPrice === null ? null : unitPriceOf(toPence(p.bestPrice)!, p.packSize);
          return unit === null ? null : { price: unit.pence / 100, unit: unit.unit };
        }),
      );
    }
  });

  it("has no sizes for a product alone in its family", async () => {
    const { slug } = api.db.$client
      .prepare("SELECT slug FROM products WHERE family_key IN (SELECT family_key FROM products GROUP BY family_key HAVING count(*) = 1) LIMIT 1")
      .get() as { slug: string };
    expect((await api.json<{ sizes: ProductSize[] }>(`/api/products/${slug}`)).sizes).toEqual([]);
  });
});
