/**
 * Filter options with counts (facets): the brand filter lists the brands of the current view,
 * each with how many of its products the other filters leave (a brand's own filter is not
 * applied to its count, so every brand shows what choosing it would give).
 */

export interface BrandCount {
  brand: string;
  count: number;
}

/**
 * The brand select's options: the view's brands with their counts, and the chosen brand even when
 * the other filters leave none of its products (count 0), so the select can still show it.
 * @example brandOptions([{ brand: "Felix", count: 3 }], "Whiskas") // [{ brand: "Felix", count: 3 }, { brand: "Whiskas", count: 0 }]
 * @example brandOptions([{ brand: "Felix", count: 3 }], "felix") // [{ brand: "Felix", count: 3 }]
 */
export function brandOptions(counts: readonly BrandCount[], selected: string | undefined): BrandCount[] {
  if (selected === undefined || counts.some((option) => sameBrand(option.brand, selected))) return [...counts];
  return [...counts, { brand: selected, count: 0 }].sort((a, b) => a.brand.localeCompare(b.brand, "en", { sensitivity: "base" }));
}

/** Brands match as the API's brand filter does: ignoring case. */
export const sameBrand = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/**
 * An option's text: the brand and its count.
 * @example brandLabel({ brand: "Royal Canin", count: 12 }) // "Royal Canin (12)"
 */
export function brandLabel(option: BrandCount): string {
  return `${option.brand} (${option.count.toLocaleString("en-GB")})`;
}
