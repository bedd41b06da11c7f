/**
 * The compare page's read: up to 4 products side by side, with what the page's rows need (price
 * to the door, unit price, stock across retailers, rating, the best offer's link) and the food facts a cost per day is
 * worked out from. Three queries whatever is asked: the products, their offers, their food facts.
 */
import type { Db } from "./client.ts";
import { statement } from "./statements.ts";
import { getProductsByIds } from "./products.ts";
import { bestDealOffer } from "../domain/catalogue.ts";
import type { CompareProduct } from "../domain/compare-page.ts";
import { foodSpeciesOf } from "../domain/food.ts";
import { parseFeedingGuide } from "../domain/feeding.schema.ts";
import { toPounds } from "../domain/money.ts";
import { unitPriceJson } from "../domain/catalogue-json.ts";
import { unitPriceOf } from "../domain/product-quantity.ts";

interface FoodFactsRow {
  id: number;
  kcal_per_kg: number | null;
  feeding_guide: string | null;
}

/**
 * The products of these ids in the order asked; unknown ids are left out. Retailers count those
 * with an offer for the product; in stock, those of them whose offer is in stock.
 */
export function getCompareProducts(db: Db, ids: readonly number[]): CompareProduct[] {
  const products = getProductsByIds(db, ids);
  const facts = new Map(
    statement<FoodFactsRow>(db, "SELECT id, kcal_per_kg, feeding_guide FROM products WHERE id IN (SELECT value FROM json_each(?))").all(JSON.stringify(ids)).map(
      (row) => [row.id, row],
    ),
  );
  return ids.flatMap((id) => {
    const product = products.get(id);
    if (!product) return [];
    // Read in the same synchronous call as the product: every product found has its row.
    const food = facts.get(id)!;
    const unit = product.bestPricePence === null ? null : unitPriceOf(product.bestPricePence, product.packSize);
    const retailers = new Set(product.prices.map((offer) => offer.retailerId));
    const inStock = new Set(product.prices.filter((offer) => offer.inStock).map((offer) => offer.retailerId));
    const deal = bestDealOffer(product);
    return [
      {
        id: product.id,
        slug: product.slug,
        name: product.name,
        image: product.image,
        brand: product.brand,
        category: product.category,
        bestPrice: toPounds(product.bestPricePence),
        bestDelivery: toPounds(product.bestDeliveryPence),
        packSize: product.packSize,
        unitPrice: unitPriceJson(unit),
        rating: product.rating,
        reviewCount: product.reviewCount,
        retailerCount: retailers.size,
        inStockCount: inStock.size,
        bestRetailer: product.bestRetailer,
        bestDeal: deal ? { retailerKey: deal.retailer.key, url: deal.url } : null,
        species: foodSpeciesOf(product.category.slug),
        kcalPerKg: food.kcal_per_kg,
        feedingGuide: parseFeedingGuide(food.feeding_guide),
      },
    ];
  });
}
