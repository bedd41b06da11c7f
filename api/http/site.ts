/**
 * Serves the pre-rendered site from the current release. The release is asked for on every
 * request (at the HTTP server once per turn of the event loop, for the requests read in it), so a
 * rebuild swaps in a new one atomically; a fast release is looked up before the
 * full release it is laid over (api/site-build/releases.ts). Hashed assets are cached for a year; HTML
 * is revalidated (ETag / Last-Modified) so a rebuild shows at once.
 *
 * Text is sent compressed to clients that accept it: the build stores each file as it is and/or
 * as gzip and brotli variants (api/site-build/output.ts), and the best stored form the client accepts
 * is sent as it is (brotli, then gzip). A client that accepts neither gets the file as it is,
 * decompressed on the fly when it was stored compressed only (product pages). All of a file's
 * forms come from the first layer that has any of them.
 *
 * Every answer carries the page security headers (api/http/security-headers.ts), with the hashes
 * of the release's inline scripts (its layers' .csp.json) allowed in its Content-Security-Policy.
 *
 * Answers are worked out once per release and path (which file, its headers) and kept: a
 * published release never changes. The server answers page requests before the h3 app
 * (`answerNode`, hooked in by serveApi in api/http/fast-reads.ts), writing the kept header list
 * and bytes straight to Node's response; the app's handler gives the same answers from the same
 * kept entries for what the fast path leaves to it (odd addresses, no release yet, other methods).
 * Bytes: the most asked-for files' bytes stay in memory, in a least-recently-used cache of a fixed
 * size (SITE_BODY_CACHE_MB, default 32 MB: about 2,500 brotli product pages, or every shared page
 * and asset several times over); the rest are read from disk when asked for. A 50,000-page
 * catalogue stores about 600 MB of pages, which would not fit the server's memory budget at rest.
 *
 * Pages may be kept by a CDN (s-maxage, stale-while-revalidate; data/config.ts siteServingConfig),
 * which every new release purges of what it changed (api/site-build/cdn-purge.ts); browsers revalidate them.
 *
 * Dot paths (/.prerender/..., /.release.json, /.csp.json) are never served: they are build
 * intermediates and release bookkeeping, not public files; nor are the stored variants by their
 * own names (/x.html.gz). Every address under /admin that has no file of its own gets the admin
 * app's page (it routes in the browser), never cached or indexed.
 */
import fs from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import zlib from "node:zlib";
import type { H3Event } from "h3";
import { siteConfig, siteServingConfig } from "../../data/config.ts";
import { securityHeaders } from "./security-headers.ts";
import { compressibleFile, encodingSuffixes, storedCandidates, type Encoding } from "../site-build/output.ts";
import { readPacked, readPackedPages, type PackedPage, type PackedPages } from "../site-build/page-pack.ts";
import { readScriptHashes, releaseLayers } from "../site-build/releases.ts";

const adminShell = "admin/index.html";
const adminHeaders = { "cache-control": "no-store", "x-robots-tag": "noindex" };
/** Server preference among the stored forms a client accepts (brotli is the smaller). */
const encodingPreference: readonly Encoding[] = ["br", "gzip"];

const contentTypes: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".webmanifest": "application/manifest+json",
  ".map": "application/json",
  ".xml": "application/xml",
  ".txt": "text/plain; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".gif": "image/gif",
  ".ico": "image/vnd.microsoft.icon",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
};

function resolveInside(root: string, id: string): string | null {
  const file = path.join(root, id);
  return file === root || file.startsWith(root + path.sep) ? file : null;
}

/** Whether a path has a segment starting with a dot, after decoding (%2e is a dot too). */
function isDotPath(pathname: string): boolean {
  let decoded = pathname;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    // Undecodable: judged as sent.
  }
  return /(?:^|[/\\])\./.test(decoded) || /(?:^|[/\\])\./.test(pathname);
}

const isAdminPath = (pathname: string) => pathname === "/admin" || pathname.startsWith("/admin/");
/** A stored variant's own name (the server picks variants by Accept-Encoding, never by address). */
const isVariantName = (pathname: string) => /\.(?:gz|br)\/*$/i.test(pathname);

/** What a shared cache and browsers may do with each kind of file. */
export interface CacheRules {
  /** Seconds a CDN may keep a page (a file each release may rewrite) before asking again. */
  pageSharedMaxAge: number;
  /** Seconds a CDN may go on serving a page past that while it asks again. */
  staleWhileRevalidate: number;
}

/**
 * Hashed assets never change at their address: cached for a year by everyone. Images and fonts
 * for a day. Every other file (pages, sitemaps, robots.txt) is revalidated by browsers on each
 * visit and may be kept by a CDN for `pageSharedMaxAge` seconds (the admin app's page never).
 */
export function cacheControl(pathname: string, rules: CacheRules): string {
  if (pathname.startsWith("/_astro/")) return "public, max-age=31536000, immutable";
  if (/\.(?:svg|png|jpe?g|webp|avif|gif|ico|woff2?)$/i.test(pathname)) return "public, max-age=86400";
  return `public, max-age=0, s-maxage=${rules.pageSharedMaxAge}, stale-while-revalidate=${rules.staleWhileRevalidate}`;
}

/**
 * The codings a request's Accept-Encoding allows among those stored (q=0 refuses; * stands for
 * the rest). A weight that is not a qvalue ("0" to "1" with at most three decimals) is ignored,
 * like any other parameter.
 */
export function acceptedEncodings(header: string | null): Set<Encoding> {
  const weights = new Map<string, number>();
  for (const part of (header ?? "").split(",")) {
    const [name = "", ...params] = part.split(";");
    const coding = name.trim().toLowerCase().replace(/^x-gzip$/, "gzip");
    const q = params.map((param) => /^\s*q\s*=\s*(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)\s*$/i.exec(param)?.[1]).find((value) => value !== undefined);
    if (coding && !weights.has(coding)) weights.set(coding, q === undefined ? 1 : Number(q) || 0);
  }
  return new Set(encodingPreference.filter((encoding) => (weights.get(encoding) ?? weights.get("*") ?? 0) > 0));
}

type FormName = Encoding | "identity";

/** What the answer needs of a stored form's file status. */
interface FormStat {
  size: number;
  mtimeMs: number;
  /** The modification time as Node's Stats.mtime gives it, in ms. */
  mtime: number;
  /** Where the bytes are when the form is a packed page, not a file of its own. */
  packed?: PackedPage;
}

/** A file as a release stores it: its path (without variant suffix) and the forms stored in one layer. */
interface Stored {
  file: string;
  forms: Partial<Record<FormName, FormStat>>;
}

/**
 * The packed pages of release folders (api/site-build/page-pack.ts), read once per folder: the
 * fast releases laid over one full release share its index. Most recently used last, so the full
 * release under every fast one stays while fast ones (which have none) come and go.
 */
const packedByLayer = new Map<string, PackedPages | null>();
const maxPackedLayers = 4;

function packedPagesOf(layer: string): PackedPages | null {
  let packed = packedByLayer.get(layer);
  if (packed === undefined) packed = readPackedPages(layer);
  packedByLayer.delete(layer);
  if (packedByLayer.size >= maxPackedLayers) packedByLayer.delete(packedByLayer.keys().next().value!);
  packedByLayer.set(layer, packed);
  return packed;
}

/**
 * The stored forms of `id` (a relative path), from the first layer that has any: its files (the
 * file and its compressed variants), else its packed page of that name (brotli only).
 */
async function findStored(layers: readonly string[], id: string): Promise<Stored | null> {
  if (isDotPath(id)) return null;
  for (const layer of layers) {
    const file = resolveInside(layer, id);
    if (!file) return null;
    const [identity, gzip, br] = await Promise.all(
      [file, file + encodingSuffixes.gzip, file + encodingSuffixes.br].map((name) => fs.promises.stat(name).catch(() => null)),
    );
    const forms: Stored["forms"] = {};
    const form = (stat: fs.Stats): FormStat => ({ size: stat.size, mtimeMs: stat.mtimeMs, mtime: stat.mtime.getTime() });
    if (identity?.isFile()) forms.identity = form(identity);
    if (gzip?.isFile()) forms.gzip = form(gzip);
    if (br?.isFile()) forms.br = form(br);
    if (Object.keys(forms).length > 0) return { file, forms };
    const packs = packedPagesOf(layer);
    const packed = packs?.get(id);
    if (packs && packed) return { file, forms: { br: { size: packed.length, mtimeMs: packs.mtimeMs, mtime: Math.floor(packs.mtimeMs), packed } } };
  }
  return null;
}

/**
 * How the sent bytes come from the stored form read: as they are; decompressed (a client that
 * takes no stored coding); or brotli recompressed as gzip (a client that takes gzip only).
 */
type Transform = "as-stored" | "gunzip" | "unbrotli" | "brotli-to-gzip";

/** One way of answering a path: the form sent, its validators and its header lists (name, value, ...). */
interface Variant {
  encoding: Encoding | null;
  source: FormName;
  transform: Transform;
  etag: string;
  /** The modification time in whole seconds, as ms (what If-Modified-Since is compared with). */
  modifiedMs: number;
  /** The headers of a 304 (and the full answer's, less content-encoding and content-length). */
  head: string[];
  /** The full answer's headers; for a transformed body only once its length is known. */
  full: string[] | null;
  /** The body cache's key for the sent bytes. */
  bodyKey: string;
}

/** What a path answers with in a release: a stored file, the status and the headers for it. */
interface PathAnswer {
  status: 200 | 404;
  /** Whether the answer carries validators (ETag, Last-Modified) and may be a 304. */
  revalidate: boolean;
  stored: Stored;
  /** The headers before the per-form ones (security headers, cache-control, ...), in order. */
  headers: Record<string, string>;
  /** By accepted codings (bit 1: brotli, bit 2: gzip), worked out when first asked for. */
  variants: (Variant | undefined)[];
}

const brotliBit = 1;
const gzipBit = 2;

/** The accepted codings as bits (brotli 1, gzip 2). */
const encodingBits = (accepted: ReadonlySet<Encoding>) => (accepted.has("br") ? brotliBit : 0) | (accepted.has("gzip") ? gzipBit : 0);

/**
 * The form to send for the accepted codings: the best stored form the client accepts; a
 * brotli-only file recompressed as gzip for a client that takes gzip only; else the file decompressed.
 */
function chooseForm(stored: Stored, bits: number): { encoding: Encoding | null; source: FormName; transform: Transform } {
  const accepts = (encoding: Encoding) => (bits & (encoding === "br" ? brotliBit : gzipBit)) !== 0;
  const encoding = encodingPreference.find((candidate) => accepts(candidate) && stored.forms[candidate]);
  if (encoding) return { encoding, source: encoding, transform: "as-stored" };
  if (stored.forms.identity) return { encoding: null, source: "identity", transform: "as-stored" };
  // Stored as brotli only (product pages: a stored gzip would have been chosen above) for a client
  // that takes gzip but not brotli: gzip at its fastest level on the fly, rather than the page
  // uncompressed (a third of the bytes).
  if (stored.forms.br && accepts("gzip")) return { encoding: "gzip", source: "br", transform: "brotli-to-gzip" };
  const compressed = stored.forms.gzip ? "gzip" : "br";
  return { encoding: null, source: compressed, transform: compressed === "gzip" ? "gunzip" : "unbrotli" };
}

const flat = (headers: Record<string, string>): string[] => Object.entries(headers).flat();

function makeVariant(answer: PathAnswer, bits: number): Variant {
  const { stored } = answer;
  const { encoding, source, transform } = chooseForm(stored, bits);
  const { size, mtimeMs, mtime } = stored.forms[source]!;
  const etag = `W/"${size.toString(16)}-${mtimeMs.toString(16)}${encoding ? `-${encoding}` : ""}"`;
  const headers: Record<string, string> = { ...answer.headers };
  const extension = path.extname(stored.file).toLowerCase();
  if (contentTypes[extension]) headers["content-type"] = contentTypes[extension];
  if (compressibleFile.test(stored.file)) headers.vary = "accept-encoding";
  if (answer.revalidate) {
    headers.etag = etag;
    headers["last-modified"] = new Date(mtime).toUTCString();
  }
  const head = flat(headers);
  const variant: Variant = {
    encoding,
    source,
    transform,
    etag,
    modifiedMs: Math.floor(mtime / 1000) * 1000,
    head,
    full: null,
    bodyKey: `${stored.file}\0${source}\0${transform}`,
  };
  // Stored bytes sent as they are: their length is the file's.
  if (transform === "as-stored") variant.full = fullHeaders(variant, size);
  return variant;
}

function fullHeaders(variant: Variant, length: number): string[] {
  return [...variant.head, ...(variant.encoding ? ["content-encoding", variant.encoding] : []), "content-length", String(length)];
}

/** Whether the client's cached copy (If-None-Match, else If-Modified-Since) is still this one. */
function notModified(ifNoneMatch: string | null | undefined, ifModifiedSince: string | null | undefined, variant: Variant): boolean {
  if (ifNoneMatch !== null && ifNoneMatch !== undefined) {
    const weak = (tag: string) => tag.trim().replace(/^W\//, "");
    return ifNoneMatch.trim() === "*" || ifNoneMatch.split(",").some((tag) => weak(tag) === weak(variant.etag));
  }
  if (ifModifiedSince === null || ifModifiedSince === undefined) return false;
  const since = Date.parse(ifModifiedSince);
  return !Number.isNaN(since) && variant.modifiedMs <= since;
}

/**
 * The bytes of the most recently sent files, up to `maxBytes` in all (least recently used
 * dropped first); a file larger than an eighth of that is never kept. Keys name the release's
 * file, so a new release's files never meet an old release's bytes.
 */
class BodyCache {
  private readonly entries = new Map<string, Buffer>();
  private bytes = 0;
  private readonly pending = new Map<string, Promise<Buffer>>();
  private readonly maxBytes: number;
  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  get(key: string): Buffer | undefined {
    const body = this.entries.get(key);
    if (body) {
      this.entries.delete(key);
      this.entries.set(key, body);
    }
    return body;
  }

  /** The cached bytes, else `load`'s (one load at a time per key), kept when they fit. */
  load(key: string, load: () => Promise<Buffer>): Promise<Buffer> {
    let loading = this.pending.get(key);
    if (!loading) {
      loading = load().finally(() => this.pending.delete(key));
      void loading.then((body) => this.keep(key, body), () => undefined);
      this.pending.set(key, loading);
    }
    return loading;
  }

  private keep(key: string, body: Buffer): void {
    if (body.length > this.maxBytes / 8 || this.entries.has(key)) return;
    this.entries.set(key, body);
    this.bytes += body.length;
    for (const [oldest, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= old.length;
    }
  }
}

/** Reads a variant's stored form and makes the bytes to send. */
async function readBody(stored: Stored, variant: Variant): Promise<Buffer> {
  const packed = stored.forms[variant.source]?.packed;
  const body = packed
    ? await readPacked(packed)
    : await fs.promises.readFile(variant.source === "identity" ? stored.file : stored.file + encodingSuffixes[variant.source]);
  switch (variant.transform) {
    case "as-stored":
      return body;
    case "gunzip":
      return zlib.gunzipSync(body);
    case "unbrotli":
      return zlib.brotliDecompressSync(body);
    case "brotli-to-gzip":
      return zlib.gzipSync(zlib.brotliDecompressSync(body), { level: 1 });
  }
}

/**
 * Paths whose answers a release keeps (a crawler's walk through every page, or a scanner's
 * made-up addresses, start over from the oldest): about 1 KB each.
 */
const maxKeptPaths = 20_000;
/** The longest address whose answer is kept. */
const maxKeptPathLength = 512;

/**
 * The request headers a page answer depends on, read from the raw list: building Node's header
 * object costs more than the rest of a kept answer. Repeated headers are joined with ", ", as
 * Node joins them.
 */
function requestHeaders(raw: readonly string[]): { acceptEncoding?: string; ifNoneMatch?: string; ifModifiedSince?: string } {
  const found: { acceptEncoding?: string; ifNoneMatch?: string; ifModifiedSince?: string } = {};
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length !== 15 && name.length !== 13 && name.length !== 17) continue;
    const lower = name.toLowerCase();
    const value = raw[i + 1]!;
    if (lower === "accept-encoding") found.acceptEncoding = found.acceptEncoding === undefined ? value : `${found.acceptEncoding}, ${value}`;
    else if (lower === "if-none-match") found.ifNoneMatch = found.ifNoneMatch === undefined ? value : `${found.ifNoneMatch}, ${value}`;
    // Node keeps the first If-Modified-Since of several.
    else if (lower === "if-modified-since") found.ifModifiedSince ??= value;
  }
  return found;
}

/** What a served release needs per request, worked out once (a published release never changes). */
interface ServedRelease {
  layers: string[];
  /** The page security headers with the release's inline-script hashes. */
  security: Record<string, string>;
  /** Answers by request path; null: no stored file answers it (the built-in 404). */
  paths: Map<string, PathAnswer | null>;
}

/**
 * Addresses the fast path answers: segments of unreserved characters, none starting with a dot
 * (no dot paths, no `..`), no percent-encoding, no empty segment. Any other address goes to the
 * app, which reads it as the URL parser normalises it.
 */
const plainPath = /^(?:\/[A-Za-z0-9_~-][A-Za-z0-9_.~-]*)*\/?$/;
const isApiPath = (pathname: string) => pathname === "/api" || pathname.startsWith("/api/");

export interface SitePagesOptions {
  cache?: CacheRules;
  /** Memory for the bytes of the most asked-for files (default from SITE_BODY_CACHE_MB). */
  bodyCacheBytes?: number;
}

export interface SitePages {
  /** The app's handler for the site (every address the API does not take). */
  handle(event: H3Event): Promise<Response>;
  /**
   * Answers a page request at the HTTP server and returns true, or returns false (having written
   * nothing) for the app to answer. `fallback` gets the request when a stored file turns out
   * unreadable.
   */
  answerNode(req: IncomingMessage, res: ServerResponse, fallback: (req: IncomingMessage, res: ServerResponse) => unknown): boolean;
  /** Answers given by `answerNode`. */
  served: number;
}

export function createSitePages(currentRoot: () => string | null, options: SitePagesOptions = {}): SitePages {
  const https = siteConfig.baseUrl.startsWith("https:");
  const serving = options.cache && options.bodyCacheBytes !== undefined ? null : siteServingConfig();
  const rules = options.cache ?? serving!;
  const bodies = new BodyCache(options.bodyCacheBytes ?? serving!.bodyCacheBytes);
  const releases = new Map<string, ServedRelease>();
  let latestRoot: string | null = null;
  /** Accepted codings by Accept-Encoding header (a handful of spellings in practice). */
  const acceptMemo = new Map<string, number>();

  /**
   * The release the fast path serves, asked for once per turn of the event loop: the requests
   * Node reads from the sockets in one turn arrived together and share it; the next turn asks
   * again, so a new release is served from the first request that comes after it. (The release
   * store answers from memory between changes of its folder: api/site-build/releases.ts.)
   * Undefined: not asked in this turn yet.
   */
  let rootThisTurn: string | null | undefined;
  const forgetRoot = () => {
    rootThisTurn = undefined;
  };
  const rootNow = (): string | null => {
    if (rootThisTurn === undefined) {
      rootThisTurn = currentRoot();
      setImmediate(forgetRoot);
    }
    return rootThisTurn;
  };

  let latestRelease: ServedRelease | null = null;
  const releaseAt = (root: string): ServedRelease => {
    if (root === latestRoot && latestRelease) return latestRelease;
    let release = releases.get(root);
    if (!release) {
      const layers = releaseLayers(root);
      const scriptHashes = [...new Set(layers.flatMap(readScriptHashes))];
      release = { layers, security: securityHeaders("page", { scriptHashes, https }), paths: new Map() };
      // The few latest releases are all a server ever serves.
      if (releases.size >= 16) releases.delete(releases.keys().next().value!);
      releases.set(root, release);
    }
    // Only the served release's answers are worth their memory.
    if (latestRoot !== root) {
      if (latestRoot !== null) releases.get(latestRoot)?.paths.clear();
      latestRoot = root;
    }
    latestRelease = release;
    return release;
  };

  const bitsOf = (header: string | null | undefined): number => {
    if (!header) return 0;
    let bits = acceptMemo.get(header);
    if (bits === undefined) {
      bits = encodingBits(acceptedEncodings(header));
      if (acceptMemo.size >= 256) acceptMemo.clear();
      acceptMemo.set(header, bits);
    }
    return bits;
  };

  const variantOf = (answer: PathAnswer, bits: number): Variant => (answer.variants[bits] ??= makeVariant(answer, bits));

  /** The bytes to send, from memory when kept; and the variant's full headers are known after it. */
  const bodyOf = (answer: PathAnswer, variant: Variant): Buffer | Promise<Buffer> => {
    const kept = bodies.get(variant.bodyKey);
    if (kept) {
      variant.full ??= fullHeaders(variant, kept.length);
      return kept;
    }
    return bodies.load(variant.bodyKey, () => readBody(answer.stored, variant)).then((body) => {
      variant.full ??= fullHeaders(variant, body.length);
      return body;
    });
  };

  const answerFile = (release: ServedRelease, stored: Stored, status: 200 | 404, headers: Record<string, string>, revalidate: boolean): PathAnswer => ({
    status,
    revalidate,
    stored,
    headers: { ...release.security, ...headers },
    variants: [],
  });

  async function notFound(release: ServedRelease, pathname: string): Promise<PathAnswer | null> {
    const page = pathname.startsWith("/product/") ? "product-not-found/index.html" : "404.html";
    const stored = await findStored(release.layers, page);
    return stored ? answerFile(release, stored, 404, { "cache-control": "no-cache" }, false) : null;
  }

  async function resolve(release: ServedRelease, pathname: string): Promise<PathAnswer | null> {
    if (isDotPath(pathname) || isVariantName(pathname)) return notFound(release, pathname);
    let id: string;
    try {
      id = decodeURI(pathname).replace(/^\/+|\/+$/g, "");
    } catch {
      return notFound(release, pathname);
    }
    const admin = isAdminPath(pathname);
    const headers = { "cache-control": cacheControl(pathname, rules), ...(admin ? adminHeaders : {}) };
    for (const candidate of storedCandidates(id)) {
      const stored = await findStored(release.layers, candidate);
      // The admin app's files are never stored by a browser (no-store), so they carry no validators.
      if (stored) return answerFile(release, stored, 200, headers, !admin);
    }
    if (admin) {
      const shell = await findStored(release.layers, adminShell);
      if (shell) return answerFile(release, shell, 200, adminHeaders, false);
    }
    return notFound(release, pathname);
  }

  /** The answer for a path, kept for the release's later requests. */
  async function answerFor(release: ServedRelease, pathname: string): Promise<PathAnswer | null> {
    const kept = release.paths.get(pathname);
    if (kept !== undefined) return kept;
    const answer = await resolve(release, pathname);
    if (pathname.length <= maxKeptPathLength) {
      if (release.paths.size >= maxKeptPaths) {
        // Oldest first: drop a tenth.
        let drop = maxKeptPaths / 10;
        for (const key of release.paths.keys()) {
          if (drop-- <= 0) break;
          release.paths.delete(key);
        }
      }
      release.paths.set(pathname, answer);
    }
    return answer;
  }

  const pairs = (list: readonly string[]): [string, string][] => {
    const result: [string, string][] = [];
    for (let i = 0; i < list.length; i += 2) result.push([list[i]!, list[i + 1]!]);
    return result;
  };

  async function handle(event: H3Event): Promise<Response> {
    const root = currentRoot();
    if (root === null) {
      return new Response("<h1>The site is being built. Please try again in a minute.</h1>", {
        status: 503,
        headers: { ...securityHeaders("page", { https }), "content-type": "text/html; charset=utf-8", "retry-after": "30" },
      });
    }
    const release = releaseAt(root);
    const method = event.req.method;
    if (method !== "GET" && method !== "HEAD") {
      return Response.json({ error: "Method not allowed" }, { status: 405, headers: { ...securityHeaders("api", { https }), allow: "GET, HEAD" } });
    }
    const answer = await answerFor(release, event.url.pathname);
    if (!answer) {
      return new Response("<h1>404 Page Not Found</h1>", {
        status: 404,
        headers: { ...release.security, "cache-control": "no-cache", "content-type": "text/html; charset=utf-8" },
      });
    }
    const variant = variantOf(answer, bitsOf(event.req.headers.get("accept-encoding")));
    if (answer.revalidate && notModified(event.req.headers.get("if-none-match"), event.req.headers.get("if-modified-since"), variant)) {
      return new Response(null, { status: 304, headers: pairs(variant.head) });
    }
    const body = await bodyOf(answer, variant);
    return new Response(method === "HEAD" ? null : new Uint8Array(body), { status: answer.status, headers: pairs(variant.full!) });
  }

  function write(answer: PathAnswer, req: IncomingMessage, res: ServerResponse, fallback: (req: IncomingMessage, res: ServerResponse) => unknown): void {
    pages.served++;
    const headers = requestHeaders(req.rawHeaders);
    const variant = variantOf(answer, bitsOf(headers.acceptEncoding));
    if (answer.revalidate && notModified(headers.ifNoneMatch, headers.ifModifiedSince, variant)) {
      res.writeHead(304, variant.head);
      res.end();
      return;
    }
    const head = req.method === "HEAD";
    if (head && variant.full) {
      res.writeHead(answer.status, variant.full);
      res.end();
      return;
    }
    const body = bodyOf(answer, variant);
    if (!(body instanceof Promise)) {
      res.writeHead(answer.status, variant.full!);
      res.end(body);
      return;
    }
    body
      .then((bytes) => {
        res.writeHead(answer.status, variant.full!);
        res.end(head ? undefined : bytes);
      })
      .catch((error: unknown) => failed(req, res, fallback, error));
  }

  /** A file that could not be read: the app answers, unless the answer had begun. */
  function failed(req: IncomingMessage, res: ServerResponse, fallback: (req: IncomingMessage, res: ServerResponse) => unknown, error: unknown): void {
    if (res.headersSent) res.destroy(error instanceof Error ? error : new Error(String(error)));
    else fallback(req, res);
  }

  const pages: SitePages = {
    handle,
    served: 0,
    answerNode(req, res, fallback) {
      const method = req.method;
      if (method !== "GET" && method !== "HEAD") return false;
      const url = req.url;
      if (!url || url[0] !== "/") return false;
      const queryStart = url.indexOf("?");
      const pathname = queryStart < 0 ? url : url.slice(0, queryStart);
      if (pathname.length > maxKeptPathLength || isApiPath(pathname) || !plainPath.test(pathname)) return false;
      const root = rootNow();
      if (root === null) return false;
      const release = releaseAt(root);
      const kept = release.paths.get(pathname);
      if (kept === null) return false; // the built-in 404: the app's
      if (kept) {
        write(kept, req, res, fallback);
        return true;
      }
      answerFor(release, pathname)
        .then((answer) => (answer ? write(answer, req, res, fallback) : fallback(req, res)))
        .catch((error: unknown) => failed(req, res, fallback, error));
      return true;
    },
  };
  return pages;
}

/** The app's handler for the site: the given pages, or pages served from `currentRoot`. */
export function createSiteHandler(site: SitePages | (() => string | null)) {
  const pages = typeof site === "function" ? createSitePages(site) : site;
  return (event: H3Event) => pages.handle(event);
}
