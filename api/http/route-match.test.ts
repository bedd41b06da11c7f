/**
 * The order in which routes are tried when several match a path: fewer parameters first, so a
 * static route wins over a parametrised one at the same path whichever the table lists first;
 * the table's order among routes with as many parameters; the caller's list left as it was.
 */
import { describe, expect, it } from "vitest";
import { compileRoutes, matchPath, staticFirst } from "./route-match.ts";

const table = [
  ["GET", "/api/things/:kind/:slug"],
  ["GET", "/api/things/:slug"],
  ["GET", "/api/things/count"],
  ["GET", "/api/things/:id/photos"],
  ["GET", "/api/things/featured"],
] as const;

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
