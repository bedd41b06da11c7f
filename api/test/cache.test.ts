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
    const second = await api.get("/api/products?limit=3");
    expect(await second.text()).toBe(await first.text());
    expect(second.headers.get("cache-control")).toBe(first.headers.get("cache-control"));
    expect(second.headers.get("content-type")).toMatch(/application\/json/);
    expect(api.cache.size).toBeGreaterThan(0);
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
    expect((await api.get("/api/products?sort=nope")).status).toBe(400);
    expect((await api.get("/api/products/no-such-slug")).status).toBe(404);
    expect((await api.get("/api/products/no-such-slug")).status).toBe(404);
  });
});
