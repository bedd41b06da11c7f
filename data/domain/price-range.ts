import type { Pence } from "./money.ts";

/** The price-range filter options: label and value "min-max". */
export const priceRangeOptions = [
  { value: "any", label: "Any Price" },
  { value: "0-10", label: "Under £10" },
  { value: "10-25", label: "£10 - £25" },
  { value: "25-50", label: "£25 - £50" },
  { value: "50-100", label: "£50 - £100" },
  { value: "100-", label: "Over £100" },
] as const;

export interface PriceBounds {
  minPrice?: number;
  maxPrice?: number;
}

/**
 * Parses a "min-max" price range in pounds; either side may be empty; "any" or "" is no bound.
 * Returns null when the value is not of that form.
 * @example parsePriceRange("10-25") // { minPrice: 10, maxPrice: 25 }
 * @example parsePriceRange("100-") // { minPrice: 100 }
 */
export function parsePriceRange(value: string | null | undefined): PriceBounds | null {
  if (!value || value === "any") return {};
  const match = /^(\d+(?:\.\d{1,2})?)?-(\d+(?:\.\d{1,2})?)?$/.exec(value);
  if (!match) return null;
  const bounds: PriceBounds = {};
  if (match[1] !== undefined) bounds.minPrice = Number(match[1]);
  if (match[2] !== undefined) bounds.maxPrice = Number(match[2]);
  return bounds;
}

/** Inverse of parsePriceRange for building query strings. */
export function formatPriceRange(bounds: PriceBounds): string {
  if (bounds.minPrice === undefined && bounds.maxPrice === undefined) return "any";
  return `${bounds.minPrice ?? ""}-${bounds.maxPrice ?? ""}`;
}

export type PenceBounds = { minPence?: Pence; maxPence?: Pence };
