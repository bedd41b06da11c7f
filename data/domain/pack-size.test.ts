import { describe, expect, it } from "vitest";
import { productLineSeeds } from "../seed/catalogue-data.ts";
import { packSizeCases } from "./fixtures/pack-sizes.ts";
import { parsePackQuantity } from "./pack-size.ts";

describe("parsePackQuantity", () => {
  it.each(packSizeCases)("$text", ({ text, expected }) => {
    expect(parsePackQuantity(text)).toEqual(expected);
  });

  it("reads nothing from a missing text", () => {
    expect(parsePackQuantity(null)).toBeNull();
    expect(parsePackQuantity(undefined)).toBeNull();
  });

  it("covers every pack label of the seed catalogue, each once", () => {
    const covered = new Set(packSizeCases.map(({ text }) => text));
    const seedLabels = new Set(productLineSeeds.flatMap((line) => line.variants.map((variant) => variant.pack)));
    expect([...seedLabels].filter((label) => !covered.has(label))).toEqual([]);
    expect(covered.size).toBe(packSizeCases.length);
  });

  it("gives a label that reads back as the same quantity", () => {
    for (const { expected } of packSizeCases) {
      if (expected) expect(parsePackQuantity(expected.label), expected.label).toEqual(expected);
    }
  });

  it("states amount as count x each, or as the count when pieces are items", () => {
    for (const { text, expected } of packSizeCases) {
      if (!expected) continue;
      expect(expected.amount, text).toBeCloseTo(expected.each === null ? expected.count : expected.count * expected.each, 6);
      expect(expected.unit, text).toBe({ weight: "kg", volume: "l", count: "item" }[expected.measure]);
    }
  });

  it("takes the last weight when a name states several that do not combine", () => {
    expect(parsePackQuantity("Burns Puppy 2kg Trial Bag then 12kg")?.label).toBe("12kg");
    expect(parsePackQuantity("Royal Canin 400g then 2kg")?.amount).toBe(2000);
    expect(parsePackQuantity("Whiskas 12 x 85g and 40 x 85g")?.label).toBe("40 x 85g");
  });

  it("adds a free extra to the pack before it, keeping a multipack of equal pieces", () => {
    expect(parsePackQuantity("Royal Canin Mini Adult 2kg + 400g free")?.label).toBe("2.4kg");
    expect(parsePackQuantity("Felix 40 x 100g + 4 x 100g Extra")).toEqual({ amount: 4400, measure: "weight", unit: "kg", count: 44, each: 100, label: "44 x 100g" });
    expect(parsePackQuantity("Felix 40 x 100g + 4 x 100g")?.label).toBe("4 x 100g");
    // Pounds with pounds stay in pounds; a metric extra on pounds makes grams, labelled to the gram.
    expect(parsePackQuantity("Burns Treats 4lb + 2lb Free")).toMatchObject({ amount: 2721.55, label: "6lb" });
    expect(parsePackQuantity("Burns Treats 4lb + 500g Free")).toMatchObject({ amount: 2314.37, count: 1, label: "2.314kg" });
  });

  it("reads the animal's weight as a pack only when nothing marks it as the animal's", () => {
    expect(parsePackQuantity("Drontal Cat 4kg")?.amount).toBe(4000);
    expect(parsePackQuantity("Spot On for Dogs 10kg to 25kg")).toBeNull();
    expect(parsePackQuantity("Spot On for Dogs 10 to 25kg")).toBeNull();
    expect(parsePackQuantity("Collar for Dogs 8kg and over")).toBeNull();
    expect(parsePackQuantity("Collar for Dogs under 8kg")).toBeNull();
    expect(parsePackQuantity("Wormer for Dogs weighing 10kg")).toBeNull();
    expect(parsePackQuantity("Royal Canin Mini Adult - 2kg")?.amount).toBe(2000);
    expect(parsePackQuantity("Up to 25kg Dog Harness")).toBeNull();
  });
});
