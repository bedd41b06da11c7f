/** The pricing inputs of products' offers, read in bulk with their retailers' delivery rules. */
import type { Db } from "./client.ts";
import type { OfferPricing } from "../domain/offers.ts";
import type { ProductPriceRow, ProductRow, RetailerRow } from "./rows.ts";

/** An offer's pricing columns with its retailer's delivery rule. */
type OfferRow = Pick<
  ProductPriceRow,
  "product_id" | "retailer_id" | "price_pence" | "in_stock" | "price_override" | "manual_price_pence" | "stale" | "delivery_pence" | "free_delivery"
> & { rule_delivery_pence: RetailerRow["delivery_pence"]; rule_free_from_pence: RetailerRow["free_delivery_from_pence"] };

const offersWithRules = `pp.product_id, pp.retailer_id, pp.price_pence, pp.in_stock, pp.price_override,
    pp.manual_price_pence, pp.stale, pp.delivery_pence, pp.free_delivery, r.delivery_pence AS rule_delivery_pence,
    r.free_delivery_from_pence AS rule_free_from_pence
    FROM product_prices pp JOIN retailers r ON r.id = pp.retailer_id`;

/**
 * The pricing inputs of the given products' offers (every product's when `productIds` is null),
 * with their retailers' delivery rules; a product with no offers maps to an empty list.
 */
export function readOfferPricing(db: Db, productIds: readonly number[] | null): Map<number, OfferPricing[]> {
  const sqlite = db.$client;
  const rows = (
    productIds === null
      ? sqlite.prepare<[], OfferRow>(`SELECT ${offersWithRules} ORDER BY pp.product_id`).all()
      : sqlite.prepare<[string], OfferRow>(`SELECT ${offersWithRules} WHERE pp.product_id IN (SELECT value FROM json_each(?)) ORDER BY pp.product_id`).all(JSON.stringify(productIds))
  );
  const byProduct = new Map<number, OfferPricing[]>();
  for (const id of productIds ?? []) byProduct.set(id, []);
  if (productIds === null) {
    for (const { id } of sqlite.prepare<[], Pick<ProductRow, "id">>("SELECT id FROM products").all()) byProduct.set(id, []);
  }
  for (const row of rows) {
    byProduct.get(row.product_id)?.push({
      retailerId: row.retailer_id,
      pricePence: row.price_pence,
      inStock: row.in_stock === 1,
      priceOverride: row.price_override === 1,
      manualPricePence: row.manual_price_pence,
      stale: row.stale === 1,
      deliveryPence: row.delivery_pence,
      freeDelivery: row.free_delivery === 1,
      deliveryRule: { standardPence: row.rule_delivery_pence, freeFromPence: row.rule_free_from_pence },
    });
  }
  return byProduct;
}
