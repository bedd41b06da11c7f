/**
 * Cache hits answered at the HTTP server, before the h3 app: the cached public reads are most
 * of the traffic, and on a hit the app's routing, event, Response and stream conversion cost
 * more than the answer itself. The fast path uses the same route patterns, parsing and cache
 * keys as the app (./cached-route.ts), and answers only when the cache holds the entry together
 * with the headers the app sent for it the first time: so a hit here carries the very headers
 * and bytes the app gives (security headers included), and everything else (a miss, a 400, a
 * 404, a URL it is unsure of) goes to the app unchanged.
 *
 * A cached read's headers depend only on its route (content type, its Cache-Control, the
 * app-wide security headers), never on the visitor: that is what makes replaying them right.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { serve, type H3 } from "h3";
import { compiledRoutes } from "../app.ts";
import { matchPath, staticFirst, type CompiledPath } from "./route-match.ts";
import type { AppContext } from "../context.ts";
import type { SitePages } from "./site.ts";
import { cachedReadOf, type CachedRead } from "./cached-route.ts";
import type { ResponseCache } from "./response-cache.ts";
import { tagRoute, observeRequests, type Listener } from "./observe.ts";
import { createMetricsEndpoint } from "./metrics-endpoint.ts";
import { noTrustedProxies } from "./client-address.ts";

interface FastRoute {
  compiled: CompiledPath;
  read: CachedRead;
}

/**
 * Cache keys of URLs seen before, so a repeated URL skips parsing. A key depends on the URL
 * alone; only URLs that parsed are kept, at most this many of at most 512 characters (under
 * 3 MB however they are spelled), and the memo starts over when full.
 */
export const maxMemoKeys = 2000;
export const maxMemoUrlLength = 512;

/** Headers the HTTP server writes per connection or per answer; they are never replayed. */
const perAnswerHeaders = new Set(["content-length", "date", "connection", "keep-alive", "transfer-encoding"]);

/**
 * The cached GET routes of the route table, as the app's router prefers them when several
 * match: routes without parameters first (`/api/products/count` before `/api/products/:slug`).
 */
function fastRoutes(): FastRoute[] {
  const list: FastRoute[] = [];
  for (const { route, method, compiled } of staticFirst(compiledRoutes)) {
    const [, , handler, options] = route;
    const read = options?.cache && method === "GET" ? cachedReadOf(handler) : undefined;
    if (read) list.push({ compiled, read });
  }
  return list;
}

/** Keeps the header list the app writes for this answer (a 200 to a GET), to replay it on hits. */
function recordSentHeaders(res: ServerResponse, cache: ResponseCache, key: string): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    res.writeHead = writeHead;
    const [status, second, third] = args;
    const raw = Array.isArray(second) ? second : Array.isArray(third) ? third : undefined;
    if (status === 200 && raw && raw.every((part) => typeof part === "string")) {
      const names = raw.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase());
      if (!names.includes("set-cookie")) {
        const headers: string[] = [];
        for (let i = 0; i < raw.length; i += 2) if (!perAnswerHeaders.has(names[i / 2]!)) headers.push(raw[i]!, raw[i + 1]!);
        cache.attachSent(key, headers, typeof second === "string" ? second : undefined);
      }
    }
    return (writeHead as (...args: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse["writeHead"];
}

/**
 * A request listener that answers cache hits of the cached public reads and returns true, or
 * returns false (having written nothing) for the app to answer. `served` counts its answers;
 * `remembered()` is how many URLs the memo holds now.
 */
export function createFastReads(cache: ResponseCache): ((req: IncomingMessage, res: ServerResponse) => boolean) & { served: number; remembered(): number } {
  const list = fastRoutes();
  const memo = new Map<string, { key: string; path: string }>();
  const send = (req: IncomingMessage, res: ServerResponse, key: string, path: string): boolean => {
    const sent = cache.getSent(key);
    if (!sent) {
      if (req.method === "GET") recordSentHeaders(res, cache, key);
      return false;
    }
    tagRoute(req, path);
    if (sent.statusText === undefined) res.writeHead(200, sent.headers);
    else res.writeHead(200, sent.statusText, sent.headers);
    res.end(req.method === "HEAD" ? undefined : sent.body);
    answer.served++;
    return true;
  };
  const answer = (req: IncomingMessage, res: ServerResponse): boolean => {
    const method = req.method;
    if (method !== "GET" && method !== "HEAD") return false;
    const url = req.url;
    if (!url || url[0] !== "/") return false;
    const known = memo.get(url);
    if (known !== undefined) return send(req, res, known.key, known.path);
    const queryStart = url.indexOf("?");
    const pathname = queryStart < 0 ? url : url.slice(0, queryStart);
    for (const { compiled, read } of list) {
      const params = matchPath(compiled, pathname);
      if (!params) continue;
      let key: string;
      try {
        key = read.parse(params, new URLSearchParams(queryStart < 0 ? "" : url.slice(queryStart + 1))).key;
      } catch {
        return false; // the app answers with its 400
      }
      if (url.length <= maxMemoUrlLength) {
        if (memo.size >= maxMemoKeys) memo.clear();
        // The route table's path is the metrics' label.
        memo.set(url, { key, path: compiled.path });
      }
      return send(req, res, key, compiled.path);
    }
    return false;
  };
  answer.served = 0;
  answer.remembered = () => memo.size;
  return answer;
}

export type ServeOptions = Omit<NonNullable<Parameters<typeof serve>[1]>, "manual">;

/**
 * Serves the app like h3's `serve`, with cache hits of the public reads answered first (when
 * the context has a response cache), then the site's pages (when given: api/http/site.ts). With the
 * context's telemetry, GET /metrics is answered before all of them, and every request is counted
 * and logged (../http/observe.ts). Await `ready()` for the port (a failure to listen rejects it).
 */
export function serveApi(app: H3, ctx: AppContext, options: ServeOptions, site?: SitePages): ReturnType<typeof serve> {
  const server = serve(app, { ...options, manual: true });
  const node = server.node;
  if ((ctx.cache || ctx.telemetry || site) && node?.server) {
    const answer = ctx.cache ? createFastReads(ctx.cache) : null;
    const appHandler = node.handler;
    const toApp = (req: IncomingMessage, res: ServerResponse) => void appHandler(req, res);
    let listener: Listener = (req, res) => {
      // The site's check for an API address comes first: it is cheaper than the API's route patterns.
      if (site?.answerNode(req, res, toApp) || answer?.(req, res)) return;
      void appHandler(req, res);
    };
    const telemetry = ctx.telemetry;
    if (telemetry) {
      // Read per request: the trusted proxies may be replaced while the server runs (tests do).
      const trusted = () => ctx.requests?.trustedProxies ?? noTrustedProxies;
      const metricsEndpoint = createMetricsEndpoint(telemetry, trusted);
      const inner = listener;
      listener = observeRequests((req, res) => {
        if (!metricsEndpoint(req, res)) inner(req, res);
      }, telemetry, trusted);
    }
    node.server.removeAllListeners("request");
    node.server.on("request", listener);
  }
  void Promise.resolve(server.serve()).catch(() => {}); // a failure to listen is reported by ready()
  return server;
}
