/**
 * Products and offers as the API's JSON gives them: money as pounds, numbers exact to two
 * decimals (12.99), under the names the API has always used (price, bestPrice). Everything
 * inside the application works in integer pence (catalogue.ts); this is the one place a product
 * or an offer becomes pounds, and islands that read the API read these types.
 */
import type { Offer, Product } from "./catalogue.ts";
import type { ProductSize } from "./families.ts";
import { toPounds } from "./money.ts";
import type { UnitPrice } from "./unit-price.ts";
import type { QuantityUnit } from "./pack-size.ts";

export type OfferJson = Omit<
  Offer,
  | "pricePence"
  | "originalPricePence"
  | "deliveryPence"
  | "totalPence"
  | "manualPricePence"
  | "repeatPricePence"
  | "repeatTotalPence"
  | "memberPricePence"
  | "memberTotalPence"
> & {
  price: number;
  /** The retailer's own claimed was-price (RRP): never shown as a "was" price (the product's originalPrice is). */
  originalPrice: number | null;
  /** Delivery for one unit bought on its own; null: not known. */
  delivery: number | null;
  /** Price plus delivery (the price alone when delivery is not known). */
  total: number;
  manualPrice: number | null;
  repeatPrice: number | null;
  repeatTotal: number | null;
  /** What members of memberScheme pay; null: none. */
  memberPrice: number | null;
  /** A member's total to the door; null: no member price. */
  memberTotal: number | null;
};

export type ProductJson = Omit<Product, "bestPricePence" | "originalPricePence" | "bestDeliveryPence" | "prices"> & {
  /** The lowest total to the door among current in-stock offers. */
  bestPrice: number | null;
  /** The "was" price the price history allows, only when above bestPrice. */
  originalPrice: number | null;
  /** The delivery inside bestPrice; null when not known. */
  bestDelivery: number | null;
  prices: OfferJson[];
};

/** An offer in the API's shape: pence become pounds, nothing else changes. */
export function offerJson(offer: Offer): OfferJson {
  const { pricePence, originalPricePence, deliveryPence, totalPence, manualPricePence, repeatPricePence, repeatTotalPence, memberPricePence, memberTotalPence, ...rest } =
    offer;
  return {
    ...rest,
    price: toPounds(pricePence),
    originalPrice: toPounds(originalPricePence),
    delivery: toPounds(deliveryPence),
    total: toPounds(totalPence),
    manualPrice: toPounds(manualPricePence),
    repeatPrice: toPounds(repeatPricePence),
    repeatTotal: toPounds(repeatTotalPence),
    memberPrice: toPounds(memberPricePence),
    memberTotal: toPounds(memberTotalPence),
  };
}

/** A product in the API's shape, its offers with it: pence become pounds, nothing else changes. */
export function productJson<P extends Product>(product: P): Omit<P, "bestPricePence" | "originalPricePence" | "bestDeliveryPence" | "prices"> & ProductJson {
  const { bestPricePence, originalPricePence, bestDeliveryPence, prices, ...rest } = product;
  return {
    ...rest,
    bestPrice: toPounds(bestPricePence),
    originalPrice: toPounds(originalPricePence),
    bestDelivery: toPounds(bestDeliveryPence),
    prices: prices.map(offerJson),
  };
}

/** A price per kg, litre or item in the API's JSON: pounds. */
export interface UnitPriceJson {
  price: number;
  unit: QuantityUnit;
}

/** A price per unit in the API's JSON: pounds; null stays null. */
export const unitPriceJson = (price: UnitPrice | null): UnitPriceJson | null => (price === null ? null : { price: toPounds(price.pence), unit: price.unit });

export type ProductSizeJson = Omit<ProductSize, "bestPricePence" | "unitPrice" | "bestItemPricePence" | "itemUnitPrice"> & {
  bestPrice: number | null;
  unitPrice: UnitPriceJson | null;
  bestItemPrice: number | null;
  itemUnitPrice: UnitPriceJson | null;
};

/** One size of a product's family in the API's shape: pence become pounds, nothing else changes. */
export function productSizeJson(size: ProductSize): ProductSizeJson {
  const { bestPricePence, unitPrice, bestItemPricePence, itemUnitPrice, ...rest } = size;
  return {
    ...rest,
    bestPrice: toPounds(bestPricePence),
    unitPrice: unitPriceJson(unitPrice),
    bestItemPrice: toPounds(bestItemPricePence),
    itemUnitPrice: unitPriceJson(itemUnitPrice),
  };
}
