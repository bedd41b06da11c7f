/** The product sort options, as one table with a default. */
export const sortOptions = [
  { value: "rank_asc", label: "Best Selling" },
  { value: "price_asc", label: "Price: Low to High" },
  { value: "price_desc", label: "Price: High to Low" },
  { value: "rating_desc", label: "Highest Rated" },
  { value: "savings_desc", label: "Biggest Savings" },
] as const;

/** Offered only where the category is sold by weight (soldByWeight): per kg compares nothing else. */
export const pricePerKgSort = { value: "price_per_kg_asc", label: "Price per kg: Low to High" } as const;

export type SortKey = (typeof sortOptions)[number]["value"] | typeof pricePerKgSort.value;

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
export const sortKeys = [...sortOptions, pricePerKgSort].map((o) => o.value) as [SortKey, ...SortKey[]];

/**
 * Categories whose goods are sold by weight (food, treats, litter by the kg), where "Price per kg:
 * Low to High" compares like with like. Toys, beds, health, grooming, aquatics and the rest are
 * sold by the item or the litre.
 */
export const soldByWeightCategories: readonly string[] = ["dog-food", "cat-food", "dog-treats", "cat-litter", "small-animal", "bird-food"];

/**
 * Whether the category (slug) is sold by weight; no category (all products) is not.
 * @example soldByWeight("dog-food") // true
 * @example soldByWeight("dog-toys") // false
 */
export function soldByWeight(category: string | undefined): boolean {
  return category !== undefined && soldByWeightCategories.includes(category);
}

/**
 * The grid's sort options in a category: the table, plus price per kg where it is sold by weight.
 * @example sortOptionsFor("cat-food").at(-1) // { value: "price_per_kg_asc", label: "Price per kg: Low to High" }
 */
export function sortOptionsFor(category: string | undefined): readonly { value: SortKey; label: string }[] {
  return soldByWeight(category) ? [...sortOptions, pricePerKgSort] : sortOptions;
}

/**
 * Whether a sort is offered in a category: every sort of the table, price per kg only where the
 * category is sold by weight.
 * @example sortOffered("price_per_kg_asc", "dog-toys") // false
 */
export function sortOffered(sort: SortKey, category: string | undefined): boolean {
  return sort !== pricePerKgSort.value || soldByWeight(category);
}

export function isSortKey(value: unknown): value is SortKey {
  return typeof value === "string" && (sortKeys as readonly string[]).includes(value);
}

/**
 * The search page's sort options: best match first by default (relevance, then rank), then the
 * grid's own. One table, so the grid's options and labels are not copied.
 */
export const searchSortOptions = [{ value: "relevance", label: "Best Match" }, ...sortOptions] as const;

/** A sort of the grid or the search page (the search page never offers price per kg). */
export type SearchSortKey = (typeof searchSortOptions)[number]["value"] | SortKey;
export const defaultSearchSort: SearchSortKey = "relevance";
export const searchSortKeys = searchSortOptions.map((o) => o.value) as [SearchSortKey, ...SearchSortKey[]];

export function isSearchSortKey(value: unknown): value is SearchSortKey {
  return typeof value === "string" && (searchSortKeys as readonly string[]).includes(value);
}
