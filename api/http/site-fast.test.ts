/**
 * The site's pages answered at the HTTP server (api/http/site.ts `answerNode`, hooked in by serveApi)
 * against the same release answered through the h3 app: the same status, headers and bytes, over
 * real HTTP. Also: what each kind of path may be cached for, and the bytes kept in memory.
 */
import fs from "node:fs";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../app.ts";
import { serveApi } from "./fast-reads.ts";
import { cacheControl, createSitePages, type SitePages } from "./site.ts";
import { PagePackWriter } from "../site-build/page-pack.ts";
import { createReleaseStore, writeScriptHashes, type ReleaseStore } from "../site-build/releases.ts";
import { writeFiles } from "../test/files.ts";
import { siteServingConfig } from "../../data/config.ts";
import { tempDb, type TempDb } from "../../data/db/fixtures/temp-db.ts";

let temp: TempDb;
let dir: string;
let store: ReleaseStore;
let root: string | null = null;
let base: string;
let fast: string;
let bare: string;
let pages: SitePages;
let viaApp: ReturnType<typeof serveApi>;
let viaFastPath: ReturnType<typeof serveApi>;
let appUrl: string;
let fastUrl: string;

const baseHome = "<h1>base home</h1>".repeat(100);
const base404 = "<h1>base 404</h1>".repeat(100);
const treatPage = `<h1>treat</h1>${"<p>chewy £2.50</p>".repeat(200)}`;
const biscuitPage = `<h1>biscuit</h1>${"<p>crunchy</p>".repeat(200)}`;
/** Packed in the full release (as a full build stores product pages), and a file in the fast one. */
const chewPage = `<h1>chew</h1>${"<p>lasts £3.10</p>".repeat(200)}`;
const chewBrotli = zlib.brotliCompressSync(chewPage);
const rules = { pageSharedMaxAge: 60, staleWhileRevalidate: 86_400 };

function publish(
  files: Record<string, string>,
  meta: { kind: "full" | "fast"; base: string | null },
  compressed: Record<string, [string, ("gzip" | "br")[]]> = {},
  scriptHashes: string[] = [],
  packed: Record<string, Buffer> = {},
): string {
  const staged = store.stage();
  writeFiles(staged.dir, files);
  if (Object.keys(packed).length > 0) {
    const pack = new PagePackWriter(staged.dir);
    for (const [name, bytes] of Object.entries(packed)) pack.add(name, bytes);
    pack.finish();
  }
  for (const [name, [text, forms]] of Object.entries(compressed)) {
    const file = path.join(staged.dir, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    if (forms.includes("gzip")) fs.writeFileSync(`${file}.gz`, zlib.gzipSync(text));
    if (forms.includes("br")) fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(text));
  }
  writeScriptHashes(staged.dir, scriptHashes);
  store.publish(staged, meta);
  fs.rmSync(staged.scratch, { recursive: true });
  return path.join(store.dir, staged.name);
}

const urlOf = (server: ReturnType<typeof serveApi>) => `http://127.0.0.1:${(server.node!.server!.address() as AddressInfo).port}`;

beforeAll(async () => {
  temp = await tempDb();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-site-fast-"));
  store = createReleaseStore(path.join(dir, "releases"));
  base = publish(
    {
      "index.html": baseHome,
      "404.html": base404,
      "product-not-found/index.html": "<h1>no such product</h1>",
      "product/bone.html": "<h1>bone, base</h1>",
      "product/kibble/index.html": "<h1>kibble, base</h1>",
      "admin/index.html": "<div id=admin-app></div>",
      "_astro/app.js": "console.log(1)",
      "favicon.svg": "<svg></svg>",
      "sitemap.xml": "<urlset></urlset>",
    },
    { kind: "full", base: null },
    {
      "index.html": [baseHome, ["gzip", "br"]],
      "404.html": [base404, ["gzip", "br"]],
      "product/treat.html": [treatPage, ["br"]],
      "product/biscuit.html": [biscuitPage, ["gzip"]],
    },
    ["sha256-base1"],
    // A packed page, and a stale packed copy of a page the release also has as a file (the file wins).
    { "product/chew.html": chewBrotli, "product/bone.html": zlib.brotliCompressSync("<h1>bone, packed</h1>") },
  );
  fast = publish(
    { "index.html": "<h1>fast home</h1>", "product/kibble.html": "<h1>kibble, fast</h1>", "product/chew.html": "<h1>chew, fast</h1>" },
    { kind: "fast", base: path.basename(base) },
    {},
    ["sha256-fast1"],
  );
  writeFiles(base, { ".prerender/chunks/server.mjs": "export const secret = 1;" });
  bare = path.join(dir, "bare");
  writeFiles(bare, { "index.html": "<h1>bare home</h1>" });

  // The same release through the app alone, and through the fast path first.
  const plainPages = createSitePages(() => root, { cache: rules, bodyCacheBytes: 1024 * 1024 });
  viaApp = serveApi(createApp({ db: temp.db }, { siteRoot: () => root, sitePages: plainPages }), { db: temp.db }, { port: 0, hostname: "127.0.0.1", silent: true });
  pages = createSitePages(() => root, { cache: rules, bodyCacheBytes: 1024 * 1024 });
  viaFastPath = serveApi(
    createApp({ db: temp.db }, { siteRoot: () => root, sitePages: pages }),
    { db: temp.db },
    { port: 0, hostname: "127.0.0.1", silent: true },
    pages,
  );
  await Promise.all([viaApp.ready(), viaFastPath.ready()]);
  appUrl = urlOf(viaApp);
  fastUrl = urlOf(viaFastPath);
});
afterAll(async () => {
  await Promise.all([viaApp.close(true), viaFastPath.close(true)]);
  temp.remove();
  fs.rmSync(dir, { recursive: true, force: true });
});

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Headers Node's server writes per connection or per answer, whoever answers. */
const transport = new Set(["date", "connection", "keep-alive"]);

/** One request over real HTTP, the body as sent (not decoded). */
function raw(baseUrl: string, pathname: string, method = "GET", headers: Record<string, string | readonly string[]> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${baseUrl}${pathname}`, { method, headers: headers as http.OutgoingHttpHeaders, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const kept = Object.entries(response.headers)
          .filter(([name]) => !transport.has(name))
          .map(([name, value]) => [name, String(value)] as const)
          .sort(([a], [b]) => a.localeCompare(b));
        resolve({ status: response.statusCode!, headers: Object.fromEntries(kept), body: Buffer.concat(chunks) });
      });
    });
    request.on("error", reject);
    request.end();
  });
}

/** The answer through the app and through the fast path, and whether the fast path gave it. */
async function both(pathname: string, method = "GET", headers: Record<string, string | readonly string[]> = {}) {
  const app = await raw(appUrl, pathname, method, headers);
  const served = pages.served;
  const fastPath = await raw(fastUrl, pathname, method, headers);
  return { app, fastPath, answeredFast: pages.served > served };
}

const farFuture = "Wed, 01 Jan 2098 00:00:00 GMT";
const longAgo = "Mon, 01 Jan 2001 00:00:00 GMT";

describe("the fast path answers as the app does", () => {
  it.each([
    ["a page to a browser", "/", "GET", { "accept-encoding": "gzip, deflate, br, zstd" }, 200, "br"],
    ["a page to a gzip-only client", "/", "GET", { "accept-encoding": "gzip" }, 200, "gzip"],
    ["a page to an identity client", "/", "GET", { "accept-encoding": "identity" }, 200, undefined],
    ["a page to a client without Accept-Encoding", "/", "GET", {}, 200, undefined],
    ["a page to a client sending Accept-Encoding twice", "/", "GET", { "accept-encoding": ["br;q=0", "gzip"] }, 200, "gzip"],
    ["a page with a query string", "/?utm_source=mail", "GET", { "accept-encoding": "br" }, 200, "br"],
    ["a brotli-only page to a gzip-only client", "/product/treat", "GET", { "accept-encoding": "gzip" }, 200, "gzip"],
    ["a brotli-only page to an identity client", "/product/treat/", "GET", { "accept-encoding": "identity" }, 200, undefined],
    ["a gzip-only page to a client without gzip", "/product/biscuit", "GET", {}, 200, undefined],
    ["a product page stored in a folder", "/product/kibble/", "GET", {}, 200, undefined],
    ["a packed page to a browser", "/product/chew", "GET", { "accept-encoding": "gzip, deflate, br, zstd" }, 200, "br"],
    ["a packed page to a gzip-only client", "/product/chew/", "GET", { "accept-encoding": "gzip" }, 200, "gzip"],
    ["a packed page to a client without Accept-Encoding", "/product/chew", "GET", {}, 200, undefined],
    ["HEAD of a packed page", "/product/chew", "HEAD", { "accept-encoding": "br" }, 200, "br"],
    ["a revalidation of a packed page by date, still fresh", "/product/chew", "GET", { "accept-encoding": "br", "if-modified-since": farFuture }, 304, undefined],
    ["HEAD of a page", "/", "HEAD", { "accept-encoding": "gzip" }, 200, "gzip"],
    ["HEAD of a recompressed page", "/product/treat", "HEAD", { "accept-encoding": "gzip" }, 200, "gzip"],
    ["a revalidation by date, still fresh", "/", "GET", { "accept-encoding": "br", "if-modified-since": farFuture }, 304, undefined],
    ["a revalidation by date, changed since", "/", "GET", { "accept-encoding": "br", "if-modified-since": longAgo }, 200, "br"],
    ["a revalidation by any tag", "/product/treat", "HEAD", { "if-none-match": "*" }, 304, undefined],
    ["a revalidation by a stale tag", "/", "GET", { "if-none-match": 'W/"0-0"' }, 200, undefined],
    ["a revalidation by two dates (the first counts)", "/", "GET", { "if-modified-since": [longAgo, farFuture] }, 200, undefined],
    ["a revalidation with the tags in two headers (a star counts only alone)", "/", "GET", { "if-none-match": ['W/"0-0"', "*"] }, 200, undefined],
    ["a hashed asset", "/_astro/app.js", "GET", {}, 200, undefined],
    ["an image", "/favicon.svg", "GET", {}, 200, undefined],
    ["a sitemap", "/sitemap.xml", "GET", {}, 200, undefined],
    ["a missing page (the 404 page)", "/nowhere", "GET", { "accept-encoding": "br" }, 404, "br"],
    ["a missing product (its own 404 page)", "/product/gone", "GET", {}, 404, undefined],
    ["a stored variant's own name", "/index.html.gz", "GET", {}, 404, undefined],
    ["a stored file's own name", "/product/bone.html", "GET", {}, 404, undefined],
    ["the admin app's own page", "/admin", "GET", {}, 200, undefined],
    ["an admin address (the admin app's page)", "/admin/products/12/edit", "GET", { "accept-encoding": "gzip" }, 200, undefined],
  ] as const)("%s: %s %s", async (_, pathname, method, headers, status, encoding) => {
    root = base;
    const { app, fastPath, answeredFast } = await both(pathname, method, { ...headers });
    expect(answeredFast).toBe(true);
    expect(app.status).toBe(status);
    expect(app.headers["content-encoding"]).toBe(encoding);
    expect(fastPath.status).toBe(app.status);
    expect(fastPath.headers).toEqual(app.headers);
    expect(fastPath.body.equals(app.body)).toBe(true);
    if (method === "HEAD" || status === 304) expect(fastPath.body.length).toBe(0);
    else expect(fastPath.headers["content-length"]).toBe(String(fastPath.body.length));
  });

  it("answers a second request for the same page from what it kept, the same again", async () => {
    root = base;
    for (const round of [1, 2, 3]) {
      const { app, fastPath, answeredFast } = await both("/product/treat", "GET", { "accept-encoding": "gzip" });
      expect(answeredFast, `round ${round}`).toBe(true);
      expect(fastPath.headers).toEqual(app.headers);
      expect(zlib.gunzipSync(fastPath.body).toString()).toBe(treatPage);
    }
  });

  it("sends a packed page's stored bytes as they are, and a page's own file before its packed copy", async () => {
    root = base;
    const { app, fastPath } = await both("/product/chew", "GET", { "accept-encoding": "br" });
    expect(fastPath.body.equals(chewBrotli)).toBe(true);
    expect(app.body.equals(chewBrotli)).toBe(true);
    expect(fastPath.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(zlib.gunzipSync((await raw(fastUrl, "/product/chew", "GET", { "accept-encoding": "gzip" })).body).toString()).toBe(chewPage);
    expect((await raw(fastUrl, "/product/bone")).body.toString()).toBe("<h1>bone, base</h1>");
    // A fast release's own file before its base's packed page; the base's other pages still from the base.
    root = fast;
    expect((await raw(fastUrl, "/product/chew")).body.toString()).toBe("<h1>chew, fast</h1>");
    expect((await raw(appUrl, "/product/chew")).body.toString()).toBe("<h1>chew, fast</h1>");
    expect((await raw(fastUrl, "/product/treat")).body.toString()).toBe(treatPage);
  });

  it("keeps a full release's page index while fast releases over it come and go", async () => {
    const layersOver = Array.from({ length: 6 }, (_, i) => publish({ [`own-${i}.txt`]: "own" }, { kind: "fast", base: path.basename(base) }));
    root = layersOver[0]!;
    expect((await raw(fastUrl, "/product/chew", "GET", { "accept-encoding": "br" })).body.equals(chewBrotli)).toBe(true);
    // The index read again would now list no page (a published release never changes; this shows whether it is read again).
    const index = path.join(base, ".pages.json");
    const kept = fs.readFileSync(index);
    fs.writeFileSync(index, JSON.stringify({ packs: [".pages-1.pack"], paths: [], places: [] }));
    try {
      for (const release of layersOver.slice(1)) {
        root = release;
        const answer = await raw(fastUrl, "/product/chew", "GET", { "accept-encoding": "br" });
        expect(answer.status, release).toBe(200);
        expect(answer.body.equals(chewBrotli)).toBe(true);
      }
    } finally {
      fs.writeFileSync(index, kept);
    }
  });

  it("revalidates a packed page by the ETag it sent", async () => {
    root = base;
    const first = await raw(fastUrl, "/product/chew", "GET", { "accept-encoding": "br" });
    expect(first.headers.etag).toBe(`W/"${chewBrotli.length.toString(16)}-${fs.statSync(path.join(base, ".pages-1.pack")).mtimeMs.toString(16)}-br"`);
    const again = await both("/product/chew", "GET", { "accept-encoding": "br", "if-none-match": first.headers.etag! });
    expect(again.fastPath.status).toBe(304);
    expect(again.app.status).toBe(304);
    expect(again.fastPath.headers).toEqual(again.app.headers);
  });

  it("revalidates by the ETag it sent, for each form", async () => {
    root = base;
    const first = await raw(fastUrl, "/", "GET", { "accept-encoding": "gzip" });
    const etag = first.headers.etag!;
    const again = await both("/", "GET", { "accept-encoding": "gzip", "if-none-match": etag });
    expect(again.answeredFast).toBe(true);
    expect(again.fastPath.status).toBe(304);
    expect(again.fastPath.headers).toEqual(again.app.headers);
    // Another form's tag does not match: the brotli client gets the page.
    const other = await both("/", "GET", { "accept-encoding": "br", "if-none-match": etag });
    expect(other.fastPath.status).toBe(200);
    expect(other.fastPath.headers).toEqual(other.app.headers);
  });

  it.each(["/.csp.json", "/.pages.json", "/.pages-1.pack", "/.prerender/chunks/server.mjs", "/%2erelease.json", "/product/a%20b", "/a/../.prerender/chunks/server.mjs", "//nowhere"])(
    "leaves %s to the app, which never serves a dot path",
    async (pathname) => {
      root = fast;
      const { app, fastPath, answeredFast } = await both(pathname);
      expect(answeredFast).toBe(false);
      expect(fastPath.status).toBe(404);
      expect(fastPath.headers).toEqual(app.headers);
      expect(fastPath.body.toString()).not.toContain("secret");
      expect(fastPath.body.equals(app.body)).toBe(true);
    },
  );

  it("leaves other methods, the API and the time before the first release to the app", async () => {
    root = base;
    const post = await raw(fastUrl, "/", "POST");
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe("GET, HEAD");
    const served = pages.served;
    expect((await raw(fastUrl, "/api/nowhere")).headers["content-type"]).toMatch(/^application\/json/);
    root = null;
    const building = await both("/");
    expect(building.fastPath.status).toBe(503);
    expect(building.fastPath.headers).toEqual(building.app.headers);
    expect(pages.served).toBe(served);
  });

  it("serves a new release at once when it is swapped in, and a release without a 404 page through the app", async () => {
    root = fast;
    expect((await raw(fastUrl, "/")).body.toString()).toBe("<h1>fast home</h1>");
    expect((await raw(fastUrl, "/product/kibble")).body.toString()).toBe("<h1>kibble, fast</h1>");
    root = base;
    expect((await raw(fastUrl, "/")).body.toString()).toBe(baseHome);
    expect((await raw(fastUrl, "/product/kibble")).body.toString()).toBe("<h1>kibble, base</h1>");
    root = bare;
    const missing = await both("/nowhere");
    expect(missing.fastPath.status).toBe(404);
    expect(missing.fastPath.headers).toEqual(missing.app.headers);
    expect(missing.fastPath.body.toString()).toBe("<h1>404 Page Not Found</h1>");
    expect((await raw(fastUrl, "/")).body.toString()).toBe("<h1>bare home</h1>");
  });
});

describe("the release a request is served from", () => {
  /** Sends these requests in one write (pipelined: Node reads them in one turn); the answers' text. */
  function pipelined(baseUrl: string, paths: string[]): Promise<string> {
    const { port } = new URL(baseUrl);
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(port), "127.0.0.1");
      let text = "";
      socket.on("data", (chunk: Buffer) => (text += chunk.toString("latin1")));
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
      const last = paths.length - 1;
      socket.write(paths.map((pathname, i) => `GET ${pathname} HTTP/1.1\r\nHost: x\r\n${i === last ? "Connection: close\r\n" : ""}\r\n`).join(""));
    });
  }

  it("is read once for the requests Node reads in one turn, and again in the next turn (a swap shows at once)", async () => {
    let reads = 0;
    const counted = createSitePages(
      () => {
        reads++;
        return root;
      },
      { cache: rules, bodyCacheBytes: 1024 * 1024 },
    );
    const server = serveApi(createApp({ db: temp.db }, { siteRoot: () => root, sitePages: counted }), { db: temp.db }, { port: 0, hostname: "127.0.0.1", silent: true }, counted);
    await server.ready();
    try {
      root = base;
      expect((await raw(urlOf(server), "/")).body.toString()).toBe(baseHome);
      reads = 0;
      const three = await pipelined(urlOf(server), ["/", "/product/kibble", "/"]);
      expect(three.match(/HTTP\/1\.1 200 /g)).toHaveLength(3);
      expect(three).toContain("kibble, base");
      expect(reads).toBe(1);
      root = fast;
      expect((await raw(urlOf(server), "/product/kibble")).body.toString()).toBe("<h1>kibble, fast</h1>");
      expect(reads).toBe(2);
    } finally {
      await server.close(true);
    }
  });
});

describe("bytes kept in memory", () => {
  it("keeps a hot page's bytes: it is sent from memory, not read again", async () => {
    const release = publish({ "hot/index.html": "<h1>hot</h1>" }, { kind: "full", base: null });
    root = release;
    expect((await raw(fastUrl, "/hot")).body.toString()).toBe("<h1>hot</h1>");
    // A published release never changes; a file gone from under it shows whether it is read again.
    fs.rmSync(path.join(release, "hot/index.html"));
    const again = await raw(fastUrl, "/hot");
    expect(again.status).toBe(200);
    expect(again.body.toString()).toBe("<h1>hot</h1>");
  });

  it("drops the least recently sent bytes first when over its memory", async () => {
    // 7 KB pages in 64 KB: each under the eighth a kept file may take, nine fit.
    const page = (name: string, fill: string) => `${name}:`.padEnd(7 * 1024, fill);
    const names = Array.from({ length: 10 }, (_, i) => `p${i + 1}`);
    const release = publish(Object.fromEntries(names.map((name) => [`${name}.txt`, page(name, "a")])), { kind: "full", base: null });
    root = release;
    const small = createSitePages(() => root, { cache: rules, bodyCacheBytes: 64 * 1024 });
    const server = serveApi(createApp({ db: temp.db }, { siteRoot: () => root, sitePages: small }), { db: temp.db }, { port: 0, hostname: "127.0.0.1", silent: true }, small);
    await server.ready();
    const text = async (name: string) => (await raw(urlOf(server), `/${name}.txt`)).body.toString();
    try {
      // p1 to p9 fill 63 KB; p1 sent again is the most recent; p10 makes room by dropping p2, the oldest.
      for (const name of [...names.slice(0, 9), "p1", "p10"]) expect(await text(name)).toBe(page(name, "a"));
      // Rewritten on disk (the same length): a page read again shows the new bytes, a kept one the old.
      for (const name of names) fs.writeFileSync(path.join(release, `${name}.txt`), page(name, "b"));
      expect(await text("p1")).toBe(page("p1", "a"));
      expect(await text("p10")).toBe(page("p10", "a"));
      expect(await text("p2")).toBe(page("p2", "b"));
      // Keeping p2 again dropped p3, now the oldest; p9, sent after it, stays.
      expect(await text("p3")).toBe(page("p3", "b"));
      expect(await text("p9")).toBe(page("p9", "a"));
    } finally {
      await server.close(true);
    }
  });

  it("sends kept bytes with their headers to an answer worked out again (a release served again)", async () => {
    // A brotli-only page recompressed as gzip: its length is known only once the bytes are made.
    const gzipOnly = { "accept-encoding": "gzip" };
    root = base;
    const first = await raw(fastUrl, "/product/treat", "GET", gzipOnly);
    // Serving another release forgets this one's answers; its bytes stay kept.
    root = fast;
    expect((await raw(fastUrl, "/")).status).toBe(200);
    root = base;
    const again = await raw(fastUrl, "/product/treat", "GET", gzipOnly);
    expect(again.headers["content-encoding"]).toBe("gzip");
    expect(again.headers["content-length"]).toBe(String(again.body.length));
    expect(again.headers).toEqual(first.headers);
    expect(zlib.gunzipSync(again.body).toString()).toBe(treatPage);
  });

  it("reads a file larger than an eighth of the memory from disk each time", async () => {
    const large = "x".repeat(200 * 1024);
    const release = publish({ "large.txt": large }, { kind: "full", base: null });
    root = release;
    const small = createSitePages(() => root, { cache: rules, bodyCacheBytes: 1024 * 1024 });
    const server = serveApi(createApp({ db: temp.db }, { siteRoot: () => root, sitePages: small }), { db: temp.db }, { port: 0, hostname: "127.0.0.1", silent: true }, small);
    await server.ready();
    try {
      expect((await raw(urlOf(server), "/large.txt")).body.length).toBe(large.length);
      fs.writeFileSync(path.join(release, "large.txt"), "y".repeat(large.length));
      expect((await raw(urlOf(server), "/large.txt")).body.toString()).toBe("y".repeat(large.length));
    } finally {
      await server.close(true);
    }
  });
});

describe("headers of a stored file", () => {
  it("names no content type for a file of a kind it does not know, as both paths answer", async () => {
    root = publish({ "files/data.bin": "binary" }, { kind: "full", base: null });
    const { app, fastPath } = await both("/files/data.bin");
    expect(fastPath.status).toBe(200);
    expect(fastPath.body.toString()).toBe("binary");
    expect(fastPath.headers["content-type"]).toBeUndefined();
    expect(fastPath.headers).toEqual(app.headers);
  });

  it("compares If-Modified-Since with the file's time in whole seconds, as Last-Modified states it", async () => {
    const release = publish({ "dated/index.html": "<h1>dated</h1>" }, { kind: "full", base: null });
    const modified = new Date(Date.UTC(2026, 0, 1, 0, 0, 0, 500));
    fs.utimesSync(path.join(release, "dated/index.html"), modified, modified);
    root = release;
    const first = await raw(fastUrl, "/dated");
    expect(first.headers["last-modified"]).toBe("Thu, 01 Jan 2026 00:00:00 GMT");
    const again = await both("/dated", "GET", { "if-modified-since": first.headers["last-modified"]! });
    expect(again.fastPath.status).toBe(304);
    expect(again.app.status).toBe(304);
    const earlier = await both("/dated", "GET", { "if-modified-since": "Wed, 31 Dec 2025 23:59:59 GMT" });
    expect(earlier.fastPath.status).toBe(200);
    expect(earlier.app.status).toBe(200);
  });
});

describe("what the fast path hands to the app", () => {
  it("hands a missing page of a release without a 404 page to the app, which answers with its built-in 404", async () => {
    root = bare;
    const fresh = createSitePages(() => root, { cache: rules, bodyCacheBytes: 1024 * 1024 });
    const server = serveApi(createApp({ db: temp.db }, { siteRoot: () => root, sitePages: fresh }), { db: temp.db }, { port: 0, hostname: "127.0.0.1", silent: true }, fresh);
    await server.ready();
    try {
      // The first request finds out there is no page (and hands it over); later ones go to the app at once.
      for (let i = 0; i < 2; i++) {
        const answer = await raw(urlOf(server), "/nowhere");
        expect(answer.status).toBe(404);
        expect(answer.body.toString()).toBe("<h1>404 Page Not Found</h1>");
      }
      expect(fresh.served).toBe(0);
    } finally {
      await server.close(true);
    }
  });
});

describe("cache headers for a CDN", () => {
  it.each([
    ["a page", "/", "public, max-age=0, s-maxage=60, stale-while-revalidate=86400"],
    ["a product page", "/product/bone", "public, max-age=0, s-maxage=60, stale-while-revalidate=86400"],
    ["a sitemap", "/sitemap.xml", "public, max-age=0, s-maxage=60, stale-while-revalidate=86400"],
    ["a hashed asset", "/_astro/app.js", "public, max-age=31536000, immutable"],
    ["an image", "/favicon.svg", "public, max-age=86400"],
    ["the admin app's page", "/admin/products", "no-store"],
    ["the admin app's own address", "/admin", "no-store"],
    ["a missing page", "/nowhere", "no-cache"],
  ])("%s (%s): %s", async (_, pathname, expected) => {
    root = base;
    expect((await raw(fastUrl, pathname)).headers["cache-control"]).toBe(expected);
    expect((await raw(appUrl, pathname)).headers["cache-control"]).toBe(expected);
  });

  it("leaves the API's own cache headers as they are", async () => {
    root = base;
    expect((await raw(fastUrl, "/api/nowhere")).headers["cache-control"]).toBe("no-store");
  });

  it("lets a CDN keep pages a day when each release purges it, a minute otherwise", () => {
    const saved = { ...process.env };
    try {
      delete process.env.CDN_PURGE;
      expect(siteServingConfig()).toMatchObject({ pageSharedMaxAge: 60, staleWhileRevalidate: 86_400 });
      Object.assign(process.env, { CDN_PURGE: "cloudflare", CLOUDFLARE_ZONE_ID: "zone", CLOUDFLARE_API_TOKEN: "token" });
      const purged = siteServingConfig();
      expect(purged.pageSharedMaxAge).toBe(86_400);
      expect(cacheControl("/category/dog-food", purged)).toBe("public, max-age=0, s-maxage=86400, stale-while-revalidate=86400");
      expect(cacheControl("/_astro/x.js", purged)).toBe("public, max-age=31536000, immutable");
    } finally {
      process.env = saved;
    }
  });

  it("refuses a body cache size that is not a whole number of megabytes", () => {
    const saved = { ...process.env };
    try {
      for (const bad of ["-1", "1.5", "lots", "4097"]) {
        process.env.SITE_BODY_CACHE_MB = bad;
        expect(() => siteServingConfig(), bad).toThrow(/SITE_BODY_CACHE_MB/);
      }
      process.env.SITE_BODY_CACHE_MB = "0";
      expect(siteServingConfig().bodyCacheBytes).toBe(0);
      process.env.SITE_BODY_CACHE_MB = "4096";
      expect(siteServingConfig().bodyCacheBytes).toBe(4096 * 1024 * 1024);
    } finally {
      process.env = saved;
    }
  });
});
