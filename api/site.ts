/**
 * Serves the pre-rendered site from the current build folder. The folder is asked for on every
 * request, so the rebuild runner can swap in a new build atomically. Hashed assets are cached
 * for a year; HTML is revalidated (ETag / Last-Modified) so a rebuild shows at once.
 */
import fs from "node:fs";
import path from "node:path";
import { serveStatic, type H3Event } from "h3";

const precompressed = { gzip: ".gz" };

function resolveInside(root: string, id: string): string | null {
  const file = path.join(root, id);
  return file === root || file.startsWith(root + path.sep) ? file : null;
}

function cacheControl(pathname: string): string {
  if (pathname.startsWith("/_astro/")) return "public, max-age=31536000, immutable";
  if (/\.(?:svg|png|jpe?g|webp|ico|woff2?)$/.test(pathname)) return "public, max-age=86400";
  return "public, max-age=0, must-revalidate";
}

async function notFoundPage(root: string, pathname: string): Promise<Response> {
  const page = pathname.startsWith("/product/") ? "product-not-found/index.html" : "404.html";
  const html = await fs.promises.readFile(path.join(root, page)).catch(() => "<h1>404 Page Not Found</h1>");
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
    const served = await serveStatic(event, {
      fallthrough: true,
      encodings: precompressed,
      headers: {
        "cache-control": cacheControl(event.url.pathname),
        "x-content-type-options": "nosniff",
        "x-frame-options": "SAMEORIGIN",
        "referrer-policy": "strict-origin-when-cross-origin",
      },
      getMeta: async (id) => {
        const file = resolveInside(root, id);
        const stat = file ? await fs.promises.stat(file).catch(() => null) : null;
        if (!stat?.isFile()) return undefined;
        const encoding = id.endsWith(".gz") ? "gzip" : undefined;
        return { size: stat.size, mtime: stat.mtime, etag: `W/"${stat.size.toString(16)}-${stat.mtimeMs.toString(16)}"`, encoding };
      },
      getContents: (id) => {
        const file = resolveInside(root, id);
        return file ? fs.promises.readFile(file) : null;
      },
    });
    if (served !== undefined) return served;
    if (event.req.method !== "GET" && event.req.method !== "HEAD") {
      return Response.json({ error: "Method not allowed" }, { status: 405, headers: { allow: "GET, HEAD" } });
    }
    return notFoundPage(root, event.url.pathname);
  };
}
