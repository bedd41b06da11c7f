/**
 * Tells the CDN in front of the site (CDN_PURGE: data/config.ts) what a new release changed, so
 * it stops serving the old pages at once: a fast release's pages by address, everything after a
 * full release. Pages may then be kept by the CDN for a day (api/http/site.ts cache headers).
 *
 * Cloudflare: POST <api>/zones/<zone>/purge_cache with a bearer token, `{"files": [absolute
 * URLs]}` at most 30 a call (every plan takes that many; larger plans more), or
 * `{"purge_everything": true}`. Fastly: POST <api>/purge/<URL without its scheme> per address,
 * or POST <api>/service/<service>/purge_all, with the Fastly-Key header.
 *
 * A purge never holds up or fails a release: it runs after the swap, and a call that fails
 * (network error, non-2xx answer, Cloudflare's `"success": false`) is tried again after a pause
 * growing each time (2 s, 10 s, 60 s), then given up and logged. A page left in the CDN then
 * goes stale when its s-maxage runs out.
 */
import { siteConfig, type CdnPurgeConfig } from "../../data/config.ts";
import { storedCandidates } from "./output.ts";

/** Cloudflare's smallest limit on addresses per purge call. */
export const cloudflareBatchSize = 30;
const defaultRetryDelaysMs = [2_000, 10_000, 60_000];
/** How long one purge call may take before it counts as failed. */
const callTimeoutMs = 15_000;

export interface CdnPurger {
  /** Purges these absolute URLs; resolves true when every call succeeded, false when one was given up. */
  purgeUrls(urls: readonly string[]): Promise<boolean>;
  /** Purges everything the CDN holds for the site. */
  purgeEverything(): Promise<boolean>;
}

export interface CdnPurgerOptions {
  log?: (line: string) => void;
  /** Pauses before each retry of a failed call; their count is the number of retries. */
  retryDelaysMs?: readonly number[];
}

interface Call {
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** What the log calls it. */
  what: string;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

export function createCdnPurger(config: CdnPurgeConfig, options: CdnPurgerOptions = {}): CdnPurger {
  const log = options.log ?? console.log;
  const retryDelays = options.retryDelaysMs ?? defaultRetryDelaysMs;

  /** One call, tried again after each pause while it fails; true when it succeeded. */
  async function send(call: Call): Promise<boolean> {
    let problem = "";
    for (let attempt = 0; attempt <= retryDelays.length; attempt++) {
      if (attempt > 0) await sleep(retryDelays[attempt - 1]!);
      try {
        const response = await fetch(call.url, { method: "POST", headers: call.headers, body: call.body, signal: AbortSignal.timeout(callTimeoutMs) });
        const text = await response.text();
        let success = response.ok;
        if (success && config.provider === "cloudflare") {
          try {
            success = (JSON.parse(text) as { success?: unknown }).success !== false;
          } catch {
            // Not JSON: judged by its status.
          }
        }
        if (success) return true;
        problem = `HTTP ${response.status} ${text.slice(0, 200)}`;
      } catch (error) {
        problem = error instanceof Error ? error.message : String(error);
      }
      log(`CDN purge (${config.provider}) of ${call.what} failed (attempt ${attempt + 1} of ${retryDelays.length + 1}): ${problem}`);
    }
    log(`CDN purge (${config.provider}) of ${call.what} given up; those pages refresh when the CDN's copy expires`);
    return false;
  }

  async function sendAll(calls: Call[]): Promise<boolean> {
    let ok = true;
    for (const call of calls) ok = (await send(call)) && ok;
    return ok;
  }

  if (config.provider === "cloudflare") {
    const endpoint = `${config.apiBase}/zones/${encodeURIComponent(config.zoneId)}/purge_cache`;
    const headers = { authorization: `Bearer ${config.apiToken}`, "content-type": "application/json" };
    return {
      purgeUrls(urls) {
        const calls: Call[] = [];
        for (let start = 0; start < urls.length; start += cloudflareBatchSize) {
          const files = urls.slice(start, start + cloudflareBatchSize);
          calls.push({ url: endpoint, headers, body: JSON.stringify({ files }), what: `${files.length} address(es) from ${files[0]}` });
        }
        return sendAll(calls);
      },
      purgeEverything: () => send({ url: endpoint, headers, body: JSON.stringify({ purge_everything: true }), what: "everything" }),
    };
  }
  const headers = { "fastly-key": config.apiToken, accept: "application/json" };
  return {
    purgeUrls: (urls) => sendAll(urls.map((url) => ({ url: `${config.apiBase}/purge/${url.replace(/^https?:\/\//, "")}`, headers, what: url }))),
    purgeEverything: () => send({ url: `${config.apiBase}/service/${encodeURIComponent(config.serviceId)}/purge_all`, headers, what: "everything" }),
  };
}

/**
 * The address a stored file is served at, or null for one served at no address of its own (the
 * 404 pages). The inverse of how the build lays pages out (api/site-build/output.ts): `index.html` is
 * `/`, `<path>/index.html` and a flat product page `product/<slug>.html` are `/<path>` (the form
 * the site links to), any other file is its own path; a compressed form counts as its file.
 */
export function addressOfStored(relative: string): string | null {
  const file = relative.split("\\").join("/").replace(/\.(?:gz|br)$/, "");
  // Dot files are bookkeeping (and build leftovers), never served.
  if (/(?:^|\/)\./.test(file)) return null;
  if (file === "404.html" || file.startsWith("product-not-found/")) return null;
  if (file === "index.html") return "/";
  const page = file.endsWith("/index.html") ? file.slice(0, -"/index.html".length) : file.replace(/\.html$/, "");
  // A product page is stored flat; any other .html file is served at its own name.
  if (file.endsWith(".html") && !file.endsWith("/index.html") && storedCandidates(page)[0] !== file) return `/${file}`;
  return `/${page}`;
}

/** The absolute URLs of stored files (relative paths in a release), each once. */
export function purgeUrlsOf(files: readonly string[], baseUrl: string = siteConfig.baseUrl): string[] {
  const addresses = new Set<string>();
  for (const file of files) {
    const address = addressOfStored(file);
    if (address !== null) addresses.add(address);
  }
  return [...addresses].sort().map((address) => `${baseUrl}${encodeURI(address)}`);
}
