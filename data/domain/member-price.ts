/**
 * Member (loyalty) prices: what members of a retailer's scheme pay (Pets at Home's Pets Club,
 * zooplus's zooPoints, Jollyes' PetCLUB). The amended Price Marking Order (from 6 April 2026) wants
 * a loyalty price shown together with the standard price and the scheme it needs, so an offer's
 * member price is always shown with its scheme named, beside the standard price. Only a price
 * below what anyone pays is a member price. The best price, the ranking and the basket stay on
 * what anyone can pay; a visitor who says they are a member sees their totals.
 */
import { deliveryFor, totalPence, type DeliveryRule } from "./delivery.ts";
import type { Pence } from "./money.ts";

/** The longest scheme name accepted. */
export const maxMemberSchemeLength = 40;

export interface MemberPrice {
  /** What a member pays for the item. */
  pricePence: Pence;
  /** The scheme a shopper must belong to, as the retailer names it ("Pets Club"). */
  scheme: string;
}

/**
 * The offer's member price, or null when it has none that counts: a price and a scheme, the
 * price below `standardPence` (what anyone pays: the manual price under an override).
 * @example memberPriceOf(1499, 1299, "Pets Club") // { pricePence: 1299, scheme: "Pets Club" }
 * @example memberPriceOf(1499, 1499, "Pets Club") // null
 */
export function memberPriceOf(standardPence: Pence, memberPricePence: Pence | null, scheme: string | null): MemberPrice | null {
  const name = scheme?.trim() ?? "";
  if (memberPricePence === null || name === "" || memberPricePence >= standardPence || memberPricePence < 0) return null;
  return { pricePence: memberPricePence, scheme: name };
}

/**
 * A member's order to the door: the member price plus the delivery a one-off order at that price
 * carries (the offer's own statement, else free when marked, else the retailer's rule at that price).
 * @example memberTotalPence(3800, { deliveryPence: null, freeDelivery: false }, { standardPence: 399, freeFromPence: 3900 }) // 4199
 */
export function memberTotalPence(memberPricePence: Pence, offer: { deliveryPence: Pence | null; freeDelivery: boolean }, rule: DeliveryRule): Pence {
  return totalPence(memberPricePence, deliveryFor(memberPricePence, offer, rule));
}
