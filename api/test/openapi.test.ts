/**
 * The OpenAPI document against the route table it is written from: every route documented and
 * nothing else, each documented request schema exactly zod's conversion of the schema the route
 * parses with (taken from the same declaration the router uses), every write that takes a JSON
 * body declaring it. Then through the real server: a request that breaks the documented schema
 * is refused with a 4xx {"error"} for every route that documents something to break, and valid
 * examples of a few routes are accepted.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { compiledRoutes, routes } from "../app.ts";
import { declarationOf } from "../http/route-input.ts";
import type { OpenApiDocument, Operation, Parameter } from "../http/openapi.ts";
import { createMachineToken } from "../../data/db/machine-tokens.ts";
import { startTestServer, type TestServer } from "./server.ts";

let api: TestServer;
let doc: OpenApiDocument;
let session: string;
let machineToken: string;

beforeAll(async () => {
  api = await startTestServer({ products: 20 });
  session = await api.login();
  machineToken = createMachineToken(api.db, { name: "OpenAPI test", scopes: ["nightly:run", "releases:read"] }, new Date()).token;
  doc = await api.json<OpenApiDocument>("/api/openapi.json");
});
afterAll(() => api.close());

/** zod's own conversion of a declared schema, as a client sends it, without the `$schema` line. */
const converted = (schema: z.ZodType) => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: "draft-2020-12", io: "input", unrepresentable: "any" });
  return rest;
};

const openApiPath = (tablePath: string) => tablePath.replace(/:([a-zA-Z]+)/g, "{$1}");
const operationOf = (method: string, tablePath: string): Operation | undefined => doc.paths[openApiPath(tablePath)]?.[method.toLowerCase()];
const writesWithBody = new Set(["POST", "PUT", "PATCH"]);

describe("the document's structure", () => {
  it("is OpenAPI 3.1 with unique operation ids, path parameters matching each template, and the error shape", () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(typeof doc.info.title).toBe("string");
    expect(typeof doc.info.version).toBe("string");
    expect(doc.components.schemas!.Error).toEqual({ type: "object", properties: { error: { type: "string" } }, required: ["error"], additionalProperties: false });
    const ids: string[] = [];
    for (const [template, operations] of Object.entries(doc.paths)) {
      expect(template).toMatch(/^\/api\//);
      const names = [...template.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
      for (const [method, operation] of Object.entries(operations)) {
        expect(["get", "post", "put", "patch", "delete"], `${method} ${template}`).toContain(method);
        ids.push(operation.operationId);
        expect(operation.parameters.filter((p) => p.in === "path").map((p) => p.name), `${method} ${template}`).toEqual(names);
        expect(operation.parameters.every((p) => p.in !== "path" || p.required), `${method} ${template}`).toBe(true);
        expect(operation.responses["4XX"], `${method} ${template}`).toEqual({ $ref: "#/components/responses/Error" });
        for (const requirement of operation.security) for (const scheme of Object.keys(requirement)) expect(Object.keys(doc.components.securitySchemes!)).toContain(scheme);
      }
    }
    expect(ids.length).toBe(routes.length);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe("the document against the route table", () => {
  const tableKeys = routes.map(([method, tablePath]) => `${method} ${openApiPath(tablePath)}`).sort();

  it("documents every route in the table", () => {
    const documented = Object.entries(doc.paths).flatMap(([template, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${template}`));
    expect(tableKeys.filter((key) => !documented.includes(key))).toEqual([]);
  });

  it("documents no path or method that is not in the table", () => {
    const documented = Object.entries(doc.paths).flatMap(([template, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${template}`));
    expect(documented.filter((key) => !tableKeys.includes(key))).toEqual([]);
  });

  it("converts the table's paths with the one route matcher", () => {
    expect(compiledRoutes.map(({ method, compiled }) => `${method} ${compiled.template}`)).toEqual(routes.map(([method, tablePath]) => `${method} ${openApiPath(tablePath)}`));
  });

  it.each(routes.map((route) => [`${route[0]} ${route[1]}`, route] as const))("%s: documents exactly the schemas the route parses with", (_key, [method, tablePath, handler, options]) => {
    const operation = operationOf(method, tablePath)!;
    const declared = declarationOf(handler);
    // Path parameters: each one declared, documented as zod converts its schema.
    const names = [...tablePath.matchAll(/:([a-zA-Z]+)/g)].map((match) => match[1]!);
    for (const name of names) expect(declared?.params?.[name], `${name} is not declared`).toBeDefined();
    expect(Object.keys(declared?.params ?? {}).sort()).toEqual([...names].sort());
    const pathParameters = operation.parameters.filter((p) => p.in === "path");
    expect(pathParameters).toEqual(names.map((name) => ({ name, in: "path", required: true, schema: converted(declared!.params![name]!) })));
    // Query: the object's properties, required as the schema says.
    const queryParameters = operation.parameters.filter((p) => p.in === "query");
    if (declared?.query) {
      const schema = converted(declared.query) as { properties: Record<string, unknown>; required?: string[] };
      const shape = (declared.query as z.ZodObject).shape;
      expect(queryParameters).toEqual(
        Object.entries(schema.properties).map(([name, property]) => ({
          name,
          in: "query",
          required: (schema.required ?? []).includes(name),
          schema: property,
          // An optional parameter given empty counts as not given, and the document says so.
          ...(shape[name]!.safeParse("").success ? { allowEmptyValue: true } : {}),
        })),
      );
    } else {
      expect(queryParameters).toEqual([]);
    }
    // Body: a write that is no upload says what JSON it takes (or that it takes none); reads and deletes take none.
    if (options?.upload) {
      expect(Object.keys(operation.requestBody!.content).sort()).toEqual([...options.upload].sort());
      expect(declared?.body ?? undefined).toBeUndefined();
    } else if (writesWithBody.has(method)) {
      expect(declared?.body, `${method} ${tablePath} declares neither a body schema nor body: null`).not.toBeUndefined();
      if (declared!.body) expect(operation.requestBody).toEqual({ required: true, content: { "application/json": { schema: converted(declared!.body) } } });
      else expect(operation.requestBody).toBeUndefined();
    } else {
      expect(declared?.body ?? undefined).toBeUndefined();
      expect(operation.requestBody).toBeUndefined();
    }
    // Security: the admin session, a machine token with its scope, or none.
    const auth = options?.auth;
    expect(operation.security).toEqual(auth === "admin" ? [{ adminSession: [] }] : auth ? [{ machineToken: [auth.slice("machine:".length)] }] : []);
  });

  it("has no route file reading the URL or the body past its declaration", () => {
    const routesDir = path.join(import.meta.dirname, "..", "routes");
    const files = fs.readdirSync(routesDir, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".ts"));
    expect(files.length).toBeGreaterThan(50);
    const offenders = files.filter((file) =>
      /\b(readJson|parseQuery|routeParam)\(|searchParams|context\.params|url\.search|event\.req\.(json|text|formData|arrayBuffer)\(/.test(fs.readFileSync(path.join(routesDir, file), "utf8")),
    );
    expect(offenders).toEqual([]);
  });
});

type Schema = { type?: string; pattern?: string; minLength?: number; maxLength?: number; enum?: unknown[]; const?: unknown; anyOf?: Schema[]; oneOf?: Schema[] };

/** Whether a text value satisfies a documented string schema (the keywords the document uses for parameters). */
function accepts(schema: Schema, value: string): boolean {
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return branches.some((branch) => accepts(branch, value));
  if (schema.type !== undefined && schema.type !== "string") return false;
  if (schema.const !== undefined && schema.const !== value) return false;
  if (schema.enum && !schema.enum.includes(value)) return false;
  if (schema.pattern !== undefined && !new RegExp(schema.pattern, "u").test(value)) return false;
  if (schema.minLength !== undefined && value.length < schema.minLength) return false;
  if (schema.maxLength !== undefined && value.length > schema.maxLength) return false;
  return true;
}

/** Text values to try against a schema; the first one it refuses breaks it. */
const candidates = ["abc", "-1", "0", "x y!", "Not_A_Slug", "a".repeat(6000), "99999999999999999999", "1"];
const breaking = (schema: Schema, allowEmpty: boolean) => [...(allowEmpty ? [""] : []), ...candidates].find((value) => !accepts(schema, value));

/** A value that passes a documented parameter (for the parameters a broken request does not break). */
const passing = (schema: Schema) => ["1", "awin", "dog-food", "x"].find((value) => accepts(schema, value)) ?? "1";

interface Broken {
  what: string;
  path: string;
  body?: unknown;
}

/** Requests that each break one documented part of an operation: a path parameter, the query, the JSON body. */
function brokenRequests(template: string, operation: Operation): Broken[] {
  const pathParameters = operation.parameters.filter((p) => p.in === "path");
  const queryParameters = operation.parameters.filter((p) => p.in === "query");
  const fill = (values: Record<string, string>) => template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(values[name]!));
  const valid: Record<string, string> = Object.fromEntries(pathParameters.map((p) => [p.name, passing(p.schema as Schema)]));
  const query = (parameters: Parameter[], broken?: [string, string]) => {
    const search = new URLSearchParams();
    for (const p of parameters) if (p.required && p.name !== broken?.[0]) search.set(p.name, passing(p.schema as Schema));
    if (broken) search.set(broken[0], broken[1]);
    return search.size ? `?${search}` : "";
  };
  const validQuery = query(queryParameters);
  const list: Broken[] = [];
  for (const parameter of pathParameters) {
    const value = breaking(parameter.schema as Schema, false);
    if (value !== undefined) list.push({ what: `path ${parameter.name}=${value.slice(0, 20)}`, path: fill({ ...valid, [parameter.name]: value }) + validQuery });
  }
  const required = queryParameters.find((p) => p.required);
  if (required) list.push({ what: `query without ${required.name}`, path: fill(valid) + query(queryParameters.filter((p) => p !== required)) });
  for (const parameter of queryParameters) {
    const value = breaking(parameter.schema as Schema, !parameter.allowEmptyValue);
    if (value !== undefined) list.push({ what: `query ${parameter.name}=${value.slice(0, 20)}`, path: fill(valid) + query(queryParameters, [parameter.name, value]) });
  }
  const json = operation.requestBody?.content["application/json"]?.schema as Schema | undefined;
  if (json) {
    // Every JSON body the API takes is an object: a bare number breaks it.
    expect([json, ...(json.anyOf ?? json.oneOf ?? [])].some((schema) => schema.type === "object"), `${template}: body is not an object`).toBe(true);
    list.push({ what: "body 42", path: fill(valid) + validQuery, body: 42 });
  }
  return list;
}

describe("requests that break the documented schema", () => {
  const constrained = routes.filter(([method, tablePath]) => {
    const declared = declarationOf(routes.find((route) => route[0] === method && route[1] === tablePath)![2]);
    return declared?.params || declared?.query || declared?.body;
  });

  it.each(constrained.map((route) => [`${route[0]} ${route[1]}`, route] as const))("%s: refused with a 4xx error", async (_key, [method, tablePath, , options]) => {
    const operation = operationOf(method, tablePath)!;
    const broken = brokenRequests(openApiPath(tablePath), operation);
    expect(broken.length, "no documented constraint to break").toBeGreaterThan(0);
    for (const request of broken) {
      const headers: Record<string, string> = {};
      if (options?.auth === "admin") headers.cookie = session;
      if (options?.auth?.startsWith("machine:")) headers.authorization = `Bearer ${machineToken}`;
      if (request.body !== undefined) headers["content-type"] = "application/json";
      const response = await fetch(api.baseUrl + request.path, { method, headers, body: request.body === undefined ? undefined : JSON.stringify(request.body) });
      const label = `${method} ${request.path.slice(0, 120)} (${request.what})`;
      expect(response.status, label).toBeGreaterThanOrEqual(400);
      expect(response.status, label).toBeLessThan(500);
      expect(Object.keys((await response.json()) as object), label).toEqual(["error"]);
    }
  });
});

describe("valid examples", () => {
  const declared = (method: string, tablePath: string) => declarationOf(routes.find((route) => route[0] === method && route[1] === tablePath)![2])!;

  it("are accepted by the declared schemas and by the routes", async () => {
    const product = api.db.$client.prepare("SELECT id FROM products ORDER BY id LIMIT 1").get() as { id: number };
    const userId = `user_${"openapi".padEnd(24, "a")}`;
    const examples: { method: string; route: string; params?: Record<string, string>; query?: Record<string, string>; body?: unknown; admin?: boolean; status: number }[] = [
      { method: "GET", route: "/api/placeholder/:width/:height", params: { width: "120", height: "80" }, query: { text: "Hi" }, status: 200 },
      { method: "GET", route: "/api/products", query: { sort: "price_asc", limit: "2" }, status: 200 },
      { method: "POST", route: "/api/favorites", body: { userId, productId: product.id, notes: "for Rex" }, status: 201 },
      { method: "GET", route: "/api/is-favorite", query: { userId, productId: String(product.id) }, status: 200 },
      { method: "GET", route: "/api/admin/products", query: { page: "1", q: "dog" }, admin: true, status: 200 },
    ];
    for (const example of examples) {
      const spec = declared(example.method, example.route);
      for (const [name, value] of Object.entries(example.params ?? {})) expect(spec.params![name]!.safeParse(value).success, `${example.route} ${name}`).toBe(true);
      if (example.query) expect(spec.query!.safeParse(example.query).success, `${example.route} query`).toBe(true);
      if (example.body !== undefined) expect(spec.body!.safeParse(example.body).success, `${example.route} body`).toBe(true);
      const url = example.route.replace(/:([a-zA-Z]+)/g, (_, name: string) => example.params![name]!) + (example.query ? `?${new URLSearchParams(example.query)}` : "");
      const headers: Record<string, string> = { ...(example.admin ? { cookie: session } : {}), ...(example.body !== undefined ? { "content-type": "application/json" } : {}) };
      const response = await fetch(api.baseUrl + url, { method: example.method, headers, body: example.body === undefined ? undefined : JSON.stringify(example.body) });
      expect(response.status, `${example.method} ${url}: ${await response.clone().text()}`).toBe(example.status);
    }
    // The favourite landed as the example sent it.
    expect(api.db.$client.prepare("SELECT product_id, notes FROM favorites WHERE user_id = ?").all(userId)).toEqual([{ product_id: product.id, notes: "for Rex" }]);
  });
});
