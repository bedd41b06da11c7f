import { describe, expect, it } from "vitest";
import { dietsIn, foodFactsFromName, foodFactsLine, foodFactsOf, lifeStageLabel, statedDiets } from "./food-facts.ts";

const none = { lifeStage: "", foodType: "", mainProtein: "", specialDiets: "" };

describe("foodFactsFromName", () => {
  it.each([
    ["Purina Pro Plan Medium Adult Dry Dog Food Chicken 7kg", { lifeStage: "adult", foodType: "dry", mainProtein: "chicken", diets: [] }],
    ["Royal Canin Maxi Puppy Dry Dog Food 15kg", { lifeStage: "junior", foodType: "dry", mainProtein: null, diets: [] }],
    ["Hill's Science Plan Adult Medium Dry Dog Food with Lamb & Rice 14kg", { lifeStage: "adult", foodType: "dry", mainProtein: "lamb", diets: [] }],
    ["Whiskas 1+ Adult Wet Cat Food Pouches Fish Selection in Jelly 40 x 85g", { lifeStage: "adult", foodType: "wet", mainProtein: "fish", diets: [] }],
    ["Lily's Kitchen Senior 7+ Grain Free Dry Cat Food Salmon & Chicken 2kg", { lifeStage: "senior", foodType: "dry", mainProtein: "salmon", diets: ["grain-free"] }],
    ["Natures Menu Frozen Raw Nuggets Beef 1kg", { lifeStage: null, foodType: "raw", mainProtein: "beef", diets: [] }],
    ["Forthglade All Life Stages Grain-Free Wet Dog Food Turkey Trays 7 x 395g", { lifeStage: "all", foodType: "wet", mainProtein: "turkey", diets: ["grain-free"] }],
    ["James Wellbeloved Hypoallergenic Sensitive Kitten Dry Food Turkey 1.5kg", { lifeStage: "junior", foodType: "dry", mainProtein: "turkey", diets: ["hypoallergenic", "sensitive"] }],
    ["Felix Pâté Senior 11+ Cod 12 x 100g", { lifeStage: "senior", foodType: "wet", mainProtein: "white-fish", diets: [] }],
  ])("reads %s", (name, facts) => {
    expect(foodFactsFromName(name)).toEqual(facts);
  });

  it("takes the protein named first as the main one, wherever it sits in the list of proteins", () => {
    expect(foodFactsFromName("Adult Dry Dog Food Lamb with Chicken").mainProtein).toBe("lamb");
    expect(foodFactsFromName("Adult Dry Dog Food Chicken with Lamb").mainProtein).toBe("chicken");
    // "Salmon" before "fish": the specific fish is the main protein.
    expect(foodFactsFromName("Salmon & Ocean Fish Dry Cat Food").mainProtein).toBe("salmon");
  });

  it("reads no fact from words that only look like one", () => {
    // "Canine" is not a can, "Adulterated" not adult, "Drying" not dry, "Rawhide" not raw.
    expect(foodFactsFromName("Canine Adulterated Drying Rawhide Chew")).toEqual({ lifeStage: null, foodType: null, mainProtein: null, diets: [] });
    // 11+ is senior, never the 1+ of an adult food.
    expect(foodFactsFromName("Kitten 11+ Dry").lifeStage).toBe("junior");
    expect(foodFactsFromName("Cat Food 11+ Dry").lifeStage).toBe("senior");
  });
});

describe("dietsIn and statedDiets", () => {
  it("reads diets a description claims, in a fixed order", () => {
    expect(dietsIn("Naturally hypoallergenic, grain free recipe for sensitive tummies")).toEqual(["grain-free", "hypoallergenic", "sensitive"]);
    expect(dietsIn("Complete food with rice")).toEqual([]);
  });

  it("reads a stored list back in a fixed order, dropping what it does not know; none stated is null", () => {
    expect(statedDiets("sensitive, grain-free")).toEqual(["grain-free", "sensitive"]);
    expect(statedDiets("vegan,sensitive")).toEqual(["sensitive"]);
    expect(statedDiets("")).toBeNull();
    expect(statedDiets("vegan")).toBeNull();
  });
});

describe("foodFactsOf", () => {
  it("takes each stated fact over the name's, and the name's where none is stated", () => {
    const name = "Adult Dry Dog Food Lamb 2kg";
    expect(foodFactsOf(none, name)).toEqual({ lifeStage: "adult", foodType: "dry", mainProtein: "lamb", diets: [] });
    expect(foodFactsOf({ lifeStage: "senior", foodType: "wet", mainProtein: "duck", specialDiets: "sensitive" }, name)).toEqual({
      lifeStage: "senior",
      foodType: "wet",
      mainProtein: "duck",
      diets: ["sensitive"],
    });
    // A stored value the rules no longer know counts as not stated.
    expect(foodFactsOf({ lifeStage: "teen", foodType: "kibble", mainProtein: "kangaroo", specialDiets: "vegan" }, name)).toEqual(foodFactsOf(none, name));
  });
});

describe("foodFactsLine and lifeStageLabel", () => {
  it("names a young food by its species, and lists the known facts in order", () => {
    expect(lifeStageLabel("junior", "dog")).toBe("Puppy");
    expect(lifeStageLabel("junior", "cat")).toBe("Kitten");
    expect(lifeStageLabel("junior", null)).toBe("Puppy or kitten");
    expect(lifeStageLabel("senior", "dog")).toBe("Senior");
    expect(foodFactsLine({ lifeStage: "junior", foodType: "wet", mainProtein: "white-fish", diets: ["grain-free", "sensitive"] }, "cat")).toEqual([
      "Kitten",
      "Wet",
      "White fish",
      "Grain-free",
      "Sensitive",
    ]);
    expect(foodFactsLine({ lifeStage: null, foodType: "raw", mainProtein: null, diets: [] }, "dog")).toEqual(["Raw"]);
    expect(foodFactsLine({ lifeStage: "adult", foodType: null, mainProtein: "duck", diets: [] }, "dog")).toEqual(["Adult", "Duck"]);
    expect(foodFactsLine({ lifeStage: null, foodType: null, mainProtein: null, diets: [] }, null)).toEqual([]);
  });
});
