/**
 * The site handler through the real app (in-process requests), over release folders laid out as
 * the release store publishes them.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { H3 } from "h3";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApp } from "../app.ts";
import { createReleaseStore, writeScriptHashes, type ReleaseStore } from "../site-build/releases.ts";
import { writeFiles } from "../test/files.ts";
import { tempDb, type TempDb } from "../../data/db/fixtures/temp-db.ts";
import { decodedBody } from "../test/bodies.ts";

let temp: TempDb;
let dir: string;
let store: ReleaseStore;
let root: string | null = null;
let base: string;
let fast: string;
let bare: string;

const baseHome = "<h1>base home</h1>";
const fastHome = "<h1>fast home</h1>";
const base404 = "<h1>base 404</h1>";
const biscuitPage = `<h1>biscuit</h1>${"<p>crunchy</p>".repeat(200)}`;
const treatPage = `<h1>treat</h1>${"<p>chewy £2.50</p>".repeat(200)}`;

/** Writes a file's compressed forms beside it, as the build stores them. */
function writeCompressed(root: string, name: string, text: string, forms: readonly ("gzip" | "br")[]): void {
  const file = path.join(root, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (forms.includes("gzip")) fs.writeFileSync(`${file}.gz`, zlib.gzipSync(text));
  if (forms.includes("br")) fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(text));
}

function publish(
  files: Record<string, string>,
  meta: { kind: "full" | "fast"; base: string | null },
  more: { compressed?: Record<string, [string, ("gzip" | "br")[]]>; scriptHashes?: string[] } = {},
): string {
  const staged = store.stage();
  writeFiles(staged.dir, files);
  for (const [name, [text, forms]] of Object.entries(more.compressed ?? {})) writeCompressed(staged.dir, name, text, forms);
  if (more.scriptHashes) writeScriptHashes(staged.dir, more.scriptHashes);
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
      "index.html": baseHome,
      "404.html": base404,
      "product-not-found/index.html": "<h1>no such product</h1>",
      // Product pages are stored one file each; kibble's as a release built before that stored it.
      "product/kibble/index.html": "<h1>kibble, base</h1>",
      "product/bone.html": "<h1>bone, base</h1>",
      "admin/index.html": "<div id=admin-app></div>",
      "_astro/app.js": "console.log(1)",
    },
    { kind: "full", base: null },
    {
      compressed: {
        "index.html": [baseHome, ["gzip", "br"]],
        "404.html": [base404, ["gzip", "br"]],
        // A product page as the build stores it: brotli only; and as earlier releases did: gzip only.
        "product/treat.html": [treatPage, ["br"]],
        "product/biscuit.html": [biscuitPage, ["gzip"]],
      },
      scriptHashes: ["sha256-base1", "sha256-base2"],
    },
  );
  fast = publish(
    { "index.html": fastHome, "product/kibble.html": "<h1>kibble, fast</h1>" },
    { kind: "fast", base: path.basename(base) },
    { scriptHashes: ["sha256-fast1"] },
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
    expect(await get("/product/kibble/")).toMatchObject({ status: 200, text: "<h1>kibble, base</h1>" });
  });

  it("serves a page at its own address only: not by its stored file's name, nor a status page as a page", async () => {
    root = base;
    expect(await get("/product/bone.html")).toMatchObject({ status: 404, text: "<h1>no such product</h1>" });
    expect(await get("/product/bone/index.html")).toMatchObject({ status: 404, text: "<h1>no such product</h1>" });
    expect((await get("/product")).status).toBe(404);
    expect((await get("/404")).status).toBe(404);
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
    "/.csp.json",
    "/index.html.gz",
    "/index.html.br",
    "/404.html.gz",
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


const request = (pathname: string, init?: RequestInit) => app().request(pathname, init);
const accepting = (acceptEncoding: string, method = "GET") => ({ method, headers: { "accept-encoding": acceptEncoding } });

describe("compressed answers", () => {
  it.each([
    ["gzip, deflate, br, zstd", "br"],
    ["gzip", "gzip"],
    ["br;q=0, gzip;q=0.5", "gzip"],
    ["*", "br"],
    ["identity", null],
    ["gzip;q=0, br;q=0", null],
  ])("answers Accept-Encoding %j with the stored form %s, which decodes to the page", async (acceptEncoding, expected) => {
    root = base;
    const response = await request("/", accepting(acceptEncoding));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-encoding")).toBe(expected);
    expect(response.headers.get("vary")).toBe("accept-encoding");
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await decodedBody(response)).toBe(baseHome);
  });

  it("sends plain HTML to a client that sends no Accept-Encoding", async () => {
    root = base;
    const response = await request("/");
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(response.headers.get("vary")).toBe("accept-encoding");
    expect(await response.text()).toBe(baseHome);
  });

  it("sends a page stored only as brotli as it is, recompressed as gzip to a client that takes gzip only, or decompressed", async () => {
    root = base;
    const brotli = await request("/product/treat/", accepting("gzip, deflate, br, zstd"));
    expect(brotli.headers.get("content-encoding")).toBe("br");
    expect(await decodedBody(brotli)).toBe(treatPage);
    for (const acceptEncoding of ["gzip, deflate", "br;q=0, gzip"]) {
      const gzip = await request("/product/treat/", accepting(acceptEncoding));
      expect(gzip.headers.get("content-encoding"), acceptEncoding).toBe("gzip");
      expect(gzip.headers.get("vary")).toBe("accept-encoding");
      // Its own validator: a cache must not answer a gzip request with the brotli bytes.
      expect(gzip.headers.get("etag")).toMatch(/-gzip"$/);
      expect(gzip.headers.get("etag")).not.toBe(brotli.headers.get("etag"));
      const body = Buffer.from(await gzip.arrayBuffer());
      expect(gzip.headers.get("content-length")).toBe(String(body.length));
      expect(body.length).toBeLessThan(Buffer.byteLength(treatPage) / 5);
      expect(zlib.gunzipSync(body).toString("utf8")).toBe(treatPage);
    }
    for (const acceptEncoding of [null, "identity", "gzip;q=0, br;q=0"]) {
      const plain = await request("/product/treat", acceptEncoding === null ? {} : accepting(acceptEncoding));
      expect(plain.headers.get("content-encoding"), String(acceptEncoding)).toBeNull();
      expect(await plain.text()).toBe(treatPage);
    }
  });

  it("sends a page stored only as gzip as it is, or decompressed to a client without gzip", async () => {
    root = fast;
    const zipped = await request("/product/biscuit/", accepting("gzip, deflate, br"));
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    expect(await decodedBody(zipped)).toBe(biscuitPage);
    const plain = await request("/product/biscuit");
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("content-length")).toBe(String(Buffer.byteLength(biscuitPage)));
    expect(await plain.text()).toBe(biscuitPage);
  });

  it("takes all of a page's forms from the layer that has it (a fast release's page over its base's variants)", async () => {
    root = fast;
    const response = await request("/", accepting("gzip, br"));
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(await decodedBody(response)).toBe(fastHome);
  });

  it("answers HEAD with the headers of the compressed form and no body", async () => {
    root = base;
    const response = await request("/", accepting("gzip", "HEAD"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-encoding")).toBe("gzip");
    expect(response.headers.get("content-length")).toBe(String(fs.statSync(path.join(base, "index.html.gz")).size));
    expect(await response.text()).toBe("");
  });

  it("revalidates each form by its own ETag and by Last-Modified", async () => {
    root = base;
    const first = await request("/", accepting("gzip"));
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^W\/".+"$/);
    expect((await request("/")).headers.get("etag")).not.toBe(etag);
    const again = await request("/", { headers: { "accept-encoding": "gzip", "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    const since = await request("/", { headers: { "if-modified-since": first.headers.get("last-modified")! } });
    expect(since.status).toBe(304);
    const stale = await request("/", { headers: { "accept-encoding": "gzip", "if-none-match": 'W/"0-0"' } });
    expect(stale.status).toBe(200);
  });

  it("sends the 404 page compressed", async () => {
    root = fast;
    const response = await request("/nowhere", accepting("br"));
    expect(response.status).toBe(404);
    expect(response.headers.get("content-encoding")).toBe("br");
    expect(await decodedBody(response)).toBe(base404);
  });
});

describe("security headers", () => {
  const expectPageHeaders = (response: Response, hashes: readonly string[]) => {
    const policy = response.headers.get("content-security-policy") ?? "";
    const scriptSources = /script-src ([^;]*)/.exec(policy)?.[1]?.split(" ") ?? [];
    expect(scriptSources.sort()).toEqual(["'self'", ...hashes.map((hash) => `'${hash}'`)].sort());
    expect(policy).toContain("frame-ancestors 'none'");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    // PUBLIC_BASE_URL is http here: no HTTPS pinning.
    expect(response.headers.get("strict-transport-security")).toBeNull();
  };
  const allHashes = ["sha256-base1", "sha256-base2", "sha256-fast1"];

  it.each([
    ["a page", "/"],
    ["a page from the base release", "/product/bone"],
    ["a compressed page", "/product/biscuit"],
    ["an asset", "/_astro/app.js"],
    ["a 404 page", "/nowhere"],
    ["a product's 404 page", "/product/gone"],
    ["a dot path", "/.csp.json"],
    ["the admin app's page", "/admin/products"],
  ])("are sent on %s, allowing the inline scripts of every layer", async (_, pathname) => {
    root = fast;
    expectPageHeaders(await request(pathname, accepting("gzip")), allHashes);
  });

  it("allow only a release's own hashes (a full release has no fast layer)", async () => {
    root = base;
    expectPageHeaders(await request("/"), ["sha256-base1", "sha256-base2"]);
  });

  it("are sent on the 503 page while there is no release, and on 304s", async () => {
    root = null;
    expectPageHeaders(await request("/"), []);
    root = base;
    const etag = (await request("/")).headers.get("etag")!;
    const again = await request("/", { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    expectPageHeaders(again, ["sha256-base1", "sha256-base2"]);
  });

  it("pin HTTPS (Strict-Transport-Security) when the public base URL is https", async () => {
    const configured = process.env.PUBLIC_BASE_URL;
    process.env.PUBLIC_BASE_URL = "https://www.pawprice.example";
    vi.resetModules();
    try {
      const { createSiteHandler } = await import("./site.ts");
      const site = new H3().all("/**", createSiteHandler(() => base));
      const response = await site.request("/");
      expect(response.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
      expect(response.headers.get("content-security-policy")).toContain("'sha256-base1'");
      // The answer to a method the site does not take pins HTTPS too, under the API's policy.
      const refused = await site.request("/", { method: "POST" });
      expect(refused.status).toBe(405);
      expect(refused.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
      expect(refused.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
    } finally {
      if (configured === undefined) delete process.env.PUBLIC_BASE_URL;
      else process.env.PUBLIC_BASE_URL = configured;
      vi.resetModules();
    }
  });

  it("replace the old SAMEORIGIN framing rule", async () => {
    root = bare;
    const response = await request("/");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expectPageHeaders(response, []);
  });
});
