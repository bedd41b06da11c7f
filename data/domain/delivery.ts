/**
 * Delivery and the total to the door. A comparison site that invites a purchase must show
 * mandatory delivery in the price it compares (UK drip-pricing rules), so the compared price of
 * an offer is its item price plus the delivery one unit costs on its own.
 */
import { formatPence, type Pence } from "./money.ts";

/**
 * A retailer's standard delivery: a charge per order, waived from a basket value on. Either
 * part may be unknown (null): a retailer whose charge is not known has no rule at all.
 */
export interface DeliveryRule {
  /** The standard charge for an order below the threshold; null when not known. */
  standardPence: Pence | null;
  /** Delivery is free when the basket is worth at least this much; null when never free by value. */
  freeFromPence: Pence | null;
}

export const noDeliveryRule: DeliveryRule = { standardPence: null, freeFromPence: null };

/** What is known of one offer's delivery besides its retailer's rule. */
export interface OfferDelivery {
  /** Delivery for this item alone as its source (feed, retailer page, admin) states it; null: not stated. */
  deliveryPence: Pence | null;
  /** The admin marked this offer as delivered free. */
  freeDelivery: boolean;
}

/**
 * Delivery for one unit bought on its own at `itemPence`, or null when nobody knows it. What the
 * offer's own source states wins (it is specific to the item), then an offer marked free, then
 * the retailer's rule: free when the item alone reaches the free-delivery threshold ("free on
 * orders of £39 or more"), else the standard charge.
 * @example deliveryFor(3900, { deliveryPence: null, freeDelivery: false }, { standardPence: 399, freeFromPence: 3900 }) // 0
 * @example deliveryFor(3899, { deliveryPence: null, freeDelivery: false }, { standardPence: 399, freeFromPence: 3900 }) // 399
 * @example deliveryFor(1000, { deliveryPence: 250, freeDelivery: false }, { standardPence: 399, freeFromPence: null }) // 250
 */
export function deliveryFor(itemPence: Pence, offer: OfferDelivery, rule: DeliveryRule): Pence | null {
  if (offer.deliveryPence !== null) return offer.deliveryPence;
  if (offer.freeDelivery) return 0;
  if (rule.freeFromPence !== null && itemPence >= rule.freeFromPence) return 0;
  return rule.standardPence;
}

/**
 * The price to the door: item plus delivery. Unknown delivery adds nothing here; the pages say
 * it is not known rather than call it free.
 * @example totalPence(3899, 399) // 4298
 * @example totalPence(1299, null) // 1299
 */
export function totalPence(itemPence: Pence, deliveryPence: Pence | null): Pence {
  return itemPence + (deliveryPence ?? 0);
}

/**
 * The delivery text beside a price: "Free delivery", "+ £3.99 delivery", or "Delivery not stated".
 * @example deliveryText(0) // "Free delivery"
 * @example deliveryText(399) // "+ £3.99 delivery"
 */
export function deliveryText(deliveryPence: Pence | null): string {
  if (deliveryPence === null) return "Delivery not stated";
  if (deliveryPence === 0) return "Free delivery";
  return `+ ${formatPence(deliveryPence)} delivery`;
}

/**
 * A retailer's rule in words, for the retailer list and the delivery column's explanation.
 * @example ruleText({ standardPence: 399, freeFromPence: 3900 }) // "£3.99, free on orders of £39.00 or more"
 * @example ruleText({ standardPence: 0, freeFromPence: null }) // "Free delivery"
 */
export function ruleText(rule: DeliveryRule): string {
  if (rule.standardPence === null) return rule.freeFromPence === null ? "Not known" : `Free on orders of ${formatPence(rule.freeFromPence)} or more`;
  if (rule.standardPence === 0) return "Free delivery";
  const standard = formatPence(rule.standardPence);
  return rule.freeFromPence === null ? standard : `${standard}, free on orders of ${formatPence(rule.freeFromPence)} or more`;
}
