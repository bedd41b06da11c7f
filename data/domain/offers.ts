import { deliveryFor, noDeliveryRule, totalPence, type DeliveryRule } from "./delivery.ts";
import type { Pence } from "./money.ts";

/** What decides whether an offer may be compared (isComparable). */
export interface ComparableOffer {
  inStock: boolean;
  /** Marked not confirmed by any source within the freshness window: shown, but never compared. */
  stale?: boolean;
  /** The admin set the price by hand: it never goes stale. */
  priceOverride?: boolean;
  /** When a source last confirmed the price (ISO-8601); null or absent: only the stale mark tells. */
  lastCheckedAt?: string | null;
}

export interface OfferPricing extends ComparableOffer {
  retailerId: number;
  pricePence: Pence;
  inStock: boolean;
  priceOverride: boolean;
  manualPricePence: Pence | null;
  /** Delivery for this item as its source states it (null or absent: not stated). */
  deliveryPence?: Pence | null;
  /** The admin marked the offer as delivered free. */
  freeDelivery?: boolean;
  /** The retailer's standard delivery (absent: not known). */
  deliveryRule?: DeliveryRule;
}

/**
 * How long a price counts as current without a source confirming it: 24 hours by default
 * (PRICE_FRESH_HOURS), so a best price is never older than a day. Pages are read daily and feeds
 * every few hours, so a live offer is confirmed well inside it.
 */
export const defaultFreshForMs = 24 * 60 * 60 * 1000;

/** The freshness window in words: "24 hours", "2 days". */
export function freshnessText(freshForMs: number): string {
  const hours = Math.round(freshForMs / 3_600_000);
  return hours % 24 === 0 && hours > 24 ? `${hours / 24} days` : `${hours} ${hours === 1 ? "hour" : "hours"}`;
}

/**
 * Whether an offer may be compared (counts for a best price, the cheapest regular way to buy, a
 * feeding cost): it is in stock and its price is current at `now`. A price is not current when it
 * is marked stale, or when the offer says when a source last confirmed it and that was more than
 * `freshForMs` before `now` (as the stale sweep marks it: confirmed exactly `freshForMs` ago is
 * still current, a millisecond more is not). A price the admin set by hand never goes stale by time.
 */
export function isComparable(offer: ComparableOffer, now: Date, freshForMs: number = defaultFreshForMs): boolean {
  if (!offer.inStock || offer.stale === true) return false;
  if (offer.priceOverride === true || offer.lastCheckedAt === null || offer.lastCheckedAt === undefined) return true;
  const checkedAt = Date.parse(offer.lastCheckedAt);
  return Number.isNaN(checkedAt) || now.getTime() - checkedAt <= freshForMs;
}

/** The price a shopper pays: the manual price when the admin overrides, else the listed one. */
export function effectivePence(offer: OfferPricing): Pence {
  return offer.priceOverride && offer.manualPricePence !== null ? offer.manualPricePence : offer.pricePence;
}

/** Delivery for one unit of the offer at `itemPence` (its own statement, else its retailer's rule); null: not known. */
export function offerDeliveryPence(offer: OfferPricing, itemPence: Pence = effectivePence(offer)): Pence | null {
  return deliveryFor(itemPence, { deliveryPence: offer.deliveryPence ?? null, freeDelivery: offer.freeDelivery ?? false }, offer.deliveryRule ?? noDeliveryRule);
}

/**
 * What the offer would cost to the door at `itemPence`: that item price plus the delivery it
 * carries at this offer today (its own statement, else free when marked, else its retailer's
 * rule at that price). How a recorded item price becomes a total to the door for the history.
 */
export function offerTotalAt(offer: OfferPricing, itemPence: Pence): Pence {
  return totalPence(itemPence, offerDeliveryPence(offer, itemPence));
}

/** The compared price of an offer: its effective item price plus the delivery one unit costs. */
export function offerTotalPence(offer: OfferPricing): Pence {
  return offerTotalAt(offer, effectivePence(offer));
}

export interface BestOffer {
  /** The lowest total to the door (item plus delivery). */
  bestPricePence: Pence | null;
  bestRetailerId: number | null;
  /** The delivery inside the best total; null when not known (the total is then the item alone). */
  bestDeliveryPence: Pence | null;
}

const noBestOffer: BestOffer = { bestPricePence: null, bestRetailerId: null, bestDeliveryPence: null };

/**
 * The best offer: the lowest total to the door among the offers that may be compared at `now`
 * (isComparable: in stock and current); ties go to the lower retailer id, so the result does not
 * depend on the order the offers come in. When no offer may be compared there is no best offer
 * (null), whatever the others cost: an out-of-stock or stale price is never a best price. (A page
 * that wants to say what an unavailable product last cost uses lastSeenOffer, which is not a best
 * price.) A retailer's own claimed was-price (RRP) plays no part. `totalOf` gives an offer's total
 * to the door (offerTotalPence for offer pricing); `freshForMs` is the freshness window.
 */
export function bestOfferOf<T extends OfferPricing>(offers: readonly T[], now: Date, options?: { freshForMs?: number }): T | null;
export function bestOfferOf<T extends ComparableOffer & { retailerId: number }>(
  offers: readonly T[],
  now: Date,
  options: { totalOf: (offer: T) => Pence; freshForMs?: number },
): T | null;
export function bestOfferOf<T extends ComparableOffer & { retailerId: number }>(
  offers: readonly T[],
  now: Date,
  options: { totalOf?: (offer: T) => Pence; freshForMs?: number } = {},
): T | null {
  const totalOf = options.totalOf ?? ((offer: T) => offerTotalPence(offer as unknown as OfferPricing));
  const freshForMs = options.freshForMs ?? defaultFreshForMs;
  let best: T | null = null;
  let bestTotal = 0;
  for (const offer of offers) {
    if (!isComparable(offer, now, freshForMs)) continue;
    const total = totalOf(offer);
    if (best === null || total < bestTotal || (total === bestTotal && offer.retailerId < best.retailerId)) {
      best = offer;
      bestTotal = total;
    }
  }
  return best;
}

/**
 * The product's best price (bestOfferOf): its total to the door, its retailer and the delivery
 * inside it. No offer that may be compared: no best price.
 */
export function bestOffer(offers: readonly OfferPricing[], now: Date): BestOffer {
  const best = bestOfferOf(offers, now);
  if (best === null) return noBestOffer;
  return { bestPricePence: offerTotalPence(best), bestRetailerId: best.retailerId, bestDeliveryPence: offerDeliveryPence(best) };
}

/**
 * What a product with no best offer last cost: the offer with the lowest total to the door of all
 * its offers, in stock or not, stale or not (of tied offers the one that comes first, so in listing
 * order the one listed first); null without offers. Shown as "last seen", never as a best price.
 */
export function lastSeenOffer<T>(offers: readonly T[], totalOf: (offer: T) => Pence): T | null {
  let low: T | null = null;
  let lowTotal = 0;
  for (const offer of offers) {
    const total = totalOf(offer);
    if (low === null || total < lowTotal) {
      low = offer;
      lowTotal = total;
    }
  }
  return low;
}

/** What the listing order of a product's offers looks at. */
export interface ListedOffer {
  inStock: boolean;
  stale: boolean;
  /** Total to the door. */
  totalPence: Pence;
  retailer: { name: string };
}

/**
 * The order a product's offers are listed in: in stock before out of stock, current before
 * stale, then the cheapest total to the door, then by retailer name (a stable order for ties).
 */
export function offerListOrder(a: ListedOffer, b: ListedOffer): number {
  if (a.inStock !== b.inStock) return a.inStock ? -1 : 1;
  if (a.stale !== b.stale) return a.stale ? 1 : -1;
  const byTotal = a.totalPence - b.totalPence;
  if (byTotal !== 0) return byTotal;
  return a.retailer.name < b.retailer.name ? -1 : a.retailer.name > b.retailer.name ? 1 : 0;
}
