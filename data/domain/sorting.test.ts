import { describe, expect, it } from "vitest";
import { categorySeeds } from "../seed/catalogue-data.ts";
import { isSortKey, pricePerKgSort, soldByWeight, sortOffered, sortOptions, sortOptionsFor } from "./sorting.ts";

describe("price per kg sort", () => {
  it("is offered in the categories sold by weight: food, treats, litter, small-animal and bird food", () => {
    const byWeight = categorySeeds.filter((category) => soldByWeight(category.slug)).map((category) => category.slug);
    expect(byWeight).toEqual(["dog-food", "cat-food", "dog-treats", "cat-litter", "small-animal", "bird-food"]);
    expect(soldByWeight(undefined)).toBe(false);
    expect(soldByWeight("dog-foods")).toBe(false);
  });
  it("adds its option last in those categories only", () => {
    expect(sortOptionsFor("bird-food")).toEqual([...sortOptions, pricePerKgSort]);
    expect(sortOptionsFor("dog-toys")).toBe(sortOptions);
    expect(sortOptionsFor(undefined)).toBe(sortOptions);
    expect(pricePerKgSort.label).toBe("Price per kg: Low to High");
  });
  it("is a sort key, offered where sold by weight; every other sort everywhere", () => {
    expect(isSortKey("price_per_kg_asc")).toBe(true);
    expect(sortOffered("price_per_kg_asc", "cat-litter")).toBe(true);
    expect(sortOffered("price_per_kg_asc", "fish-aquatics")).toBe(false);
    expect(sortOffered("price_per_kg_asc", undefined)).toBe(false);
    for (const option of sortOptions) expect(sortOffered(option.value, undefined)).toBe(true);
  });
});
