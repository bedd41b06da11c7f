/**
 * The search page's query string. Kept apart from the grid's query
 * logic because the header's search form, on every page, needs only this.
 */
import { toParams, validPage } from "./query-values.ts";

export interface SearchState {
  q: string;
  page: number;
}

/**
 * Where the search form goes: /search with the trimmed, URL-encoded text, page left out when
 * it is 1; null (no navigation) when the text is empty after trimming.
 * @example searchQueryString("  dog food ", 1) // "/search?q=dog%20food"
 * @example searchQueryString("cat", 2) // "/search?q=cat&page=2"
 * @example searchQueryString("   ", 1) // null
 */
export function searchQueryString(q: string, page: number = 1): string | null {
  const text = q.trim();
  if (text === "") return null;
  const pagePart = validPage(page) > 1 ? `&page=${validPage(page)}` : "";
  return `/search?q=${encodeURIComponent(text)}${pagePart}`;
}

/**
 * Reads the search page's query: the trimmed text and the page (1 unless a valid page is given).
 * @example parseSearchQuery("?q=dog%20food&page=2") // { q: "dog food", page: 2 }
 * @example parseSearchQuery("") // { q: "", page: 1 }
 */
export function parseSearchQuery(search: string | URLSearchParams): SearchState {
  const params = toParams(search);
  return { q: (params.get("q") ?? "").trim(), page: validPage(params.get("page")) };
}
