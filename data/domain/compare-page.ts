/**
 * The compare page's rules: which products are asked for (`?ids=`), what species a food is for,
 * what a food costs a day for the visitor's pet, and which column holds the best value of each
 * row. Pure, so the API, the island and the tests share them.
 */
import { z } from "zod";
import { compareLimit } from "./compare.ts";
import { shownRating } from "./display.ts";
import { dailyCostFor, dailyGrams, type FeedingGuide, type PetBody, type Species } from "./feeding.ts";
import { foodPackGrams } from "./food.ts";
import { fromPounds, type Pence } from "./money.ts";
import type { PackSize } from "./product-quantity.ts";
import type { RetailerRef } from "./catalogue.ts";
import type { QuantityUnit } from "./pack-size.ts";

const idsMessage = `ids must be 1 to ${compareLimit} product ids separated by commas, like 12,34`;

/**
 * `ids` of the compare read and page: 1 to 4 distinct positive whole numbers separated by commas,
 * kept in the order given (the columns' order).
 * @example compareIdsSchema.parse("12,3") // [12, 3]
 * @example compareIdsSchema.safeParse("3,3").success // false (a repeat)
 */
export const compareIdsSchema = z
  .string({ error: (issue) => (issue.input === undefined ? "ids is required" : "ids must be given once") })
  .regex(/^\d{1,16}(,\d{1,16})*$/, idsMessage)
  .transform((text) => text.split(",").map(Number))
  .superRefine((ids, ctx) => {
    if (ids.length > compareLimit) ctx.addIssue(`ids: at most ${compareLimit} products can be compared`);
    const bad = ids.find((id) => !Number.isSafeInteger(id) || id < 1);
    if (bad !== undefined) ctx.addIssue(`ids must be positive whole numbers (${bad} is not)`);
    const repeated = ids.find((id, index) => ids.indexOf(id) !== index);
    if (repeated !== undefined) ctx.addIssue(`ids must not repeat (${repeated} is given twice)`);
  });

export const compareQuery = z.object({ ids: compareIdsSchema });

/**
 * The ids of a compare page address's query string, or null when it names none or names them
 * wrongly (the page then falls back to the tray).
 * @example idsFromSearch("?ids=4,9") // [4, 9]
 * @example idsFromSearch("") // null
 */
export function idsFromSearch(search: string): number[] | null {
  const raw = new URLSearchParams(search).getAll("ids");
  if (raw.length !== 1) return null;
  const parsed = compareIdsSchema.safeParse(raw[0]);
  return parsed.success ? parsed.data : null;
}

/** A product as the compare read answers it (prices in pounds, as the API speaks). */
export interface CompareProduct {
  id: number;
  slug: string;
  name: string;
  image: string;
  brand: string | null;
  category: { name: string; slug: string };
  /** Lowest in-stock total to the door; null when nothing is in stock. */
  bestPrice: number | null;
  /** The delivery inside bestPrice; null when not known. */
  bestDelivery: number | null;
  packSize: PackSize | null;
  /** The best total per kg, litre or item; null without a pack size or a best price. */
  unitPrice: { price: number; unit: QuantityUnit } | null;
  rating: number;
  reviewCount: number;
  /** Retailers with an offer for it, and how many of those have it in stock. */
  retailerCount: number;
  inStockCount: number;
  bestRetailer: RetailerRef | null;
  /** The best retailer's in-stock offer (bestDealOffer), which the page links to through the affiliate builder; null when none. */
  bestDeal: { retailerKey: string; url: string } | null;
  /** dog or cat for dog and cat food and treats (from the category), else null. */
  species: Species | null;
  kcalPerKg: number | null;
  feedingGuide: FeedingGuide | null;
}

export type DailyCost =
  | { kind: "cost"; perDayPence: Pence; grams: number }
  /** Not dog or cat food. */
  | { kind: "not-food" }
  /** Food for another species than the pet. */
  | { kind: "other-species"; species: Species }
  /** A food, but without a price in stock, a pack weight, a feeding guide or an energy figure. */
  | { kind: "unknown" };

/**
 * What the product costs a day to feed this pet: the grams a day from its feeding guide or
 * energy (dailyGrams) at its best price to the door for its pack's grams (dailyCostFor). Only for
 * food of the pet's own species sold by weight.
 * @example compareDailyCost(tenKgAdultDog, { species: "dog", bestPrice: 64.99, packSize: twelveKg, kcalPerKg: 3800, feedingGuide: null }) // { kind: "cost", perDayPence: 88, grams: 163 }
 */
export function compareDailyCost(
  pet: PetBody,
  product: Pick<CompareProduct, "species" | "bestPrice" | "packSize" | "kcalPerKg" | "feedingGuide">,
): DailyCost {
  if (product.species === null) return { kind: "not-food" };
  if (product.species !== pet.species) return { kind: "other-species", species: product.species };
  const daily = dailyGrams(pet, { kcalPerKg: product.kcalPerKg, guide: product.feedingGuide });
  const perDayPence = daily === null ? null : dailyCostFor(daily.grams, foodPackGrams(product.packSize), fromPounds(product.bestPrice));
  return daily === null || perDayPence === null ? { kind: "unknown" } : { kind: "cost", perDayPence, grams: daily.grams };
}

/** One column's values for the rows that have a best value; null where the product has none. */
export interface CompareColumnValues {
  /** Price to the door, pence. */
  price: Pence | null;
  unitPrice: { pence: Pence; unit: QuantityUnit } | null;
  /** Cost per day for the pet, pence. */
  costPerDay: Pence | null;
  /** Null when the product has no reviews. */
  rating: number | null;
  retailers: number;
}

export type CompareRow = keyof CompareColumnValues;

/** Per row, per column: whether that column holds the row's best value. */
export type BestMarks = Record<CompareRow, boolean[]>;

/**
 * Marks the columns holding the best value (`pick`: Math.min for the lowest, Math.max for the
 * highest) among at least two known values: true at every column tied at the best; all false
 * when fewer than two columns have a value.
 */
function markBest(values: readonly (number | null)[], pick: (...known: number[]) => number): boolean[] {
  const known = values.filter((value): value is number => Number.isFinite(value));
  if (known.length < 2) return values.map(() => false);
  const best = pick(...known);
  return values.map((value) => value === best);
}

/**
 * The best value of each row of the compare table: lowest price to the door, lowest unit price
 * (compared only among columns priced per the same unit: per kg against per kg, per item against
 * per item), lowest cost per day, highest rating (products without reviews left out), most
 * retailers. A row is marked only when at least two columns have a value to compare; ties mark
 * every tied column.
 * @example bestPerRow([{ price: 999, …, retailers: 3 }, { price: 999, …, retailers: 5 }]).price // [true, true]
 */
export function bestPerRow(columns: readonly CompareColumnValues[]): BestMarks {
  const marks = (value: (column: CompareColumnValues) => number | null, pick: (...known: number[]) => number) => markBest(columns.map(value), pick);
  return {
    price: marks((column) => column.price, Math.min),
    unitPrice: columns.map((column, index) => {
      const unit = column.unitPrice?.unit;
      return unit !== undefined && marks((other) => (other.unitPrice?.unit === unit ? other.unitPrice.pence : null), Math.min)[index]!;
    }),
    costPerDay: marks((column) => column.costPerDay, Math.min),
    rating: marks((column) => column.rating, Math.max),
    retailers: marks((column) => column.retailers, Math.max),
  };
}

/**
 * A compared product's values for the best-value rows, with the pet's cost per day when there is a pet.
 */
export function columnValues(product: CompareProduct, pet: PetBody | null): CompareColumnValues {
  const cost = pet === null ? null : compareDailyCost(pet, product);
  return {
    price: fromPounds(product.bestPrice),
    unitPrice: product.unitPrice === null ? null : { pence: fromPounds(product.unitPrice.price), unit: product.unitPrice.unit },
    costPerDay: cost?.kind === "cost" ? cost.perDayPence : null,
    rating: shownRating(product.rating, product.reviewCount),
    retailers: product.retailerCount,
  };
}
