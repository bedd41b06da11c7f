import { describe, expect, it } from "vitest";
import { feedingGuideSchema, petProfileSchema } from "./feeding.schema.ts";

const rows = (...pairs: [number, number][]) => ({ rows: pairs.map(([weightKg, gramsPerDay]) => ({ weightKg, gramsPerDay })) });
const messages = (input: unknown) => feedingGuideSchema.safeParse(input).error?.issues.map((issue) => issue.message) ?? [];

describe("feedingGuideSchema at its bounds", () => {
  it("takes a body weight of exactly 100 kg and daily grams of exactly 5,000", () => {
    expect(feedingGuideSchema.safeParse(rows([5, 95], [100, 5000])).success).toBe(true);
  });

  it("says what is wrong one past each bound", () => {
    expect(messages(rows([5, 95], [100.01, 900]))).toEqual(["A body weight of at most 100 kg"]);
    expect(messages(rows([5, 95], [10, 5000.01]))).toEqual(["Daily grams of at most 5,000"]);
    expect(messages(rows([5, 0], [10, 95]))).toEqual(["Daily grams above 0"]);
    expect(messages(rows([0, 95], [10, 100]))).toEqual(["A body weight above 0 kg"]);
  });

  it("takes 2 rows, not 1; 30 rows, not 31", () => {
    const many = (count: number) => rows(...Array.from({ length: count }, (_, i): [number, number] => [i + 1, 10 * (i + 1)]));
    expect(feedingGuideSchema.safeParse(many(2)).success).toBe(true);
    expect(messages(many(1))).toEqual(["At least two rows"]);
    expect(feedingGuideSchema.safeParse(many(30)).success).toBe(true);
    expect(messages(many(31))).toEqual(["At most 30 rows"]);
  });
});

describe("petProfileSchema's messages", () => {
  const valid = { name: "Rex", species: "dog", weightKg: 12, lifeStage: "adult", activity: "normal", neutered: false };
  const message = (input: unknown) => petProfileSchema.safeParse(input).error?.issues.map((issue) => issue.message);

  it("states each limit it refuses", () => {
    expect(message({ ...valid, name: "x".repeat(41) })).toEqual(["A name of at most 40 characters"]);
    expect(message({ ...valid, weightKg: 0.49 })).toEqual(["At least 0.5 kg"]);
    expect(message({ ...valid, weightKg: 100.01 })).toContain("At most 100 kg");
    expect(message({ ...valid, species: "cat", weightKg: 15.01 })).toEqual(["At most 15 kg for a cat"]);
    expect(message({ ...valid, species: "cat", lifeStage: "puppy" })).toEqual(["A cat cannot be a puppy"]);
  });
});
