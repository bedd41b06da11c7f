/**
 * Serves the pre-rendered site from the current release. The release is asked for on every
 * request, so a rebuild swaps in a new one atomically; a fast release is looked up before the
 * full release it is laid over (api/site-releases.ts). Hashed assets are cached for a year; HTML
 * is revalidated (ETag / Last-Modified) so a rebuild shows at once.
 *
 * Dot paths (/.prerender/..., /.release.json) are never served: they are build intermediates
 * and release bookkeeping, not public files. Every address under /admin that has no file of its
 * own gets the admin app's page (it routes in the browser), never cached or indexed.
 */
import fs from "node:fs";
import path from "node:path";
import { serveStatic, type H3Event } from "h3";
import { releaseLayers } from "./site-releases.ts";

const precompressed = { gzip: ".gz" };
const adminShell = "admin/index.html";
const adminHeaders = { "cache-control": "no-store", "x-robots-tag": "noindex" };

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

function cacheControl(pathname: string): string {
  if (pathname.startsWith("/_astro/")) return "public, max-age=31536000, immutable";
  if (/\.(?:svg|png|jpe?g|webp|ico|woff2?)$/.test(pathname)) return "public, max-age=86400";
  return "public, max-age=0, must-revalidate";
}

/** A release's lookup folders, read once per release (a published release never changes). */
const layersByRoot = new Map<string, string[]>();

function layersOf(root: string): string[] {
  let layers = layersByRoot.get(root);
  if (!layers) {
    layers = releaseLayers(root);
    // The few latest releases are all a server ever serves.
    if (layersByRoot.size >= 16) layersByRoot.delete(layersByRoot.keys().next().value!);
    layersByRoot.set(root, layers);
  }
  return layers;
}

/** The file a release has at `id` (relative path), first layer first, with its stat. */
async function findFile(layers: readonly string[], id: string): Promise<{ file: string; stat: fs.Stats } | null> {
  if (isDotPath(id)) return null;
  for (const layer of layers) {
    const file = resolveInside(layer, id);
    if (!file) return null;
    const stat = await fs.promises.stat(file).catch(() => null);
    if (stat?.isFile()) return { file, stat };
  }
  return null;
}

async function readText(layers: readonly string[], id: string): Promise<string | null> {
  const found = await findFile(layers, id);
  return found ? fs.promises.readFile(found.file, "utf8") : null;
}

async function notFoundPage(layers: readonly string[], pathname: string): Promise<Response> {
  const page = pathname.startsWith("/product/") ? "product-not-found/index.html" : "404.html";
  const html = (await readText(layers, page)) ?? "<h1>404 Page Not Found</h1>";
  return new Response(html, { status: 404, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache" } });
}

export function createSiteHandler(currentRoot: () => string | null) {
  return async (event: H3Event) => {
    const root = currentRoot();
    if (root === null) {
      return new Response("<h1>The site is being built. Please try again in a minute.</h1>", {
        status: 503,
        headers: { "content-type": "text/html; charset=utf-8", "retry-after": "30" },
      });
    }
    const layers = layersOf(root);
    const { pathname } = event.url;
    const method = event.req.method;
    if (method !== "GET" && method !== "HEAD") {
      return Response.json({ error: "Method not allowed" }, { status: 405, headers: { allow: "GET, HEAD" } });
    }
    if (isDotPath(pathname)) return notFoundPage(layers, pathname);

    const admin = isAdminPath(pathname);
    // The file found by getMeta is the one getContents reads, whichever layer it was in.
    const found = new Map<string, string>();
    const served = await serveStatic(event, {
      fallthrough: true,
      encodings: precompressed,
      headers: {
        "cache-control": cacheControl(pathname),
        "x-content-type-options": "nosniff",
        "x-frame-options": "SAMEORIGIN",
        "referrer-policy": "strict-origin-when-cross-origin",
        ...(admin ? adminHeaders : {}),
      },
      getMeta: async (id) => {
        const hit = await findFile(layers, id);
        if (!hit) return undefined;
        found.set(id, hit.file);
        const { stat } = hit;
        const encoding = id.endsWith(".gz") ? "gzip" : undefined;
        return { size: stat.size, mtime: stat.mtime, etag: `W/"${stat.size.toString(16)}-${stat.mtimeMs.toString(16)}"`, encoding };
      },
      getContents: (id) => {
        const file = found.get(id);
        return file ? fs.promises.readFile(file) : null;
      },
    });
    if (served !== undefined) return served;
    if (admin) {
      const shell = await readText(layers, adminShell);
      if (shell) {
        return new Response(method === "HEAD" ? null : shell, {
          headers: {
            "content-type": "text/html; charset=utf-8",
            "x-content-type-options": "nosniff",
            "x-frame-options": "SAMEORIGIN",
            "referrer-policy": "strict-origin-when-cross-origin",
            ...adminHeaders,
          },
        });
      }
    }
    return notFoundPage(layers, pathname);
  };
}
