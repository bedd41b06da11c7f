import { deliveryFor, noDeliveryRule, totalPence, type DeliveryRule } from "./delivery.ts";
import type { Pence } from "./money.ts";

export interface OfferPricing {
  retailerId: number;
  pricePence: Pence;
  /** The retailer's own claimed was-price (RRP) from a feed or the admin: never shown as a "was" price by itself. */
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
 * The product's best price: the lowest total to the door (effective item price plus delivery)
 * among in-stock offers that are not stale; ties go to the lower retailer id so the result is
 * stable. No such offer: no best price. A retailer's own claimed was-price (RRP) plays no part:
 * a "was" price comes from the price history only (wasPrice in deal-truth.ts).
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
  return { bestPricePence: bestTotal, bestRetailerId: best.retailerId, bestDeliveryPence: offerDeliveryPence(best) };
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
