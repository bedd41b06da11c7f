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
import { routes } from "../app.ts";
import type { AppContext } from "../context.ts";
import type { SitePages } from "../site.ts";
import { cachedReadOf, type CachedRead } from "./cached-route.ts";
import type { ResponseCache } from "./response-cache.ts";

interface FastRoute {
  pattern: RegExp;
  names: string[];
  read: CachedRead;
}

/**
 * Cache keys of URLs seen before, so a repeated URL skips parsing. A key depends on the URL
 * alone; only URLs that parsed are kept, at most this many of at most 512 characters (under
 * 3 MB however they are spelled), and the memo starts over when full.
 */
const maxMemoKeys = 2000;
const maxMemoUrlLength = 512;

/** Headers the HTTP server writes per connection or per answer; they are never replayed. */
const perAnswerHeaders = new Set(["content-length", "date", "connection", "keep-alive", "transfer-encoding"]);

/**
 * The cached GET routes of the route table as patterns; routes without parameters come first,
 * as the app's router prefers them (`/api/products/count` before `/api/products/:slug`).
 */
function fastRoutes(): FastRoute[] {
  const list: FastRoute[] = [];
  for (const [method, path, handler, options] of routes) {
    const read = options?.cache && method === "GET" ? cachedReadOf(handler) : undefined;
    if (!read) continue;
    const names = [...path.matchAll(/:([a-zA-Z]+)/g)].map((match) => match[1]!);
    const pattern = new RegExp(`^${path.replace(/:[a-zA-Z]+/g, "([^/]+)")}$`);
    list.push({ pattern, names, read });
  }
  return list.sort((a, b) => a.names.length - b.names.length);
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
 * returns false (having written nothing) for the app to answer. `served` counts its answers.
 */
export function createFastReads(cache: ResponseCache): ((req: IncomingMessage, res: ServerResponse) => boolean) & { served: number } {
  const list = fastRoutes();
  const memo = new Map<string, string>();
  const send = (req: IncomingMessage, res: ServerResponse, key: string): boolean => {
    const sent = cache.getSent(key);
    if (!sent) {
      if (req.method === "GET") recordSentHeaders(res, cache, key);
      return false;
    }
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
    if (known !== undefined) return send(req, res, known);
    const queryStart = url.indexOf("?");
    const pathname = queryStart < 0 ? url : url.slice(0, queryStart);
    for (const { pattern, names, read } of list) {
      const match = pattern.exec(pathname);
      if (!match) continue;
      const params: Record<string, string | undefined> = {};
      names.forEach((name, i) => (params[name] = match[i + 1]));
      let key: string;
      try {
        key = read.parse(params, new URLSearchParams(queryStart < 0 ? "" : url.slice(queryStart + 1))).key;
      } catch {
        return false; // the app answers with its 400
      }
      if (url.length <= maxMemoUrlLength) {
        if (memo.size >= maxMemoKeys) memo.clear();
        memo.set(url, key);
      }
      return send(req, res, key);
    }
    return false;
  };
  answer.served = 0;
  return answer;
}

export type ServeOptions = Omit<NonNullable<Parameters<typeof serve>[1]>, "manual">;

/**
 * Serves the app like h3's `serve`, with cache hits of the public reads answered first (when
 * the context has a response cache), then the site's pages (when given: api/site.ts).
 * Await `ready()` for the port (a failure to listen rejects it).
 */
export function serveApi(app: H3, ctx: AppContext, options: ServeOptions, site?: SitePages): ReturnType<typeof serve> {
  const server = serve(app, { ...options, manual: true });
  const node = server.node;
  if ((ctx.cache || site) && node?.server) {
    const answer = ctx.cache ? createFastReads(ctx.cache) : null;
    const appHandler = node.handler;
    const toApp = (req: IncomingMessage, res: ServerResponse) => void appHandler(req, res);
    node.server.removeAllListeners("request");
    node.server.on("request", (req: IncomingMessage, res: ServerResponse) => {
      // The site's check for an API address comes first: it is cheaper than the API's route patterns.
      if (site?.answerNode(req, res, toApp) || answer?.(req, res)) return;
      void appHandler(req, res);
    });
  }
  void Promise.resolve(server.serve()).catch(() => {}); // a failure to listen is reported by ready()
  return server;
}
