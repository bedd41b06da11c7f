/**
 * The one percent-off rule, for every saving shown as a percentage (the cards' and product page's
 * "Save N%", the hero deal, favourites, the price-drop mail): whole percent, rounded down, so a
 * saving is never overstated.
 */
import type { Pence } from "./money.ts";

/**
 * How many whole percent cheaper `nowPence` is than `wasPence`: floor(100 × (was − now) ÷ was),
 * so 12.5% is 12 and 99.9% is 99. Null when there is no saving to claim: no earlier price, a
 * missing or zero price, the same price or a rise, or a saving under 1% (nothing shows "Save 0%").
 * @example percentOff(800, 700) // 12 (12.5%)
 * @example percentOff(2999, 2699) // 10 (10.003%)
 * @example percentOff(200, 199) // null (0.5%)
 * @example percentOff(1000, 1001) // null
 */
export function percentOff(wasPence: Pence | null, nowPence: Pence | null): number | null {
  if (wasPence === null || nowPence === null || !Number.isInteger(wasPence) || !Number.isInteger(nowPence)) return null;
  if (nowPence <= 0 || nowPence >= wasPence) return null;
  // Whole pence: the remainder is taken off before dividing, so no float rounding can lift it.
  const saved = (wasPence - nowPence) * 100;
  const percent = (saved - (saved % wasPence)) / wasPence;
  return percent >= 1 ? percent : null;
}
