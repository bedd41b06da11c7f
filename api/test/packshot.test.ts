/**
 * GET /api/packshot/{slug}.svg through the real server over a seeded SQLite file: the drawing of
 * a product with no image of its own, its headers (SVG, the API's no-script policy, a day's cache
 * with an ETag answered by 304), bad input, and a rename showing in the next drawing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./server.ts";
import { apiPolicy } from "../http/security-headers.ts";
import { packshotPath } from "../../data/domain/paths.ts";

let api: TestServer;
let categoryId: number;
let retailerId: number;

beforeAll(async () => {
  api = await startTestServer({ products: 20 });
  categoryId = (api.db.$client.prepare("SELECT id FROM categories WHERE slug = 'dog-food'").get() as { id: number }).id;
  retailerId = (api.db.$client.prepare("SELECT id FROM retailers WHERE compares_prices = 1 ORDER BY id LIMIT 1").get() as { id: number }).id;
});
afterAll(() => api.close());

const productBody = (name: string) => ({
  name,
  description: "Crunchy.",
  image: "",
  brand: `Acme <"Best"> & Co's`,
  categoryId,
  rating: 4,
  reviewCount: 1,
  isFeatured: false,
  retailerLinks: [{ retailerId, affiliateUrl: "https://www.amazon.co.uk/dp/B000PACK01", price: 9.99, originalPrice: null, inStock: true, priceOverride: false, manualPrice: null, freeDelivery: true }],
});

describe("GET /api/packshot/{slug}.svg", () => {
  it("draws the product's pack with its escaped name, brand and pack size, as an SVG nothing in can run", async () => {
    const created = (await (await api.admin("POST", "/api/products", productBody(`Chunky <b>"Dry"</b> & Crunchy Dog Food 12kg`))).json()) as { id: number; slug: string };
    const response = await api.get(packshotPath(created.slug));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("public, max-age=86400");
    expect(response.headers.get("content-security-policy")).toBe(apiPolicy);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("etag")).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    const svg = await response.text();
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg).not.toMatch(/<script|<style|<b>|href=/i);
    expect(svg).toContain("&lt;b&gt;&quot;Dry&quot;&lt;/b&gt; &amp; Crunchy");
    expect(svg).toContain("ACME &lt;&quot;BEST&quot;&gt; &amp; CO&apos;S");
    expect(svg).toContain(">12kg</text>");
    expect(svg).toContain(">Illustration</text>");
  });

  it("answers an unchanged drawing with 304, and a renamed product with its new drawing and ETag", async () => {
    const created = (await (await api.admin("POST", "/api/products", productBody("Rename Me Adult Dry Dog Food 2kg"))).json()) as { id: number; slug: string };
    const first = await api.get(packshotPath(created.slug));
    const etag = first.headers.get("etag")!;
    expect(await first.text()).toContain("Rename Me");
    const again = await fetch(api.baseUrl + packshotPath(created.slug), { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("etag")).toBe(etag);

    const renamed = await api.admin("PUT", `/api/products/${created.id}`, { ...productBody("Renamed Adult Dry Dog Food 2kg"), slug: created.slug });
    expect(renamed.status).toBe(200);
    const after = await fetch(api.baseUrl + packshotPath(created.slug), { headers: { "if-none-match": etag } });
    expect(after.status).toBe(200);
    expect(after.headers.get("etag")).not.toBe(etag);
    const svg = await after.text();
    expect(svg).toContain("Renamed Adult Dry");
    expect(svg).not.toContain("Rename Me");
  });

  it("refuses what is not a product's packshot with a JSON error", async () => {
    const cases: [string, number, string][] = [
      ["/api/packshot/no-such-product.svg", 404, "Product not found"],
      ["/api/packshot/Bad_Slug.svg", 400, "slug must be a slug (a-z, 0-9 and hyphens)"],
      ["/api/packshot/royal-canin.png", 400, "A packshot is asked for as {slug}.svg"],
      ["/api/packshot/.svg", 400, "slug must be a slug (a-z, 0-9 and hyphens)"],
      ["/api/packshot/%E0%A4%A.svg", 400, "Malformed request: check the URL encoding and the body"],
      [`/api/packshot/${"a".repeat(201)}.svg`, 400, "slug is too long"],
    ];
    for (const [path, status, error] of cases) {
      const response = await api.get(path);
      expect(response.status, path).toBe(status);
      expect(response.headers.get("content-type"), path).toMatch(/^application\/json/);
      expect(await response.json(), path).toEqual({ error });
    }
  });
});
