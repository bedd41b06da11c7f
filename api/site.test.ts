/**
 * The site handler through the real app (in-process requests), over release folders laid out as
 * the release store publishes them.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "./app.ts";
import { createReleaseStore, type ReleaseStore } from "./site-releases.ts";
import { writeFiles } from "./test/files.ts";
import { tempDb, type TempDb } from "../data/db/fixtures/temp-db.ts";

let temp: TempDb;
let dir: string;
let store: ReleaseStore;
let root: string | null = null;
let base: string;
let fast: string;
let bare: string;

function publish(files: Record<string, string>, meta: { kind: "full" | "fast"; base: string | null }): string {
  const staged = store.stage();
  writeFiles(staged.dir, files);
  store.publish(staged, meta);
  fs.rmSync(staged.scratch, { recursive: true });
  return path.join(store.dir, staged.name);
}

beforeAll(async () => {
  temp = await tempDb();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-site-"));
  store = createReleaseStore(path.join(dir, "releases"));
  base = publish(
    {
      "index.html": "<h1>base home</h1>",
      "404.html": "<h1>base 404</h1>",
      "product-not-found/index.html": "<h1>no such product</h1>",
      "product/kibble/index.html": "<h1>kibble, base</h1>",
      "product/bone/index.html": "<h1>bone, base</h1>",
      "admin/index.html": "<div id=admin-app></div>",
      "_astro/app.js": "console.log(1)",
    },
    { kind: "full", base: null },
  );
  fast = publish(
    { "index.html": "<h1>fast home</h1>", "product/kibble/index.html": "<h1>kibble, fast</h1>" },
    { kind: "fast", base: path.basename(base) },
  );
  // A build's intermediates, as a killed build leaves them (never served, even inside a release).
  writeFiles(base, { ".prerender/chunks/server.mjs": "export const secret = 1;", "_astro/.vite/manifest.json": "{}" });
  bare = path.join(dir, "bare");
  writeFiles(bare, { "index.html": "<h1>bare home</h1>" });
});
afterAll(() => {
  temp.remove();
  fs.rmSync(dir, { recursive: true, force: true });
});

const app = () => createApp({ db: temp.db }, { siteRoot: () => root });

async function get(pathname: string, init?: RequestInit) {
  const response = await app().request(pathname, init);
  return { status: response.status, text: await response.text(), headers: response.headers };
}

describe("serving a release", () => {
  it("answers 503 while there is no release", async () => {
    root = null;
    const response = await get("/");
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("30");
  });

  it("serves a full release's files, and its not-found pages", async () => {
    root = base;
    expect(await get("/")).toMatchObject({ status: 200, text: "<h1>base home</h1>" });
    expect(await get("/product/bone")).toMatchObject({ status: 200, text: "<h1>bone, base</h1>" });
    expect(await get("/nowhere")).toMatchObject({ status: 404, text: "<h1>base 404</h1>" });
    expect(await get("/product/gone")).toMatchObject({ status: 404, text: "<h1>no such product</h1>" });
  });

  it("serves a fast release's own pages first and the rest from its base", async () => {
    root = fast;
    expect(await get("/")).toMatchObject({ status: 200, text: "<h1>fast home</h1>" });
    expect(await get("/product/kibble/")).toMatchObject({ status: 200, text: "<h1>kibble, fast</h1>" });
    expect(await get("/product/bone")).toMatchObject({ status: 200, text: "<h1>bone, base</h1>" });
    expect(await get("/_astro/app.js")).toMatchObject({ status: 200, text: "console.log(1)" });
    expect(await get("/product/gone")).toMatchObject({ status: 404, text: "<h1>no such product</h1>" });
  });

  it("serves a plain folder (no release record) as it is", async () => {
    root = bare;
    expect(await get("/")).toMatchObject({ status: 200, text: "<h1>bare home</h1>" });
  });

  it("answers other methods with 405", async () => {
    root = base;
    const response = await get("/", { method: "POST" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD");
  });
});

describe("dot paths", () => {
  it.each([
    "/.prerender/chunks/server.mjs",
    "/.release.json",
    "/%2eprerender/chunks/server.mjs",
    "/%2Erelease.json",
    "/_astro/.vite/manifest.json",
    "/_astro/%2evite/manifest.json",
  ])("never serves %s", async (pathname) => {
    root = fast;
    const response = await get(pathname);
    expect(response.status).toBe(404);
    expect(response.text).toBe("<h1>base 404</h1>");
    expect(response.text).not.toContain("secret");
  });

  it("is not fooled by a HEAD request either", async () => {
    root = base;
    expect((await get("/.prerender/chunks/server.mjs", { method: "HEAD" })).status).toBe(404);
  });
});

describe("the admin app's page", () => {
  it.each(["/admin", "/admin/", "/admin/products", "/admin/products/12/edit"])(
    "answers %s with the admin page, never cached or indexed",
    async (pathname) => {
      root = fast;
      const response = await get(pathname);
      expect(response.status).toBe(200);
      expect(response.text).toBe("<div id=admin-app></div>");
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(response.headers.get("x-robots-tag")).toBe("noindex");
      expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    },
  );

  it("answers HEAD without a body", async () => {
    root = base;
    const response = await get("/admin/vouchers", { method: "HEAD" });
    expect(response).toMatchObject({ status: 200, text: "" });
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it("is not served for addresses outside /admin", async () => {
    root = base;
    expect(await get("/administrator")).toMatchObject({ status: 404, text: "<h1>base 404</h1>" });
  });

  it("falls back to the ordinary 404 when the release has no admin page", async () => {
    root = bare;
    const response = await get("/admin/products");
    expect(response.status).toBe(404);
    expect(response.headers.get("x-robots-tag")).toBeNull();
  });
});
