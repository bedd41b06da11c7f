/**
 * Money is integer pence inside the application: the database, the rules, the server's reads
 * and the built pages. Pounds appear only at the edges: the API's JSON (catalogue-json.ts turns
 * products and offers into it) and island props, which are JSON too; form inputs; display text.
 * Nothing here does float arithmetic on pounds.
 */

/** Integer pence. */
export type Pence = number;

/**
 * Pence to a pounds number for JSON, exact to two decimals.
 * @example toPounds(1299) // 12.99
 * @example toPounds(null) // null
 */
export function toPounds(pence: Pence): number;
export function toPounds(pence: Pence | null | undefined): number | null;
export function toPounds(pence: Pence | null | undefined): number | null {
  if (pence === null || pence === undefined) return null;
  return pence / 100;
}

/**
 * Pence of a pounds amount the application itself wrote (an API or catalogue field, exact to two
 * decimals): rounding only removes float noise. Where a pounds value arrives from the outside
 * (a form, a query) use toPence, which refuses anything that is not a whole number of pence.
 * @example fromPounds(12.99) // 1299
 * @example fromPounds(0.1 + 11.9) // 1200
 * @example fromPounds(null) // null
 */
export function fromPounds(pounds: number): Pence;
export function fromPounds(pounds: number | null | undefined): Pence | null;
export function fromPounds(pounds: number | null | undefined): Pence | null {
  return pounds === null || pounds === undefined ? null : Math.round(pounds * 100);
}

/**
 * Parses a pounds amount ("12.99", "£12.9", 12.99, "12") into pence without float error.
 * Returns null for anything that is not a non-negative amount with at most two decimals.
 * @example toPence("12.99") // 1299
 * @example toPence(0.1 + 0.2) // 30
 * @example toPence("abc") // null
 */
export function toPence(value: unknown): Pence | null {
  if (typeof value === "number") {
    if (!Number.isFinite(value) || value < 0) return null;
    const pence = Math.round(value * 100);
    // Reject amounts with more than two decimals (12.345), allowing float noise (0.1 + 0.2). The
    // noise in value * 100 stays below a millionth of a penny up to £10 million; a tolerance that
    // grew with the amount would let 99999.991 through as £99,999.99.
    return Math.abs(pence - value * 100) < 1e-6 ? pence : null;
  }
  if (typeof value !== "string") return null;
  const match = /^\s*£?\s*(\d{1,9})(?:\.(\d{1,2}))?\s*$/.exec(value);
  if (!match) return null;
  const [, whole, fraction = ""] = match;
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
}

/**
 * Formats pence as pounds sterling, as Intl's en-GB GBP currency format writes it ("£1,234.56",
 * "-£0.50"; but "£0.00" where Intl writes "-£0.00" for a negative that rounds to nothing), by hand: a static build formats tens of prices on each of tens of thousands of
 * pages, and Intl's formatter cost more than the rest of the price text together.
 * @example formatPence(1299) // "£12.99"
 * @example formatPence(123456) // "£1,234.56"
 */
export function formatPence(pence: Pence): string {
  const whole = Math.round(Math.abs(pence));
  const pounds = String(Math.floor(whole / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const sign = pence < 0 && whole !== 0 ? "-" : "";
  return `${sign}£${pounds}.${String(whole % 100).padStart(2, "0")}`;
}
