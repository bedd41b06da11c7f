import { createServer, IncomingMessage, request as httpRequest, ServerResponse } from "node:http";
import { Socket, type AddressInfo } from "node:net";
import { toNodeHandler } from "h3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../app.ts";
import { createFastReads, maxMemoKeys, maxMemoUrlLength, serveApi } from "./fast-reads.ts";
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

describe("which parts serveApi puts before the app", () => {
  /** serveApi over the same app with `ctx`, started inside the test, and its address. */
  async function serveWith(ctx: Parameters<typeof serveApi>[1]) {
    const started = serveApi(app, ctx, { port: 0, hostname: "127.0.0.1", silent: true });
    await started.ready();
    return { started, url: `http://127.0.0.1:${(started.node!.server!.address() as AddressInfo).port}` };
  }

  it("answers hits before the app with a response cache alone (no telemetry, no site pages)", async () => {
    const { started, url } = await serveWith({ ...api.services.context, telemetry: undefined });
    try {
      api.cache.invalidate();
      const calls = appCalls;
      expect((await fetch(`${url}/api/brands`)).status).toBe(200);
      expect(appCalls).toBe(calls + 1);
      const hit = await fetch(`${url}/api/brands`);
      expect(hit.status).toBe(200);
      expect(appCalls).toBe(calls + 1);
      expect(hit.headers.get("x-request-id")).toBeNull();
    } finally {
      await started.close(true);
    }
  });

  it("with telemetry alone (no cache, no trusted proxies configured) gives every answer an id and answers /metrics", async () => {
    const { started, url } = await serveWith({ ...api.services.context, cache: undefined, requests: undefined });
    try {
      const calls = appCalls;
      for (let i = 0; i < 2; i++) {
        const answer = await fetch(`${url}/api/brands`, { headers: { "x-request-id": `telemetry-only-${i}` } });
        expect(answer.status).toBe(200);
        expect(answer.headers.get("x-request-id")).toBe(`telemetry-only-${i}`);
      }
      expect(appCalls).toBe(calls + 2); // no fast path without a cache
      const metrics = await fetch(`${url}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toContain("pawprice_http_requests_total");
    } finally {
      await started.close(true);
    }
  });
});

describe("the fast path's own rules", () => {
  /** A real server: the fast path over the cache first, then the app (as serveApi puts them). */
  async function fastServer(wrap?: (res: ServerResponse) => void) {
    const fast = createFastReads(api.cache);
    const handler = toNodeHandler(app);
    const server = createServer((req, res) => {
      if (fast(req, res)) return;
      wrap?.(res);
      void handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
    return { fast, url, close };
  }

  it("counts the answers it gives, GET and HEAD hits alike, and nothing for what the app answers", async () => {
    const { fast, url, close } = await fastServer();
    try {
      api.cache.invalidate();
      expect((await fetch(`${url}/api/brands`)).status).toBe(200);
      expect(fast.served).toBe(0);
      expect((await fetch(`${url}/api/brands`)).status).toBe(200);
      expect((await fetch(`${url}/api/brands`, { method: "HEAD" })).status).toBe(200);
      expect(fast.served).toBe(2);
      expect((await fetch(`${url}/api/products?junk=1`)).status).toBe(400);
      // A GET route that is not cached is not the fast path's at all.
      expect((await fetch(`${url}/api/health`)).status).toBe(200);
      expect(fast.served).toBe(2);
      expect(fast.remembered()).toBe(1); // /api/brands only
    } finally {
      await close();
    }
  });

  it("leaves every other method to the app, even at a URL whose answer is cached", async () => {
    api.cache.invalidate();
    await fetchCounted("/api/brands");
    expect((await fetchCounted("/api/brands")).reachedApp).toBe(false);
    const post = await fetchCounted("/api/brands", "POST");
    expect(post.reachedApp).toBe(true);
    expect(post.response.status).toBe(405);
  });

  it("leaves a request target that is not a path (absolute form) to the app", async () => {
    api.cache.invalidate();
    await fetchCounted("/api/brands");
    const calls = appCalls;
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest({ host: "127.0.0.1", port: new URL(baseUrl).port, path: `${baseUrl}/api/brands`, agent: false }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode!));
      });
      req.on("error", reject);
      req.end();
    });
    expect(appCalls).toBe(calls + 1);
    expect(status).toBe(200);
  });

  it("replays an answer whose head came without a status text (srvx writes it so over HTTP/2) with all its headers", async () => {
    // The app's head written as writeHead(status, headers), the status text left out.
    const { url, close } = await fastServer((res) => {
      const writeHead = res.writeHead;
      res.writeHead = function (this: ServerResponse, status: number, ...rest: unknown[]) {
        const headers = rest.find((part) => Array.isArray(part));
        return (writeHead as (...args: unknown[]) => ServerResponse).call(this, status, headers);
      } as ServerResponse["writeHead"];
    });
    try {
      api.cache.invalidate();
      const first = await fetch(`${url}/api/brands`);
      const firstBody = await first.text();
      const calls = appCalls;
      const hit = await fetch(`${url}/api/brands`);
      expect(appCalls).toBe(calls);
      expect(hit.status).toBe(200);
      expect(headerList(hit)).toEqual(headerList(first));
      expect(hit.headers.get("content-type")).toBe(first.headers.get("content-type"));
      expect(await hit.text()).toBe(firstBody);
    } finally {
      await close();
    }
  });

  describe("the memo of URLs", () => {
    /** Asks the fast path about `url` with a HEAD request (a miss writes nothing and records nothing). */
    const ask = (fast: ReturnType<typeof createFastReads>, url: string) => {
      const req = new IncomingMessage(new Socket());
      req.method = "HEAD";
      req.url = url;
      return fast(req, new ServerResponse(req));
    };

    it(`keeps URLs that parsed, of up to ${maxMemoUrlLength} characters and not one more`, () => {
      const fast = createFastReads(api.cache);
      api.cache.invalidate();
      const padded = (length: number) => `/api/brands?${"&".repeat(length - "/api/brands?".length)}`; // empty parameters: the same read
      expect(ask(fast, padded(maxMemoUrlLength + 1))).toBe(false);
      expect(fast.remembered()).toBe(0);
      expect(ask(fast, padded(maxMemoUrlLength))).toBe(false);
      expect(fast.remembered()).toBe(1);
      // A URL that does not parse (the app's 400) is not kept.
      expect(ask(fast, "/api/products?junk=1")).toBe(false);
      expect(fast.remembered()).toBe(1);
    });

    it(`starts over once it holds ${maxMemoKeys} URLs`, () => {
      const fast = createFastReads(api.cache);
      for (let i = 0; i < maxMemoKeys; i++) ask(fast, `/api/products/count?brand=b${i}`);
      expect(fast.remembered()).toBe(maxMemoKeys);
      ask(fast, "/api/products/count?brand=b0"); // kept already
      expect(fast.remembered()).toBe(maxMemoKeys);
      ask(fast, `/api/products/count?brand=b${maxMemoKeys}`);
      expect(fast.remembered()).toBe(1);
    });
  });
});
