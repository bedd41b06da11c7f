import { deliveryFor, noDeliveryRule, totalPence, type DeliveryRule } from "./delivery.ts";
import type { Pence } from "./money.ts";

export interface OfferPricing {
  retailerId: number;
  pricePence: Pence;
  originalPricePence: Pence | null;
  inStock: boolean;
  priceOverride: boolean;
  manualPricePence: Pence | null;
  /** Not confirmed by any source within the freshness window (24 hours by default): shown, but never the best price. */
  stale?: boolean;
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

/** The price a shopper pays: the manual price when the admin overrides, else the listed one. */
export function effectivePence(offer: OfferPricing): Pence {
  return offer.priceOverride && offer.manualPricePence !== null ? offer.manualPricePence : offer.pricePence;
}

/** Delivery for one unit of the offer at `itemPence` (its own statement, else its retailer's rule); null: not known. */
export function offerDeliveryPence(offer: OfferPricing, itemPence: Pence = effectivePence(offer)): Pence | null {
  return deliveryFor(itemPence, { deliveryPence: offer.deliveryPence ?? null, freeDelivery: offer.freeDelivery ?? false }, offer.deliveryRule ?? noDeliveryRule);
}

/** The compared price of an offer: its effective item price plus the delivery one unit costs. */
export function offerTotalPence(offer: OfferPricing): Pence {
  return totalPence(effectivePence(offer), offerDeliveryPence(offer));
}

export interface BestOffer {
  /** The lowest total to the door (item plus delivery). */
  bestPricePence: Pence | null;
  bestRetailerId: number | null;
  /**
   * What the best offer's was-price came to at the door (with the delivery that price would have
   * carried), only when it is above the best total (no invented savings).
   */
  originalPricePence: Pence | null;
  /** The delivery inside the best total; null when not known (the total is then the item alone). */
  bestDeliveryPence: Pence | null;
}

const noBestOffer: BestOffer = { bestPricePence: null, bestRetailerId: null, originalPricePence: null, bestDeliveryPence: null };

/**
 * The product's best price: the lowest total to the door (effective item price plus delivery)
 * among in-stock offers that are not stale; ties go to the lower retailer id so the result is
 * stable. No such offer: no best price.
 */
export function bestOffer(offers: readonly OfferPricing[]): BestOffer {
  let best: OfferPricing | null = null;
  let bestTotal = 0;
  for (const offer of offers) {
    if (!offer.inStock || offer.stale === true) continue;
    const total = offerTotalPence(offer);
    if (best === null || total < bestTotal || (total === bestTotal && offer.retailerId < best.retailerId)) {
      best = offer;
      bestTotal = total;
    }
  }
  if (best === null) return noBestOffer;
  const delivery = offerDeliveryPence(best);
  const wasItem = best.originalPricePence;
  const wasTotal = wasItem === null ? null : totalPence(wasItem, offerDeliveryPence(best, wasItem));
  const original = wasTotal !== null && wasTotal > bestTotal ? wasTotal : null;
  return { bestPricePence: bestTotal, bestRetailerId: best.retailerId, originalPricePence: original, bestDeliveryPence: delivery };
}

/** What the listing order of a product's offers looks at. */
export interface ListedOffer {
  inStock: boolean;
  stale: boolean;
  /** Total to the door in pounds (exact to two decimals). */
  total: number;
  retailer: { name: string };
}

/**
 * The order a product's offers are listed in: in stock before out of stock, current before
 * stale, then the cheapest total to the door, then by retailer name (a stable order for ties).
 */
export function offerListOrder(a: ListedOffer, b: ListedOffer): number {
  if (a.inStock !== b.inStock) return a.inStock ? -1 : 1;
  if (a.stale !== b.stale) return a.stale ? 1 : -1;
  const byTotal = Math.round(a.total * 100) - Math.round(b.total * 100);
  if (byTotal !== 0) return byTotal;
  return a.retailer.name < b.retailer.name ? -1 : a.retailer.name > b.retailer.name ? 1 : 0;
}
