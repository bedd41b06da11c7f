import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../app.ts";
import { serveApi } from "./fast-reads.ts";
import { startTestServer, type TestServer } from "../test/server.ts";
import { openDb } from "../../data/db/client.ts";
import type { Product } from "../../data/domain/catalogue.ts";

let api: TestServer;
let app: ReturnType<typeof createApp>;
let server: ReturnType<typeof serveApi>;
let baseUrl: string;
/** Requests that reached the h3 app (the fast path answers without it). */
let appCalls = 0;
beforeAll(async () => {
  api = await startTestServer({ products: 30 });
  app = createApp(api.services.context);
  app.use(() => {
    appCalls++;
  });
  // Without telemetry: the request id it adds differs per request by design, and these tests compare whole header lists.
  server = serveApi(app, { ...api.services.context, telemetry: undefined }, { port: 0, hostname: "127.0.0.1", silent: true });
  await server.ready();
  baseUrl = `http://127.0.0.1:${(server.node!.server!.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await server.close(true);
  await api.close();
});

/** Headers the HTTP server sets per connection or per answer, left out of the comparison. */
const transport = new Set(["date", "connection", "keep-alive", "transfer-encoding", "content-length"]);
const headerList = (response: Response) => [...response.headers].filter(([name]) => !transport.has(name)).sort();

async function fetchCounted(path: string, method = "GET") {
  const calls = appCalls;
  const response = await fetch(baseUrl + path, { method });
  const body = Buffer.from(await response.arrayBuffer());
  return { response, body, reachedApp: appCalls > calls };
}

describe("cache hits answered before the app", () => {
  it("answers a hit with the app's status, headers and bytes, without the app", async () => {
    const [product] = await api.json<Product[]>("/api/products?limit=1");
    const category = api.db.$client.prepare("SELECT id, slug FROM categories LIMIT 1").get() as { id: number; slug: string };
    const retailer = api.db.$client.prepare("SELECT id FROM retailers LIMIT 1").get() as { id: number };
    const paths = [
      "/api/products?category=dog-food&sort=price_asc",
      "/api/products/count?brand=Whiskas",
      "/api/products/featured?limit=3",
      `/api/products/${product!.slug}`,
      "/api/search?q=dog%20food&limit=5",
      "/api/categories",
      `/api/categories/${category.id}`,
      `/api/categories/slug/${category.slug}`,
      "/api/retailers",
      `/api/retailers/${retailer.id}`,
      "/api/brands",
    ];
    api.cache.invalidate();
    for (const path of paths) {
      const first = await fetchCounted(path);
      expect(first.reachedApp, path).toBe(true);
      const second = await fetchCounted(path);
      expect(second.reachedApp, path).toBe(false);
      expect(second.response.status, path).toBe(first.response.status);
      expect(second.response.status, path).toBe(200);
      expect(second.response.statusText, path).toBe(first.response.statusText);
      expect(headerList(second.response), path).toEqual(headerList(first.response));
      expect(second.body.equals(first.body), path).toBe(true);
      expect(second.response.headers.get("content-length"), path).toBe(String(first.body.length));
      // The same as the app's own answer to a hit, security headers included.
      const viaApp = await app.fetch(new Request(`http://localhost${path}`));
      expect(headerList(viaApp), path).toEqual(headerList(second.response));
      expect(Buffer.from(await viaApp.arrayBuffer()).equals(second.body), path).toBe(true);
      const head = await fetchCounted(path, "HEAD");
      expect(head.reachedApp, path).toBe(false);
      expect(headerList(head.response), path).toEqual(headerList(first.response));
      expect(head.body.length, path).toBe(0);
    }
    expect(headerList((await fetchCounted("/api/brands")).response).map(([name]) => name)).toEqual(
      expect.arrayContaining(["content-security-policy", "x-content-type-options", "cache-control", "content-type"]),
    );
  });

  it("gives the same answer as the app for the same URL spelled differently", async () => {
    api.cache.invalidate();
    const first = await fetchCounted("/api/products?limit=15&sort=rank_asc");
    const second = await fetchCounted("/api/products?sort=rank_asc");
    expect(second.reachedApp).toBe(false);
    expect(second.body.equals(first.body)).toBe(true);
  });

  it("misses once the catalogue was written, by this process or another", async () => {
    const path = "/api/products?limit=1";
    api.cache.invalidate();
    await fetchCounted(path);
    expect((await fetchCounted(path)).reachedApp).toBe(false);

    const other = openDb(api.databaseFile);
    other.$client.prepare("UPDATE products SET name = 'Renamed elsewhere' WHERE rank = 1").run();
    other.$client.close();
    const afterOther = await fetchCounted(path);
    expect(afterOther.reachedApp).toBe(true);
    expect(afterOther.body.toString()).toContain("Renamed elsewhere");

    await fetchCounted(path);
    api.db.$client.prepare("UPDATE products SET name = 'Renamed here' WHERE rank = 1").run();
    api.cache.invalidate();
    const afterHere = await fetchCounted(path);
    expect(afterHere.reachedApp).toBe(true);
    expect(afterHere.body.toString()).toContain("Renamed here");
  });

  it("leaves errors and other routes to the app", async () => {
    for (const [path, status] of [
      ["/api/products?junk=1", 400],
      ["/api/products/no-such-product", 404],
      ["/api/products?sort=nope", 400],
      ["/api/health", 200],
    ] as const) {
      for (let i = 0; i < 2; i++) {
        const result = await fetchCounted(path);
        expect(result.response.status, path).toBe(status);
        expect(result.reachedApp, path).toBe(true);
      }
    }
  });
});
