/** Small HTTP helpers shared by every handler: errors, validated input, cache headers. */
import { HTTPError, type H3Event } from "h3";
import type { z } from "zod";

export function badRequest(message: string): HTTPError {
  return new HTTPError({ status: 400, message });
}

export function notFound(message: string): HTTPError {
  return new HTTPError({ status: 404, message });
}

/** The first problem of a failed parse, as one sentence naming the parameter. */
function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "Invalid input";
  const name = issue.path.map(String).join(".");
  return issue.message.startsWith(name) || !name ? issue.message : `${name}: ${issue.message}`;
}

/** Query parameters as text; a parameter given twice becomes an array so the schema rejects it. */
function queryObject(event: H3Event): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = {};
  for (const key of new Set(event.url.searchParams.keys())) {
    const values = event.url.searchParams.getAll(key);
    result[key] = values.length === 1 ? values[0]! : values;
  }
  return result;
}

export function parseQuery<S extends z.ZodType>(event: H3Event, schema: S): z.infer<S> {
  return parseWith(schema, queryObject(event));
}

export function parseWith<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw badRequest(firstIssue(result.error));
  return result.data;
}

/** A router parameter, decoded; a malformed percent-encoding is a 400, not a 500. */
export function routeParam(event: H3Event, name: string): string {
  const raw = event.context.params?.[name] ?? "";
  try {
    return decodeURIComponent(raw);
  } catch {
    throw badRequest(`${name} is not valid URL encoding`);
  }
}

/** Public catalogue reads: browsers and CDNs may reuse them briefly (products go stale after 10 s). */
export function cachePublic(event: H3Event, maxAgeSeconds = 10): void {
  event.res.headers.set("cache-control", `public, max-age=${maxAgeSeconds}, stale-while-revalidate=60`);
}

export function cacheNone(event: H3Event): void {
  event.res.headers.set("cache-control", "no-store");
}
