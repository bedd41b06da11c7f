/**
 * How old an offer's price is, in words a shopper reads beside it. A price counts as current for
 * the freshness window (24 hours by default) after a source last confirmed it; after that it is stale.
 */

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;

const plural = (count: number, unit: string) => `${count} ${unit}${count === 1 ? "" : "s"}`;

/**
 * @example priceAgeText("2026-11-22T09:00:00Z", false, new Date("2026-11-22T12:30:00Z")) // "Checked 3 hours ago"
 * @example priceAgeText("2026-11-22T12:29:30Z", false, new Date("2026-11-22T12:30:00Z")) // "Checked just now"
 * @example priceAgeText("2026-11-18T12:00:00Z", true, new Date("2026-11-22T12:30:00Z"))  // "Price not confirmed for 4 days"
 * @example priceAgeText(null, false, new Date())                                         // "Not checked yet"
 */
export function priceAgeText(lastCheckedAt: string | null, stale: boolean, now: Date): string {
  const at = lastCheckedAt === null ? Number.NaN : Date.parse(lastCheckedAt);
  if (Number.isNaN(at)) return stale ? "Price not confirmed" : "Not checked yet";
  const age = Math.max(0, now.getTime() - at);
  const words = age < minute ? null : age < hour ? plural(Math.floor(age / minute), "minute") : age < day ? plural(Math.floor(age / hour), "hour") : plural(Math.floor(age / day), "day");
  if (stale) return `Price not confirmed for ${words ?? "a moment"}`;
  return words === null ? "Checked just now" : `Checked ${words} ago`;
}
