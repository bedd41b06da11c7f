/** Small HTTP helpers shared by every handler: errors, validated input, cache headers. */
import { assertBodySize, HTTPError, type H3Event } from "h3";
import type { z } from "zod";

export function badRequest(message: string): HTTPError {
  return new HTTPError({ status: 400, message });
}

export function notFound(message: string): HTTPError {
  return new HTTPError({ status: 404, message });
}

/**
 * The first problem of a failed parse, as one sentence naming the parameter; `asIs` keeps the
 * schema's message unchanged (messages written as whole sentences for a form, like "Password is required").
 */
function firstIssue(error: z.ZodError, asIs = false): string {
  const issue = error.issues[0];
  if (!issue) return "Invalid input";
  if (asIs) return issue.message;
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

export interface ParseOptions {
  /** Keep the schema's messages as they are instead of prefixing the field's path. */
  messagesAsIs?: boolean;
}

export function parseWith<S extends z.ZodType>(schema: S, input: unknown, options: ParseOptions = {}): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw badRequest(firstIssue(result.error, options.messagesAsIs));
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

/**
 * The body as text. A client that goes away before sending all of it (closed connection,
 * aborted request) gets a 400 that is not logged as a server failure: nothing went wrong here.
 */
async function readBodyText(event: H3Event): Promise<string> {
  try {
    return await event.req.text();
  } catch (error) {
    if (error instanceof HTTPError) throw error;
    throw new HTTPError({ status: 400, message: "The request body was not received completely", cause: error });
  }
}

/** Request bodies up to 16 KiB, unless the route table gives a route its own limit (`bodyLimit`). */
const defaultBodyLimit = 16 * 1024;

/**
 * The request's JSON body, size-limited and validated. Wrong content type: 415; too large: 413;
 * empty, not JSON or not matching the schema: 400 naming the field.
 */
export async function readJson<S extends z.ZodType>(event: H3Event, schema: S, options: ParseOptions = {}): Promise<z.infer<S>> {
  const limit = (event.context.bodyLimit as number | undefined) ?? defaultBodyLimit;
  const type = event.req.headers.get("content-type") ?? "";
  if (!/^application\/json\b/i.test(type)) {
    throw new HTTPError({ status: 415, message: "Send a JSON body (Content-Type: application/json)" });
  }
  assertBodySize(event, limit);
  const text = await readBodyText(event);
  if (!text.trim()) throw badRequest("Request body is required");
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw badRequest("Request body is not valid JSON");
  }
  return parseWith(schema, data, options);
}

export function noContent(): Response {
  return new Response(null, { status: 204, headers: { "cache-control": "no-store" } });
}
