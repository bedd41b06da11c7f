/**
 * The demo catalogue's daily price move: the demo refresher confirms every demo offer once a UK
 * day with the price this gives, so a demo left running keeps confirmed prices that move a
 * little, the way real ones do. Reproducible: the same offer on the same day moves the same way.
 *
 * Rules:
 * - Each day an offer's price holds, goes back to its earlier price (the one before the current
 *   price), or moves up or down by at most 3% of the current price (a price under 34p, where 3% is
 *   less than a penny, holds); which one, and how far, follows from product id, retailer id and day.
 * - A moved price ends in 49p or 99p when one such price is in reach, else in 9p, else it is
 *   whole pence; it never goes below 1p.
 * - A move never takes the price more than 15% from the anchor (the offer's first recorded
 *   price); when no price that way is in reach it goes the other way, so a demo running for months
 *   does not drift, and a price found outside the band moves toward the anchor.
 */
import type { Pence } from "./money.ts";
import { mulberry32 } from "./seeded-random.ts";

/** The largest daily move, as a fraction of the current price. */
export const demoMoveFraction = 0.03;
/** How far from its anchor a demo price may move, as a fraction of the anchor. */
export const demoAnchorBand = 0.15;
/** The share of days a price goes back to its earlier price (when it has one). */
const backShare = 1 / 6;
/** The share of days a price holds (counted after the days it goes back). */
const holdShare = 1 / 3;

export interface DemoPriceInput {
  productId: number;
  retailerId: number;
  /** The UK day of the move, YYYY-MM-DD. */
  day: string;
  /** The offer's current listed price. */
  pricePence: Pence;
  /** The offer's price before the current one (null: none recorded). */
  earlierPence: Pence | null;
  /** The offer's first recorded price (its own price when none is recorded). */
  anchorPence: Pence;
}

/**
 * Numbers in [0, 1) drawn from a text key: FNV-1a of the key seeds a mulberry32 generator.
 * @example draws("12:3:2026-05-01", 2) // two numbers, the same on every call
 */
function draws(key: string, count: number): number[] {
  let hash = 0x811c9dc5;
  for (let index = 0; index < key.length; index++) {
    hash ^= key.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  const next = mulberry32(hash);
  return Array.from({ length: count }, next);
}

/**
 * The price nearest `rawPence` with a shelf ending (49p or 99p, else 9p) within `low`..`high`,
 * else `rawPence` rounded to whole pence and kept within them.
 * @example shelfPriceWithin(2031, 1940, 2060) // 2049
 * @example shelfPriceWithin(103, 100, 106) // 103 (no 9p ending in reach)
 */
export function shelfPriceWithin(rawPence: number, low: Pence, high: Pence): Pence {
  for (const [step, ending] of [
    [50, 49],
    [10, 9],
  ] as const) {
    const candidates = [Math.floor((rawPence - ending) / step), Math.ceil((rawPence - ending) / step)].map((n) => n * step + ending);
    const inReach = candidates.filter((price) => price >= low && price <= high && price >= 1);
    if (inReach.length > 0) return inReach.reduce((best, price) => (Math.abs(price - rawPence) < Math.abs(best - rawPence) ? price : best));
  }
  return Math.min(high, Math.max(low, Math.max(1, Math.round(rawPence))));
}

/**
 * The offer's price for the day (see the module comment).
 * @example demoPriceMove({ productId: 1, retailerId: 2, day: "2026-05-01", pricePence: 1999, earlierPence: 2099, anchorPence: 2099 }) // 1999, 2099, or a price from 1940 to 2058
 */
export function demoPriceMove(input: DemoPriceInput): Pence {
  const { pricePence, earlierPence, anchorPence } = input;
  const [kind, size, direction] = draws(`${input.productId}:${input.retailerId}:${input.day}`, 3) as [number, number, number];
  if (earlierPence !== null && earlierPence !== pricePence && kind < backShare) return earlierPence;
  if (kind < backShare + holdShare) return pricePence;

  const limit = Math.floor(pricePence * demoMoveFraction);
  if (limit < 1) return pricePence;
  // The prices in reach each way: within 3% of the price, and within the anchor's band.
  const down = { low: Math.max(1, pricePence - limit, Math.ceil(anchorPence * (1 - demoAnchorBand))), high: pricePence - 1, sign: -1 };
  const up = { low: pricePence + 1, high: Math.min(pricePence + limit, Math.floor(anchorPence * (1 + demoAnchorBand))), sign: 1 };
  const [wanted, other] = direction < 0.5 ? [down, up] : [up, down];
  const reach = wanted.low <= wanted.high ? wanted : other.low <= other.high ? other : null;
  if (reach === null) return pricePence;
  const step = Math.max(1, Math.round(limit * (0.25 + 0.75 * size)));
  return shelfPriceWithin(pricePence + reach.sign * step, reach.low, reach.high);
}
