/**
 * The search page's reads beyond plain search: its results narrowed by the grid's filters and
 * ordered by the grid's sorts, and a correction of a mistyped search. The filters and sort orders
 * are the grid's own (products.ts), so a filter means the same on the search page as on a
 * category page.
 */
import type { Db } from "./client.ts";
import { statement } from "./statements.ts";
import { filterClause, getProductsByIds, orderBy, searchMatchIds, searchProducts, suggestSearch, type SearchResult } from "./products.ts";
import type { ProductFilters } from "../domain/queries.ts";
import { searchSuggestionBelow, type SearchSuggestion } from "../domain/search-suggest.ts";
import { defaultSearchSort, type SearchSortKey } from "../domain/sorting.ts";

export interface SearchPage {
  sort: SearchSortKey;
  offset: number;
  limit: number;
}

const hasFilter = (filters: ProductFilters) => Object.values(filters).some((value) => value !== undefined);

/**
 * A page of the products matching the text and the filters, with how many match. By relevance
 * (the default) they come in search order (best match, then rank); any other sort is the grid's
 * order. Without filters, by relevance, this is searchProducts (its fast path).
 */
function searchPage(db: Db, text: string, filters: ProductFilters, page: SearchPage): SearchResult {
  if (page.sort === defaultSearchSort && !hasFilter(filters)) return searchProducts(db, text, page);
  const matches = searchMatchIds(db, text);
  if (matches.length === 0) return { products: [], total: 0 };
  const { where, params } = filterClause(filters);
  // hit.key is the match's place in search order.
  const from = `FROM json_each(?) hit JOIN products p ON p.id = hit.value ${where}`;
  const matched = JSON.stringify(matches);
  const { total } = statement<{ total: number }>(db, `SELECT count(*) AS total ${from}`).get(matched, ...params)!;
  if (total === 0 || page.offset >= total) return { products: [], total };
  const order = page.sort === "relevance" ? "hit.key" : orderBy[page.sort];
  const ids = statement<{ id: number }>(db, `SELECT p.id ${from} ORDER BY ${order} LIMIT ? OFFSET ?`).all(matched, ...params, page.limit, page.offset).map(
    (row) => row.id,
  );
  const products = getProductsByIds(db, ids);
  return { products: ids.map((id) => products.get(id)).filter((product) => product !== undefined), total };
}

/** How many products match the text and the filters. */
function countMatches(db: Db, text: string, filters: ProductFilters): number {
  return searchPage(db, text, filters, { sort: defaultSearchSort, offset: 0, limit: 0 }).total;
}

/** A search's answer: its page and count, and a correction when the text looks mistyped. */
export interface CatalogueSearch extends SearchResult {
  /**
   * The text with its unknown words corrected, when the text matches fewer than
   * searchSuggestionBelow products and the correction more; `applied` when the text matched
   * nothing, so the products are the correction's ("Showing results for Royal Canin").
   */
  suggestion: (SearchSuggestion & { applied: boolean }) | null;
}

/**
 * A page of the products matching the text and the filters (searchPage), forgiving typos: a text
 * that matches nothing is answered with the matches of its correction (search-suggest.ts), and
 * one that matches little gets the correction as a suggestion beside its own matches.
 */
export function searchCatalogue(db: Db, text: string, filters: ProductFilters, page: SearchPage): CatalogueSearch {
  const asked = searchPage(db, text, filters, page);
  if (asked.total >= searchSuggestionBelow) return { ...asked, suggestion: null };
  // A text that found a little may hold a word only one product uses (its own typo, or a rare
  // word): a close word more products use is suggested beside it.
  const suggestion = suggestSearch(db, text, (q) => countMatches(db, q, filters), asked.total === 0 ? 1 : 2);
  if (suggestion === null) return { ...asked, suggestion: null };
  if (asked.total > 0) return { ...asked, suggestion: suggestion.total > asked.total ? { ...suggestion, applied: false } : null };
  return { ...searchPage(db, suggestion.q, filters, page), suggestion: { ...suggestion, applied: true } };
}
