/**
 * withCache(): serves a public catalogue read from the response cache (./response-cache.ts)
 * between catalogue writes; on a miss runs the handler and keeps its JSON answer.
 */
import type { RouteHandler } from "../context.ts";

export function withCache(handler: RouteHandler): RouteHandler {
  return async (event, ctx) => {
    const cache = ctx.cache;
    if (!cache) return handler(event, ctx);
    const key = event.url.pathname + event.url.search;
    const hit = cache.get(key);
    if (hit) return new Response(hit.body, { headers: hit.headers });
    const value = await handler(event, ctx);
    const body = JSON.stringify(value);
    const headers = { "content-type": "application/json; charset=utf-8", "cache-control": event.res.headers.get("cache-control") ?? "no-store" };
    cache.set(key, { body, headers });
    return new Response(body, { headers });
  };
}
