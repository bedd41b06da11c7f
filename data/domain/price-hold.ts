/**
 * When a price read from a source is held for the admin's review instead of published.
 *
 * - A price beyond the hold factor of the published listed price (by default below 40% or above
 *   250% of it) is held: a jump that large is more often a misread page or a feed error than a
 *   real change. The bounds themselves publish, and an offer with no published price (0p) never holds.
 * - A check its source marks for review (a page price read with low confidence) is held whatever
 *   its price, unless it repeats the published price: then it only confirms it.
 */
import type { Pence } from "./money.ts";

/** When a price is held instead of published: below `below` or above `above` times the published price. */
export interface HoldPolicy {
  below: number;
  above: number;
}

export const defaultHoldPolicy: HoldPolicy = { below: 0.4, above: 2.5 };

/** Whether `price` is beyond the hold factor of the published price. */
export function isPriceJump(publishedPence: Pence, pricePence: Pence, policy: HoldPolicy): boolean {
  if (publishedPence <= 0 || pricePence === publishedPence) return false;
  return pricePence < publishedPence * policy.below || pricePence > publishedPence * policy.above;
}

/** Whether a checked price is held for review rather than published (the rules above). */
export function holdsForReview(publishedPence: Pence, check: { pricePence: Pence; holdReason?: string | undefined }, policy: HoldPolicy): boolean {
  if (check.holdReason !== undefined && check.pricePence !== publishedPence) return true;
  return isPriceJump(publishedPence, check.pricePence, policy);
}
