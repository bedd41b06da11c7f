import { describe, expect, it } from "vitest";
import { parseSearchQuery, searchQueryString } from "./search-query.ts";

describe("searchQueryString and parseSearchQuery", () => {
  it("trims and URL-encodes the text, leaving page 1 out", () => {
    expect(searchQueryString("  dog food ", 1)).toBe("/search?q=dog%20food");
    expect(searchQueryString("Hill's & Co", 1)).toBe("/search?q=Hill's%20%26%20Co");
    expect(searchQueryString("cat")).toBe("/search?q=cat");
  });
  it("adds a page after the first", () => {
    expect(searchQueryString("cat", 3)).toBe("/search?q=cat&page=3");
    expect(searchQueryString("cat", 0)).toBe("/search?q=cat");
  });
  it("gives no navigation for empty text", () => {
    expect(searchQueryString("", 1)).toBeNull();
    expect(searchQueryString(" \t ", 2)).toBeNull();
  });
  it("reads the text and the page, page defaulting to 1", () => {
    expect(parseSearchQuery("?q=dog%20food&page=2")).toEqual({ q: "dog food", page: 2 });
    expect(parseSearchQuery("?q=+cat+")).toEqual({ q: "cat", page: 1 });
    expect(parseSearchQuery(new URLSearchParams("page=abc"))).toEqual({ q: "", page: 1 });
  });
  it("round-trips", () => {
    const path = searchQueryString("Lily's Kitchen & more", 4)!;
    expect(parseSearchQuery(path.slice(path.indexOf("?")))).toEqual({ q: "Lily's Kitchen & more", page: 4 });
  });
});
