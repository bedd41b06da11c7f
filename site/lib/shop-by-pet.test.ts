import { describe, expect, it } from "vitest";
import type { Category } from "../../data/domain/catalogue.ts";
import { categorySeeds } from "../../data/seed/catalogue-data.ts";
import { shopByPet } from "./shop-by-pet.ts";

/** The seeded categories, numbered in seed order. */
const categories: Category[] = categorySeeds.map((seed, index) => ({ id: index + 1, name: seed.name, slug: seed.slug, icon: seed.icon, description: "" }));
const slugs = (range: { categories: Category[] }) => range.categories.map((category) => category.slug);

describe("Shop By Pet", () => {
  it("sends Dogs and Cats to a page of their whole range, food first, not to their food alone", () => {
    const [dogs, cats] = shopByPet(categories);
    expect(dogs).toMatchObject({ label: "Dogs", slug: "dogs", href: "/pets/dogs" });
    expect(slugs(dogs!)).toEqual(["dog-food", "dog-treats", "dog-toys", "dog-beds", "dog-grooming", "dog-training", "dog-kennels-crates"]);
    expect(cats).toMatchObject({ label: "Cats", slug: "cats", href: "/pets/cats" });
    expect(slugs(cats!)).toEqual(["cat-food", "cat-toys", "cat-litter"]);
  });

  it("sends a pet with one category straight to it, and leaves out a pet with none", () => {
    expect(shopByPet(categories).map((pet) => [pet.label, pet.href])).toEqual([
      ["Dogs", "/pets/dogs"],
      ["Cats", "/pets/cats"],
      ["Small Pets", "/category/small-animal"],
      ["Fish", "/category/fish-aquatics"],
      ["Birds", "/category/bird-food"],
      ["Reptiles", "/category/reptile-supplies"],
    ]);
    const withoutReptiles = categories.filter((category) => category.slug !== "reptile-supplies");
    expect(shopByPet(withoutReptiles).map((pet) => pet.label)).not.toContain("Reptiles");
    // A second bird category turns Birds into a page of both.
    const birds = shopByPet([...categories, { id: 99, name: "Bird Cages", slug: "bird-cages", icon: "bird", description: "" }]).find((pet) => pet.label === "Birds");
    expect(birds).toMatchObject({ href: "/pets/birds" });
    expect(slugs(birds!)).toEqual(["bird-food", "bird-cages"]);
  });
});
