/**
 * How prices, discounts, ratings, ages and long text are shown.
 * Values arrive from the API as numbers or numeric strings, so every function here accepts
 * both and treats anything else as missing.
 */
import { formatPence, fromPounds, toPence, type Pence } from "./money.ts";
import { percentOff } from "./percent-off.ts";

export type NumericInput = number | string | null | undefined;

/** The text shown for a missing price: "£0.00" by default, "N/A" in cards and the compare tray. */
export type MissingPriceText = "N/A" | "£0.00";

export const maxStars = 5;

/** A finite number from an API value; null for missing, blank or non-numeric input. */
function toFiniteNumber(value: NumericInput): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value !== "string" || value.trim() === "") return null;
  const parsed = Number(value.trim());
  return Number.isFinite(parsed) ? parsed : null;
}

/** Pounds (number or text) to whole pence; amounts with float noise or extra decimals round. */
function displayPence(value: NumericInput): Pence | null {
  const exact = toPence(value);
  if (exact !== null) return exact;
  const pounds = toFiniteNumber(value);
  // "+ 0" turns a rounded -0 into 0, so a tiny negative never shows as "-£0.00".
  return pounds === null ? null : fromPounds(pounds) + 0;
}

/**
 * Formats a pounds value for display, with two decimals and thousands separators.
 * @example formatPrice(12.99) // "£12.99"
 * @example formatPrice("1234.5") // "£1,234.50"
 * @example formatPrice(0.1 + 0.2) // "£0.30"
 * @example formatPrice(null) // "£0.00"
 * @example formatPrice(undefined, "N/A") // "N/A"
 */
export function formatPrice(value: NumericInput, missing: MissingPriceText = "£0.00"): string {
  const pence = displayPence(value);
  return pence === null ? missing : formatPence(pence);
}

/**
 * The percentage saved against the original price, by the one percent-off rule (whole percent,
 * rounded down: percentOff); null when there is no saving of at least 1% to show, so no "Save"
 * badge and no struck-through price.
 * @example discountPercent(20, 15) // 25
 * @example discountPercent(8, 7) // 12 (12.5%)
 * @example discountPercent(2, 1.99) // null (0.5%)
 * @example discountPercent(null, 15) // null
 * @example discountPercent(10, 12) // null
 */
export function discountPercent(original: NumericInput, current: NumericInput): number | null {
  return percentOff(displayPence(original), displayPence(current));
}

/**
 * A rating with one decimal; a missing rating shows "0.0".
 * @example formatRating("4.5") // "4.5"
 * @example formatRating(4) // "4.0"
 */
export function formatRating(rating: NumericInput): string {
  const value = toFiniteNumber(rating) ?? 0;
  return (Math.round(value * 10) / 10).toFixed(1);
}

/**
 * How many of the 5 stars are filled: the floor of the rating, clamped to 0..5.
 * @example ratingStars(4.7) // 4
 * @example ratingStars("6") // 5
 * @example ratingStars(null) // 0
 */
export function ratingStars(rating: NumericInput): number {
  const value = toFiniteNumber(rating) ?? 0;
  return Math.min(maxStars, Math.max(0, Math.floor(value)));
}

/**
 * The rating to show, or null for none: a product shows stars and a score only when reviews
 * stand behind them (reviewCount of at least 1). The stored rating is never null (a product
 * added by hand once defaulted to 4.5, an import stores 0), so with no reviews nothing is shown
 * anywhere: no stars, no score, no aggregateRating.
 * @example shownRating(4.5, 12) // 4.5
 * @example shownRating(4.5, 0) // null
 * @example shownRating("4.2", "3") // 4.2
 */
export function shownRating(rating: NumericInput, reviewCount: NumericInput): number | null {
  const reviews = toFiniteNumber(reviewCount);
  const value = toFiniteNumber(rating);
  if (reviews === null || reviews < 1 || value === null) return null;
  return Math.min(maxStars, Math.max(0, value));
}
