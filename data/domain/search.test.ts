import { describe, expect, it } from "vitest";
import { toFtsQuery } from "./search.ts";

describe("toFtsQuery", () => {
  it("makes every word a quoted prefix term", () => {
    expect(toFtsQuery("roy can")).toBe('"roy"* "can"*');
    expect(toFtsQuery("  Royal   CANIN ")).toBe('"royal"* "canin"*');
  });
  it("drops apostrophes the way the index does", () => {
    expect(toFtsQuery("Hill's")).toBe('"hills"*');
    expect(toFtsQuery("Lily’s Kitchen")).toBe('"lilys"* "kitchen"*');
  });
  it("neutralises FTS syntax", () => {
    expect(toFtsQuery('name:"dog" OR *cat* NEAR(')).toBe('"name"* "dog"* "or"* "cat"* "near"*');
    expect(toFtsQuery('"')).toBeNull();
  });
  it("returns null for empty text and caps the number of words", () => {
    expect(toFtsQuery("")).toBeNull();
    expect(toFtsQuery(" - ")).toBeNull();
    expect(toFtsQuery("a b c d e f g h i j k l m")!.split(" ")).toHaveLength(10);
  });
});
