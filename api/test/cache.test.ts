import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../app.ts";
import { ResponseCache } from "../http/response-cache.ts";
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
      `/api/compare?ids=${product!.id}`,
      "/api/categories",
      `/api/categories/${category.id}`,
      `/api/categories/slug/${category.slug}`,
      "/api/retailers",
      `/api/retailers/${retailer.id}`,
      "/api/brands",
      "/api/brands/counts?category=dog-food",
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

  it("reads data_version once per event-loop turn: another connection's commit is seen from the next turn on", async () => {
    const cache = api.cache; // the server's own cache, made as the server makes it
    const key = "per-turn test";
    await new Promise((resolve) => setImmediate(resolve)); // start in a fresh turn
    cache.set(key, { body: "old", headers: {} });
    expect(cache.get(key)?.body).toBe("old");
    const other = openDb(api.databaseFile);
    other.$client.prepare("UPDATE products SET name = 'Renamed within a turn' WHERE rank = 1").run();
    other.$client.close();
    // Same turn: the version read by this turn's first lookup stands.
    expect(cache.get(key)?.body).toBe("old");
    await new Promise((resolve) => setImmediate(resolve));
    // The next turn reads it again, and the entry is stale.
    expect(cache.get(key)).toBeUndefined();
    expect(await firstName()).toBe("Renamed within a turn");
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

  it("answers a query parameter the read does not take with a 400 naming it, and keeps nothing", async () => {
    api.cache.invalidate();
    const cases = [
      ["/api/products/count?junk1=x", "junk1"],
      ["/api/products?category=dog-food&page=2", "page"],
      ["/api/search?q=dog&qq=1", "qq"],
      ["/api/categories?x=1", "x"],
      ["/api/brands?callback=y", "callback"],
    ] as const;
    for (const [path, name] of cases) {
      const response = await api.get(path);
      expect(response.status, path).toBe(400);
      expect(((await response.json()) as { error: string }).error, path).toContain(`"${name}"`);
    }
    expect(api.cache.size).toBe(0);
  });

  it("keys on what was asked, not on how the URL spelled it", async () => {
    api.cache.invalidate();
    const spellings = [
      "/api/products",
      "/api/products?sort=rank_asc",
      "/api/products?limit=15&offset=0",
      "/api/products?offset=0&sort=rank_asc&limit=15",
      "/api/products?brand=&limit=15",
    ];
    const bodies = new Set<string>();
    for (const path of spellings) bodies.add(await (await api.get(path)).text());
    expect(bodies.size).toBe(1);
    expect(api.cache.size).toBe(1);
    expect(await (await api.get("/api/search?q=dog&limit=5")).text()).toBe(await (await api.get("/api/search?limit=5&q=dog")).text());
    expect(api.cache.size).toBe(2);
  });

  it("stays within its cap, and memory with it, under 20,000 distinct junk URLs", async () => {
    v8.setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const maxBytes = 4 * 1024 * 1024;
    const cache = new ResponseCache(api.db, { maxBytes });
    const app = createApp({ ...api.services.context, cache });
    const junk = "x".repeat(8000);
    const fetchAll = async (url: (i: number) => string) => {
      const statuses = new Set<number>();
      for (let i = 0; i < 20_000; i++) {
        const response = await app.fetch(new Request(`http://localhost${url(i)}`));
        statuses.add(response.status);
        await response.arrayBuffer();
      }
      return statuses;
    };
    gc();
    const before = process.memoryUsage().heapUsed;
    const junkStatuses = await fetchAll((i) => `/api/products/count?junk${i}=${junk}`);
    // Distinct answers that are all worth keeping: the cap, keys included, holds them in.
    const brandStatuses = await fetchAll((i) => `/api/products/count?brand=${i}${"b".repeat(95)}`);
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    // 20,000 junk keys alone are 160 MB; what stays is the cap plus the test's own garbage.
    expect(grown).toBeLessThan(maxBytes + 32 * 1024 * 1024);
    expect(cache.bytes).toBeLessThanOrEqual(maxBytes);
    expect(cache.size).toBeGreaterThan(1000);
    expect(junkStatuses).toEqual(new Set([400]));
    expect(brandStatuses).toEqual(new Set([200]));
  }, 120_000);
});
