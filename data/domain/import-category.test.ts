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

describe("categoryForFeed: every keyword rule, in its order", () => {
  // Each rule's keywords inside a longer feed category: the rule's category, and not an earlier
  // rule's (a specific rule stands before the general one that would also match).
  it.each([
    ["Pets > Cat Litter Range", "cat-litter"],
    ["Pets > Litter Range", "cat-litter"],
    ["Pets > Cat Toy Range", "cat-toys"],
    ["Pets > Cat Toys Range", "cat-toys"],
    ["Pets > Scratch Range", "cat-toys"],
    ["Pets > Scratcher Range", "cat-toys"],
    ["Pets > Cat Treats Range", "cat-food"],
    ["Pets > Cat Food Range", "cat-food"],
    ["Pets > Dog Treats Range", "dog-treats"],
    ["Pets > Treats Range", "dog-treats"],
    ["Pets > Chews Range", "dog-treats"],
    ["Pets > Dog Food Range", "dog-food"],
    ["Pets > Dog Toys Range", "dog-toys"],
    ["Pets > Toys Range", "dog-toys"],
    ["Pets > Beds Range", "dog-beds"],
    ["Pets > Bedding Range", "dog-beds"],
    ["Pets > Flea Range", "pet-health"],
    ["Pets > Tick Range", "pet-health"],
    ["Pets > Worming Range", "pet-health"],
    ["Pets > Wormer Range", "pet-health"],
    ["Pets > Supplements Range", "health-supplements"],
    ["Pets > Vitamins Range", "health-supplements"],
    ["Pets > Grooming Range", "dog-grooming"],
    ["Pets > Shampoo Range", "dog-grooming"],
    ["Pets > Leads Range", "dog-training"],
    ["Pets > Collars Range", "dog-training"],
    ["Pets > Training Range", "dog-training"],
    ["Pets > Harness Range", "dog-training"],
    ["Pets > Small Animal Range", "small-animal"],
    ["Pets > Rabbit Range", "small-animal"],
    ["Pets > Guinea Range", "small-animal"],
    ["Pets > Hamster Range", "small-animal"],
    ["Pets > Bird Range", "bird-food"],
    ["Pets > Fish Range", "fish-aquatics"],
    ["Pets > Aquatic Range", "fish-aquatics"],
    ["Pets > Aquatics Range", "fish-aquatics"],
    ["Pets > Aquarium Range", "fish-aquatics"],
    ["Pets > Reptile Range", "reptile-supplies"],
    ["Pets > Crates Range", "dog-kennels-crates"],
    ["Pets > Kennels Range", "dog-kennels-crates"],
    ["Pets > Carriers Range", "dog-kennels-crates"],
  ])("%s -> %s", (text, slug) => {
    expect(slugFor(text)).toBe(slug);
  });
  it("needs every keyword of a rule, as whole words", () => {
    expect(slugFor("Catering Supplies")).toBeNull();
    expect(slugFor("Fishing Rods")).toBeNull();
    expect(slugFor("Cat Toy Box")).toBe("cat-toys");
  });
});
