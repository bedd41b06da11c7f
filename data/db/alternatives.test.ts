/**
 * When a food's best price stops counting for its equivalents: at its current-until time it still
 * does, a millisecond later it does not; a price with no such time (set by hand) always does.
 */
import { describe, expect, it } from "vitest";
import { isCurrent } from "./alternatives.ts";
import type { FoodChoice } from "../domain/alternatives.ts";

const food = (currentUntil: string | null): FoodChoice => ({
  id: 1,
  species: "dog",
  familyKey: null,
  facts: { lifeStage: "adult", foodType: "dry", mainProtein: null, diets: [] },
  packGrams: 2000,
  kcalPerKg: null,
  guide: null,
  bestPricePence: 1000,
  currentUntil,
});

describe("isCurrent", () => {
  it("counts a price up to and at its current-until time, not a millisecond after", () => {
    const until = "2026-11-29T10:00:00.000Z";
    expect(isCurrent(food(until), "2026-11-29T09:59:59.999Z")).toBe(true);
    expect(isCurrent(food(until), until)).toBe(true);
    expect(isCurrent(food(until), "2026-11-29T10:00:00.001Z")).toBe(false);
  });

  it("always counts a price that does not lapse by time", () => {
    expect(isCurrent(food(null), "2099-01-01T00:00:00.000Z")).toBe(true);
  });
});
