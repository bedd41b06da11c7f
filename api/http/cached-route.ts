/**
 * Public catalogue reads served from the response cache (./response-cache.ts) between catalogue
 * writes. A cached read is declared with `defineCachedRead`: its path and query parameters,
 * each parsed by a schema, and a `read` that answers from the database. Such a read is keyed on
 * what it was asked, not on how the URL spelled it: the parsed, normalised parameters (defaults
 * filled in, order fixed by the schema), so `?limit=15&sort=rank_asc`, `?sort=rank_asc&limit=15`
 * and no query at all share one entry. A query parameter the read does not take is a 400 naming
 * it: it could not change the answer, and keying on it would let junk URLs fill the cache.
 *
 * `withCache` (the route table's `cached` option) runs it inside the h3 app; ./fast-reads.ts
 * answers cache hits before the app with the same parsing and keys.
 */
import type { H3Event } from "h3";
import { z } from "zod";
import type { AppContext, RouteHandler } from "../context.ts";
import { badRequest, parseWith } from "./http.ts";
import type { CachedResponse } from "./response-cache.ts";
import { declareInput } from "./route-input.ts";

type PathSchemas = Record<string, z.ZodType>;
type PathValues<P extends PathSchemas> = { [K in keyof P]: z.infer<P[K]> };

export interface CachedReadSpec<P extends PathSchemas, Q extends z.ZodObject> {
  /** One line for the API's documentation. */
  summary?: string;
  /** Path parameters (`:name` in the route table) and their schemas. */
  path?: P;
  /** The query parameters it takes; any other is a 400. Without one it takes none. */
  query?: Q;
  /** How long browsers and CDNs may reuse the answer (Cache-Control max-age). */
  maxAgeSeconds: number;
  /** The answer for parsed parameters, as plain JSON data (synchronous); throw an HTTPError for 404s. */
  read(input: { path: PathValues<P>; query: z.infer<Q> }, ctx: AppContext): unknown;
}

/** A parsed request: the input for `read` and its cache key. */
export interface ParsedRead {
  input: { path: Record<string, unknown>; query: unknown };
  key: string;
}

export interface CachedRead {
  /** Parses raw path parameters (still percent-encoded) and the query; throws a 400 HTTPError. */
  parse(rawPath: Record<string, string | undefined>, query: URLSearchParams): ParsedRead;
  /** Runs the read and encodes its answer as the cache keeps it. */
  answer(input: ParsedRead["input"], ctx: AppContext): CachedResponse;
}

const cachedReads = new WeakMap<RouteHandler, CachedRead>();
let nextReadId = 1;

/** Query parameters as text; a parameter given twice becomes an array so the schema rejects it. */
function queryObject(query: URLSearchParams, allowed: ReadonlySet<string>, takes: string): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = {};
  for (const name of query.keys()) {
    if (!allowed.has(name)) {
      const shown = name.length > 40 ? `${name.slice(0, 40)}...` : name;
      throw badRequest(`Unknown query parameter "${shown}": ${takes}`);
    }
    if (name in result) continue;
    const values = query.getAll(name);
    result[name] = values.length === 1 ? values[0]! : values;
  }
  return result;
}

function decodeParam(name: string, raw: string | undefined): string {
  try {
    return decodeURIComponent(raw ?? "");
  } catch {
    throw badRequest(`${name} is not valid URL encoding`);
  }
}

/**
 * Declares a cached public read. The returned handler also runs on its own (parse, read, JSON),
 * which is what the route table gets when the read is not marked `cached`.
 */
export function defineCachedRead<P extends PathSchemas = Record<never, z.ZodType>, Q extends z.ZodObject = z.ZodObject<Record<never, z.ZodType>>>(
  spec: CachedReadSpec<P, Q>,
): RouteHandler {
  const id = nextReadId++;
  const pathSchemas: [string, z.ZodType][] = Object.entries(spec.path ?? {});
  const queryNames = Object.keys(spec.query?.shape ?? {});
  const allowed = new Set(queryNames);
  const takes = queryNames.length === 0 ? "this endpoint takes no query parameters" : `this endpoint takes ${queryNames.join(", ")}`;
  const headers = {
    "content-type": "application/json; charset=utf-8",
    "cache-control": `public, max-age=${spec.maxAgeSeconds}, stale-while-revalidate=60`,
  };

  const read: CachedRead = {
    parse(rawPath, query) {
      const path: Record<string, unknown> = {};
      for (const [name, schema] of pathSchemas) path[name] = parseWith(schema, decodeParam(name, rawPath[name]));
      const text = queryObject(query, allowed, takes);
      const parsed: unknown = spec.query ? parseWith(spec.query, text) : {};
      return { input: { path, query: parsed }, key: `${id}:${JSON.stringify(path)}:${JSON.stringify(parsed)}` };
    },
    answer(input, ctx) {
      const value = spec.read(input as { path: PathValues<P>; query: z.infer<Q> }, ctx);
      return { body: JSON.stringify(value), headers };
    },
  };

  const handler: RouteHandler = (event, ctx) => {
    const { input } = read.parse(routeParams(event), event.url.searchParams);
    return send(event, read.answer(input, ctx));
  };
  cachedReads.set(handler, read);
  declareInput(handler, { summary: spec.summary, params: spec.path, query: spec.query, closedQuery: true });
  return handler;
}

const routeParams = (event: H3Event): Record<string, string | undefined> => event.context.params ?? {};

/**
 * The answer as text with its headers set on the event: h3 sends a string body straight to the
 * socket, where a web Response's body would go through a ReadableStream (a sixth of a search's
 * CPU at 300 requests a second).
 */
function send(event: H3Event, answer: CachedResponse): string {
  for (const name in answer.headers) event.res.headers.set(name, answer.headers[name]!);
  return answer.body;
}

/** The cached read behind a handler made by `defineCachedRead` (undefined for any other handler). */
export function cachedReadOf(handler: RouteHandler): CachedRead | undefined {
  return cachedReads.get(handler);
}

/** Serves a read made by `defineCachedRead` from the cache; on a miss runs it and keeps its answer. */
export function withCache(handler: RouteHandler): RouteHandler {
  const read = cachedReadOf(handler);
  if (!read) throw new Error("withCache: the handler was not made by defineCachedRead, so it has no cache key");
  return (event, ctx) => {
    const { input, key } = read.parse(routeParams(event), event.url.searchParams);
    const cache = ctx.cache;
    const hit = cache?.get(key);
    if (hit) return send(event, hit);
    const response = read.answer(input, ctx);
    cache?.set(key, response);
    return send(event, response);
  };
}
