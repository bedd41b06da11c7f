import { describe, expect, it } from "vitest";
import { costPerDayPence, dailyGrams, feedingCost, type PetBody } from "./feeding.ts";
import { foodPackGrams, foodSpeciesOf, petQueryNames, petQueryParams } from "./food.ts";

const tenKgDog = (neutered: boolean): PetBody => ({ species: "dog", weightKg: 10, lifeStage: "adult", activity: "normal", neutered });
const food3800 = { kcalPerKg: 3800, guide: null };

describe("foodSpeciesOf", () => {
  it("reads the species a food category feeds", () => {
    expect(foodSpeciesOf("dog-food")).toBe("dog");
    expect(foodSpeciesOf("cat-food")).toBe("cat");
    expect(foodSpeciesOf("dog-food-wet")).toBe("dog");
  });

  it("is null for treats, other aisles, look-alikes and nothing", () => {
    for (const slug of ["dog-treats", "cat-litter", "bird-food", "hotdog-food", "dog-foods", "dog-food-", "cat", "", null, undefined]) {
      expect(foodSpeciesOf(slug), String(slug)).toBeNull();
    }
  });
});

describe("foodPackGrams", () => {
  it("is the grams of a weighed pack, multipacks included", () => {
    expect(foodPackGrams({ amount: 12000, unit: "kg", label: "12kg" })).toBe(12000);
    expect(foodPackGrams({ amount: 4000, unit: "kg", label: "40 x 100g" })).toBe(4000);
  });

  it("is null for volumes, counts, an empty pack and no size", () => {
    expect(foodPackGrams({ amount: 1000, unit: "l", label: "1L" })).toBeNull();
    expect(foodPackGrams({ amount: 40, unit: "item", label: "40 pouches" })).toBeNull();
    expect(foodPackGrams({ amount: 0, unit: "kg", label: "0kg" })).toBeNull();
    expect(foodPackGrams(null)).toBeNull();
  });
});

describe("petQueryParams", () => {
  it("carries the body in the parameter order, never the name, weight to two decimals", () => {
    const pet = { name: "Rex", species: "dog", weightKg: 7.256, lifeStage: "senior", activity: "less-active", neutered: false } as const;
    const params = petQueryParams(pet);
    expect(Object.keys(params)).toEqual([...petQueryNames]);
    expect(params).toEqual({ species: "dog", weightKg: "7.26", lifeStage: "senior", activity: "less-active", neutered: "false" });
    expect(JSON.stringify(params)).not.toContain("Rex");
  });
});

describe("costPerDayPence: a 10 kg adult dog on a 3,800 kcal/kg food at £45.99 per 12 kg to the door", () => {
  it("entire: 110 × 10^0.75 = 618.58 kcal; ÷ 3,800 × 1000 = 162.78 → 163 g; 163 × 4599 ÷ 12000 = 62.47p → 62p a day", () => {
    expect(dailyGrams(tenKgDog(false), food3800)?.grams).toBe(163);
    expect(costPerDayPence(tenKgDog(false), food3800, 12000, 4599)).toBe(62);
    // A month: 62.4698p × 30.4375 days = 1901.43p → £19.01.
    expect(feedingCost({ grams: 163, packGrams: 12000, totalPence: 4599 })?.perMonthPence).toBe(1901);
  });

  it("neutered: 95 × 10^0.75 = 534.22 kcal → 140.59 → 141 g; 141 × 4599 ÷ 12000 = 54.04p → 54p a day", () => {
    expect(dailyGrams(tenKgDog(true), food3800)?.grams).toBe(141);
    expect(costPerDayPence(tenKgDog(true), food3800, 12000, 4599)).toBe(54);
    // A month: 54.0383p × 30.4375 = 1644.79p → £16.45.
    expect(feedingCost({ grams: 141, packGrams: 12000, totalPence: 4599 })?.perMonthPence).toBe(1645);
  });

  it("from a guide: 7.5 kg between the 5 kg (100 g) and 10 kg (170 g) rows is 135 g; 135 × 1999 ÷ 2000 = 134.93p → 135p", () => {
    const guide = { rows: [{ weightKg: 5, gramsPerDay: 100 }, { weightKg: 10, gramsPerDay: 170 }] };
    expect(costPerDayPence({ ...tenKgDog(false), weightKg: 7.5 }, { kcalPerKg: null, guide }, 2000, 1999)).toBe(135);
  });

  it("rounds half a penny up: 100 g of a 1,000 g pack at 5p is 0.5p → 1p", () => {
    // 110 × 10^0.75 kcal on a food of 6,185.75 kcal/kg is 100.0 g.
    expect(costPerDayPence(tenKgDog(false), { kcalPerKg: 6185.75, guide: null }, 1000, 5)).toBe(1);
  });

  it("is unknown without a pack size, a price, daily grams or a pack to divide", () => {
    expect(costPerDayPence(tenKgDog(false), food3800, null, 4599)).toBeNull();
    expect(costPerDayPence(tenKgDog(false), food3800, 12000, null)).toBeNull();
    expect(costPerDayPence(tenKgDog(false), { kcalPerKg: null, guide: null }, 12000, 4599)).toBeNull();
    expect(costPerDayPence(tenKgDog(false), food3800, 0, 4599)).toBeNull();
  });

  it("is null without a pack size, a price, or food facts", () => {
    expect(costPerDayPence(tenKgDog(false), food3800, null, 4599)).toBeNull();
    expect(costPerDayPence(tenKgDog(false), food3800, 12000, null)).toBeNull();
    expect(costPerDayPence(tenKgDog(false), { kcalPerKg: null, guide: null }, 12000, 4599)).toBeNull();
  });
});
