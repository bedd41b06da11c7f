import { describe, expect, it } from "vitest";
import { cheapestWayToFeed, dailyCostFor, dailyGrams, describeMethod, feedingCost, maintenanceEnergyKcal, type FoodFacts, type PetBody } from "./feeding.ts";
import { feedingGuideSchema, parseFeedingGuide, petProfileSchema } from "./feeding.schema.ts";

const dog = (weightKg: number, more: Partial<PetBody> = {}): PetBody => ({
  species: "dog",
  weightKg,
  lifeStage: "adult",
  activity: "normal",
  neutered: false,
  ...more,
});
const cat = (weightKg: number, more: Partial<PetBody> = {}): PetBody => ({
  species: "cat",
  weightKg,
  lifeStage: "adult",
  activity: "normal",
  neutered: false,
  ...more,
});

const energyFood = (kcalPerKg: number): FoodFacts => ({ kcalPerKg, guide: null });
const guide = { rows: [{ weightKg: 5, gramsPerDay: 100 }, { weightKg: 10, gramsPerDay: 170 }] };
const guideFood: FoodFacts = { kcalPerKg: 3800, guide };

describe("petProfileSchema", () => {
  const valid = { name: "Rex", species: "dog", weightKg: 12, lifeStage: "adult", activity: "normal", neutered: true };

  it("accepts a valid profile, trimming the name and dropping unknown keys", () => {
    expect(petProfileSchema.parse({ ...valid, name: "  Rex  ", colour: "brown" })).toEqual({ ...valid, name: "Rex" });
  });

  it("takes names of 1 and 40 characters, not blank or 41", () => {
    expect(petProfileSchema.safeParse({ ...valid, name: "R" }).success).toBe(true);
    expect(petProfileSchema.safeParse({ ...valid, name: "x".repeat(40) }).success).toBe(true);
    expect(petProfileSchema.safeParse({ ...valid, name: ` ${"x".repeat(40)} ` }).success).toBe(true);
    expect(petProfileSchema.safeParse({ ...valid, name: "x".repeat(41) }).success).toBe(false);
    expect(petProfileSchema.safeParse({ ...valid, name: "" }).success).toBe(false);
    expect(petProfileSchema.safeParse({ ...valid, name: "   " }).success).toBe(false);
  });

  it("takes dogs of 0.5 to 100 kg and cats of 0.5 to 15 kg, on both bounds", () => {
    for (const weightKg of [0.5, 100]) expect(petProfileSchema.safeParse({ ...valid, weightKg }).success, String(weightKg)).toBe(true);
    for (const weightKg of [0, 0.49, 100.01, -3, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(petProfileSchema.safeParse({ ...valid, weightKg }).success, String(weightKg)).toBe(false);
    }
    const aCat = { ...valid, species: "cat" };
    for (const weightKg of [0.5, 15]) expect(petProfileSchema.safeParse({ ...aCat, weightKg }).success, String(weightKg)).toBe(true);
    for (const weightKg of [0.4, 15.01, 20]) expect(petProfileSchema.safeParse({ ...aCat, weightKg }).success, String(weightKg)).toBe(false);
  });

  it("says which field is wrong for a 20 kg cat", () => {
    const result = petProfileSchema.safeParse({ ...valid, species: "cat", weightKg: 20 });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => [issue.code, issue.path.join("."), issue.message])).toEqual([["custom", "weightKg", "At most 15 kg for a cat"]]);
  });

  it("allows puppies only for dogs and kittens only for cats", () => {
    expect(petProfileSchema.safeParse({ ...valid, lifeStage: "puppy" }).success).toBe(true);
    expect(petProfileSchema.safeParse({ ...valid, species: "cat", weightKg: 2, lifeStage: "kitten" }).success).toBe(true);
    const puppyCat = petProfileSchema.safeParse({ ...valid, species: "cat", weightKg: 2, lifeStage: "puppy" });
    expect(puppyCat.error?.issues.map((issue) => issue.path.join("."))).toEqual(["lifeStage"]);
    expect(petProfileSchema.safeParse({ ...valid, lifeStage: "kitten" }).success).toBe(false);
    expect(petProfileSchema.safeParse({ ...valid, species: "cat", weightKg: 4, lifeStage: "senior" }).success).toBe(true);
  });

  it("rejects unknown values and missing or mistyped fields", () => {
    expect(petProfileSchema.safeParse({ ...valid, species: "rabbit" }).success).toBe(false);
    expect(petProfileSchema.safeParse({ ...valid, activity: "lazy" }).success).toBe(false);
    expect(petProfileSchema.safeParse({ ...valid, lifeStage: "elderly" }).success).toBe(false);
    expect(petProfileSchema.safeParse({ ...valid, weightKg: "12" }).success).toBe(false);
    expect(petProfileSchema.safeParse({ ...valid, neutered: "yes" }).success).toBe(false);
    const { neutered: _, ...withoutNeutered } = valid;
    expect(petProfileSchema.safeParse(withoutNeutered).success).toBe(false);
    expect(petProfileSchema.safeParse(null).success).toBe(false);
  });
});

describe("maintenanceEnergyKcal", () => {
  // 10^0.75 = 5.62341…, 4^0.67 = 2.53151…
  it("gives adult dogs 95, 110 or 130 kcal × kg^0.75 by activity", () => {
    expect(maintenanceEnergyKcal(dog(10))).toBeCloseTo(618.575, 3); // 110 × 5.62341 = 618.6
    expect(maintenanceEnergyKcal(dog(10, { activity: "less-active" }))).toBeCloseTo(534.224, 3); // 95 × 5.62341 = 534.2
    expect(maintenanceEnergyKcal(dog(10, { activity: "active" }))).toBeCloseTo(731.044, 3); // 130 × 5.62341 = 731.0
    expect(maintenanceEnergyKcal(dog(1))).toBe(110);
    expect(maintenanceEnergyKcal(dog(16))).toBeCloseTo(880, 9); // 16^0.75 = 8
  });

  it("gives adult cats 75 kcal × kg^0.67 when less active and 100 when normal or active", () => {
    // 100 × 2.53151 = 253.2 and 75 × 2.53151 = 189.9 (not 253.0 / 189.8: 4^0.67 is 2.5315).
    expect(maintenanceEnergyKcal(cat(4))).toBeCloseTo(253.151, 3);
    expect(maintenanceEnergyKcal(cat(4, { activity: "active" }))).toBeCloseTo(253.151, 3);
    expect(maintenanceEnergyKcal(cat(4, { activity: "less-active" }))).toBeCloseTo(189.863, 3);
    expect(maintenanceEnergyKcal(cat(1))).toBe(100);
  });

  it("lowers a neutered pet by one activity step: active to normal, normal to less active, less active stays", () => {
    expect(maintenanceEnergyKcal(dog(10, { neutered: true, activity: "active" }))).toBe(maintenanceEnergyKcal(dog(10)));
    expect(maintenanceEnergyKcal(dog(10, { neutered: true }))).toBe(maintenanceEnergyKcal(dog(10, { activity: "less-active" })));
    expect(maintenanceEnergyKcal(dog(10, { neutered: true, activity: "less-active" }))).toBe(maintenanceEnergyKcal(dog(10, { activity: "less-active" })));
    // The indoor/neutered cat gets 75; a neutered but active cat still gets 100.
    expect(maintenanceEnergyKcal(cat(1, { neutered: true }))).toBe(75);
    expect(maintenanceEnergyKcal(cat(1, { neutered: true, activity: "active" }))).toBe(100);
    expect(maintenanceEnergyKcal(cat(1, { neutered: true, activity: "less-active" }))).toBe(75);
  });

  it("gives senior dogs 0.9 × the adult figure for their activity and neutering, senior cats the adult figure", () => {
    expect(maintenanceEnergyKcal(dog(1, { lifeStage: "senior" }))).toBeCloseTo(99, 9);
    expect(maintenanceEnergyKcal(dog(1, { lifeStage: "senior", activity: "active" }))).toBeCloseTo(117, 9);
    expect(maintenanceEnergyKcal(dog(1, { lifeStage: "senior", neutered: true }))).toBeCloseTo(85.5, 9);
    expect(maintenanceEnergyKcal(cat(4, { lifeStage: "senior" }))).toBe(maintenanceEnergyKcal(cat(4)));
    expect(maintenanceEnergyKcal(cat(1, { lifeStage: "senior", neutered: true }))).toBe(75);
  });

  it("gives puppies and kittens twice a normal adult's need at their weight, whatever their activity or neutering", () => {
    expect(maintenanceEnergyKcal(dog(10, { lifeStage: "puppy" }))).toBeCloseTo(1237.151, 3); // 2 × 618.575
    expect(maintenanceEnergyKcal(dog(1, { lifeStage: "puppy", activity: "less-active", neutered: true }))).toBe(220);
    expect(maintenanceEnergyKcal(dog(1, { lifeStage: "puppy", activity: "active" }))).toBe(220);
    expect(maintenanceEnergyKcal(cat(2, { lifeStage: "kitten" }))).toBeCloseTo(200 * 2 ** 0.67, 9); // 318.3
    expect(maintenanceEnergyKcal(cat(1, { lifeStage: "kitten", neutered: true, activity: "less-active" }))).toBe(200);
  });
});

describe("dailyGrams", () => {
  it("by energy: kcal a day ÷ kcal per kg × 1000, to whole grams", () => {
    // 618.575 ÷ 3800 × 1000 = 162.78 → 163
    expect(dailyGrams(dog(10), energyFood(3800))).toEqual({ method: "energy", grams: 163, pet: dog(10), kcalPerDay: maintenanceEnergyKcal(dog(10)), kcalPerKg: 3800 });
    // 534.224 ÷ 3800 × 1000 = 140.59 → 141
    expect(dailyGrams(dog(10, { activity: "less-active" }), energyFood(3800))?.grams).toBe(141);
    // 253.151 ÷ 850 × 1000 = 297.82 → 298 (a wet food)
    expect(dailyGrams(cat(4), energyFood(850))?.grams).toBe(298);
    // 1237.151 ÷ 3800 × 1000 = 325.57 → 326
    expect(dailyGrams(dog(10, { lifeStage: "puppy" }), energyFood(3800))?.grams).toBe(326);
  });

  it("rounds grams half up: 110 kcal at 4400 kcal/kg is 25 g exactly, at 4000 is 27.5 → 28", () => {
    expect(dailyGrams(dog(1), energyFood(4400))?.grams).toBe(25);
    expect(dailyGrams(dog(1), energyFood(4000))?.grams).toBe(28);
  });

  it("interpolates the guide in a straight line between the rows around the weight", () => {
    // 100 + (170 − 100) × (7.5 − 5) ÷ (10 − 5) = 135
    expect(dailyGrams(dog(7.5), guideFood)).toEqual({ method: "guide", grams: 135, pet: dog(7.5), scale: 1 });
    // 100 + 70 × 1 ÷ 5 = 114
    expect(dailyGrams(dog(6), guideFood)?.grams).toBe(114);
  });

  it("takes the row's grams when the weight is exactly on a row", () => {
    expect(dailyGrams(dog(5), guideFood)?.grams).toBe(100);
    expect(dailyGrams(dog(10), guideFood)?.grams).toBe(170);
    const threeRows = { kcalPerKg: null, guide: { rows: [{ weightKg: 5, gramsPerDay: 100 }, { weightKg: 10, gramsPerDay: 170 }, { weightKg: 20, gramsPerDay: 300 }] } };
    expect(dailyGrams(dog(10), threeRows)?.grams).toBe(170);
    expect(dailyGrams(dog(15), threeRows)?.grams).toBe(235); // 170 + 130 × 5 ÷ 10
  });

  it("below the first row and above the last, scales the end row by metabolic weight, not a straight line", () => {
    // 100 × (2.5 ÷ 5)^0.75 = 59.46 → 59 (a straight line would give 65)
    expect(dailyGrams(dog(2.5), guideFood)?.grams).toBe(59);
    // 170 × (20 ÷ 10)^0.75 = 285.90 → 286 (a straight line would give 310)
    expect(dailyGrams(dog(20), guideFood)?.grams).toBe(286);
    // Cats use ^0.67: 100 × 0.5^0.67 = 62.85 → 63
    expect(dailyGrams(cat(2.5), guideFood)?.grams).toBe(63);
  });

  it("scales the guide by the pet's need over a normal adult's at the same weight", () => {
    // Neutered normal dog: 95/110 of 135 = 116.59 → 117
    expect(dailyGrams(dog(7.5, { neutered: true }), guideFood)).toEqual({ method: "guide", grams: 117, pet: dog(7.5, { neutered: true }), scale: 95 / 110 });
    expect(dailyGrams(dog(7.5, { activity: "active" }), guideFood)?.grams).toBe(160); // 135 × 130/110 = 159.5 → 160
    expect(dailyGrams(dog(7.5, { lifeStage: "puppy" }), guideFood)?.grams).toBe(270);
    expect(dailyGrams(dog(7.5, { lifeStage: "senior" }), guideFood)?.grams).toBe(122); // 135 × 0.9 = 121.5 → 122
    expect(dailyGrams(cat(7.5, { neutered: true }), guideFood)?.grams).toBe(101); // 135 × 0.75 = 101.25
    expect(dailyGrams(cat(7.5, { activity: "active" }), guideFood)).toMatchObject({ method: "guide", scale: 1 });
  });

  it("prefers the guide to energy, sorting its rows and ignoring unusable ones", () => {
    expect(dailyGrams(dog(10), guideFood)?.method).toBe("guide");
    const messy = { kcalPerKg: 3800, guide: { rows: [{ weightKg: 10, gramsPerDay: 170 }, { weightKg: 0, gramsPerDay: 50 }, { weightKg: 5, gramsPerDay: 100 }, { weightKg: 7, gramsPerDay: Number.NaN }, { weightKg: 6, gramsPerDay: -5 }] } };
    expect(dailyGrams(dog(7.5), messy)?.grams).toBe(135);
    // A one-row guide: on the row, its grams; off it, scaled from it: 100 × 1.5^0.75 = 135.54 → 136
    const oneRow = { kcalPerKg: null, guide: { rows: [{ weightKg: 5, gramsPerDay: 100 }] } };
    expect(dailyGrams(dog(5), oneRow)?.grams).toBe(100);
    expect(dailyGrams(dog(7.5), oneRow)?.grams).toBe(136);
  });

  it("falls back to energy when the guide has no usable row, and gives null when neither is known", () => {
    expect(dailyGrams(dog(10), { kcalPerKg: 3800, guide: { rows: [] } })?.method).toBe("energy");
    expect(dailyGrams(dog(10), { kcalPerKg: 3800, guide: { rows: [{ weightKg: -1, gramsPerDay: 10 }] } })?.method).toBe("energy");
    expect(dailyGrams(dog(10), { kcalPerKg: 3800, guide: { rows: [{ weightKg: 0, gramsPerDay: 10 }] } })?.method).toBe("energy");
    expect(dailyGrams(dog(10), { kcalPerKg: null, guide: null })).toBeNull();
    expect(dailyGrams(dog(10), { kcalPerKg: 0, guide: null })).toBeNull();
    expect(dailyGrams(dog(10), { kcalPerKg: Number.NaN, guide: null })).toBeNull();
    expect(dailyGrams(dog(10), { kcalPerKg: Number.POSITIVE_INFINITY, guide: null })).toBeNull();
    expect(dailyGrams(dog(10), { kcalPerKg: null, guide: { rows: [] } })).toBeNull();
  });
});

describe("feedingCost", () => {
  it("costs 163 g a day from a 12 kg bag at £64.99 at 88p a day and £26.87 a month", () => {
    // Day: 6499 × 163 ÷ 12000 = 88.278 → 88.
    // Month: 6499 × 163 ÷ 12000 × 365.25 ÷ 12 = 1059337 × 1461 ÷ 576000 = 2686.964 → 2687 (from the
    // unrounded day; 88 × 30.4375 = 2678.5 would be 8p short).
    // Pack: 12000 ÷ 163 = 73.619 → 73.6 days.
    expect(feedingCost({ grams: 163, packGrams: 12000, totalPence: 6499 })).toEqual({ perDayPence: 88, perMonthPence: 2687, daysPerPack: 73.6 });
  });

  it("rounds a half penny up, for the day and for the month", () => {
    // 100 × 15 ÷ 1000 = 1.5 → 2 a day; 1.5 × 30.4375 = 45.65625 → 46 a month
    expect(feedingCost({ grams: 15, packGrams: 1000, totalPence: 100 })).toEqual({ perDayPence: 2, perMonthPence: 46, daysPerPack: 66.6 });
    // 96 × 1 ÷ 1000 × 30.4375 = 2.922 → 3; and 16 × 1 ÷ 1 × 30.4375 = 487 exactly; 2 × 30.4375 = 60.875 → 61
    expect(feedingCost({ grams: 1, packGrams: 1, totalPence: 16 })?.perMonthPence).toBe(487);
    expect(feedingCost({ grams: 1, packGrams: 1, totalPence: 2 })?.perMonthPence).toBe(61);
    // A month of exactly x.5: 8 × 30.4375 = 243.5 → 244; the day 8 × 1 ÷ 16 = 0.5 → 1
    expect(feedingCost({ grams: 1, packGrams: 16, totalPence: 128 })).toEqual({ perDayPence: 8, perMonthPence: 244, daysPerPack: 16 });
    expect(feedingCost({ grams: 1, packGrams: 16, totalPence: 8 })?.perDayPence).toBe(1);
  });

  it("rounds days per pack down to a tenth, so a pack never lasts longer than it says", () => {
    expect(feedingCost({ grams: 150, packGrams: 2000, totalPence: 1499 })?.daysPerPack).toBe(13.3); // 13.33
    expect(feedingCost({ grams: 60, packGrams: 2000, totalPence: 1499 })?.daysPerPack).toBe(33.3); // 33.33
    expect(feedingCost({ grams: 3, packGrams: 2, totalPence: 1499 })?.daysPerPack).toBe(0.6); // 0.667
    expect(feedingCost({ grams: 200, packGrams: 2000, totalPence: 1499 })?.daysPerPack).toBe(10);
  });

  it("takes a multipack's fractional grams exactly", () => {
    // 12 × 85 g = 1020 g; 1.5 × 85 = 127.5 g a day: 549 × 127.5 ÷ 1020 = 68.625 → 69
    expect(feedingCost({ grams: 127.5, packGrams: 1020, totalPence: 549 })?.perDayPence).toBe(69);
  });

  it("gives null for nothing to feed, an empty pack or a price that is not whole pence", () => {
    expect(feedingCost({ grams: 0, packGrams: 12000, totalPence: 6499 })).toBeNull();
    expect(feedingCost({ grams: 163, packGrams: 0, totalPence: 6499 })).toBeNull();
    expect(feedingCost({ grams: 163, packGrams: -1, totalPence: 6499 })).toBeNull();
    expect(feedingCost({ grams: 163, packGrams: Number.NaN, totalPence: 6499 })).toBeNull();
    expect(feedingCost({ grams: 163, packGrams: 12000, totalPence: 64.99 })).toBeNull();
    expect(feedingCost({ grams: 163, packGrams: 12000, totalPence: -1 })).toBeNull();
    expect(feedingCost({ grams: 163, packGrams: 12000, totalPence: 0 })).toEqual({ perDayPence: 0, perMonthPence: 0, daysPerPack: 73.6 });
    // Figures too large to divide exactly in whole numbers: no figure rather than a wrong one.
    expect(feedingCost({ grams: 5000, packGrams: 1, totalPence: 2 ** 40 })).toBeNull();
  });
});

describe("cheapestWayToFeed", () => {
  const food = energyFood(3800); // 163 g a day for a 10 kg dog

  it("picks the option with the lowest cost a month and gives its figures", () => {
    const options = [
      { key: "2kg-amazon", packGrams: 2000, totalPence: 1499 }, // 1499 × 163 ÷ 2000 = 122.2p a day
      { key: "12kg-zooplus", packGrams: 12000, totalPence: 6499 }, // 88.3p a day
      { key: "12kg-pets", packGrams: 12000, totalPence: 6999 }, // 95.1p a day
    ];
    const best = cheapestWayToFeed(dog(10), food, options);
    expect(best).toEqual({
      option: options[1],
      repeat: false,
      totalPence: 6499,
      daily: dailyGrams(dog(10), food),
      perDayPence: 88,
      perMonthPence: 2687,
      daysPerPack: 73.6,
    });
  });

  it("uses a repeat-delivery price when it is cheaper, and says so", () => {
    const options = [
      { key: "a", packGrams: 12000, totalPence: 6499, repeatTotalPence: null },
      { key: "b", packGrams: 12000, totalPence: 6999, repeatTotalPence: 6299 },
    ];
    const best = cheapestWayToFeed(dog(10), food, options);
    expect([best?.option.key, best?.repeat, best?.totalPence, best?.perDayPence]).toEqual(["b", true, 6299, 86]); // 6299 × 163 ÷ 12000 = 85.56
  });

  it("breaks a tie in cost per gram by the smaller pack, then the key, then one-off over repeat", () => {
    // 1000p for 2 kg and 6000p for 12 kg both cost 0.5p a gram.
    const small = { key: "z-small", packGrams: 2000, totalPence: 1000 };
    const large = { key: "a-large", packGrams: 12000, totalPence: 6000 };
    expect(cheapestWayToFeed(dog(10), food, [large, small])?.option).toBe(small);
    expect(cheapestWayToFeed(dog(10), food, [small, large])?.option).toBe(small);
    const b = { key: "b", packGrams: 2000, totalPence: 1000 };
    const a = { key: "a", packGrams: 2000, totalPence: 1000 };
    expect(cheapestWayToFeed(dog(10), food, [b, a])?.option).toBe(a);
    expect(cheapestWayToFeed(dog(10), food, [a, b])?.option).toBe(a);
    const both = cheapestWayToFeed(dog(10), food, [{ key: "a", packGrams: 2000, totalPence: 1000, repeatTotalPence: 1000 }]);
    expect(both?.repeat).toBe(false);
  });

  it("compares before rounding: a cheaper per gram option wins even when the month rounds the same", () => {
    // 163 g a day: 6499/12000 → 2686.96 and 6500/12000 → 2687.38, both 2687 a month.
    const dearer = { key: "a", packGrams: 12000, totalPence: 6500 };
    const cheaper = { key: "b", packGrams: 12000, totalPence: 6499 };
    expect(cheapestWayToFeed(dog(10), food, [dearer, cheaper])?.option).toBe(cheaper);
  });

  it("skips options it cannot cost, and gives null with no options or no daily grams", () => {
    const good = { key: "good", packGrams: 12000, totalPence: 6499 };
    expect(cheapestWayToFeed(dog(10), food, [{ key: "empty", packGrams: 0, totalPence: 1 }, good])?.option).toBe(good);
    expect(cheapestWayToFeed(dog(10), food, [])).toBeNull();
    expect(cheapestWayToFeed(dog(10), food, [{ key: "empty", packGrams: 0, totalPence: 1 }])).toBeNull();
    expect(cheapestWayToFeed(dog(10), { kcalPerKg: null, guide: null }, [good])).toBeNull();
  });
});

describe("describeMethod", () => {
  it("names the guide and the pet's weight and species", () => {
    expect(describeMethod(dailyGrams(dog(12), guideFood)!)).toBe("Based on the feeding guide for a 12 kg dog");
    expect(describeMethod(dailyGrams(cat(4.25, { activity: "active" }), guideFood)!)).toBe("Based on the feeding guide for a 4.25 kg cat");
  });

  it("says how the guide was adjusted when the pet is not a normal adult", () => {
    expect(describeMethod(dailyGrams(dog(12, { neutered: true }), guideFood)!)).toBe(
      "Based on the feeding guide for a 12 kg dog, adjusted to 86% for a neutered adult dog, normal activity",
    );
    expect(describeMethod(dailyGrams(dog(12, { activity: "less-active" }), guideFood)!)).toBe(
      "Based on the feeding guide for a 12 kg dog, adjusted to 86% for an adult dog, less active",
    );
    expect(describeMethod(dailyGrams(dog(12, { lifeStage: "puppy" }), guideFood)!)).toBe("Based on the feeding guide for a 12 kg dog, adjusted to 200% for a puppy");
    expect(describeMethod(dailyGrams(cat(4, { lifeStage: "kitten", neutered: true }), guideFood)!)).toBe("Based on the feeding guide for a 4 kg cat, adjusted to 200% for a kitten");
    expect(describeMethod(dailyGrams(dog(12, { lifeStage: "senior", activity: "active" }), guideFood)!)).toBe(
      "Based on the feeding guide for a 12 kg dog, adjusted to 106% for a senior dog, active", // 130 × 0.9 ÷ 110
    );
  });

  it("writes 'an' where the weight is read with a vowel sound", () => {
    expect(describeMethod(dailyGrams(dog(8), guideFood)!)).toBe("Based on the feeding guide for an 8 kg dog");
    expect(describeMethod(dailyGrams(dog(11), guideFood)!)).toBe("Based on the feeding guide for an 11 kg dog");
    expect(describeMethod(dailyGrams(dog(18.5), guideFood)!)).toBe("Based on the feeding guide for an 18.5 kg dog");
    expect(describeMethod(dailyGrams(dog(80), guideFood)!)).toBe("Based on the feeding guide for an 80 kg dog");
    expect(describeMethod(dailyGrams(dog(1.8), guideFood)!)).toBe("Based on the feeding guide for a 1.8 kg dog");
    expect(describeMethod(dailyGrams(dog(100), guideFood)!)).toBe("Based on the feeding guide for a 100 kg dog");
  });

  it("gives the energy figures, with thousands commas, and the FEDIAF profile", () => {
    expect(describeMethod(dailyGrams(dog(10), energyFood(3800))!)).toBe(
      "Estimated from energy: 619 kcal a day (FEDIAF maintenance for a 10 kg adult dog, normal activity) and 3,800 kcal per kg of food",
    );
    // 2 × 110 × 12^0.75 = 1418.4
    expect(describeMethod(dailyGrams(dog(12, { lifeStage: "puppy" }), energyFood(4100))!)).toBe(
      "Estimated from energy: 1,418 kcal a day (FEDIAF growth for a 12 kg puppy) and 4,100 kcal per kg of food",
    );
    expect(describeMethod(dailyGrams(cat(4, { neutered: true }), energyFood(850))!)).toBe(
      "Estimated from energy: 190 kcal a day (FEDIAF maintenance for a 4 kg neutered adult cat, normal activity) and 850 kcal per kg of food",
    );
    expect(describeMethod(dailyGrams(cat(8, { lifeStage: "senior", activity: "less-active" }), energyFood(3650.4))!)).toBe(
      "Estimated from energy: 302 kcal a day (FEDIAF maintenance for an 8 kg senior cat, less active) and 3,650 kcal per kg of food", // 75 × 8^0.67 = 302.09
    );
    // 2 × 100 × 3^0.67 = 417.6
    expect(describeMethod(dailyGrams(cat(3, { lifeStage: "kitten" }), energyFood(4000))!)).toBe(
      "Estimated from energy: 418 kcal a day (FEDIAF growth for a 3 kg kitten) and 4,000 kcal per kg of food",
    );
    // Commas every three digits from the right, however long the number.
    expect(describeMethod(dailyGrams(dog(10), energyFood(12_345))!)).toMatch(/and 12,345 kcal per kg of food$/);
    expect(describeMethod(dailyGrams(dog(10), energyFood(1_234_567))!)).toMatch(/and 1,234,567 kcal per kg of food$/);
  });
});

describe("feedingGuideSchema and parseFeedingGuide", () => {
  const rows = (...pairs: [number, number][]) => ({ rows: pairs.map(([weightKg, gramsPerDay]) => ({ weightKg, gramsPerDay })) });

  it("accepts rising weights with equal or rising grams, at the bounds", () => {
    expect(feedingGuideSchema.safeParse(rows([0.5, 20], [100, 5000])).success).toBe(true);
    expect(feedingGuideSchema.safeParse(rows([2, 40], [4, 40])).success).toBe(true);
  });

  it("refuses one row, weights that do not rise, grams that fall, and values off the bounds", () => {
    expect(feedingGuideSchema.safeParse(rows([5, 95])).success).toBe(false);
    // Each problem names its row and field, so the admin's form can show it beside the value.
    const issue = (guide: ReturnType<typeof rows>) => feedingGuideSchema.safeParse(guide).error?.issues.map(({ code, path, message }) => ({ code, path, message }));
    expect(issue(rows([5, 95], [5, 120]))).toEqual([{ code: "custom", path: ["rows", 1, "weightKg"], message: "Body weights must rise row by row" }]);
    expect(issue(rows([5, 95], [10, 120], [12, 94]))).toEqual([{ code: "custom", path: ["rows", 2, "gramsPerDay"], message: "Daily grams must not fall as weight rises" }]);
    expect(feedingGuideSchema.safeParse(rows([0, 10], [5, 95])).success).toBe(false);
    expect(feedingGuideSchema.safeParse(rows([5, 95], [100.5, 900])).success).toBe(false);
    expect(feedingGuideSchema.safeParse(rows([5, 95], [10, 5000.5])).success).toBe(false);
    expect(feedingGuideSchema.safeParse(rows(...Array.from({ length: 31 }, (_, i): [number, number] => [i + 1, 10 * (i + 1)]))).success).toBe(false);
    expect(feedingGuideSchema.safeParse(rows(...Array.from({ length: 30 }, (_, i): [number, number] => [i + 1, 10 * (i + 1)]))).success).toBe(true);
  });

  it("reads stored JSON, and treats none, damaged JSON or an invalid guide as no guide", () => {
    expect(parseFeedingGuide('{"rows":[{"weightKg":5,"gramsPerDay":95},{"weightKg":10,"gramsPerDay":160}]}')).toEqual(rows([5, 95], [10, 160]));
    expect(parseFeedingGuide(null)).toBeNull();
    expect(parseFeedingGuide("")).toBeNull();
    expect(parseFeedingGuide("{rows:")).toBeNull();
    expect(parseFeedingGuide('{"rows":[{"weightKg":5,"gramsPerDay":95}]}')).toBeNull();
  });
});

describe("dailyCostFor", () => {
  it("costs the grams a day at the pack's price per gram, in whole pence rounded half up", () => {
    // 163 g × 6499p ÷ 12000 g = 88.28p.
    expect(dailyCostFor(163, 12000, 6499)).toBe(88);
    // 150 g × 1000p ÷ 2000 g = 75p exactly; 5 g × 100p ÷ 1000 g = 0.5p rounds up to 1.
    expect(dailyCostFor(150, 2000, 1000)).toBe(75);
    expect(dailyCostFor(5, 1000, 100)).toBe(1);
    // 4.9 g: 0.49p rounds down to 0.
    expect(dailyCostFor(4.9, 1000, 100)).toBe(0);
  });
  it("is null when the grams, the pack or the price are not known, or the pack is empty", () => {
    expect(dailyCostFor(null, 12000, 6499)).toBeNull();
    expect(dailyCostFor(163, null, 6499)).toBeNull();
    expect(dailyCostFor(163, 12000, null)).toBeNull();
    expect(dailyCostFor(163, 0, 6499)).toBeNull();
    expect(dailyCostFor(0, 12000, 6499)).toBeNull();
  });
});
