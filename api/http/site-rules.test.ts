/**
 * The rules of the site's answers, one at a time, through the real handlers: the app's (in-process
 * h3 requests) and the HTTP server's fast path (`answerNode`, over real HTTP, with what it leaves
 * handed to the app as serveApi hands it), over release folders written for each rule.
 *
 * Most tests load site.ts afresh while they run: its tables and patterns (content types, the
 * admin headers, the plain-address pattern) are built, and its page-index memo starts empty, as
 * part of the test.
 */
import fs from "node:fs";
import http, { type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from "node:http";
import net, { type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { H3 } from "h3";
import { toNodeHandler } from "h3/node";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createSiteHandler, createSitePages, type SitePages } from "./site.ts";
import { PagePackWriter, pageIndexFile } from "../site-build/page-pack.ts";
import { writeScriptHashes } from "../site-build/releases.ts";
import { decodedBody } from "../test/bodies.ts";

type Site = typeof import("./site.ts");

/** site.ts loaded afresh, inside the running test. */
async function loadSite(): Promise<Site> {
  vi.resetModules();
  return import("./site.ts");
}

let dir: string;
let folders = 0;
/** The shared release: every kind of file the rules below ask for, never changed by a test. */
let site: string;

const home = "<h1>home</h1>".repeat(100);
const page404 = "<h1>not found</h1>".repeat(100);
const productNotFound = "<h1>no such product</h1>";
const treatPage = `<h1>treat</h1>${"<p>chewy £2.50</p>".repeat(200)}`;
const chewPage = `<h1>chew</h1>${"<p>lasts £3.10</p>".repeat(200)}`;
const adminPage = "<div id=admin-app></div>";
const rules = { pageSharedMaxAge: 60, staleWhileRevalidate: 86_400 };
const pageRule = "public, max-age=0, s-maxage=60, stale-while-revalidate=86400";
const farFuture = "Wed, 01 Jan 2098 00:00:00 GMT";
/** How long a test waits for an answer that should come at once: past it, there is none. */
const answerTimeout = 5_000;

/** A new release folder (a plain folder serves as one) with these files. */
function folder(files: Record<string, string | Uint8Array>): string {
  const root = path.join(dir, `release-${++folders}`);
  write(root, files);
  return root;
}

function write(root: string, files: Record<string, string | Uint8Array>): void {
  for (const [name, contents] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), contents);
  }
}

/** A page and the compressed forms the build stores beside it. */
const withForms = (name: string, text: string, forms: readonly ("gzip" | "br")[]): Record<string, string | Uint8Array> => ({
  ...(forms.includes("gzip") ? { [`${name}.gz`]: zlib.gzipSync(text) } : {}),
  ...(forms.includes("br") ? { [`${name}.br`]: zlib.brotliCompressSync(text) } : {}),
});

/** Packs these pages (their brotli forms) into the folder, as a full build stores product pages. */
function pack(root: string, pages: Record<string, string>): void {
  const writer = new PagePackWriter(root);
  for (const [name, text] of Object.entries(pages)) writer.add(name, zlib.brotliCompressSync(text));
  writer.finish();
}

/** Rewrites a folder's page index to list no page (the packs stay). */
function emptyIndex(root: string): void {
  const index = JSON.parse(fs.readFileSync(path.join(root, pageIndexFile), "utf8")) as { packs: string[] };
  fs.writeFileSync(path.join(root, pageIndexFile), JSON.stringify({ packs: index.packs, paths: [], places: [] }));
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-site-rules-"));
  site = folder({
    "index.html": home,
    ...withForms("index.html", home, ["gzip", "br"]),
    "404.html": page404,
    ...withForms("404.html", page404, ["gzip", "br"]),
    "product-not-found/index.html": productNotFound,
    "product/bone.html": "<h1>bone</h1>",
    "product/kibble/index.html": "<h1>kibble</h1>",
    ...withForms("product/treat.html", treatPage, ["br"]),
    "admin/index.html": adminPage,
    "admin/app.js": "admin()",
    "_astro/app.1a2b.js": "app()",
    "_astro/logo.1a2b.svg": "<svg></svg>",
    "sitemap.xml": "<urlset></urlset>",
    "robots.txt": "User-agent: *",
    "guides/cat-food/index.html": "<h1>cat food</h1>",
    "guides/cat.breeds.txt": "breeds",
    "files/old.gzip": "an old archive",
    "files/logo.svg.txt": "how the logo is drawn",
    "notes.txt.GZ": "upper-case variant",
    "notes.txt.Br": "mixed-case variant",
    ".env": "SECRET=1",
    "sub/.env": "SECRET=2",
    // A file whose name, decoded once more, is a dot name.
    "%2ehidden": "SECRET=3",
    "a-b_c~d/e.f.txt": "plain",
  });
  writeScriptHashes(site, ["sha256-site"]);
});
afterAll(() => {
  vi.resetModules();
  fs.rmSync(dir, { recursive: true, force: true });
});

interface Served {
  pages: SitePages;
  app: H3;
  request(target: string, init?: RequestInit): Promise<Response>;
}

/** The site pages of `root` (asked for on every request) and the app that serves them. */
function serve(module: Pick<Site, "createSitePages" | "createSiteHandler">, root: () => string | null, bodyCacheBytes = 1024 * 1024): Served {
  const pages = module.createSitePages(root, { cache: rules, bodyCacheBytes });
  // Silent: an error answer (a page that cannot be read) is what some tests look for.
  const app = new H3({ silent: true }).all("/**", module.createSiteHandler(pages));
  return { pages, app, request: async (target, init) => app.request(target, init) };
}

const accepting = (acceptEncoding: string, more: Record<string, string> = {}): RequestInit => ({ headers: { "accept-encoding": acceptEncoding, ...more } });


const scriptSources = (response: Response) => /script-src ([^;]*)/.exec(response.headers.get("content-security-policy") ?? "")?.[1]?.split(" ");

interface Listening {
  url: string;
  /** The request targets the app was given (left to it, or handed over by the fast path), in order. */
  handedOver: string[];
  close(): Promise<void>;
}

/**
 * An HTTP server that asks the fast path first and gives what it leaves to the app, as serveApi
 * does; `fallback`, when given, stands for the app.
 */
async function listen(served: Served, fallback?: (req: IncomingMessage, res: ServerResponse) => void): Promise<Listening> {
  const handedOver: string[] = [];
  const appHandler = toNodeHandler(served.app);
  const toApp = (req: IncomingMessage, res: ServerResponse) => {
    handedOver.push(req.url ?? "");
    if (fallback) fallback(req, res);
    else void appHandler(req, res);
  };
  const server = http.createServer((req, res) => {
    if (!served.pages.answerNode(req, res, toApp)) toApp(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    handedOver,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** One request over real HTTP for `target` as it is written (not normalised), the body as sent (not decoded). */
function raw(base: string, target: string, method = "GET", headers: Record<string, string | readonly string[]> = {}): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const options = { hostname, port, path: target, method, headers: headers as OutgoingHttpHeaders, agent: false, timeout: answerTimeout };
    const request = http.request(options, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", reject);
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    request.on("timeout", () => request.destroy(new Error(`no answer to ${method} ${target}`)));
    request.on("error", reject);
    request.end();
  });
}

/** Sends `text` as it is on a connection of its own; what came back before the server closed it. */
function rawText(base: string, text: string): Promise<string> {
  const { port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), "127.0.0.1");
    let received = "";
    socket.setTimeout(answerTimeout, () => socket.destroy(new Error("no answer")));
    socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
    socket.on("end", () => resolve(received));
    socket.on("error", reject);
    socket.write(text);
  });
}

describe("the content type of a stored file", () => {
  /** File name, its content type (none for a kind not known), whether it varies by Accept-Encoding. */
  const kinds: [string, string | null, boolean][] = [
    ["about.html", "text/html; charset=utf-8", true],
    ["style.css", "text/css; charset=utf-8", true],
    ["app.js", "text/javascript; charset=utf-8", true],
    ["module.mjs", "text/javascript; charset=utf-8", true],
    ["data.json", "application/json", true],
    ["site.webmanifest", "application/manifest+json", true],
    ["app.js.map", "application/json", true],
    ["feed.xml", "application/xml", true],
    ["notes.txt", "text/plain; charset=utf-8", true],
    ["logo.svg", "image/svg+xml", true],
    ["photo.png", "image/png", false],
    ["photo.jpg", "image/jpeg", false],
    ["photo.jpeg", "image/jpeg", false],
    ["photo.webp", "image/webp", false],
    ["photo.avif", "image/avif", false],
    ["spinner.gif", "image/gif", false],
    ["favicon.ico", "image/vnd.microsoft.icon", false],
    ["body.woff", "font/woff", false],
    ["body.woff2", "font/woff2", false],
    ["PHOTO.PNG", "image/png", false],
    ["download.bin", null, false],
    ["LICENSE", null, false],
  ];
  const kindsRelease = () => folder(Object.fromEntries(kinds.map(([file]) => [`files/${file}`, `contents of ${file}`])));

  it("is named by the file's extension, in any case, and a file of a kind not known is sent with none", async () => {
    const root = kindsRelease();
    const { request } = serve(await loadSite(), () => root);
    for (const [file, contentType] of kinds) {
      const response = await request(`/files/${file}`);
      expect(response.status, file).toBe(200);
      expect(await response.text(), file).toBe(`contents of ${file}`);
      expect(response.headers.get("content-type"), file).toBe(contentType);
    }
  });

  it("varies by Accept-Encoding only for the kinds of file stored compressed", async () => {
    const root = kindsRelease();
    const { request } = serve(await loadSite(), () => root);
    for (const [file, , varies] of kinds) {
      expect((await request(`/files/${file}`)).headers.get("vary"), file).toBe(varies ? "accept-encoding" : null);
    }
  });
});

describe("Accept-Encoding", () => {
  it.each([
    ["gzip, br", "br", "brotli is preferred to gzip"],
    ["br;q=0.1, gzip;q=1", "br", "the server's preference, not the weights, picks among the codings accepted"],
    ["gzip", "gzip", "gzip alone"],
    ["br", "br", "brotli alone"],
    ["x-gzip", "gzip", "x-gzip is gzip"],
    ["X-Gzip", "gzip", "codings in any case"],
    ["x-gzipped", null, "only the whole coding x-gzip is gzip"],
    ["br;q=0, gzip", "gzip", "q=0 refuses a coding"],
    ["br;q=0.000, gzip", "gzip", "a zero weight written with decimals refuses"],
    ["br ; q = 0 , gzip", "gzip", "white space around the parameter, its = and its value"],
    ["br;Q=0, gzip", "gzip", "the parameter's name in upper case"],
    ["br;level=5;q=0, gzip", "gzip", "the weight among other parameters"],
    ["br;freq=0, gzip", "br", "a parameter whose name only ends in q is no weight"],
    ["br;q=high, gzip", "br", "a weight that is no number is ignored"],
    ["br;q=0x, gzip", "br", "a weight with more after its number is ignored"],
    ["br;q=., gzip", "br", "a weight of a lone dot is ignored, like any weight that is no qvalue"],
    ["br;q=1.2.3, gzip", "br", "a weight with two dots is ignored"],
    ["br;q=0.0001, gzip", "br", "a weight with more than three decimals is ignored"],
    ["br;q=1.5, gzip", "br", "a weight above 1 is ignored"],
    ["br;q=0., gzip", "gzip", "a zero weight ending in its dot refuses"],
    ["br;q=1;q=0, gzip", "br", "the first weight of a coding counts"],
    ["br;q=1.00;q=0, gzip", "br", "a weight of one written with decimals is a weight"],
    ["br;q=0, gzip, br", "gzip", "the first mention of a coding counts"],
    ["gzip, gzip;q=0", "gzip", "the first mention of a coding counts, when it accepts"],
    ["*", "br", "* accepts every coding"],
    ["gzip;q=0, *", "br", "* stands for the codings not named"],
    ["br;q=0, *", "gzip", "* stands for the codings not named, not for one refused"],
    ["*;q=0", null, "* with q=0 refuses every coding"],
    ["identity", null, "identity only"],
    ["deflate, zstd", null, "only codings the site does not store"],
  ] as const)("%j is answered with content-encoding %s: %s", async (acceptEncoding, encoding, _rule) => {
    const { request } = serve(await loadSite(), () => site);
    const response = await request("/", accepting(acceptEncoding));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-encoding")).toBe(encoding);
    expect(response.headers.get("etag")).toMatch(encoding === null ? /[0-9a-f]"$/ : new RegExp(`-${encoding}"$`));
    expect(await decodedBody(response)).toBe(home);
  });

  it("is read from several header lines as one list at the HTTP server, as are If-None-Match tags", async () => {
    const served = serve(await loadSite(), () => site);
    const server = await listen(served);
    try {
      const listed = await raw(server.url, "/", "GET", { "accept-encoding": ["br", "identity"] });
      expect(listed.headers["content-encoding"]).toBe("br");
      expect(zlib.brotliDecompressSync(listed.body).toString()).toBe(home);
      const etag = listed.headers.etag!;
      const again = await raw(server.url, "/", "GET", { "accept-encoding": "br", "if-none-match": ['W/"0-0"', etag] });
      expect(again.status).toBe(304);
      expect(server.handedOver).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it("does not take other request headers for If-Modified-Since at the HTTP server", async () => {
    const served = serve(await loadSite(), () => site);
    const server = await listen(served);
    try {
      // Browsers revalidate with headers like these before If-Modified-Since.
      const headers = { "cache-control": "max-age=0", "accept-language": "en-GB,en;q=0.9", "if-modified-since": farFuture };
      expect((await raw(server.url, "/", "GET", headers)).status).toBe(304);
      expect(served.pages.served).toBe(1);
    } finally {
      await server.close();
    }
  });
});

describe("cache headers by path", () => {
  const cacheControlOf = async (request: Served["request"], pathname: string) => {
    const response = await request(pathname);
    expect(response.status, pathname).toBe(200);
    return response.headers.get("cache-control");
  };

  it("keep images and fonts a day, whatever the case of their extension", async () => {
    const files = ["logo.svg", "a.png", "a.jpg", "a.jpeg", "a.webp", "a.avif", "spinner.gif", "favicon.ico", "a.woff", "a.woff2", "PHOTO.PNG", "Logo.SVG"];
    const root = folder(Object.fromEntries(files.map((file) => [`files/${file}`, file])));
    const { request } = serve(await loadSite(), () => root);
    for (const file of files) {
      expect(await cacheControlOf(request, `/files/${file}`), file).toBe("public, max-age=86400");
    }
  });

  it("keep hashed assets a year, and have every other file revalidated (its last extension is its kind)", async () => {
    const { request } = serve(await loadSite(), () => site);
    expect(await cacheControlOf(request, "/_astro/app.1a2b.js")).toBe("public, max-age=31536000, immutable");
    expect(await cacheControlOf(request, "/_astro/logo.1a2b.svg")).toBe("public, max-age=31536000, immutable");
    for (const pathname of ["/", "/guides/cat-food", "/product/bone", "/sitemap.xml", "/robots.txt", "/files/logo.svg.txt"]) {
      expect(await cacheControlOf(request, pathname), pathname).toBe(pageRule);
    }
  });
});

describe("the admin app", () => {
  it.each(["/admin/products", "/admin/products/12/edit"])("answers %s with its page, never cached, indexed or revalidated", async (pathname) => {
    const { request } = serve(await loadSite(), () => site);
    const inits: RequestInit[] = [{}, { headers: { "if-none-match": "*", "if-modified-since": farFuture } }];
    for (const init of inits) {
      const response = await request(pathname, init);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(adminPage);
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(response.headers.get("x-robots-tag")).toBe("noindex");
      expect(response.headers.get("etag")).toBeNull();
      expect(response.headers.get("last-modified")).toBeNull();
    }
  });

  it.each([
    ["/admin", adminPage, "text/html; charset=utf-8"],
    ["/admin/", adminPage, "text/html; charset=utf-8"],
    ["/admin/app.js", "admin()", "text/javascript; charset=utf-8"],
  ])("sends its own file at %s, never cached, indexed or revalidated", async (pathname, body, contentType) => {
    const { request } = serve(await loadSite(), () => site);
    for (const init of [{}, { headers: { "if-none-match": "*", "if-modified-since": farFuture } }]) {
      const response = await request(pathname, init);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(body);
      expect(response.headers.get("content-type")).toBe(contentType);
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(response.headers.get("x-robots-tag")).toBe("noindex");
      expect(response.headers.get("etag")).toBeNull();
      expect(response.headers.get("last-modified")).toBeNull();
    }
  });

  it.each(["/administrator", "/admin-old/page"])("is not served at %s, outside /admin", async (pathname) => {
    const { request } = serve(await loadSite(), () => site);
    const response = await request(pathname);
    expect(response.status).toBe(404);
    expect(await response.text()).toBe(page404);
    expect(response.headers.get("x-robots-tag")).toBeNull();
  });
});

describe("the app's own answers", () => {
  it("answers 503 with a page to come back in 30 seconds while there is no release", async () => {
    const { request } = serve(await loadSite(), () => null);
    const response = await request("/product/bone");
    expect(response.status).toBe(503);
    expect(await response.text()).toBe("<h1>The site is being built. Please try again in a minute.</h1>");
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("retry-after")).toBe("30");
    expect(scriptSources(response)).toEqual(["'self'"]);
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("strict-transport-security")).toBeNull();
  });

  it("pins HTTPS on the 503 page when the public base URL is https", async () => {
    const configured = process.env.PUBLIC_BASE_URL;
    process.env.PUBLIC_BASE_URL = "https://www.pawprice.example";
    try {
      const { request } = serve(await loadSite(), () => null);
      const response = await request("/");
      expect(response.status).toBe(503);
      expect(response.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    } finally {
      if (configured === undefined) delete process.env.PUBLIC_BASE_URL;
      else process.env.PUBLIC_BASE_URL = configured;
    }
  });

  it.each(["POST", "PUT", "DELETE", "PATCH"])("answers %s with 405 and a JSON error naming the methods allowed", async (method) => {
    const { request } = serve(await loadSite(), () => site);
    const response = await request("/", { method });
    expect(response.status).toBe(405);
    expect(await response.text()).toBe('{"error":"Method not allowed"}');
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("allow")).toBe("GET, HEAD");
    expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
  });

  it("answers a missing page of a release without a 404 page with a built-in one, revalidated on every visit", async () => {
    const root = folder({ "index.html": "<h1>home</h1>" });
    writeScriptHashes(root, ["sha256-bare"]);
    const { request } = serve(await loadSite(), () => root);
    const response = await request("/nowhere");
    expect(response.status).toBe(404);
    expect(await response.text()).toBe("<h1>404 Page Not Found</h1>");
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-cache");
    expect(scriptSources(response)).toEqual(["'self'", "'sha256-bare'"]);
  });

  it("sends the release's 404 page revalidated on every visit, with no validators: never a 304", async () => {
    const { request } = serve(await loadSite(), () => site);
    const inits: RequestInit[] = [{}, { headers: { "if-none-match": "*" } }, { headers: { "if-modified-since": farFuture } }];
    for (const init of inits) {
      const response = await request("/nowhere", init);
      expect(response.status).toBe(404);
      expect(await response.text()).toBe(page404);
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(response.headers.get("cache-control")).toBe("no-cache");
      expect(response.headers.get("etag")).toBeNull();
      expect(response.headers.get("last-modified")).toBeNull();
    }
    const product = await request("/product/gone");
    expect(product.status).toBe(404);
    expect(await product.text()).toBe(productNotFound);
    expect(product.headers.get("cache-control")).toBe("no-cache");
  });
});

describe("the addresses a release serves", () => {
  it.each([
    ["/.env", "a dot file"],
    ["/sub/.env", "a dot file in a folder"],
    ["/%2eenv", "a dot encoded"],
    ["/%2Eenv", "a dot encoded in upper case"],
    ["/sub/%2eenv", "an encoded dot in a folder"],
    ["/%252ehidden", "a file whose name decodes to a dot name"],
    ["/index.html.gz", "a stored variant's own name"],
    ["/index.html.br", "a stored variant's own name"],
    ["/index.html.gz/", "a stored variant's own name with a slash after it"],
    ["/index.html.br//", "a stored variant's own name with slashes after it"],
    ["/notes.txt.GZ", "a variant's name in upper case"],
    ["/notes.txt.Br", "a variant's name in mixed case"],
  ])("answers %s (%s) with the 404 page", async (pathname) => {
    const { request } = serve(await loadSite(), () => site);
    const response = await request(pathname);
    expect(response.status).toBe(404);
    expect(await response.text()).toBe(page404);
  });

  it.each([
    ["/guides/cat.breeds.txt", "breeds"],
    ["/files/old.gzip", "an old archive"],
  ])("serves %s: a name with .br or .gz inside it, not at its end, is no variant's", async (pathname, body) => {
    const { request } = serve(await loadSite(), () => site);
    const response = await request(pathname);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(body);
  });

  it.each(["http://localhost//product/bone", "/product/bone//", "http://localhost///product/bone/"])("serves %s as /product/bone: slashes at either end are not part of the page's name", async (target) => {
    const { request } = serve(await loadSite(), () => site);
    const response = await request(target);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("<h1>bone</h1>");
  });
});

describe("revalidation", () => {
  it("names each form by its size and modification time in its ETag, and a compressed form by its coding too", async () => {
    const { request } = serve(await loadSite(), () => site);
    const tagOf = (file: string) => {
      const stat = fs.statSync(path.join(site, file));
      return `${stat.size.toString(16)}-${stat.mtimeMs.toString(16)}`;
    };
    expect((await request("/")).headers.get("etag")).toBe(`W/"${tagOf("index.html")}"`);
    expect((await request("/", accepting("gzip"))).headers.get("etag")).toBe(`W/"${tagOf("index.html.gz")}-gzip"`);
    expect((await request("/", accepting("br"))).headers.get("etag")).toBe(`W/"${tagOf("index.html.br")}-br"`);
  });

  it("compares If-None-Match tags weakly, any one of a list matching, and * matching any", async () => {
    const { request } = serve(await loadSite(), () => site);
    const etag = (await request("/", accepting("br"))).headers.get("etag")!;
    const strong = etag.slice(2);
    expect(etag).toMatch(/^W\/".+"$/);
    const statusFor = async (ifNoneMatch: string, more: Record<string, string> = {}) =>
      (await request("/", accepting("br", { "if-none-match": ifNoneMatch, ...more }))).status;
    expect(await statusFor(etag)).toBe(304);
    expect(await statusFor(strong)).toBe(304);
    expect(await statusFor(`"other", ${etag}`)).toBe(304);
    expect(await statusFor(`W/"other",${strong}, "more"`)).toBe(304);
    expect(await statusFor("*")).toBe(304);
    expect(await statusFor('"other"')).toBe(200);
    // A tag is compared whole: W/ is a prefix, not a part to be dropped from anywhere.
    expect(await statusFor(`${strong.slice(0, -1)}W/"`)).toBe(200);
    // If-None-Match decides when both are sent.
    expect(await statusFor('"other"', { "if-modified-since": farFuture })).toBe(200);
  });
});

describe("the bytes sent", () => {
  it("recompresses a page stored as brotli only at gzip's fastest level for a client that takes gzip only", async () => {
    const { request } = serve(await loadSite(), () => site);
    const response = await request("/product/treat", accepting("gzip"));
    expect(response.headers.get("content-encoding")).toBe("gzip");
    const body = Buffer.from(await response.arrayBuffer());
    expect(body.equals(zlib.gzipSync(treatPage, { level: 1 }))).toBe(true);
    expect(response.headers.get("content-length")).toBe(String(body.length));
  });

  it("keeps files of up to an eighth of its memory, until they fill it exactly", async () => {
    // Eight files of 8 KB in 64 KB. A published release never changes: a file rewritten on disk
    // shows whether its bytes are read again.
    const names = Array.from({ length: 8 }, (_, i) => `p${i + 1}.txt`);
    const text = (name: string, fill: string) => `${name}:`.padEnd(8 * 1024, fill);
    const root = folder(Object.fromEntries(names.map((name) => [name, text(name, "a")])));
    const { request } = serve(await loadSite(), () => root, 64 * 1024);
    for (const name of names) expect(await (await request(`/${name}`)).text()).toBe(text(name, "a"));
    write(root, Object.fromEntries(names.map((name) => [name, text(name, "b")])));
    for (const name of names) expect(await (await request(`/${name}`)).text(), name).toBe(text(name, "a"));
  });

  it("answers HEAD at the HTTP server from what it knows of the file, without reading its bytes", async () => {
    const root = folder({ "hot.txt": "a".repeat(4096) });
    const served = serve(await loadSite(), () => root);
    const server = await listen(served);
    try {
      const head = await raw(server.url, "/hot.txt", "HEAD");
      expect(head.status).toBe(200);
      expect(head.headers["content-length"]).toBe("4096");
      expect(head.body.length).toBe(0);
      // Rewritten on disk: bytes read (and kept) for the HEAD would be sent again now.
      write(root, { "hot.txt": "b".repeat(4096) });
      expect((await raw(server.url, "/hot.txt")).body.toString()).toBe("b".repeat(4096));
      expect(served.pages.served).toBe(2);
    } finally {
      await server.close();
    }
  });

  it("sends kept bytes with the full headers of an answer worked out again, when the length is known only from the bytes", async () => {
    const other = folder({ "index.html": "<h1>other</h1>" });
    let root = site;
    const { request } = serve(await loadSite(), () => root);
    const first = await request("/product/treat", accepting("gzip"));
    const firstBody = Buffer.from(await first.arrayBuffer());
    // Serving another release forgets this one's answers; the bytes stay kept.
    root = other;
    expect((await request("/")).status).toBe(200);
    root = site;
    const again = await request("/product/treat", accepting("gzip"));
    expect(again.status).toBe(200);
    expect([...again.headers]).toEqual([...first.headers]);
    expect(Buffer.from(await again.arrayBuffer()).equals(firstBody)).toBe(true);
  });
});

describe("what a release keeps", () => {
  /** An address of `length` characters, in folders short enough for the file system. */
  const longAddress = (length: number) => `/long/${"a".repeat(200)}/${"b".repeat(200)}/${"c".repeat(length - 408)}`;

  it("works out an address's answer once per release (a published release never changes), for addresses up to 512 characters", async () => {
    const root = folder({ "index.html": "<h1>home</h1>" });
    const { request } = serve(await loadSite(), () => root);
    const addresses = ["/late", longAddress(512), longAddress(513)];
    expect(addresses.map((address) => address.length)).toEqual([5, 512, 513]);
    for (const address of addresses) expect((await request(address)).status).toBe(404);
    write(root, Object.fromEntries(addresses.map((address) => [`${address.slice(1)}/index.html`, "<h1>late</h1>"])));
    expect((await request("/late")).status).toBe(404);
    expect((await request(longAddress(512))).status).toBe(404);
    const longer = await request(longAddress(513));
    expect(longer.status).toBe(200);
    expect(await longer.text()).toBe("<h1>late</h1>");
  });

  it("forgets a release's answers once another release is served", async () => {
    const first = folder({ "index.html": "<h1>first</h1>" });
    const second = folder({ "index.html": "<h1>second</h1>" });
    let root = first;
    const { request } = serve(await loadSite(), () => root);
    expect((await request("/late")).status).toBe(404);
    root = second;
    expect(await (await request("/")).text()).toBe("<h1>second</h1>");
    write(first, { "late/index.html": "<h1>late</h1>" });
    root = first;
    const late = await request("/late");
    expect(late.status).toBe(200);
    expect(await late.text()).toBe("<h1>late</h1>");
  });

  it("keeps what it read of the 16 releases served last (their script hashes), and reads an older one again", async () => {
    const roots = Array.from({ length: 17 }, (_, i) => {
      const root = folder({ "index.html": `<h1>release ${i}</h1>` });
      writeScriptHashes(root, [`sha256-r${i}`]);
      return root;
    });
    let root = roots[0]!;
    const { request } = serve(await loadSite(), () => root);
    const sourcesOf = async (release: string) => {
      root = release;
      const response = await request("/");
      expect(response.status).toBe(200);
      return scriptSources(response);
    };
    expect(await sourcesOf(roots[0]!)).toEqual(["'self'", "'sha256-r0'"]);
    for (const release of roots.slice(1, 16)) await sourcesOf(release);
    writeScriptHashes(roots[0]!, ["sha256-r0-rebuilt"]);
    // Sixteen releases served: the first is still kept.
    expect(await sourcesOf(roots[0]!)).toEqual(["'self'", "'sha256-r0'"]);
    // A seventeenth makes room by dropping the oldest (the first, though it was the one served).
    expect(await sourcesOf(roots[16]!)).toEqual(["'self'", "'sha256-r16'"]);
    expect(await sourcesOf(roots[0]!)).toEqual(["'self'", "'sha256-r0-rebuilt'"]);
  });

  it("keeps answers for 20,000 addresses, then drops the oldest tenth to make room", async () => {
    const root = folder({ "index.html": "<h1>home</h1>" });
    const pages = createSitePages(() => root, { cache: rules, bodyCacheBytes: 0 });
    const app = new H3().all("/**", createSiteHandler(pages));
    const statusOf = async (pathname: string) => (await app.request(pathname)).status;
    /** Asks for /fill/<from>.gz to /fill/<to>.gz, a batch at a time: a variant's name is quick to refuse. */
    const fill = async (from: number, to: number) => {
      for (let start = from; start <= to; start += 500) {
        const batch = Array.from({ length: Math.min(500, to - start + 1) }, (_, i) => `/fill/${start + i}.gz`);
        expect(await Promise.all(batch.map(statusOf))).toEqual(batch.map(() => 404));
      }
    };
    // The 1st, 2,000th, 2,001st and 20,001st addresses asked for are pages added later.
    expect(await statusOf("/late/1")).toBe(404);
    await fill(2, 1999);
    expect(await statusOf("/late/2000")).toBe(404);
    expect(await statusOf("/late/2001")).toBe(404);
    await fill(2002, 20_000);
    expect(await statusOf("/late/20001")).toBe(404);
    write(root, Object.fromEntries(["1", "2000", "2001", "20001"].map((n) => [`late/${n}/index.html`, `<h1>${n}</h1>`])));
    // Kept: the answers worked out before the pages were there.
    expect(await statusOf("/late/2001")).toBe(404);
    expect(await statusOf("/late/20001")).toBe(404);
    // Dropped with the oldest 2,000: worked out again.
    expect(await statusOf("/late/1")).toBe(200);
    expect(await statusOf("/late/2000")).toBe(200);
  });

  describe("page indexes", () => {
    const indexed = () => {
      const root = folder({ "index.html": "<h1>packed</h1>" });
      pack(root, { "product/chew.html": chewPage });
      return root;
    };
    const others = () => Array.from({ length: 4 }, () => folder({ "index.html": "<h1>other</h1>" }));

    it("keeps a folder's page index while it is among the four folders looked in last", async () => {
      const packed = indexed();
      const [a, b, c, d] = others();
      let root = packed;
      const { request } = serve(await loadSite(), () => root);
      const visit = async (release: string, pathname: string) => {
        root = release;
        return request(pathname, accepting("br"));
      };
      expect((await visit(packed, "/product/chew")).status).toBe(200);
      for (const release of [a!, b!]) expect((await visit(release, "/nowhere")).status).toBe(404);
      // Looked in again: now the most recent of the four.
      expect((await visit(packed, "/product/chew")).status).toBe(200);
      for (const release of [c!, d!]) expect((await visit(release, "/nowhere")).status).toBe(404);
      emptyIndex(packed);
      const again = await visit(packed, "/product/chew");
      expect(again.status).toBe(200);
      expect(await decodedBody(again)).toBe(chewPage);
    });

    it("reads a folder's page index again once four other folders were looked in since", async () => {
      const packed = indexed();
      let root = packed;
      const { request } = serve(await loadSite(), () => root);
      expect((await request("/product/chew", accepting("br"))).status).toBe(200);
      for (const release of others()) {
        root = release;
        expect((await request("/nowhere")).status).toBe(404);
      }
      emptyIndex(packed);
      root = packed;
      expect((await request("/product/chew", accepting("br"))).status).toBe(404);
    });
  });
});

describe("the HTTP server's fast path", () => {
  it("answers plain addresses of up to 512 characters, and leaves every other address and the API to the app", async () => {
    const served = serve(await loadSite(), () => site);
    const server = await listen(served);
    try {
      const taken = ["/", "/product/bone", "/product/kibble/", "/a-b_c~d/e.f.txt", "/nowhere", "/apiary", "/api-docs", "/?q=1", `/${"a".repeat(511)}`];
      const left = ["/a%20b", "/x/../", "//product/bone", "/product//bone", "/.env", "/product/.x", "/api", "/api/", "/api/prices", `/${"a".repeat(512)}`];
      const answeredBy: Record<string, string> = {};
      for (const target of [...taken, ...left]) {
        const served0 = served.pages.served;
        const handed = server.handedOver.length;
        const answer = await raw(server.url, target);
        expect(answer.status, target).toBeLessThan(500);
        const fast = served.pages.served - served0;
        const app = server.handedOver.length - handed;
        answeredBy[target] = fast === 1 && app === 0 ? "fast path" : fast === 0 && app === 1 ? "app" : `fast path ${fast}, app ${app}`;
      }
      expect(answeredBy).toEqual(Object.fromEntries([...taken.map((target) => [target, "fast path"]), ...left.map((target) => [target, "app"])]));
    } finally {
      await server.close();
    }
  });

  it("leaves a request for an absolute address to the app", async () => {
    const served = serve(await loadSite(), () => site);
    const server = await listen(served);
    try {
      const target = `${server.url}/product/bone`;
      const answer = await rawText(server.url, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      expect(answer).toMatch(/^HTTP\/1\.1 \d{3} /);
      expect(server.handedOver).toEqual([target]);
      expect(served.pages.served).toBe(0);
    } finally {
      await server.close();
    }
  });

  it("leaves every request to the app while there is no release, and the release served before keeps its answers", async () => {
    const release = folder({ "index.html": "<h1>home</h1>", "404.html": "<h1>missing</h1>" });
    let root: string | null = release;
    const served = serve(await loadSite(), () => root);
    const server = await listen(served);
    try {
      expect((await raw(server.url, "/late")).status).toBe(404);
      root = null;
      const building = await raw(server.url, "/late");
      expect(building.status).toBe(503);
      expect(server.handedOver).toEqual(["/late"]);
      expect(served.pages.served).toBe(1);
      write(release, { "late/index.html": "<h1>late</h1>" });
      root = release;
      const late = await raw(server.url, "/late");
      expect(late.status).toBe(404);
      expect(late.body.toString()).toBe("<h1>missing</h1>");
    } finally {
      await server.close();
    }
  });

  it("hands a request for a stored page it cannot read to the app", async () => {
    const root = indexedTruncated();
    const served = serve(await loadSite(), () => root);
    const server = await listen(served);
    try {
      const answer = await raw(server.url, "/product/chew", "GET", { "accept-encoding": "br" });
      expect(server.handedOver).toEqual(["/product/chew"]);
      // The app cannot read the page either: its error answer.
      expect(answer.status).toBe(500);
    } finally {
      await server.close();
    }
  });

  it("ends the connection when the app's answer fails after it has begun, rather than answering again", async () => {
    const root = folder({ "index.html": "<h1>home</h1>" });
    const served = serve(await loadSite(), () => root);
    let calls = 0;
    const server = await listen(served, (_req, res) => {
      calls++;
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("begun");
      throw new Error("the app failed mid-answer");
    });
    try {
      // A missing page of a release without a 404 page is the app's to answer.
      await expect(raw(server.url, "/nowhere")).rejects.toMatchObject({ code: "ECONNRESET" });
      expect(calls).toBe(1);
    } finally {
      await server.close();
    }
  });
});

/** A release whose page index lists a page its pack no longer holds (the pack cut short). */
function indexedTruncated(): string {
  const root = folder({ "index.html": "<h1>home</h1>" });
  pack(root, { "product/chew.html": chewPage });
  const index = JSON.parse(fs.readFileSync(path.join(root, pageIndexFile), "utf8")) as { packs: string[] };
  fs.truncateSync(path.join(root, index.packs[0]!), 0);
  return root;
}

describe("the serving settings", () => {
  const withBodyCacheMb = async (value: string, body: () => Promise<void>) => {
    const configured = process.env.SITE_BODY_CACHE_MB;
    process.env.SITE_BODY_CACHE_MB = value;
    try {
      await body();
    } finally {
      if (configured === undefined) delete process.env.SITE_BODY_CACHE_MB;
      else process.env.SITE_BODY_CACHE_MB = configured;
    }
  };

  it("take the memory for bytes from SITE_BODY_CACHE_MB when only the cache rules are given", async () => {
    const root = folder({ "a.txt": "a".repeat(100) });
    const { createSitePages: pagesOf, createSiteHandler: handlerOf } = await loadSite();
    await withBodyCacheMb("0", async () => {
      const app = new H3().all("/**", handlerOf(pagesOf(() => root, { cache: rules })));
      expect(await (await app.request("/a.txt")).text()).toBe("a".repeat(100));
      write(root, { "a.txt": "b".repeat(100) });
      // No memory for bytes: read again.
      expect(await (await app.request("/a.txt")).text()).toBe("b".repeat(100));
      expect((await app.request("/a.txt")).headers.get("cache-control")).toBe(pageRule);
    });
  });

  it("are not read when the cache rules and the memory for bytes are both given", async () => {
    const root = folder({ "a.txt": "a" });
    const { createSitePages: pagesOf, createSiteHandler: handlerOf } = await loadSite();
    await withBodyCacheMb("lots", async () => {
      const app = new H3().all("/**", handlerOf(pagesOf(() => root, { cache: rules, bodyCacheBytes: 1024 })));
      const response = await app.request("/a.txt");
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe(pageRule);
    });
  });
});
