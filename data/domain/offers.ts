import type { Pence } from "./money.ts";

export interface OfferPricing {
  retailerId: number;
  pricePence: Pence;
  originalPricePence: Pence | null;
  inStock: boolean;
  priceOverride: boolean;
  manualPricePence: Pence | null;
  /** Not confirmed by any source for 72 hours: shown, but never the best price. */
  stale?: boolean;
}

/** How long a price counts as current without a source confirming it. */
export const staleAfterMs = 72 * 60 * 60 * 1000;

/** The price a shopper pays: the manual price when the admin overrides, else the listed one. */
export function effectivePence(offer: OfferPricing): Pence {
  return offer.priceOverride && offer.manualPricePence !== null ? offer.manualPricePence : offer.pricePence;
}

export interface BestOffer {
  bestPricePence: Pence | null;
  bestRetailerId: number | null;
  /** The best offer's own was-price, only when it is above the best price (no invented savings). */
  originalPricePence: Pence | null;
}

/**
 * The product's best price: the lowest effective price among in-stock offers that are not stale;
 * ties go to the lower retailer id so the result is stable. No such offer: no best price.
 */
export function bestOffer(offers: readonly OfferPricing[]): BestOffer {
  let best: OfferPricing | null = null;
  for (const offer of offers) {
    if (!offer.inStock || offer.stale === true) continue;
    if (
      best === null ||
      effectivePence(offer) < effectivePence(best) ||
      (effectivePence(offer) === effectivePence(best) && offer.retailerId < best.retailerId)
    ) {
      best = offer;
    }
  }
  if (best === null) return { bestPricePence: null, bestRetailerId: null, originalPricePence: null };
  const price = effectivePence(best);
  const original = best.originalPricePence !== null && best.originalPricePence > price ? best.originalPricePence : null;
  return { bestPricePence: price, bestRetailerId: best.retailerId, originalPricePence: original };
}
