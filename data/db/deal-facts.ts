/**
 * Deal facts of products (data/domain/deal-facts.ts) read from the database in bulk: the price
 * history of the last 90 days (plus the price carried in at the window's start) and the offers'
 * pricing inputs, in two queries whatever the number of products.
 */
import type { Db } from "./client.ts";
import { readOfferPricing } from "./offers.ts";
import { historySql, someProductsHistorySql } from "./product-pages.ts";
import { statement } from "./statements.ts";
import { dailyLowestTotals, dealFactsOf, type DealFacts, type DealFactsPounds, type ItemPricePoint } from "../domain/deal-facts.ts";
import { windowDays } from "../domain/deal-truth.ts";
import { toPounds } from "../domain/money.ts";

const dayMs = 24 * 60 * 60 * 1000;

/**
 * Item price points per product from `windowDays` days before `now` on, plus each retailer's
 * last point before that; every product's (ids null) or only these products'.
 */
export function readItemHistory(db: Db, now: Date, productIds: readonly number[] | null): Map<number, ItemPricePoint[]> {
  const start = new Date(now.getTime() - windowDays * dayMs).toISOString();
  const rows = (
    productIds === null ? statement(db, historySql).all({ start }) : statement(db, someProductsHistorySql).all({ start, ids: JSON.stringify(productIds) })
  ) as { product_id: number; retailer_id: number; price_pence: number; recorded_at: string }[];
  const byProduct = new Map<number, ItemPricePoint[]>();
  for (const row of rows) {
    let points = byProduct.get(row.product_id);
    if (points === undefined) byProduct.set(row.product_id, (points = []));
    points.push({ retailerId: row.retailer_id, pricePence: row.price_pence, recordedAt: row.recorded_at });
  }
  return byProduct;
}

/**
 * The deal facts of these products (every product when `productIds` is null) as of `now`. Pass
 * `history` when it has been read already (the build's product pages): only the offers are read then.
 */
export function dealFactsFor(
  db: Db,
  productIds: readonly number[] | null,
  now: Date,
  history: ReadonlyMap<number, readonly ItemPricePoint[]> = readItemHistory(db, now, productIds),
): Map<number, DealFacts> {
  const facts = new Map<number, DealFacts>();
  for (const [productId, offers] of readOfferPricing(db, productIds)) {
    facts.set(productId, dealFactsOf(dailyLowestTotals(history.get(productId) ?? [], offers, now)));
  }
  return facts;
}

/** The facts as the API gives them (pounds). */
export function dealFactsInPounds(facts: DealFacts): DealFactsPounds {
  return {
    lowestIn90Days: facts.isLowestIn90Days,
    lowest90Price: toPounds(facts.lowestPence),
    typicalPrice: toPounds(facts.typicalPence),
    isDeal: facts.isDeal,
    wasPrice: toPounds(facts.wasPence),
  };
}
