import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { H3, HTTPError } from "h3";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cachedReadOf, defineCachedRead, withCache } from "./cached-route.ts";
import { ResponseCache } from "./response-cache.ts";
import { declarationOf } from "./route-input.ts";
import { openDb, type Db } from "../../data/db/client.ts";
import type { AppContext, RouteHandler } from "../context.ts";

let dir: string;
let db: Db;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cached-route-"));
  db = openDb(path.join(dir, "cached-route.db"));
});
afterAll(() => {
  db.$client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A read of one thing by slug that counts how often it really ran. */
function thingRead() {
  const calls = { count: 0 };
  const handler = defineCachedRead({
    path: { slug: z.string() },
    query: z.object({ size: z.coerce.number().int().default(1) }),
    maxAgeSeconds: 30,
    read: ({ path: { slug }, query: { size } }) => {
      calls.count++;
      return { slug, size, call: calls.count };
    },
  });
  return { handler, calls };
}

/** A real h3 app serving the handler at /things/:slug, as the route table does. */
function appFor(handler: RouteHandler, ctx: AppContext) {
  const app = new H3();
  app.get("/things/:slug", (event) => handler(event, ctx));
  return (url: string) => app.fetch(new Request(`http://localhost${url}`));
}

/** The 400 a parse throws. */
function parseError(run: () => unknown): HTTPError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(HTTPError);
    expect((error as HTTPError).status).toBe(400);
    return error as HTTPError;
  }
  throw new Error("expected a 400");
}

describe("defineCachedRead", () => {
  it("answers on its own (not marked cached): JSON with its cache headers, read every time", async () => {
    const { handler, calls } = thingRead();
    const get = appFor(handler, { db });
    const response = await get("/things/caf%C3%A9?size=3");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ slug: "café", size: 3, call: 1 });
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("public, max-age=30, stale-while-revalidate=60");
    expect(await (await get("/things/caf%C3%A9?size=3")).json()).toEqual({ slug: "café", size: 3, call: 2 });
    expect(calls.count).toBe(2);
  });

  it("names an unknown query parameter, cut to 40 characters when longer", () => {
    const read = cachedReadOf(thingRead().handler)!;
    const forty = "p".repeat(40);
    expect(parseError(() => read.parse({ slug: "a" }, new URLSearchParams(`${forty}=1`))).message).toBe(
      `Unknown query parameter "${forty}": this endpoint takes size`,
    );
    expect(parseError(() => read.parse({ slug: "a" }, new URLSearchParams(`${forty}q=1`))).message).toBe(
      `Unknown query parameter "${forty}...": this endpoint takes size`,
    );
  });

  it("says which query parameters it takes, or that it takes none", () => {
    const none = cachedReadOf(defineCachedRead({ maxAgeSeconds: 30, read: () => "all" }))!;
    expect(parseError(() => none.parse({}, new URLSearchParams("page=2"))).message).toBe('Unknown query parameter "page": this endpoint takes no query parameters');
    expect(none.parse({}, new URLSearchParams()).input).toEqual({ path: {}, query: {} });
    const two = cachedReadOf(defineCachedRead({ query: z.object({ size: z.string(), sort: z.string() }), maxAgeSeconds: 30, read: () => "all" }))!;
    expect(parseError(() => two.parse({}, new URLSearchParams("page=2"))).message).toBe('Unknown query parameter "page": this endpoint takes size, sort');
  });

  it("declares its input for the API's documentation: its summary, path and query schemas, and that no other query parameter is taken", () => {
    const path = { slug: z.string() };
    const query = z.object({ size: z.coerce.number().int().default(1) });
    const handler = defineCachedRead({ summary: "One thing by its slug", path, query, maxAgeSeconds: 30, read: () => null });
    const declared = declarationOf(handler)!;
    expect(declared).toEqual({ summary: "One thing by its slug", params: path, query, closedQuery: true });
    expect(declared.params!.slug).toBe(path.slug);
    expect(declared.query).toBe(query);
    // A handler nothing declared reads no input.
    expect(declarationOf(() => null)).toBeUndefined();
  });

  it("refuses a path parameter that is not valid percent-encoding, and reads a missing one as empty text", () => {
    const read = cachedReadOf(thingRead().handler)!;
    expect(parseError(() => read.parse({ slug: "%E0%A4%A" }, new URLSearchParams())).message).toBe("slug is not valid URL encoding");
    expect(read.parse({}, new URLSearchParams()).input.path).toEqual({ slug: "" });
  });
});

describe("withCache", () => {
  it("runs the read on every request when the server keeps no cache", async () => {
    const { handler, calls } = thingRead();
    const get = appFor(withCache(handler), { db, cache: undefined });
    expect(await (await get("/things/a")).json()).toEqual({ slug: "a", size: 1, call: 1 });
    expect(await (await get("/things/a")).json()).toEqual({ slug: "a", size: 1, call: 2 });
    expect(calls.count).toBe(2);
  });

  it("answers a repeated read from the cache, keyed on the parsed parameters", async () => {
    const { handler, calls } = thingRead();
    const get = appFor(withCache(handler), { db, cache: new ResponseCache(db) });
    expect(await (await get("/things/a")).json()).toEqual({ slug: "a", size: 1, call: 1 });
    const again = await get("/things/a?size=1");
    expect(await again.json()).toEqual({ slug: "a", size: 1, call: 1 });
    expect(again.headers.get("cache-control")).toBe("public, max-age=30, stale-while-revalidate=60");
    expect(calls.count).toBe(1);
  });

  it("refuses a handler that was not made by defineCachedRead", () => {
    expect(() => withCache(() => "plain")).toThrow("withCache: the handler was not made by defineCachedRead, so it has no cache key");
  });
});
