/**
 * The product list sorted by what a day of each food costs the visitor's pet (sort=cost_per_day):
 * computed in one pass over a lean read of the category (a few columns per product, no offers),
 * since the cost depends on the pet and cannot be indexed; then only the page's products are
 * read in full. A category of a few thousand foods costs a few milliseconds; each distinct pet
 * body's answer is cached like any other read.
 */
import type { Db } from "./client.ts";
import { filterClause, getProductsByIds } from "./products.ts";
import { statement } from "./statements.ts";
import type { Product } from "../domain/catalogue.ts";
import { costPerDayPence, parseFeedingGuide, type FeedingGuide, type PetBody } from "../domain/feeding.ts";
import { foodPackGrams } from "../domain/food.ts";
import { toPounds } from "../domain/money.ts";
import { packSizeOf } from "../domain/product-quantity.ts";
import type { ProductFilters } from "../domain/queries.ts";

/** A product of the list with what a day of it costs the pet at its best price to the door (pounds); null when that cannot be worked out. */
export type ProductWithFeedingCost = Product & { costPerDay: number | null };

interface LeanRow {
  id: number;
  name: string;
  rank: number;
  best_price_pence: number | null;
  kcal_per_kg: number | null;
  feeding_guide: string | null;
}

/**
 * Each product's cost per day for the pet, in whole pence at its best price (the lowest in-stock
 * total to the door) and its pack's grams; the order the list pages through: cheapest a day first
 * (whole pence, as shown), then best-seller rank, then id; products whose cost is unknown (no
 * food facts, no weighed pack, nothing in stock) last, by rank.
 */
export function costPerDayOrder(db: Db, filters: ProductFilters, pet: PetBody): { id: number; perDayPence: number | null }[] {
  const { where, params } = filterClause(filters);
  const rows = statement(db, `SELECT p.id, p.name, p.rank, p.best_price_pence, p.kcal_per_kg, p.feeding_guide FROM products p ${where}`).all(
    ...params,
  ) as LeanRow[];
  // The products of one line share a guide: each distinct text is parsed once.
  const guides = new Map<string, FeedingGuide | null>();
  const costed = rows.map((row) => {
    let guide: FeedingGuide | null = null;
    if (row.feeding_guide !== null) {
      if (!guides.has(row.feeding_guide)) guides.set(row.feeding_guide, parseFeedingGuide(row.feeding_guide));
      guide = guides.get(row.feeding_guide)!;
    }
    const perDayPence = costPerDayPence(pet, { kcalPerKg: row.kcal_per_kg, guide }, foodPackGrams(packSizeOf(row.name)), row.best_price_pence);
    return { id: row.id, rank: row.rank, perDayPence };
  });
  costed.sort(
    (a, b) =>
      (a.perDayPence ?? Number.POSITIVE_INFINITY) - (b.perDayPence ?? Number.POSITIVE_INFINITY) || a.rank - b.rank || a.id - b.id,
  );
  return costed.map(({ id, perDayPence }) => ({ id, perDayPence }));
}

/** One page of the list in cost-per-day order, each product with its cost per day for the pet. */
export function listProductsByCostPerDay(db: Db, filters: ProductFilters, pet: PetBody, page: { offset: number; limit: number }): ProductWithFeedingCost[] {
  const slice = costPerDayOrder(db, filters, pet).slice(page.offset, page.offset + page.limit);
  const products = getProductsByIds(db, slice.map((entry) => entry.id));
  return slice.flatMap(({ id, perDayPence }) => {
    const product = products.get(id);
    return product ? [{ ...product, costPerDay: toPounds(perDayPence) }] : [];
  });
}
