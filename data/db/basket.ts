/**
 * The basket quote's read: the products asked for, every offer of theirs that may be compared now
 * (in stock, price current), and the delivery rules of the retailers selling them. Two queries
 * whatever the basket holds.
 */
import type { Db } from "./client.ts";
import { statement } from "./statements.ts";
import type { ProductPriceRow, ProductRow, RetailerRow } from "./rows.ts";
import type { BasketOffer, BasketRetailer } from "../domain/basket.ts";
import type { RetailerRef } from "../domain/catalogue.ts";
import { parseMultiBuy } from "../domain/multi-buy.ts";
import { effectivePence, isComparable } from "../domain/offers.ts";
import type { Pence } from "../domain/money.ts";

/** A basket product as the quote shows it. */
export interface BasketProduct {
  id: number;
  name: string;
  slug: string;
  image: string;
}

/** A comparable offer with what the quote links to. */
export interface BasketOfferWithLink extends BasketOffer {
  url: string;
}

/** A retailer with its rule and what the quote shows of it. */
export interface BasketShop extends BasketRetailer, RetailerRef {}

export interface BasketCatalogue {
  /** The products found, by id (ids not in the catalogue are absent). */
  products: Map<number, BasketProduct>;
  /** Their offers that may be compared at `now`. */
  offers: BasketOfferWithLink[];
  /** The retailers of those offers. */
  retailers: BasketShop[];
}

type OfferRow = Pick<
  ProductPriceRow,
  | "product_id"
  | "retailer_id"
  | "price_pence"
  | "in_stock"
  | "price_override"
  | "manual_price_pence"
  | "stale"
  | "last_checked_at"
  | "delivery_pence"
  | "free_delivery"
  | "repeat_price_pence"
  | "multi_buy"
  | "url"
> & {
  retailer_key: RetailerRow["key"];
  retailer_name: RetailerRow["name"];
  retailer_logo: RetailerRow["logo"];
  rule_delivery_pence: RetailerRow["delivery_pence"];
  rule_free_from_pence: RetailerRow["free_delivery_from_pence"];
};

/**
 * What a quote for these products needs, read at `now` with the freshness window `freshForMs`:
 * an out-of-stock offer, or one whose price is not current, is left out (it cannot be bought at
 * that price).
 */
export function readBasketCatalogue(db: Db, productIds: readonly number[], now: Date, freshForMs: number): BasketCatalogue {
  const ids = JSON.stringify(productIds);
  const products = new Map(
    statement<Pick<ProductRow, "id" | "name" | "slug" | "image">>(db, "SELECT id, name, slug, image FROM products WHERE id IN (SELECT value FROM json_each(?))")
      .all(ids)
      .map((row) => [row.id, row]),
  );
  const rows = statement<OfferRow>(
    db,
    `SELECT pp.product_id, pp.retailer_id, pp.price_pence, pp.in_stock, pp.price_override, pp.manual_price_pence, pp.stale,
       pp.last_checked_at, pp.delivery_pence, pp.free_delivery, pp.repeat_price_pence, pp.multi_buy, pp.url,
       r.key AS retailer_key, r.name AS retailer_name, r.logo AS retailer_logo,
       r.delivery_pence AS rule_delivery_pence, r.free_delivery_from_pence AS rule_free_from_pence
     FROM product_prices pp JOIN retailers r ON r.id = pp.retailer_id
     WHERE pp.product_id IN (SELECT value FROM json_each(?))
     ORDER BY pp.product_id, pp.retailer_id`,
  ).all(ids);
  const offers: BasketOfferWithLink[] = [];
  const retailers = new Map<number, BasketShop>();
  for (const row of rows) {
    const pricing = {
      inStock: row.in_stock === 1,
      stale: row.stale === 1,
      priceOverride: row.price_override === 1,
      lastCheckedAt: row.last_checked_at,
      pricePence: row.price_pence,
      manualPricePence: row.manual_price_pence,
      retailerId: row.retailer_id,
    };
    if (!isComparable(pricing, now, freshForMs)) continue;
    const itemPence: Pence = effectivePence(pricing);
    offers.push({
      productId: row.product_id,
      retailerId: row.retailer_id,
      itemPence,
      repeatPence: row.repeat_price_pence,
      deliveryPence: row.delivery_pence,
      freeDelivery: row.free_delivery === 1,
      multiBuy: parseMultiBuy(row.multi_buy),
      url: row.url,
    });
    // Every row of a retailer carries the same retailer.
    retailers.set(row.retailer_id, {
      id: row.retailer_id,
      key: row.retailer_key,
      name: row.retailer_name,
      logo: row.retailer_logo,
      rule: { standardPence: row.rule_delivery_pence, freeFromPence: row.rule_free_from_pence },
    });
  }
  return { products, offers, retailers: [...retailers.values()] };
}
