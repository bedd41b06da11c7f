/**
 * Route paths compiled: a parameter is one whole path segment, handed over still percent-encoded;
 * every other character is literal; the template is OpenAPI's form; a path the table lists twice
 * is compiled once. The order in which routes are tried when several match a path: fewer
 * parameters first, so a static route wins over a parametrised one at the same path whichever the
 * table lists first; the table's order among routes with as many parameters; the caller's list
 * left as it was.
 */
import { describe, expect, it } from "vitest";
import { compilePath, compileRoutes, matchPath, staticFirst } from "./route-match.ts";

const table = [
  ["GET", "/api/things/:kind/:slug"],
  ["GET", "/api/things/:slug"],
  ["GET", "/api/things/count"],
  ["GET", "/api/things/:id/photos"],
  ["GET", "/api/things/featured"],
] as const;

describe("compilePath", () => {
  it("names the parameters in order, matches each to one whole segment as sent, and writes OpenAPI's template", () => {
    const compiled = compilePath("/api/things/:kind/:slug");
    expect(compiled.names).toEqual(["kind", "slug"]);
    expect(compiled.template).toBe("/api/things/{kind}/{slug}");
    expect(matchPath(compiled, "/api/things/toy/red%20ball")).toEqual({ kind: "toy", slug: "red%20ball" });
    for (const pathname of ["/api/things/toy", "/api/things/toy/", "/api/things//ball", "/api/things/toy/ball/more", "/v2/api/things/toy/ball"]) {
      expect(matchPath(compiled, pathname), pathname).toBeNull();
    }
  });

  it("takes every other character literally, over the whole pathname", () => {
    const compiled = compilePath("/api/releases/current.tar.gz");
    expect(compiled.names).toEqual([]);
    expect(compiled.template).toBe("/api/releases/current.tar.gz");
    expect(matchPath(compiled, "/api/releases/current.tar.gz")).toEqual({});
    for (const pathname of ["/api/releases/currentXtarXgz", "/api/releases/current.tar.gz/more", "/x/api/releases/current.tar.gz"]) {
      expect(matchPath(compiled, pathname), pathname).toBeNull();
    }
  });
});

describe("compileRoutes", () => {
  it("keeps the table's routes and methods in order, each path compiled once", () => {
    const compiled = compileRoutes([["GET", "/api/things/:id"], ["PUT", "/api/things/:id"], ["GET", "/api/things/count"]] as const);
    expect(compiled.map(({ method, route }) => [method, route[1]])).toEqual([
      ["GET", "/api/things/:id"],
      ["PUT", "/api/things/:id"],
      ["GET", "/api/things/count"],
    ]);
    expect(compiled[1]!.compiled).toBe(compiled[0]!.compiled);
    expect(compiled[2]!.compiled).not.toBe(compiled[0]!.compiled);
  });
});

describe("staticFirst", () => {
  it("puts routes with fewer parameters first, keeping the table's order among equals", () => {
    const compiled = compileRoutes(table);
    expect(staticFirst(compiled).map(({ compiled: { path } }) => path)).toEqual([
      "/api/things/count",
      "/api/things/featured",
      "/api/things/:slug",
      "/api/things/:id/photos",
      "/api/things/:kind/:slug",
    ]);
  });

  it("makes the static route the first match for its path, whichever the table lists first", () => {
    for (const order of [table, [...table].reverse()]) {
      const first = staticFirst(compileRoutes(order)).find(({ compiled }) => matchPath(compiled, "/api/things/count") !== null);
      expect(first?.compiled.path).toBe("/api/things/count");
    }
  });

  it("leaves the caller's list in the table's order", () => {
    const compiled = compileRoutes(table);
    const before = [...compiled];
    staticFirst(compiled);
    expect(compiled).toEqual(before);
  });
});
