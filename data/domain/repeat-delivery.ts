/**
 * Repeat delivery (Amazon Subscribe & Save, zooplus Repeat, Pets at Home Easy Repeat): an offer
 * may have a lower item price for a standing order. Its price to the door is that item price
 * plus the delivery a one-off order of that item price would cost (the same rule, delivery.ts),
 * so a repeat price that drops below a free-delivery threshold can cost more to the door than
 * the one-off price. The product's best price stays the lowest one-off total (offers.ts); repeat
 * totals are shown beside it, and "the cheapest regular way to buy" weighs both.
 */
import { totalPence } from "./delivery.ts";
import type { Pence } from "./money.ts";
import { defaultFreshForMs, isComparable, offerDeliveryPence, offerTotalPence, type ComparableOffer, type OfferPricing } from "./offers.ts";

/** Longest terms text an offer's repeat-delivery scheme may carry. */
export const maxRepeatTermsLength = 200;

/** An offer with its repeat-delivery item price, when it has one. */
export interface RepeatPricing extends OfferPricing {
  /** The item price on the retailer's repeat-delivery scheme; null or absent: none. */
  repeatPricePence?: Pence | null;
}

/** What a repeat order of one unit costs: the item, its delivery (null: not known) and the total to the door. */
export interface RepeatOrder {
  itemPence: Pence;
  deliveryPence: Pence | null;
  totalPence: Pence;
}

/**
 * The offer's repeat order to the door, or null when it has no repeat price. Delivery is what a
 * one-off order at the repeat item price would cost: the offer's own statement, else free when
 * marked free, else its retailer's rule at that price.
 * @example repeatOrder({ ...offer, repeatPricePence: 3705, deliveryRule: { standardPence: 399, freeFromPence: 3900 } }) // { itemPence: 3705, deliveryPence: 399, totalPence: 4104 }
 */
export function repeatOrder(offer: RepeatPricing): RepeatOrder | null {
  const itemPence = offer.repeatPricePence ?? null;
  if (itemPence === null) return null;
  const deliveryPence = offerDeliveryPence(offer, itemPence);
  return { itemPence, deliveryPence, totalPence: totalPence(itemPence, deliveryPence) };
}

/** The offer's repeat total to the door, or null when it has no repeat price. */
export function repeatTotalPence(offer: RepeatPricing): Pence | null {
  return repeatOrder(offer)?.totalPence ?? null;
}

/**
 * What repeat delivery saves against a one-off order, to the door: one-off total minus repeat
 * total. Null without a repeat price; 0 or negative when repeat costs as much or more (a repeat
 * price below a free-delivery threshold pays the delivery the one-off order did not).
 * @example repeatSavingPence({ ...offer, pricePence: 2000, repeatPricePence: 1900 }) // 100
 */
export function repeatSavingPence(offer: RepeatPricing): Pence | null {
  const repeat = repeatTotalPence(offer);
  return repeat === null ? null : offerTotalPence(offer) - repeat;
}

/** One offer as "the cheapest regular way to buy" compares it: both of its totals to the door. */
export interface RegularWayOption extends ComparableOffer {
  retailerId: number;
  /** One-off total to the door. */
  totalPence: Pence;
  /** Repeat-delivery total to the door; null: no repeat price. */
  repeatTotalPence: Pence | null;
}

export interface CheapestRegularWay<T extends RegularWayOption> {
  option: T;
  /** Whether the cheapest way is the offer's repeat delivery (else its one-off order). */
  repeat: boolean;
  totalPence: Pence;
}

/**
 * The cheapest regular way to buy: the lowest total to the door among the one-off and repeat
 * totals of every offer that may be compared at `now` (isComparable). Ties go to a one-off order over repeat delivery (no
 * standing order needed for the same money), then to the lower retailer id (as the best price
 * does), so with no repeat price cheaper it is the best price's own offer. Null when no offer may
 * be compared.
 */
export function cheapestRegularWay<T extends RegularWayOption>(options: readonly T[], now: Date, freshForMs: number = defaultFreshForMs): CheapestRegularWay<T> | null {
  let best: CheapestRegularWay<T> | null = null;
  for (const option of options) {
    if (!isComparable(option, now, freshForMs)) continue;
    const ways: [Pence, boolean][] = [[option.totalPence, false]];
    if (option.repeatTotalPence !== null) ways.push([option.repeatTotalPence, true]);
    for (const [total, repeat] of ways) {
      if (best === null || isCheaper(total, repeat, option.retailerId, best)) best = { option, repeat, totalPence: total };
    }
  }
  return best;
}

function isCheaper(total: Pence, repeat: boolean, retailerId: number, than: CheapestRegularWay<RegularWayOption>): boolean {
  if (total !== than.totalPence) return total < than.totalPence;
  if (repeat !== than.repeat) return !repeat;
  return retailerId < than.option.retailerId;
}
