import { describe, expect, it } from "vitest";
import {
  bestPerRow,
  columnValues,
  compareIdsSchema,
  compareDailyCost,
  idsFromSearch,
  type CompareColumnValues,
  type CompareProduct,
} from "./compare-page.ts";
import type { PetBody } from "./feeding.ts";

const column = (values: Partial<CompareColumnValues> = {}): CompareColumnValues => ({
  price: null,
  unitPrice: null,
  costPerDay: null,
  rating: null,
  retailers: 0,
  ...values,
});

describe("compareIdsSchema", () => {
  it("takes 1 to 4 distinct positive ids in the order given", () => {
    expect(compareIdsSchema.parse("7")).toEqual([7]);
    expect(compareIdsSchema.parse("12,3,40,1")).toEqual([12, 3, 40, 1]);
    expect(compareIdsSchema.parse("9007199254740991")).toEqual([Number.MAX_SAFE_INTEGER]);
  });
  it.each([
    ["", "ids must be 1 to 4 product ids"],
    ["1,2,3,4,5", "at most 4 products"],
    ["0", "positive whole numbers (0 is not)"],
    ["1,0", "positive whole numbers (0 is not)"],
    ["3,3", "must not repeat (3 is given twice)"],
    ["1,2,1", "must not repeat (1 is given twice)"],
    ["abc", "ids must be 1 to 4 product ids"],
    ["1.5", "ids must be 1 to 4 product ids"],
    ["-1", "ids must be 1 to 4 product ids"],
    ["1,,2", "ids must be 1 to 4 product ids"],
    ["1,2,", "ids must be 1 to 4 product ids"],
    [" 1", "ids must be 1 to 4 product ids"],
    ["9007199254740992", "positive whole numbers"],
  ])("refuses %j", (text, message) => {
    const result = compareIdsSchema.safeParse(text);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toContain(message);
  });
  it("refuses ids given twice and no ids", () => {
    expect(compareIdsSchema.safeParse(["1", "2"]).error?.issues[0]?.message).toBe("ids must be given once");
    expect(compareIdsSchema.safeParse(undefined).error?.issues[0]?.message).toBe("ids is required");
  });
});

describe("idsFromSearch", () => {
  it("reads ids from a query string, null when none or invalid", () => {
    expect(idsFromSearch("?ids=4,9")).toEqual([4, 9]);
    expect(idsFromSearch("?ids=4%2C9")).toEqual([4, 9]);
    expect(idsFromSearch("")).toBeNull();
    expect(idsFromSearch("?ids=4,4")).toBeNull();
    expect(idsFromSearch("?ids=1&ids=2")).toBeNull();
  });
});

const adultDog: PetBody = { species: "dog", weightKg: 10, lifeStage: "adult", activity: "normal", neutered: false };
const twelveKg = { amount: 12000, unit: "kg" as const, label: "12kg" };
const dogFood = { species: "dog" as const, bestPrice: 64.99, packSize: twelveKg, kcalPerKg: 3800, feedingGuide: null };

describe("compareDailyCost", () => {
  it("costs the pet's daily grams at the best price for the pack's grams", () => {
    // 110 × 10^0.75 = 618.58 kcal ÷ 3800 kcal/kg = 163 g; 6499 × 163 ÷ 12000 = 88.28 -> 88 p.
    expect(compareDailyCost(adultDog, dogFood)).toEqual({ kind: "cost", perDayPence: 88, grams: 163 });
  });
  it("uses the feeding guide when there is one", () => {
    const guide = { rows: [{ weightKg: 5, gramsPerDay: 100 }, { weightKg: 15, gramsPerDay: 200 }] };
    // 150 g a day; 6499 × 150 ÷ 12000 = 81.24 -> 81 p.
    expect(compareDailyCost(adultDog, { ...dogFood, feedingGuide: guide })).toEqual({ kind: "cost", perDayPence: 81, grams: 150 });
  });
  it("does not apply to non-food or to another species' food", () => {
    expect(compareDailyCost(adultDog, { ...dogFood, species: null })).toEqual({ kind: "not-food" });
    expect(compareDailyCost(adultDog, { ...dogFood, species: "cat" })).toEqual({ kind: "other-species", species: "cat" });
  });
  it("is unknown when the daily grams come to nothing (a guide of zeros)", () => {
    const zeros = { rows: [{ weightKg: 5, gramsPerDay: 0 }, { weightKg: 15, gramsPerDay: 0 }] };
    expect(compareDailyCost(adultDog, { ...dogFood, feedingGuide: zeros })).toEqual({ kind: "unknown" });
  });
  it("is unknown without a price, a pack weight or food facts", () => {
    expect(compareDailyCost(adultDog, { ...dogFood, bestPrice: null })).toEqual({ kind: "unknown" });
    expect(compareDailyCost(adultDog, { ...dogFood, packSize: null })).toEqual({ kind: "unknown" });
    expect(compareDailyCost(adultDog, { ...dogFood, packSize: { amount: 12, unit: "item", label: "12 pack" } })).toEqual({ kind: "unknown" });
    expect(compareDailyCost(adultDog, { ...dogFood, kcalPerKg: null })).toEqual({ kind: "unknown" });
  });
});

describe("bestPerRow", () => {
  it("marks the lowest price, cost per day and the highest rating and retailer count", () => {
    const marks = bestPerRow([
      column({ price: 1299, costPerDay: 90, rating: 4.2, retailers: 3 }),
      column({ price: 999, costPerDay: 95, rating: 4.8, retailers: 2 }),
      column({ price: 1500, costPerDay: 88, rating: 3.9, retailers: 5 }),
    ]);
    expect(marks.price).toEqual([false, true, false]);
    expect(marks.costPerDay).toEqual([false, false, true]);
    expect(marks.rating).toEqual([false, true, false]);
    expect(marks.retailers).toEqual([false, false, true]);
  });
  it("marks every column tied at the best", () => {
    const marks = bestPerRow([
      column({ price: 999, rating: 4.5, retailers: 5 }),
      column({ price: 1299, rating: 4.5, retailers: 5 }),
      column({ price: 999, rating: 4.1, retailers: 4 }),
    ]);
    expect(marks.price).toEqual([true, false, true]);
    expect(marks.rating).toEqual([true, true, false]);
    expect(marks.retailers).toEqual([true, true, false]);
  });
  it("skips missing values and marks nothing with fewer than two values", () => {
    const marks = bestPerRow([column({ price: null, rating: null }), column({ price: 1500, rating: 4 }), column({ price: 1200, rating: null })]);
    expect(marks.price).toEqual([false, false, true]);
    // One rated product: nothing to compare it with.
    expect(marks.rating).toEqual([false, false, false]);
    expect(bestPerRow([column({ price: 999 })]).price).toEqual([false]);
    expect(bestPerRow([]).price).toEqual([]);
  });
  it("compares unit prices only within a unit", () => {
    const marks = bestPerRow([
      column({ unitPrice: { pence: 500, unit: "kg" } }),
      column({ unitPrice: { pence: 80, unit: "item" } }),
      column({ unitPrice: { pence: 450, unit: "kg" } }),
      column({ unitPrice: null }),
    ]);
    // 80p per item is not cheaper than £4.50 per kg: the per-item column has no other to beat.
    expect(marks.unitPrice).toEqual([false, false, true, false]);
    const twoUnits = bestPerRow([
      column({ unitPrice: { pence: 500, unit: "kg" } }),
      column({ unitPrice: { pence: 80, unit: "item" } }),
      column({ unitPrice: { pence: 450, unit: "kg" } }),
      column({ unitPrice: { pence: 80, unit: "item" } }),
    ]);
    expect(twoUnits.unitPrice).toEqual([false, true, true, true]);
  });
  it("marks a zero price or cost as the lowest (zero is a value, not a missing one)", () => {
    expect(bestPerRow([column({ costPerDay: 0 }), column({ costPerDay: 12 })]).costPerDay).toEqual([true, false]);
    expect(bestPerRow([column({ retailers: 0 }), column({ retailers: 0 })]).retailers).toEqual([true, true]);
  });
});

describe("columnValues", () => {
  const product: CompareProduct = {
    id: 1,
    slug: "food",
    name: "Food 12kg",
    image: "",
    brand: null,
    category: { name: "Dog Food", slug: "dog-food" },
    bestPrice: 64.99,
    bestDelivery: 0,
    packSize: twelveKg,
    unitPrice: { price: 5.42, unit: "kg" },
    rating: 4.6,
    reviewCount: 12,
    retailerCount: 4,
    inStockCount: 3,
    bestRetailer: null,
    bestDeal: null,
    species: "dog",
    kcalPerKg: 3800,
    feedingGuide: null,
  };
  it("turns pounds into pence, leaves out unreviewed ratings and costs a day only with a pet", () => {
    expect(columnValues(product, null)).toEqual({ price: 6499, unitPrice: { pence: 542, unit: "kg" }, costPerDay: null, rating: 4.6, retailers: 4 });
    expect(columnValues(product, adultDog).costPerDay).toBe(88);
    expect(columnValues({ ...product, reviewCount: 0 }, adultDog).rating).toBeNull();
    expect(columnValues({ ...product, bestPrice: null, unitPrice: null }, adultDog)).toMatchObject({ price: null, unitPrice: null, costPerDay: null });
  });
});
