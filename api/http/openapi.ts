/**
 * The API's OpenAPI 3.1 document, written from the route table and the request schemas each
 * route declares (./route-input.ts): the parameters and bodies it documents are the schemas the
 * routes parse with, converted by zod, so the document cannot drift from what the routes accept.
 * Built once, on first request, and served as a cached public read at GET /api/openapi.json.
 */
import { z } from "zod";
import type { RouteHandler } from "../context.ts";
import type { RouteOptions } from "../app.ts";
import { defineCachedRead } from "./cached-route.ts";
import { sessionCookie } from "../lib/admin-auth.ts";
import { declarationOf } from "./route-input.ts";
import type { CompiledPath } from "./route-match.ts";

/** One route table entry with its compiled path, as app.ts's `compiledRoutes` holds it. */
export interface DocumentedRoute {
  route: readonly [string, string, RouteHandler, RouteOptions?];
  method: string;
  compiled: CompiledPath;
}

export type JsonSchema = Record<string, unknown>;

/** How request schemas are converted: what a client sends (the input side of transforms and defaults). */
export const jsonSchemaOptions = { target: "draft-2020-12", io: "input", unrepresentable: "any" } as const;

/** A zod schema as the JSON Schema the document embeds (without its own `$schema` line). */
export function requestSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, jsonSchemaOptions);
  return rest;
}

export interface Parameter {
  name: string;
  in: "path" | "query";
  required: boolean;
  schema: JsonSchema;
  /** An empty value (`?category=`) counts as the parameter not given. */
  allowEmptyValue?: true;
}

export interface Operation {
  operationId: string;
  summary?: string;
  description?: string;
  tags: string[];
  parameters: Parameter[];
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> };
  security: Record<string, string[]>[];
  responses: Record<string, unknown>;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description: string };
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, Record<string, unknown>>;
}

const errorResponse = { $ref: "#/components/responses/Error" };

/** `GET /api/products/:slug` as `getProductsBySlug`: unique because method and path are. */
export function operationId(method: string, path: string): string {
  const words = path
    .replace(/^\/api\/?/, "")
    .split("/")
    .filter(Boolean)
    .flatMap((segment) => (segment.startsWith(":") ? ["by", segment.slice(1)] : segment.split(/[^a-zA-Z0-9]+/)))
    .filter(Boolean);
  return method.toLowerCase() + words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join("");
}

/** Whether a query parameter's schema takes an empty value (an optional parameter reads it as not given). */
const acceptsEmpty = (schema: z.ZodType | undefined) => schema !== undefined && schema.safeParse("").success;

/** The query schema's properties as query parameters (the query is always an object of text values). */
function queryParameters(method: string, path: string, schema: z.ZodType): Parameter[] {
  const json = requestSchema(schema);
  const properties = json.properties as Record<string, JsonSchema> | undefined;
  if (json.type !== "object" || !properties) throw new Error(`${method} ${path}: its query schema is not an object of parameters`);
  const required = new Set((json.required as string[] | undefined) ?? []);
  const shape = schema instanceof z.ZodObject ? schema.shape : {};
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: "query",
    required: required.has(name),
    schema: property,
    ...(acceptsEmpty(shape[name]) ? { allowEmptyValue: true } : {}),
  }));
}

function operation({ route, method, compiled }: DocumentedRoute): Operation {
  const [, path, handler, options = {}] = route;
  const declared = declarationOf(handler);
  const parameters: Parameter[] = compiled.names.map((name) => {
    const schema = declared?.params?.[name];
    return { name, in: "path", required: true, schema: schema ? requestSchema(schema) : { type: "string" } };
  });
  if (declared?.query) parameters.push(...queryParameters(method, path, declared.query));
  const responses: Record<string, unknown> = { "2XX": { description: "Success" }, "4XX": errorResponse };
  const descriptions: string[] = [];
  let security: Record<string, string[]>[] = [];
  if (options.auth === "admin") {
    security = [{ adminSession: [] }];
    responses["401"] = errorResponse;
  } else if (options.auth?.startsWith("machine:")) {
    security = [{ machineToken: [options.auth.slice("machine:".length)] }];
    responses["401"] = errorResponse;
    responses["403"] = errorResponse;
  }
  let requestBody: Operation["requestBody"];
  if (options.upload) {
    requestBody = { required: true, content: Object.fromEntries(options.upload.map((type) => [type, { schema: { type: "string", contentMediaType: type } }])) };
    responses["413"] = errorResponse;
    responses["415"] = errorResponse;
  } else if (declared?.body) {
    requestBody = { required: true, content: { "application/json": { schema: requestSchema(declared.body) } } };
    responses["413"] = errorResponse;
    responses["415"] = errorResponse;
  }
  if (options.limit !== undefined) responses["429"] = errorResponse;
  if (declared?.closedQuery) descriptions.push("A query parameter not listed here is a 400.");
  if (method !== "GET" && !options.oneClick && !options.auth?.startsWith("machine:")) {
    descriptions.push("Refused (403) when another site made the browser send it.");
    responses["403"] = errorResponse;
  }
  if (method === "GET") descriptions.push("HEAD answers the same without the body.");
  return {
    operationId: operationId(method, path),
    ...(declared?.summary ? { summary: declared.summary } : {}),
    ...(descriptions.length ? { description: descriptions.join(" ") } : {}),
    tags: [path.split("/")[2] ?? "api"],
    parameters,
    ...(requestBody ? { requestBody } : {}),
    security,
    responses,
  };
}

/** The document for a compiled route table. */
export function buildOpenApi(table: readonly DocumentedRoute[]): OpenApiDocument {
  const paths: OpenApiDocument["paths"] = {};
  for (const entry of table) {
    const operations = (paths[entry.compiled.template] ??= {});
    operations[entry.method.toLowerCase()] = operation(entry);
  }
  return {
    openapi: "3.1.1",
    info: {
      title: "PawPrice API",
      version: "1",
      description: 'Every error is JSON {"error": "..."} saying what is wrong. Writes take JSON bodies unless they say otherwise.',
    },
    paths,
    components: {
      schemas: {
        Error: { type: "object", properties: { error: { type: "string" } }, required: ["error"], additionalProperties: false },
      },
      responses: {
        Error: { description: "Refused: the message says why", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
      },
      securitySchemes: {
        adminSession: { type: "apiKey", in: "cookie", name: sessionCookie, description: "The admin's session, opened by POST /api/admin/login" },
        machineToken: { type: "http", scheme: "bearer", description: "A machine token made in the admin area; the operation names the scope it needs" },
      },
    },
  };
}

/**
 * GET /api/openapi.json: the document for the table `table()` returns (asked for on the first
 * request, so the route can sit in the table it documents).
 */
export function openApiRoute(table: () => readonly DocumentedRoute[]): RouteHandler {
  let document: OpenApiDocument | undefined;
  return defineCachedRead({
    summary: "This document",
    maxAgeSeconds: 3600,
    read: () => (document ??= buildOpenApi(table())),
  });
}
