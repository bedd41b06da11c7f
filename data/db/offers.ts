import type { Db } from "./client.ts";
import { bestOffer } from "../domain/offers.ts";
import { packSizeOf, pricePerKgOf } from "../domain/product-quantity.ts";
import { isPrescriptionOnly } from "../domain/legal-category.ts";
import { wasPricesFor } from "./deal-facts.ts";
import { readOfferPricing } from "./offer-pricing.ts";
import type { ProductRow } from "./rows.ts";

/** What the best-price rule reads of a product itself: its name (the pack size) and legal category. */
type NameRow = Pick<ProductRow, "id" | "name" | "legal_category">;

/**
 * Re-derives best price (the lowest total to the door), its delivery, best retailer, original
 * price and best price per kg (when the name's pack size is a weight) of the given products (all
 * products when `productIds` is omitted) from their price entries and their retailers' delivery
 * rules, so the product row never disagrees with its offers. Call inside the transaction that changed the offers or a retailer's delivery rule.
 *
 * The original ("was") price is the one the price history supports as of `now` (wasPrice,
 * data/domain/deal-truth.ts): a total to the door above today's best that the best offer's own
 * retailer charged for at least 28 consecutive days, in a run that ended no more than six
 * calendar months ago, with no higher price from that retailer since. A retailer's own claimed
 * was-price (RRP) counts for nothing. So the product page, the cards, favourites, the "Biggest
 * Savings" sort and the API all show only savings that rule allows. The history is read for the
 * best offer's retailer only, in one query for all the products.
 * A prescription-only medicine (POM-V, POM-VPS) has no was price at all: it may not be
 * advertised, so no saving is ever shown or sorted on for it.
 *
 * Returns the ids of the products whose row changed (a row already right is not written).
 */
export function recomputeBestPrices(db: Db, productIds?: readonly number[], now: Date = new Date()): number[] {
  const sqlite = db.$client;
  const update = sqlite.prepare(
    `UPDATE products SET best_price_pence = @best, best_retailer_id = @retailer, original_price_pence = @was,
       best_delivery_pence = @delivery, best_price_per_kg_pence = @perKg
     WHERE id = @id AND (best_price_pence IS NOT @best OR best_retailer_id IS NOT @retailer OR original_price_pence IS NOT @was
       OR best_delivery_pence IS NOT @delivery OR best_price_per_kg_pence IS NOT @perKg)`,
  );
  const changed: number[] = [];

  const apply = (ids: readonly number[] | null) => {
    const byProduct = readOfferPricing(db, ids);
    const wasPrices = wasPricesFor(db, now, byProduct);
    // The pack size, and so the price per kg, comes from the product's name.
    const nameRows = (
      ids === null
        ? sqlite.prepare<[], NameRow>("SELECT id, name, legal_category FROM products").all()
        : sqlite.prepare<[string], NameRow>("SELECT id, name, legal_category FROM products WHERE id IN (SELECT value FROM json_each(?))").all(JSON.stringify(ids))
    );
    const names = new Map(nameRows.map(({ id, name }) => [id, name]));
    const prescriptionOnly = new Set(nameRows.filter((row) => isPrescriptionOnly(row.legal_category)).map((row) => row.id));
    for (const [productId, offers] of byProduct) {
      const best = bestOffer(offers, now);
      const was = prescriptionOnly.has(productId) ? null : (wasPrices.get(productId) ?? null);
      const perKg = pricePerKgOf(best.bestPricePence, packSizeOf(names.get(productId) ?? ""));
      const { changes } = update.run({
        id: productId,
        best: best.bestPricePence,
        retailer: best.bestRetailerId,
        was,
        delivery: best.bestDeliveryPence,
        perKg,
      });
      if (changes > 0) changed.push(productId);
    }
  };

  // Inside the caller's transaction run directly: a nested savepoint would keep every update's
  // journal until it ends, which makes tens of thousands of updates quadratic.
  if (sqlite.inTransaction) apply(productIds ?? null);
  else sqlite.transaction(() => apply(productIds ?? null))();
  return changed;
}
