import { describe, expect, it } from "vitest";
import { findAlternatives, isEquivalent, maxAlternatives, type FoodChoice } from "./alternatives.ts";
import type { PetBody } from "./feeding.ts";

const tenKgAdultDog: PetBody = { species: "dog", weightKg: 10, lifeStage: "adult", activity: "normal", neutered: false };

/** An adult dry chicken dog food of 3,800 kcal/kg in a 2 kg bag at `price` pence, unless told otherwise. */
function food(id: number, price: number | null, overrides: Partial<Omit<FoodChoice, "facts">> & { facts?: Partial<FoodChoice["facts"]> } = {}): FoodChoice {
  const { facts, ...rest } = overrides;
  return {
    id,
    species: "dog",
    familyKey: null,
    packGrams: 2000,
    kcalPerKg: 3800,
    guide: null,
    bestPricePence: price,
    currentUntil: null,
    ...rest,
    facts: { lifeStage: "adult", foodType: "dry", mainProtein: "chicken", diets: [], ...facts },
  };
}

const ids = (answer: { alternatives: { food: { id: number } }[] }) => answer.alternatives.map((alternative) => alternative.food.id);

describe("isEquivalent", () => {
  const base = food(1, 2000, { facts: { diets: ["grain-free"] } });

  it("takes a food of the same species, type, life stage, main protein and diets", () => {
    expect(isEquivalent(base, food(2, 1000, { facts: { diets: ["grain-free"] } }))).toBe(true);
    // More diets than asked is fine: a grain-free, sensitive food is still grain-free.
    expect(isEquivalent(base, food(2, 1000, { facts: { diets: ["grain-free", "sensitive"] } }))).toBe(true);
    // A food for all life stages suits an adult.
    expect(isEquivalent(base, food(2, 1000, { facts: { lifeStage: "all", diets: ["grain-free"] } }))).toBe(true);
  });

  it.each([
    ["itself", food(1, 1000, { facts: { diets: ["grain-free"] } })],
    ["another species", food(2, 1000, { species: "cat", facts: { diets: ["grain-free"] } })],
    ["another type", food(2, 1000, { facts: { foodType: "wet", diets: ["grain-free"] } })],
    ["another life stage", food(2, 1000, { facts: { lifeStage: "senior", diets: ["grain-free"] } })],
    ["an unknown life stage", food(2, 1000, { facts: { lifeStage: null, diets: ["grain-free"] } })],
    ["another protein", food(2, 1000, { facts: { mainProtein: "lamb", diets: ["grain-free"] } })],
    ["an unknown protein", food(2, 1000, { facts: { mainProtein: null, diets: ["grain-free"] } })],
    ["a diet missing", food(2, 1000, { facts: { diets: ["sensitive"] } })],
  ])("refuses %s", (_, other) => {
    expect(isEquivalent(base, other)).toBe(false);
  });

  it("refuses another size of the same food, and takes a food of another family", () => {
    const sized = food(1, 2000, { familyKey: "brand|line|chicken" });
    expect(isEquivalent(sized, food(2, 1000, { familyKey: "brand|line|chicken" }))).toBe(false);
    expect(isEquivalent(sized, food(2, 1000, { familyKey: "brand|other|chicken" }))).toBe(true);
    // Foods of one size each (no family) are never the same food for this rule.
    expect(isEquivalent(food(1, 2000), food(2, 1000))).toBe(true);
  });

  it("has nothing for a food whose type or life stage is unknown, and any protein for one whose protein is unknown", () => {
    expect(isEquivalent(food(1, 2000, { facts: { foodType: null } }), food(2, 1000, { facts: { foodType: null } }))).toBe(false);
    expect(isEquivalent(food(1, 2000, { facts: { lifeStage: null } }), food(2, 1000, { facts: { lifeStage: null } }))).toBe(false);
    expect(isEquivalent(food(1, 2000, { facts: { mainProtein: null } }), food(2, 1000, { facts: { mainProtein: "duck" } }))).toBe(true);
  });

  it("asks a food for all life stages to be for all life stages too", () => {
    const all = food(1, 2000, { facts: { lifeStage: "all" } });
    expect(isEquivalent(all, food(2, 1000, { facts: { lifeStage: "adult" } }))).toBe(false);
    expect(isEquivalent(all, food(2, 1000, { facts: { lifeStage: "all" } }))).toBe(true);
  });
});

describe("findAlternatives", () => {
  it("ranks by cost a day for the pet: only cheaper ones, cheapest first, a tie by id", () => {
    // A 10 kg adult dog: 618.58 kcal a day; at 3,800 kcal/kg that is 163 g. The food: 2 kg at £20.00, 163p a day.
    const own = food(1, 2000);
    const answer = findAlternatives(own, [food(5, 1800), food(4, 1500), food(3, 1800), food(6, 2000), food(7, 2400)], tenKgAdultDog);
    expect(answer.basis).toBe("day");
    expect(answer.productCostPence).toBe(163);
    // 1500 → 122p, 1800 → 147p twice (id 3 before 5); 2000 costs the same (not cheaper), 2400 more.
    expect(ids(answer)).toEqual([4, 3, 5]);
    expect(answer.alternatives.map((alternative) => [alternative.costPence, alternative.savingPence, alternative.score])).toEqual([
      [122, 41, 0.252],
      [147, 16, 0.098],
      [147, 16, 0.098],
    ]);
  });

  it("ranks by what a day costs, not by price: a denser food in a dearer bag can be cheaper to feed", () => {
    const own = food(1, 2000);
    // 4,500 kcal/kg: 137 g a day; £21.00 for 2 kg is 144p a day, below the food's 163p though the bag costs more.
    const dense = food(2, 2100, { kcalPerKg: 4500 });
    // Cheaper bag, but 1 kg: £12.00 a kg, 196p a day.
    const small = food(3, 1200, { packGrams: 1000 });
    expect(ids(findAlternatives(own, [small, dense], tenKgAdultDog))).toEqual([2]);
    // Per kg (no pet) the dense food is dearer (£10.50 a kg against £10.00), and the small bag too.
    expect(ids(findAlternatives(own, [small, dense], null))).toEqual([]);
  });

  it("ranks by price per kg without a pet, or when a day's cost of the food cannot be worked out", () => {
    const own = food(1, 2000);
    const cheaperPerKg = food(2, 3600, { packGrams: 4000 });
    const answer = findAlternatives(own, [cheaperPerKg, food(3, 1990)], null);
    expect(answer.basis).toBe("kg");
    expect(answer.productCostPence).toBe(1000);
    expect(answer.alternatives.map((alternative) => [alternative.food.id, alternative.costPence, alternative.savingPence])).toEqual([
      [2, 900, 100],
      [3, 995, 5],
    ]);
    // No energy facts for the food itself: a day cannot be costed, so per kg even with a pet.
    expect(findAlternatives(food(1, 2000, { kcalPerKg: null }), [cheaperPerKg], tenKgAdultDog).basis).toBe("kg");
  });

  it("leaves out foods with no price, no weighed pack, or no facts to cost a day", () => {
    const own = food(1, 2000);
    const answer = findAlternatives(own, [food(2, null), food(3, 1000, { packGrams: null }), food(4, 1000, { kcalPerKg: null }), food(5, 1000)], tenKgAdultDog);
    expect(ids(answer)).toEqual([5]);
  });

  it("counts a pack of no grams as not sold by weight, for the food and for the others", () => {
    expect(findAlternatives(food(1, 2000, { packGrams: 0 }), [food(2, 100)], null)).toEqual({ basis: null, productCostPence: null, alternatives: [] });
    expect(ids(findAlternatives(food(1, 2000), [food(2, 100, { packGrams: 0 }), food(3, 100)], null))).toEqual([3]);
  });

  it("has none for a food without a price or a weighed pack", () => {
    expect(findAlternatives(food(1, null), [food(2, 100)], tenKgAdultDog)).toEqual({ basis: null, productCostPence: null, alternatives: [] });
    expect(findAlternatives(food(1, 2000, { packGrams: null }), [food(2, 100)], null)).toEqual({ basis: null, productCostPence: null, alternatives: [] });
  });

  it("shows one size of each other food, its cheapest, so sizes of one food never fill the list", () => {
    const own = food(1, 2000);
    const bigBag = food(2, 6000, { packGrams: 12_000, familyKey: "budget" });
    const smallBag = food(3, 1500, { familyKey: "budget" });
    const other = food(4, 1700, { familyKey: "value" });
    // Per kg: big bag £5.00, small £7.50, other £8.50. The small bag of the same food is left out.
    expect(ids(findAlternatives(own, [smallBag, other, bigBag], null))).toEqual([2, 4]);
    // Foods of one size (no family) each count on their own.
    expect(ids(findAlternatives(own, [food(5, 1500), food(6, 1500)], null))).toEqual([5, 6]);
  });

  it(`shows at most ${maxAlternatives}, the cheapest`, () => {
    const others = Array.from({ length: 8 }, (_, index) => food(10 + index, 1000 + index * 100));
    expect(ids(findAlternatives(food(1, 5000), others.toReversed(), null))).toEqual([10, 11, 12, 13]);
    expect(ids(findAlternatives(food(1, 5000), others, null, 2))).toEqual([10, 11]);
  });

  it("says why each was chosen, and expires with the first of the two prices to stop being current", () => {
    const own = food(1, 2000, { currentUntil: "2026-11-29T10:00:00.000Z", facts: { diets: ["grain-free"] } });
    const later = food(2, 1000, { currentUntil: "2026-11-30T10:00:00.000Z", facts: { diets: ["grain-free"] } });
    const sooner = food(3, 1100, { currentUntil: "2026-11-28T10:00:00.000Z", facts: { diets: ["grain-free"] } });
    const byHand = food(4, 1200, { facts: { diets: ["grain-free"] } });
    const answer = findAlternatives(own, [later, sooner, byHand], tenKgAdultDog);
    expect(answer.alternatives.map((alternative) => alternative.expiresAt)).toEqual(["2026-11-29T10:00:00.000Z", "2026-11-28T10:00:00.000Z", "2026-11-29T10:00:00.000Z"]);
    expect(answer.alternatives[0]!.matched).toEqual(["Adult", "Dry", "Chicken", "Grain-free"]);
    expect(answer.alternatives[0]!.reason).toBe("Also Adult · Dry · Chicken · Grain-free, and cheaper a day for your pet");
    expect(findAlternatives(food(1, 2000), [food(2, 1000)], null).alternatives[0]!.reason).toBe("Also Adult · Dry · Chicken, and cheaper per kg");
    // Neither price expires by time (both set by hand): nor does the recommendation.
    expect(findAlternatives(food(1, 2000), [food(2, 1000)], null).alternatives[0]!.expiresAt).toBeNull();
  });
});
