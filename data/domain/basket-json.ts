/**
 * A basket quote as the API's JSON gives it (POST /api/basket/quote): money as pounds exact to two
 * decimals, each order with its retailer (name, logo, delivery rule in words) and each line with
 * the link to the retailer's offer. The quote itself (basket.ts) works in pence.
 */
import type { BasketLine, BasketPlan, BasketQuote, RetailerOrder } from "./basket.ts";
import type { RetailerRef } from "./catalogue.ts";
import { ruleText, type DeliveryRule } from "./delivery.ts";
import { toPounds } from "./money.ts";

/** What the JSON needs to know of the basket's products, retailers and offers: every one the quote names. */
export interface BasketQuoteSources {
  products: ReadonlyMap<number, { id: number; name: string; slug: string; image: string }>;
  retailers: readonly (RetailerRef & { id: number; rule: DeliveryRule })[];
  offers: readonly { productId: number; retailerId: number; url: string }[];
}

export interface BasketLineJson {
  productId: number;
  quantity: number;
  /** The price of one unit used (the repeat price when `repeat`). */
  unitPrice: number;
  /** What the line costs, less any multi-buy. */
  linePrice: number;
  repeat: boolean;
  multiBuySaving: number;
  /** The retailer's page for the product (tagged with the affiliate ID by the page). */
  url: string;
}

export interface BasketOrderJson {
  retailer: RetailerRef & { id: number; deliveryRule: string };
  lines: BasketLineJson[];
  items: number;
  /** null: this retailer's delivery is not known (counted as nothing in the totals). */
  delivery: number | null;
  total: number;
  /** How much more in items would make delivery free here; null when it is free or never free by value. */
  toFreeDelivery: number | null;
}

export interface BasketPlanJson {
  orders: BasketOrderJson[];
  items: number;
  delivery: number;
  total: number;
  deliveryUnknown: boolean;
}

export interface BasketQuoteJson {
  quotedAt: string;
  /** The basket's products still in the catalogue, in the basket's order, with what was asked of each. */
  products: { id: number; name: string; slug: string; image: string; quantity: number; repeat: boolean }[];
  /** Products asked for that are no longer in the catalogue. */
  removed: number[];
  /** Products no retailer has in stock at a current price. */
  unavailable: number[];
  cheapest: BasketPlanJson | null;
  singleShop: BasketPlanJson | null;
  /** What the cheapest split saves on the cheapest single shop; null without a single shop. */
  saving: number | null;
  /** The cheapest split is guaranteed cheapest (else found by a heuristic, within `lowerBound`). */
  exact: boolean;
  lowerBound: number;
}

export function basketQuoteJson(input: {
  quote: BasketQuote;
  sources: BasketQuoteSources;
  lines: readonly BasketLine[];
  removed: readonly number[];
  quotedAt: Date;
}): BasketQuoteJson {
  const { quote, sources } = input;
  const retailers = new Map(sources.retailers.map((retailer) => [retailer.id, retailer]));
  const urls = new Map(sources.offers.map((offer) => [`${offer.productId}:${offer.retailerId}`, offer.url]));
  const orderJson = (order: RetailerOrder): BasketOrderJson => {
    // The quote's orders are at retailers of the offers it was given, whose retailers are given too.
    const { rule, id, key, name, logo } = retailers.get(order.retailerId)!;
    return {
      retailer: { id, key, name, logo, deliveryRule: ruleText(rule) },
      lines: order.lines.map((line) => ({
        productId: line.productId,
        quantity: line.quantity,
        unitPrice: toPounds(line.unitPence),
        linePrice: toPounds(line.linePence),
        repeat: line.repeat,
        multiBuySaving: toPounds(line.multiBuySavingPence),
        url: urls.get(`${line.productId}:${order.retailerId}`)!,
      })),
      items: toPounds(order.itemsPence),
      delivery: toPounds(order.deliveryPence),
      total: toPounds(order.totalPence),
      toFreeDelivery: toPounds(order.toFreeDeliveryPence),
    };
  };
  const planJson = (plan: BasketPlan | null): BasketPlanJson | null =>
    plan && {
      orders: plan.orders.map(orderJson),
      items: toPounds(plan.itemsPence),
      delivery: toPounds(plan.deliveryPence),
      total: toPounds(plan.totalPence),
      deliveryUnknown: plan.deliveryUnknown,
    };
  return {
    quotedAt: input.quotedAt.toISOString(),
    // The lines are those of products in the catalogue (the route leaves the others out as removed).
    products: input.lines.map((line) => {
      const { id, name, slug, image } = sources.products.get(line.productId)!;
      return { id, name, slug, image, quantity: line.quantity, repeat: line.repeat };
    }),
    removed: [...input.removed],
    unavailable: quote.unavailable,
    cheapest: planJson(quote.cheapest),
    singleShop: planJson(quote.singleShop),
    saving: toPounds(quote.savingPence),
    exact: quote.exact,
    lowerBound: toPounds(quote.lowerBoundPence),
  };
}
