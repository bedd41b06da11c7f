/**
 * Deal facts of products (data/domain/deal-facts.ts) read from the database in bulk, in at most
 * three queries whatever the number of products: the price history of the last 90 days (plus the
 * price carried in at the window's start) of every retailer, the offers' pricing inputs, and,
 * only for products whose 90 days do not settle it, the longer history the "was" price rule
 * needs, of the best offer's retailer only.
 */
import type { Db } from "./client.ts";
import { readOfferPricing } from "./offer-pricing.ts";
import { historySql, someProductsHistorySql } from "./product-pages.ts";
import { statement } from "./statements.ts";
import { dailyLowestTotals, dealFactsOf, supportedWasPrice, utcDay, wasPriceSettled, type DealFacts, type DealFactsPounds, type ItemPricePoint } from "../domain/deal-facts.ts";
import { wasPriceFirstDay, windowDays } from "../domain/deal-truth.ts";
import { toPounds, type Pence } from "../domain/money.ts";
import { bestOffer, type OfferPricing } from "../domain/offers.ts";

const dayMs = 24 * 60 * 60 * 1000;

interface PointRow {
  product_id: number;
  retailer_id: number;
  price_pence: number;
  recorded_at: string;
}

function byProduct(rows: readonly PointRow[]): Map<number, ItemPricePoint[]> {
  const points = new Map<number, ItemPricePoint[]>();
  for (const row of rows) {
    let list = points.get(row.product_id);
    if (list === undefined) points.set(row.product_id, (list = []));
    list.push({ retailerId: row.retailer_id, pricePence: row.price_pence, recordedAt: row.recorded_at });
  }
  return points;
}

/**
 * Item price points per product from `windowDays` days before `now` on, plus each retailer's
 * last point before that; every product's (ids null) or only these products'.
 */
export function readItemHistory(db: Db, now: Date, productIds: readonly number[] | null): Map<number, ItemPricePoint[]> {
  const start = new Date(now.getTime() - windowDays * dayMs).toISOString();
  const rows = productIds === null ? statement<PointRow>(db, historySql).all({ start }) : statement<PointRow>(db, someProductsHistorySql).all({ start, ids: JSON.stringify(productIds) });
  return byProduct(rows);
}

/**
 * Per (product, retailer) pair asked for: every point recorded from the start of
 * wasPriceFirstDay (six months and 27 days before today) on, then the last point before it (the
 * price in force then; of the same instant, the later row). Through the (product_id, recorded_at)
 * index, so only the pairs' own rows are read: the longer window is read for one retailer of a
 * product, never for all of them.
 */
const wasHistorySql = `WITH wanted(product_id, retailer_id) AS (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(@pairs))
  SELECT h.product_id, h.retailer_id, h.price_pence, h.recorded_at FROM wanted w
    JOIN price_history h ON h.product_id = w.product_id AND h.recorded_at >= @start AND h.retailer_id = w.retailer_id
  UNION ALL
  SELECT h.product_id, h.retailer_id, h.price_pence, h.recorded_at FROM wanted w
    JOIN price_history h ON h.id = (SELECT id FROM price_history WHERE product_id = w.product_id AND retailer_id = w.retailer_id AND recorded_at < @start
      ORDER BY recorded_at DESC, id DESC LIMIT 1)`;

/**
 * The item price points the "was" price rule needs as of `now` for each product's retailer
 * (`retailers`: product id to the retailer of its best offer), by product, in one query.
 */
export function readWasHistory(db: Db, now: Date, retailers: ReadonlyMap<number, number>): Map<number, ItemPricePoint[]> {
  if (retailers.size === 0) return new Map();
  const start = `${wasPriceFirstDay(utcDay(now))}T00:00:00.000Z`;
  const rows = statement<PointRow>(db, wasHistorySql).all({ start, pairs: JSON.stringify([...retailers]) });
  // The point carried in comes after the others: put it first, so each list runs oldest first.
  rows.sort((a, b) => a.product_id - b.product_id || (a.recorded_at < b.recorded_at ? -1 : a.recorded_at > b.recorded_at ? 1 : 0));
  return byProduct(rows);
}

/**
 * The "was" price of each product (supportedWasPrice) as of `now`, from its offers' `pricing`,
 * reading the price history once for all of them. With `recent` (the 90-day history the deal
 * facts read, each retailer's point in force at its start included), a product whose recent
 * points settle it (wasPriceSettled) is worked out from them, and the longer history is read
 * only for the others, for the best offer's retailer; without it, that longer history is read
 * for every product with a best offer.
 */
export function wasPricesFor(
  db: Db,
  now: Date,
  pricing: ReadonlyMap<number, readonly OfferPricing[]>,
  recent?: ReadonlyMap<number, readonly ItemPricePoint[]>,
): Map<number, Pence | null> {
  const today = utcDay(now);
  const was = new Map<number, Pence | null>();
  const unsettled = new Map<number, number>();
  for (const [productId, offers] of pricing) {
    const retailerId = bestOffer(offers, now).bestRetailerId;
    was.set(productId, null);
    if (retailerId === null) continue;
    if (recent === undefined) {
      unsettled.set(productId, retailerId);
      continue;
    }
    const own = (recent.get(productId) ?? []).filter((point) => point.retailerId === retailerId);
    const fromRecent = supportedWasPrice(own, offers, now);
    if (wasPriceSettled(own, fromRecent, today)) was.set(productId, fromRecent);
    else unsettled.set(productId, retailerId);
  }
  const longer = readWasHistory(db, now, unsettled);
  for (const productId of unsettled.keys()) was.set(productId, supportedWasPrice(longer.get(productId) ?? [], pricing.get(productId)!, now));
  return was;
}

/**
 * The deal facts of these products (every product when `productIds` is null) as of `now`. Pass
 * `history` (the 90-day window) and `pricing` when they have been read already (the build's
 * product pages); the "was" price rule's longer history is read here where it is needed.
 */
export function dealFactsFor(
  db: Db,
  productIds: readonly number[] | null,
  now: Date,
  history: ReadonlyMap<number, readonly ItemPricePoint[]> = readItemHistory(db, now, productIds),
  pricing: ReadonlyMap<number, readonly OfferPricing[]> = readOfferPricing(db, productIds),
): Map<number, DealFacts> {
  const was = wasPricesFor(db, now, pricing, history);
  const facts = new Map<number, DealFacts>();
  for (const [productId, offers] of pricing) {
    facts.set(productId, dealFactsOf(dailyLowestTotals(history.get(productId) ?? [], offers, now), was.get(productId) ?? null));
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
