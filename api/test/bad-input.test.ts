import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./server.ts";

let api: TestServer;
beforeAll(async () => {
  api = await startTestServer({ products: 40 });
});
afterAll(() => api.close());

/** [request, parameter the message must name] */
const cases: [string, string][] = [
  ["/api/products?sort=cheapest", "sort"],
  ["/api/products?sort=rank_asc&sort=price_asc", "sort"],
  ["/api/products?offset=-1", "offset"],
  ["/api/products?offset=1.5", "offset"],
  ["/api/products?limit=1000000000", "limit"],
  ["/api/products?limit=0", "limit"],
  ["/api/products?limit=101", "limit"],
  ["/api/products?minPrice=abc", "minPrice"],
  ["/api/products?maxPrice=-5", "maxPrice"],
  ["/api/products?minPrice=1.999", "minPrice"],
  ["/api/products?minPrice=50&maxPrice=10", "minPrice"],
  ["/api/products?retailer=abc", "retailer"],
  ["/api/products?retailer=0", "retailer"],
  ["/api/products?category=Dog%20Food", "category"],
  [`/api/products?brand=${"x".repeat(101)}`, "brand"],
  ["/api/products/count?minPrice=abc", "minPrice"],
  ["/api/products/count?retailer=-1", "retailer"],
  ["/api/products/featured?limit=500", "limit"],
  ["/api/products/by-id/abc", "id"],
  ["/api/products/by-id/0", "id"],
  ["/api/products/by-id/99999999999999999999", "id"],
  ["/api/products/Not%20A%20Slug", "slug"],
  ["/api/products/dog-food_", "slug must be a slug"],
  [`/api/products/${"a".repeat(201)}`, "slug is too long"],
  ["/api/products?maxPrice=1000000.01", "maxPrice must be at most 1000000"],
  ["/api/products/%E0%A4%A", "URL"],
  [`/api/search?q=${"a".repeat(5000)}`, "q"],
  ["/api/search?q=dog&offset=-3", "offset"],
  ["/api/search?q=dog&limit=1000000000", "limit"],
  ["/api/search?q=dog&sort=bogus", "sort"],
  ["/api/search?q=dog&minPrice=50&maxPrice=10", "minPrice"],
  ["/api/search?q=dog&category=Dog%20Food", "category"],
  ["/api/brands/counts?category=Dog%20Food", "category"],
  ["/api/brands/counts?minPrice=20&maxPrice=10", "minPrice"],
  ["/api/brands/counts?maxPrice=cheap", "maxPrice"],
  ["/api/brands/counts?retailer=0", "retailer"],
  [`/api/brands/counts?q=${"a".repeat(201)}`, "q"],
  ["/api/brands/counts?brand=Whiskas", "brand"],
  ["/api/brands?q=dog", "q"],
  ["/api/categories/abc", "id"],
  ["/api/categories/-1", "id"],
  ["/api/categories/slug/UPPER", "slug"],
  ["/api/retailers/1.5", "id"],
  ["/api/vouchers?status=expired", "status"],
  ["/api/vouchers?sort=newest", "sort"],
  ["/api/vouchers?limit=0", "limit"],
  ["/api/affiliate-links", "productId"],
  ["/api/affiliate-links?productId=abc", "productId"],
  ["/api/placeholder/abc/100", "width"],
  ["/api/placeholder/100/1e3", "height"],
  [`/api/placeholder/100/100?text=${"t".repeat(61)}`, "text"],
];

/** Each answer's exact wording and the unchanged database are checked route by route in routes.test.ts. */
describe("bad input", () => {
  it("takes a price bound of exactly the largest amount", async () => {
    expect((await api.get("/api/products?maxPrice=1000000")).status).toBe(200);
    expect((await api.get("/api/products/count?minPrice=1000000")).status).toBe(200);
  });

  it("answers a brand list for an unknown category with 404 and a JSON error", async () => {
    for (const path of ["/api/brands/counts?category=no-such-category", "/api/brands/counts?category=dog-food-x&minPrice=10&q=dog"]) {
      const response = await api.get(path);
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toMatch(/application\/json/);
      expect(await response.json()).toEqual({ error: "Category not found" });
    }
  });

  it.each(cases)("%s answers 400 naming %s", async (path, parameter) => {
    const response = await api.get(path);
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toMatch(/application\/json/);
    const body = (await response.json()) as { error: string };
    expect(Object.keys(body)).toEqual(["error"]);
    expect(body.error).toContain(parameter);
  });
});
