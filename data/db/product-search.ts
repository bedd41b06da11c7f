/**
 * The search page's reads beyond plain search: its results narrowed by the grid's filters and
 * ordered by the grid's sorts. The filters and sort orders are the grid's own (products.ts), so
 * a filter means the same on the search page as on a category page.
 */
import type { Db } from "./client.ts";
import { statement } from "./statements.ts";
import { filterClause, getProductsByIds, orderBy, searchMatchIds, searchProducts, type SearchResult } from "./products.ts";
import type { ProductFilters } from "../domain/queries.ts";
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
export function searchCatalogue(db: Db, text: string, filters: ProductFilters, page: SearchPage): SearchResult {
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
