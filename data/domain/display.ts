/**
 * How prices, discounts, ratings, ages and long text are shown (SPEC.md sections 5, 8 and 9).
 * Values arrive from the API as numbers or numeric strings, so every function here accepts
 * both and treats anything else as missing.
 */
import { formatPence, toPence, type Pence } from "./money.ts";

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
  return pounds === null ? null : Math.round(pounds * 100) + 0;
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
 * The rounded percentage saved against the original price; 0 when either price is missing,
 * not a number or not above zero, and never negative.
 * @example discountPercent(20, 15) // 25
 * @example discountPercent("19.99", "14.99") // 25
 * @example discountPercent(null, 15) // 0
 * @example discountPercent(10, 12) // 0
 */
export function discountPercent(original: NumericInput, current: NumericInput): number {
  const originalPence = displayPence(original);
  const currentPence = displayPence(current);
  if (originalPence === null || currentPence === null || originalPence <= 0 || currentPence <= 0) return 0;
  return Math.max(0, Math.round(((originalPence - currentPence) / originalPence) * 100));
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

const hourMs = 60 * 60 * 1000;
const ukShortDate = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/London", day: "2-digit", month: "2-digit", year: "2-digit" });

/**
 * How long ago something was edited, for the admin 'Last Edited' column: 'Never' without a
 * (valid) date, 'Just now' under an hour, '{n}h ago' under a day, '{n}d ago' under a week,
 * then the UK date as dd/mm/yy.
 * @example relativeTime(null) // "Never"
 * @example relativeTime("2026-03-01T09:00:00Z", new Date("2026-03-01T12:30:00Z")) // "3h ago"
 * @example relativeTime("2026-01-05T12:00:00Z", new Date("2026-03-01T12:00:00Z")) // "05/01/26"
 */
export function relativeTime(date: Date | string | number | null | undefined, now: Date = new Date()): string {
  if (date === null || date === undefined || date === "") return "Never";
  const then = date instanceof Date ? date : new Date(date);
  if (Number.isNaN(then.getTime())) return "Never";
  const hours = (now.getTime() - then.getTime()) / hourMs;
  if (hours < 1) return "Just now";
  if (hours < 24) return `${Math.floor(hours)}h ago`;
  if (hours < 24 * 7) return `${Math.floor(hours / 24)}d ago`;
  return ukShortDate.format(then);
}

/**
 * Cuts text to at most `max` characters and appends '...' when it was longer.
 * @example truncate("Royal Canin Maxi Adult Dry Dog Food 15kg", 11) // "Royal Canin..."
 * @example truncate("Short", 40) // "Short"
 */
export function truncate(text: string, max: number): string {
  // Count code points, so an emoji or accented letter is never split in half.
  const characters = Array.from(text);
  if (characters.length <= max) return text;
  return `${characters.slice(0, Math.max(0, max)).join("").trimEnd()}...`;
}
