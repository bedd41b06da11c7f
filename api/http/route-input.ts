/**
 * A route's request, declared with the route: its path parameters, query and JSON body, each a
 * zod schema. The route's wrapper parses the request with exactly these schemas and hands the
 * handler the parsed values, and the OpenAPI document (./openapi.ts) is written from the same
 * declarations, so what the document says a route takes is what the route accepts.
 *
 * Path parameters and the query are parsed before the handler runs, in that order; the body is
 * read when the handler asks for it (`await body()`), so a handler that must refuse a request
 * before reading its body (a login over its limit) still can.
 */
import type { H3Event } from "h3";
import type { z } from "zod";
import type { RouteHandler } from "../context.ts";
import { parseQuery, parseWith, readJson, routeParam } from "./http.ts";

/** Path parameters (`:name` in the route table), each parsed from its decoded text. */
export type ParamSchemas = Record<string, z.ZodType>;

export interface InputSpec {
  /** One line for the API's documentation. */
  summary?: string;
  params?: ParamSchemas;
  /** The query parameters as an object of text values (a parameter given twice is an array). */
  query?: z.ZodType;
  /** The JSON body; null for a write that takes no body (any body sent is ignored). */
  body?: z.ZodType | null;
  /** Answer a bad body with the schema's own message, not prefixed by the field's path. */
  messagesAsIs?: boolean;
}

type ParamsOf<S> = S extends { params: infer P extends ParamSchemas } ? { [K in keyof P]: z.output<P[K]> } : Record<never, never>;
type QueryOf<S> = S extends { query: infer Q extends z.ZodType } ? z.output<Q> : undefined;
type BodyOf<S> = S extends { body: infer B extends z.ZodType } ? () => Promise<z.output<B>> : undefined;

/** What the handler gets: parsed path parameters and query, and the body's reader. */
export interface RouteInput<S extends InputSpec> {
  params: ParamsOf<S>;
  query: QueryOf<S>;
  body: BodyOf<S>;
}

/** What a route declares about its request, as the documentation reads it. */
export interface RouteDeclaration {
  summary?: string | undefined;
  params?: ParamSchemas | undefined;
  query?: z.ZodType | undefined;
  body?: z.ZodType | null | undefined;
  /** A query parameter the route does not declare is a 400 (the cached reads); otherwise it is ignored. */
  closedQuery?: boolean;
}

const declarations = new WeakMap<RouteHandler, RouteDeclaration>();

/** Records what a handler takes, for the documentation. */
export function declareInput(handler: RouteHandler, declaration: RouteDeclaration): void {
  declarations.set(handler, declaration);
}

/** What the handler of a route table entry declared (undefined: it declared nothing, so it reads no input). */
export function declarationOf(handler: RouteHandler): RouteDeclaration | undefined {
  return declarations.get(handler);
}

/** Parses the request as `spec` declares it: parameters, then the query; the body when asked for (once). */
export function parseInput<S extends InputSpec>(spec: S, event: H3Event): RouteInput<S> {
  const params: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(spec.params ?? {})) params[name] = parseWith(schema, routeParam(event, name));
  const query = spec.query ? parseQuery(event, spec.query) : undefined;
  const bodySchema = spec.body;
  let read: Promise<unknown> | undefined;
  const body = bodySchema ? () => (read ??= readJson(event, bodySchema, { messagesAsIs: spec.messagesAsIs ?? false })) : undefined;
  // The values were parsed by the very schemas the type is derived from.
  return { params, query, body } as RouteInput<S>;
}
