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
import { dailyCostFor, dailyGrams, type FeedingGuide, type PetBody } from "../domain/feeding.ts";
import { parseFeedingGuide } from "../domain/feeding.schema.ts";
import { foodPackGrams } from "../domain/food.ts";
import type { Pence } from "../domain/money.ts";
import { packSizeOf } from "../domain/product-quantity.ts";
import type { ProductFilters } from "../domain/queries.ts";

/** A product of the list with what a day of it costs the pet at its best price to the door (pounds); null when that cannot be worked out. */
/** A product with what a day of it costs the pet at its best price; null when that is not known. */
export type ProductWithFeedingCost = Product & { costPerDayPence: Pence | null };

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
  const rows = statement<LeanRow>(db, `SELECT p.id, p.name, p.rank, p.best_price_pence, p.kcal_per_kg, p.feeding_guide FROM products p ${where}`).all(
    ...params,
  );
  // The products of one line share their facts: each distinct pair is worked out once.
  const gramsByFacts = new Map<string, number | null>();
  const costed = rows.map((row) => {
    const factsKey = `${row.kcal_per_kg ?? ""}|${row.feeding_guide ?? ""}`;
    let grams = gramsByFacts.get(factsKey);
    if (grams === undefined) {
      grams = dailyGrams(pet, { kcalPerKg: row.kcal_per_kg, guide: guideOf(row.feeding_guide) })?.grams ?? null;
      gramsByFacts.set(factsKey, grams);
    }
    return { id: row.id, rank: row.rank, perDayPence: dailyCostFor(grams, packGramsOf(row.name), row.best_price_pence) };
  });
  costed.sort(
    (a, b) =>
      (a.perDayPence ?? Number.POSITIVE_INFINITY) - (b.perDayPence ?? Number.POSITIVE_INFINITY) || a.rank - b.rank || a.id - b.id,
  );
  return costed.map(({ id, perDayPence }) => ({ id, perDayPence }));
}

/**
 * Reading a pack size from a name takes tens of microseconds (a category of 15,000 foods: about
 * a second), and names and guides rarely change while prices do: both are remembered across
 * requests by their text, so only the first sort of a category after a start pays for them.
 * Forgotten all at once past this many entries (renames leave old names behind).
 */
const maxRemembered = 200_000;
const packGramsByName = new Map<string, number | null>();
const guidesByText = new Map<string, FeedingGuide | null>();

function remembered<T>(cache: Map<string, T>, key: string, work: (key: string) => T): T {
  if (cache.has(key)) return cache.get(key)!;
  if (cache.size >= maxRemembered) cache.clear();
  const value = work(key);
  cache.set(key, value);
  return value;
}

export const packGramsOf = (name: string): number | null => remembered(packGramsByName, name, (text) => foodPackGrams(packSizeOf(text)));
export const guideOf = (text: string | null): FeedingGuide | null => (text === null ? null : remembered(guidesByText, text, parseFeedingGuide));

/** One page of the list in cost-per-day order, each product with its cost per day for the pet. */
export function listProductsByCostPerDay(db: Db, filters: ProductFilters, pet: PetBody, page: { offset: number; limit: number }): ProductWithFeedingCost[] {
  const slice = costPerDayOrder(db, filters, pet).slice(page.offset, page.offset + page.limit);
  const products = getProductsByIds(db, slice.map((entry) => entry.id));
  return slice.flatMap(({ id, perDayPence }) => {
    const product = products.get(id);
    return product ? [{ ...product, costPerDayPence: perDayPence }] : [];
  });
}
