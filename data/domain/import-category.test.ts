import { describe, expect, it } from "vitest";
import { categoryForFeed } from "./import-category.ts";
import { categorySeeds as seedCategories } from "../seed/catalogue-data.ts";

const categories = seedCategories.map((category, index) => ({ id: index + 1, name: category.name, slug: category.slug }));
const slugFor = (text: string) => categoryForFeed(text, categories)?.slug ?? null;

describe("categoryForFeed", () => {
  it.each([
    ["Dog Food", "dog-food"],
    ["dog food", "dog-food"],
    ["Cat Food", "cat-food"],
    ["Cat Treats", "cat-food"],
    ["Dog Treats", "dog-treats"],
    ["Dog Treats & Chews", "dog-treats"],
    ["dog-treats", "dog-treats"],
    ["Dog Toys", "dog-toys"],
    ["Cat Toys", "cat-toys"],
    ["Cat Litter", "cat-litter"],
    ["Flea & Tick", "pet-health"],
    ["Fish & Aquatics", "fish-aquatics"],
    ["Small Animal", "small-animal"],
    ["Bird", "bird-food"],
    ["Dog Collars & Leads", "dog-training"],
    ["Pet Supplies > Cats > Cat Litter", "cat-litter"],
    ["Pet Supplies > Dogs > Dog Food", "dog-food"],
    ["Pet Supplies > Dogs > Beds", "dog-beds"],
    ["Reptile heating", "reptile-supplies"],
  ])("%s -> %s", (text, slug) => {
    expect(slugFor(text)).toBe(slug);
  });
  it("maps nothing it does not recognise, and nothing empty", () => {
    expect(slugFor("Garden Furniture")).toBeNull();
    expect(slugFor("")).toBeNull();
    expect(slugFor(" > ")).toBeNull();
  });
  it("returns the catalogue's own category (id and name)", () => {
    expect(categoryForFeed("Cat Litter", categories)).toEqual(categories.find((category) => category.slug === "cat-litter"));
  });
});
