/** The product sort options (SPEC.md section 3), as one table with a default. */
export const sortOptions = [
  { value: "rank_asc", label: "Best Selling" },
  { value: "price_asc", label: "Price: Low to High" },
  { value: "price_desc", label: "Price: High to Low" },
  { value: "rating_desc", label: "Highest Rated" },
  { value: "savings_desc", label: "Biggest Savings" },
] as const;

export type SortKey = (typeof sortOptions)[number]["value"];
export const defaultSort: SortKey = "rank_asc";
export const sortKeys = sortOptions.map((o) => o.value) as [SortKey, ...SortKey[]];

export function isSortKey(value: unknown): value is SortKey {
  return typeof value === "string" && (sortKeys as readonly string[]).includes(value);
}
