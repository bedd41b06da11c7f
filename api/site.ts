/**
 * Serves the pre-rendered site from the current release. The release is asked for on every
 * request, so a rebuild swaps in a new one atomically; a fast release is looked up before the
 * full release it is laid over (api/site-releases.ts). Hashed assets are cached for a year; HTML
 * is revalidated (ETag / Last-Modified) so a rebuild shows at once.
 *
 * Text is sent compressed to clients that accept it: the build stores each file as it is and/or
 * as gzip and brotli variants (api/site-output.ts), and the best stored form the client accepts
 * is sent as it is (brotli, then gzip). A client that accepts neither gets the file as it is,
 * decompressed on the fly when it was stored compressed only (product pages). All of a file's
 * forms come from the first layer that has any of them.
 *
 * Every answer carries the page security headers (api/lib/security-headers.ts), with the hashes
 * of the release's inline scripts (its layers' .csp.json) allowed in its Content-Security-Policy.
 *
 * Dot paths (/.prerender/..., /.release.json, /.csp.json) are never served: they are build
 * intermediates and release bookkeeping, not public files; nor are the stored variants by their
 * own names (/x.html.gz). Every address under /admin that has no file of its own gets the admin
 * app's page (it routes in the browser), never cached or indexed.
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import type { H3Event } from "h3";
import { siteConfig } from "../data/config.ts";
import { securityHeaders } from "./lib/security-headers.ts";
import { compressibleFile, encodingSuffixes, storedCandidates, type Encoding } from "./site-output.ts";
import { readScriptHashes, releaseLayers } from "./site-releases.ts";

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

function cacheControl(pathname: string): string {
  if (pathname.startsWith("/_astro/")) return "public, max-age=31536000, immutable";
  if (/\.(?:svg|png|jpe?g|webp|ico|woff2?)$/.test(pathname)) return "public, max-age=86400";
  return "public, max-age=0, must-revalidate";
}

/** The codings a request's Accept-Encoding allows among those stored (q=0 refuses; * stands for the rest). */
export function acceptedEncodings(header: string | null): Set<Encoding> {
  const weights = new Map<string, number>();
  for (const part of (header ?? "").split(",")) {
    const [name = "", ...params] = part.split(";");
    const coding = name.trim().toLowerCase().replace(/^x-gzip$/, "gzip");
    const q = params.map((param) => /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(param)?.[1]).find((value) => value !== undefined);
    if (coding && !weights.has(coding)) weights.set(coding, q === undefined ? 1 : Number(q) || 0);
  }
  return new Set(encodingPreference.filter((encoding) => (weights.get(encoding) ?? weights.get("*") ?? 0) > 0));
}

/** A file as a release stores it: its path (without variant suffix) and the forms stored in one layer. */
interface Stored {
  file: string;
  forms: Partial<Record<Encoding | "identity", fs.Stats>>;
}

/** The stored forms of `id` (a relative path), from the first layer that has any. */
async function findStored(layers: readonly string[], id: string): Promise<Stored | null> {
  if (isDotPath(id)) return null;
  for (const layer of layers) {
    const file = resolveInside(layer, id);
    if (!file) return null;
    const [identity, gzip, br] = await Promise.all(
      [file, file + encodingSuffixes.gzip, file + encodingSuffixes.br].map((name) => fs.promises.stat(name).catch(() => null)),
    );
    const forms: Stored["forms"] = {};
    if (identity?.isFile()) forms.identity = identity;
    if (gzip?.isFile()) forms.gzip = gzip;
    if (br?.isFile()) forms.br = br;
    if (Object.keys(forms).length > 0) return { file, forms };
  }
  return null;
}

/**
 * The bytes to send for a stored file: the best stored form the client accepts; a brotli-only file
 * recompressed as gzip for a client that takes gzip only; else the file decompressed.
 */
async function chooseForm(
  stored: Stored,
  accepted: ReadonlySet<Encoding>,
): Promise<{ encoding: Encoding | null; stat: fs.Stats; read: () => Promise<Buffer> }> {
  const encoding = encodingPreference.find((candidate) => accepted.has(candidate) && stored.forms[candidate]);
  if (encoding) {
    return { encoding, stat: stored.forms[encoding]!, read: () => fs.promises.readFile(stored.file + encodingSuffixes[encoding]) };
  }
  if (stored.forms.identity) return { encoding: null, stat: stored.forms.identity, read: () => fs.promises.readFile(stored.file) };
  // Stored as brotli only (product pages: a stored gzip would have been chosen above) for a client
  // that takes gzip but not brotli: gzip at its fastest level on the fly, rather than the page
  // uncompressed (a third of the bytes).
  if (stored.forms.br && accepted.has("gzip")) {
    return {
      encoding: "gzip",
      stat: stored.forms.br,
      read: async () => zlib.gzipSync(zlib.brotliDecompressSync(await fs.promises.readFile(stored.file + encodingSuffixes.br)), { level: 1 }),
    };
  }
  const compressed = stored.forms.gzip ? "gzip" : "br";
  return {
    encoding: null,
    stat: stored.forms[compressed]!,
    read: async () => {
      const body = await fs.promises.readFile(stored.file + encodingSuffixes[compressed]);
      return compressed === "gzip" ? zlib.gunzipSync(body) : zlib.brotliDecompressSync(body);
    },
  };
}

/** Whether the client's cached copy (If-None-Match, else If-Modified-Since) is still this one. */
function notModified(request: Request, etag: string, mtime: Date): boolean {
  const tags = request.headers.get("if-none-match");
  if (tags !== null) {
    const weak = (tag: string) => tag.trim().replace(/^W\//, "");
    return tags.trim() === "*" || tags.split(",").some((tag) => weak(tag) === weak(etag));
  }
  const since = Date.parse(request.headers.get("if-modified-since") ?? "");
  return !Number.isNaN(since) && Math.floor(mtime.getTime() / 1000) * 1000 <= since;
}

/** What a served release needs per request, read once (a published release never changes). */
interface ServedRelease {
  layers: string[];
  /** The page security headers with the release's inline-script hashes. */
  security: Record<string, string>;
}

export function createSiteHandler(currentRoot: () => string | null) {
  const https = siteConfig.baseUrl.startsWith("https:");
  const releases = new Map<string, ServedRelease>();

  const releaseAt = (root: string): ServedRelease => {
    let release = releases.get(root);
    if (!release) {
      const layers = releaseLayers(root);
      const scriptHashes = [...new Set(layers.flatMap(readScriptHashes))];
      release = { layers, security: securityHeaders("page", { scriptHashes, https }) };
      // The few latest releases are all a server ever serves.
      if (releases.size >= 16) releases.delete(releases.keys().next().value!);
      releases.set(root, release);
    }
    return release;
  };

  /** Sends a stored file (its best accepted form), or answers 304 to a still-valid cached copy. */
  async function send(
    event: H3Event,
    release: ServedRelease,
    stored: Stored,
    options: { status: number; headers: Record<string, string>; revalidate: boolean },
  ): Promise<Response> {
    const form = await chooseForm(stored, acceptedEncodings(event.req.headers.get("accept-encoding")));
    const { size, mtime, mtimeMs } = form.stat;
    const etag = `W/"${size.toString(16)}-${mtimeMs.toString(16)}${form.encoding ? `-${form.encoding}` : ""}"`;
    const headers: Record<string, string> = { ...release.security, ...options.headers };
    const extension = path.extname(stored.file).toLowerCase();
    if (contentTypes[extension]) headers["content-type"] = contentTypes[extension];
    if (compressibleFile.test(stored.file)) headers.vary = "accept-encoding";
    if (options.revalidate) {
      headers.etag = etag;
      headers["last-modified"] = mtime.toUTCString();
      if (notModified(event.req, etag, mtime)) return new Response(null, { status: 304, headers });
    }
    if (form.encoding) headers["content-encoding"] = form.encoding;
    const body = await form.read();
    headers["content-length"] = String(body.length);
    return new Response(event.req.method === "HEAD" ? null : new Uint8Array(body), { status: options.status, headers });
  }

  async function notFound(event: H3Event, release: ServedRelease, pathname: string): Promise<Response> {
    const page = pathname.startsWith("/product/") ? "product-not-found/index.html" : "404.html";
    const stored = await findStored(release.layers, page);
    const headers = { "cache-control": "no-cache" };
    if (stored) return send(event, release, stored, { status: 404, headers, revalidate: false });
    return new Response("<h1>404 Page Not Found</h1>", {
      status: 404,
      headers: { ...release.security, ...headers, "content-type": "text/html; charset=utf-8" },
    });
  }

  return async (event: H3Event) => {
    const root = currentRoot();
    if (root === null) {
      return new Response("<h1>The site is being built. Please try again in a minute.</h1>", {
        status: 503,
        headers: { ...securityHeaders("page", { https }), "content-type": "text/html; charset=utf-8", "retry-after": "30" },
      });
    }
    const release = releaseAt(root);
    const { pathname } = event.url;
    const method = event.req.method;
    if (method !== "GET" && method !== "HEAD") {
      return Response.json({ error: "Method not allowed" }, { status: 405, headers: { ...securityHeaders("api", { https }), allow: "GET, HEAD" } });
    }
    if (isDotPath(pathname) || isVariantName(pathname)) return notFound(event, release, pathname);

    let id: string;
    try {
      id = decodeURI(pathname).replace(/^\/+|\/+$/g, "");
    } catch {
      return notFound(event, release, pathname);
    }
    const admin = isAdminPath(pathname);
    const headers = { "cache-control": cacheControl(pathname), ...(admin ? adminHeaders : {}) };
    for (const candidate of storedCandidates(id)) {
      const stored = await findStored(release.layers, candidate);
      if (stored) return send(event, release, stored, { status: 200, headers, revalidate: true });
    }
    if (admin) {
      const shell = await findStored(release.layers, adminShell);
      if (shell) return send(event, release, shell, { status: 200, headers: adminHeaders, revalidate: false });
    }
    return notFound(event, release, pathname);
  };
}
