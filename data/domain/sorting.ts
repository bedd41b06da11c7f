/** The product sort options (SPEC.md section 3), as one table with a default. */
export const sortOptions = [
  { value: "rank_asc", label: "Best Selling" },
  { value: "price_asc", label: "Price: Low to High" },
  { value: "price_desc", label: "Price: High to Low" },
  { value: "rating_desc", label: "Highest Rated" },
  { value: "savings_desc", label: "Biggest Savings" },
] as const;

export type SortKey = (typeof sortOptions)[number]["value"];

/**
 * Food by what a day of it costs the visitor's pet. Not in `sortOptions`: it is offered only on
 * a food category (dog food, cat food) while a pet of that species is saved in the browser, and
 * the API takes it only with the pet's body (species, weightKg, lifeStage, activity, neutered).
 */
export const costPerDaySort = { value: "cost_per_day", label: "Cost per Day: Low to High" } as const;
export type CostPerDaySortKey = (typeof costPerDaySort)["value"];
/** The product list's sort: the grid's table, or the cost per day for a pet. */
export type ProductSortKey = SortKey | CostPerDaySortKey;
export const defaultSort: SortKey = "rank_asc";
export const sortKeys = sortOptions.map((o) => o.value) as [SortKey, ...SortKey[]];

export function isSortKey(value: unknown): value is SortKey {
  return typeof value === "string" && (sortKeys as readonly string[]).includes(value);
}

/**
 * The search page's sort options: best match first by default (relevance, then rank), then the
 * grid's own. One table, so the grid's options and labels are not copied.
 */
export const searchSortOptions = [{ value: "relevance", label: "Best Match" }, ...sortOptions] as const;

export type SearchSortKey = (typeof searchSortOptions)[number]["value"];
export const defaultSearchSort: SearchSortKey = "relevance";
export const searchSortKeys = searchSortOptions.map((o) => o.value) as [SearchSortKey, ...SearchSortKey[]];

export function isSearchSortKey(value: unknown): value is SearchSortKey {
  return typeof value === "string" && (searchSortKeys as readonly string[]).includes(value);
}
