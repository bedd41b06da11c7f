import type { Db } from "./client.ts";
import { bestOffer, type OfferPricing } from "../domain/offers.ts";
import { packSizeOf, pricePerKgOf } from "../domain/product-quantity.ts";

interface OfferRow {
  product_id: number;
  retailer_id: number;
  price_pence: number;
  original_price_pence: number | null;
  in_stock: number;
  price_override: number;
  manual_price_pence: number | null;
  stale: number;
  delivery_pence: number | null;
  free_delivery: number;
  rule_delivery_pence: number | null;
  rule_free_from_pence: number | null;
}

/**
 * Re-derives best price (the lowest total to the door), its delivery, best retailer, original
 * price and best price per kg (when the name's pack size is a weight) of the given products (all products when `productIds` is omitted) from their price
 * entries and their retailers' delivery rules, so the product row never disagrees with its
 * offers. Call inside the transaction that changed the offers or a retailer's delivery rule.
 */
export function recomputeBestPrices(db: Db, productIds?: readonly number[]): void {
  const sqlite = db.$client;
  const update = sqlite.prepare(
    "UPDATE products SET best_price_pence = ?, best_retailer_id = ?, original_price_pence = ?, best_delivery_pence = ?, best_price_per_kg_pence = ? WHERE id = ?",
  );
  const offersWithRules = `pp.product_id, pp.retailer_id, pp.price_pence, pp.original_price_pence, pp.in_stock, pp.price_override,
    pp.manual_price_pence, pp.stale, pp.delivery_pence, pp.free_delivery, r.delivery_pence AS rule_delivery_pence,
    r.free_delivery_from_pence AS rule_free_from_pence
    FROM product_prices pp JOIN retailers r ON r.id = pp.retailer_id`;

  const apply = (ids: readonly number[] | null) => {
    const rows = (
      ids === null
        ? sqlite.prepare(`SELECT ${offersWithRules} ORDER BY pp.product_id`).all()
        : sqlite
            .prepare(`SELECT ${offersWithRules} WHERE pp.product_id IN (SELECT value FROM json_each(?)) ORDER BY pp.product_id`)
            .all(JSON.stringify(ids))
    ) as OfferRow[];
    const byProduct = new Map<number, OfferPricing[]>();
    const names = new Map<number, string>();
    const products = (
      ids === null
        ? sqlite.prepare("SELECT id, name FROM products").all()
        : sqlite.prepare("SELECT id, name FROM products WHERE id IN (SELECT value FROM json_each(?))").all(JSON.stringify(ids))
    ) as { id: number; name: string }[];
    for (const { id, name } of products) {
      byProduct.set(id, []);
      names.set(id, name);
    }
    for (const row of rows) {
      byProduct.get(row.product_id)?.push({
        retailerId: row.retailer_id,
        pricePence: row.price_pence,
        originalPricePence: row.original_price_pence,
        inStock: row.in_stock === 1,
        priceOverride: row.price_override === 1,
        manualPricePence: row.manual_price_pence,
        stale: row.stale === 1,
        deliveryPence: row.delivery_pence,
        freeDelivery: row.free_delivery === 1,
        deliveryRule: { standardPence: row.rule_delivery_pence, freeFromPence: row.rule_free_from_pence },
      });
    }
    for (const [productId, offers] of byProduct) {
      const best = bestOffer(offers);
      const perKg = pricePerKgOf(best.bestPricePence, packSizeOf(names.get(productId) ?? ""));
      update.run(best.bestPricePence, best.bestRetailerId, best.originalPricePence, best.bestDeliveryPence, perKg, productId);
    }
  };

  // Inside the caller's transaction run directly: a nested savepoint would keep every update's
  // journal until it ends, which makes tens of thousands of updates quadratic.
  if (sqlite.inTransaction) apply(productIds ?? null);
  else sqlite.transaction(() => apply(productIds ?? null))();
}
