/**
 * A product's deal facts (lowest in 90 days, typical price, deal, supported was-price) from its
 * price history, which records ITEM prices per retailer, while the site compares totals to the
 * door. The history becomes totals like this:
 * - each history point of a retailer the product is sold at now becomes that item price plus the
 *   delivery that item price carries at that offer today (offerTotalAt: its stated delivery, else
 *   free when marked free, else its retailer's current rule at that item price, so a price that
 *   crossed a free-delivery threshold is counted with free delivery); the price chart converts
 *   the same way. A retailer the product is no longer sold at is left out, as the chart does;
 * - today every offer counts with its current total when it may be compared (isComparable), else as
 *   out of stock from now on, so today's lowest is exactly the product's best price.
 * Pure: the build, the API, the best-price writer and the alert check share it.
 */
import { dailyLowest, isDeal, lowestIn90Days, typicalPrice, wasPrice, wasPriceFirstDay, type DailyLowest, type HistoryRow } from "./deal-truth.ts";
import type { Pence } from "./money.ts";
import { bestOffer, isComparable, offerTotalAt, offerTotalPence, type OfferPricing } from "./offers.ts";

/** One recorded item price of one retailer's offer (a row of price_history). */
export interface ItemPricePoint {
  retailerId: number;
  pricePence: Pence;
  /** ISO-8601. */
  recordedAt: string;
}

export interface DealFacts {
  /** Today's lowest in-stock total (the best price); null when nothing is in stock. */
  todayPence: Pence | null;
  /** The least daily lowest of the 90 days, today included; null when nothing was in stock. */
  lowestPence: Pence | null;
  /** Today's price is the lowest of 90 days fully covered by the history ("Lowest price in 90 days"). */
  isLowestIn90Days: boolean;
  /** The median of the 90 days' daily lowest totals; null with fewer than 14 priced days. */
  typicalPence: Pence | null;
  /** Today's price is at least 5% below the typical price. */
  isDeal: boolean;
  /** A struck-through "was" price the best offer's retailer's history supports (wasPrice); else null. */
  wasPence: Pence | null;
  /** The least daily lowest of the 89 days before today: what a "lowest in 90 days" alert has to beat. */
  lowestBeforeTodayPence: Pence | null;
}

/** The UTC day (YYYY-MM-DD) of an instant. */
export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

/**
 * The history as totals to the door (see the module comment), followed by every current offer's
 * state at `now`.
 * @example historyTotals([{ retailerId: 1, pricePence: 3800, recordedAt: "2026-03-01T09:00:00Z" }], [offer at retailer 1, rule £3.99 free from £39], now)[0].totalPence // 4199
 */
export function historyTotals(points: readonly ItemPricePoint[], offers: readonly OfferPricing[], now: Date): HistoryRow[] {
  const offerAt = new Map(offers.map((offer) => [offer.retailerId, offer]));
  const rows: HistoryRow[] = [];
  for (const point of points) {
    const offer = offerAt.get(point.retailerId);
    if (offer === undefined) continue;
    rows.push({ retailerId: point.retailerId, totalPence: offerTotalAt(offer, point.pricePence), recordedAt: point.recordedAt });
  }
  const at = now.toISOString();
  for (const offer of offers) {
    rows.push({ retailerId: offer.retailerId, totalPence: isComparable(offer, now) ? offerTotalPence(offer) : null, recordedAt: at });
  }
  return rows;
}

/** The daily lowest totals of the 90 days ending on `now`'s UTC day. */
export function dailyLowestTotals(points: readonly ItemPricePoint[], offers: readonly OfferPricing[], now: Date): DailyLowest[] {
  return dailyLowest(historyTotals(points, offers, now), utcDay(now));
}

/**
 * The "was" price of a product as of `now` (wasPrice): its best offer's retailer's history, as
 * totals to the door, against its best price. `points` must reach back to wasPriceFirstDay of
 * `now`'s UTC day with the point in force then (readWasHistory reads exactly that); other
 * retailers' points are ignored.
 */
export function supportedWasPrice(points: readonly ItemPricePoint[], offers: readonly OfferPricing[], now: Date): Pence | null {
  const best = bestOffer(offers, now);
  if (best.bestRetailerId === null) return null;
  const own = points.filter((point) => point.retailerId === best.bestRetailerId);
  return wasPrice(historyTotals(own, offers, now), best.bestRetailerId, best.bestPricePence, utcDay(now));
}

/**
 * Whether one retailer's points from a shorter read (every point from some start on, plus the
 * one in force then) settle its "was" price as of `today`, `was` being what they give: older
 * points cannot change a qualifying run found in them (the runs after it are all known), nor
 * anything when the points reach back to the start of wasPriceFirstDay or there are none at all.
 * Otherwise the longer history has to be read.
 */
export function wasPriceSettled(points: readonly ItemPricePoint[], was: Pence | null, today: string): boolean {
  if (was !== null || points.length === 0) return true;
  const firstDayStart = Date.parse(`${wasPriceFirstDay(today)}T00:00:00Z`);
  return points.some((point) => Date.parse(point.recordedAt) <= firstDayStart);
}

/** Every deal fact of one product from its daily lowest totals (today last) and its "was" price (supportedWasPrice). */
export function dealFactsOf(days: readonly DailyLowest[], wasPence: Pence | null): DealFacts {
  const todayPence = days.at(-1)?.lowestTotalPence ?? null;
  const lowest = lowestIn90Days(days);
  return {
    todayPence,
    lowestPence: lowest.lowestPence,
    isLowestIn90Days: lowest.isTodayLowest,
    typicalPence: typicalPrice(days),
    isDeal: isDeal(todayPence, days),
    wasPence,
    lowestBeforeTodayPence: lowest.lowestBeforeTodayPence,
  };
}

/** The deal facts in pounds, as the API speaks them. */
export interface DealFactsPounds {
  lowestIn90Days: boolean;
  /** The lowest total of the 90 days (today included). */
  lowest90Price: number | null;
  typicalPrice: number | null;
  isDeal: boolean;
  /** The supported was-price (the same as the product's originalPrice when written today). */
  wasPrice: number | null;
}
