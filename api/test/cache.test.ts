import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb } from "../../data/db/client.ts";
import type { Product } from "../../data/domain/catalogue.ts";
import { startTestServer, type TestServer } from "./server.ts";

let api: TestServer;
beforeAll(async () => {
  api = await startTestServer({ products: 30 });
});
afterAll(() => api.close());

const firstName = async () => (await api.json<Product[]>("/api/products?limit=1"))[0]!.name;

describe("response cache", () => {
  it("serves repeated reads from memory with the same body and headers", async () => {
    const first = await api.get("/api/products?limit=3");
    const firstBody = await first.text();
    // A write on the server's own connection that nothing announced: only a read from memory
    // still shows the old name, which proves the second read never reached the database.
    api.db.$client.prepare("UPDATE products SET name = 'Changed behind the cache' WHERE rank = 1").run();
    const second = await api.get("/api/products?limit=3");
    expect(await second.text()).toBe(firstBody);
    expect(firstBody).not.toContain("Changed behind the cache");
    expect(second.headers.get("cache-control")).toBe(first.headers.get("cache-control"));
    expect(second.headers.get("content-type")).toMatch(/application\/json/);
    // Another URL is another entry, read fresh.
    expect(await firstName()).toBe("Changed behind the cache");
    api.cache.invalidate();
  });

  it("caches every public catalogue read, and no visitor or admin read", async () => {
    const [product] = await api.json<Product[]>("/api/products?limit=1");
    const category = api.db.$client.prepare("SELECT id, slug FROM categories LIMIT 1").get() as { id: number; slug: string };
    const retailer = api.db.$client.prepare("SELECT id FROM retailers LIMIT 1").get() as { id: number };
    const cached = [
      "/api/products?limit=2",
      "/api/products/count",
      "/api/products/featured",
      `/api/products/${product!.slug}`,
      "/api/search?q=dog",
      "/api/categories",
      `/api/categories/${category.id}`,
      `/api/categories/slug/${category.slug}`,
      "/api/retailers",
      `/api/retailers/${retailer.id}`,
      "/api/brands",
    ];
    const notCached = [`/api/products/by-id/${product!.id}`, "/api/vouchers", `/api/affiliate-links?productId=${product!.id}`, "/api/health"];
    for (const path of [...cached, ...notCached]) {
      api.cache.invalidate();
      expect((await api.get(path)).status, path).toBe(200);
      expect(api.cache.size, path).toBe(cached.includes(path) ? 1 : 0);
    }
  });

  it("sees writes by another connection (the seed, an import) at once", async () => {
    const before = await firstName();
    const other = openDb(api.databaseFile);
    other.$client.prepare("UPDATE products SET name = 'Renamed by another process' WHERE rank = 1").run();
    other.$client.close();
    expect(await firstName()).toBe("Renamed by another process");
    expect(before).not.toBe("Renamed by another process");
  });

  it("sees writes through this process once they invalidate it", async () => {
    await firstName();
    api.db.$client.prepare("UPDATE products SET name = 'Renamed here' WHERE rank = 1").run();
    api.cache.invalidate();
    expect(await firstName()).toBe("Renamed here");
  });

  it("never caches errors", async () => {
    api.cache.invalidate();
    expect((await api.get("/api/products?sort=nope")).status).toBe(400);
    expect((await api.get("/api/products/no-such-slug")).status).toBe(404);
    expect(api.cache.size).toBe(0);
    // The product appears: the next read finds it rather than a remembered 404.
    api.db.$client.prepare("UPDATE products SET slug = 'no-such-slug' WHERE rank = 2").run();
    expect((await api.get("/api/products/no-such-slug")).status).toBe(200);
  });
});
