/**
 * A food's facts for finding its equivalents: the life stage it is made for, its type (dry, wet,
 * raw), its main protein and its special diets. The admin (or a feed) states them on the product;
 * a fact nobody stated is read from the product's name, and a fact neither gives is unknown. Pure, no zod: the admin form
 * and the islands import it.
 */
import type { Species } from "./feeding.ts";

/** A food's life stage: "junior" is puppy food for a dog, kitten food for a cat; "all" suits every stage. */
export const foodLifeStages = ["junior", "adult", "senior", "all"] as const;
export const foodTypes = ["dry", "wet", "raw"] as const;
export const mainProteins = ["chicken", "turkey", "duck", "beef", "lamb", "pork", "venison", "rabbit", "salmon", "tuna", "white-fish", "fish", "insect"] as const;
export const specialDiets = ["grain-free", "hypoallergenic", "sensitive"] as const;

export type FoodLifeStage = (typeof foodLifeStages)[number];
export type FoodType = (typeof foodTypes)[number];
export type MainProtein = (typeof mainProteins)[number];
export type SpecialDiet = (typeof specialDiets)[number];

export const foodLifeStageLabels: Readonly<Record<FoodLifeStage, string>> = {
  junior: "Puppy or kitten",
  adult: "Adult",
  senior: "Senior",
  all: "All life stages",
};
export const foodTypeLabels: Readonly<Record<FoodType, string>> = { dry: "Dry", wet: "Wet", raw: "Raw" };
export const mainProteinLabels: Readonly<Record<MainProtein, string>> = {
  chicken: "Chicken",
  turkey: "Turkey",
  duck: "Duck",
  beef: "Beef",
  lamb: "Lamb",
  pork: "Pork",
  venison: "Venison",
  rabbit: "Rabbit",
  salmon: "Salmon",
  tuna: "Tuna",
  "white-fish": "White fish",
  fish: "Fish",
  insect: "Insect",
};
export const specialDietLabels: Readonly<Record<SpecialDiet, string>> = {
  "grain-free": "Grain-free",
  hypoallergenic: "Hypoallergenic",
  sensitive: "Sensitive",
};

/** A food's facts; null where not known. Diets: every special diet it claims, in `specialDiets` order ([] for none known). */
export interface FoodFacts {
  lifeStage: FoodLifeStage | null;
  foodType: FoodType | null;
  mainProtein: MainProtein | null;
  diets: SpecialDiet[];
}

/** What the product states, as stored: "" for a fact not stated; diets as a comma-separated list. */
export interface StatedFoodFacts {
  lifeStage: string;
  foodType: string;
  mainProtein: string;
  specialDiets: string;
}

const lifeStagePatterns: readonly [FoodLifeStage, RegExp][] = [
  ["all", /\ball (?:life ?stages|ages)\b/i],
  ["junior", /\b(?:puppy|puppies|junior|kitten|kittens)\b/i],
  ["senior", /\b(?:senior|mature|ageing|aging|7\s?\+|8\s?\+|11\s?\+)(?=\s|$|[^\w])/i],
  ["adult", /\b(?:adult|1\s?\+)(?=\s|$|[^\w])/i],
];
const foodTypePatterns: readonly [FoodType, RegExp][] = [
  ["raw", /\b(?:raw|freeze[- ]dried|frozen)\b/i],
  ["wet", /\b(?:wet|pouch(?:es)?|tins?|cans?|trays?|in (?:gravy|jelly|sauce|loaf))\b|\bp[aâ]t[eé](?![a-z])/i],
  ["dry", /\b(?:dry|kibble|biscuits?)\b/i],
];
/** The words naming each protein; a name's first one (by where it stands) is its main protein. */
const proteinPatterns: readonly [MainProtein, RegExp][] = [
  ["chicken", /\bchicken\b/i],
  ["turkey", /\bturkey\b/i],
  ["duck", /\bduck\b/i],
  ["beef", /\bbeef\b/i],
  ["lamb", /\blamb\b/i],
  ["pork", /\bpork\b/i],
  ["venison", /\bvenison\b/i],
  ["rabbit", /\brabbit\b/i],
  ["salmon", /\bsalmon\b/i],
  ["tuna", /\btuna\b/i],
  ["white-fish", /\b(?:white ?fish|cod|haddock|pollock|hake)\b/i],
  ["fish", /\b(?:ocean fish|fish)\b/i],
  ["insect", /\b(?:insects?|black soldier fly)\b/i],
];
const dietPatterns: readonly [SpecialDiet, RegExp][] = [
  ["grain-free", /\bgrain[- ]?free\b/i],
  ["hypoallergenic", /\bhypo-?allergenic\b/i],
  ["sensitive", /\bsensitive\b/i],
];

const firstMatch = <T>(patterns: readonly [T, RegExp][], text: string): T | null => patterns.find(([, pattern]) => pattern.test(text))?.[0] ?? null;

/**
 * The special diets a text claims (a name, or a maker's description), in `specialDiets` order.
 * @example dietsIn("Naturally hypoallergenic, grain-free recipe") // ["grain-free", "hypoallergenic"]
 */
export function dietsIn(text: string): SpecialDiet[] {
  return dietPatterns.filter(([, pattern]) => pattern.test(text)).map(([diet]) => diet);
}

/**
 * The facts a food's name gives: its life stage, type and special diets where it names them, and
 * as its main protein the protein it names first.
 * @example foodFactsFromName("Purina Pro Plan Medium Adult Dry Dog Food Chicken 7kg") // { lifeStage: "adult", foodType: "dry", mainProtein: "chicken", diets: [] }
 * @example foodFactsFromName("Hill's Adult Grain Free Dry Dog Food with Lamb & Chicken 2kg") // { lifeStage: "adult", foodType: "dry", mainProtein: "lamb", diets: ["grain-free"] }
 */
export function foodFactsFromName(name: string): FoodFacts {
  let mainProtein: MainProtein | null = null;
  let at = Number.POSITIVE_INFINITY;
  for (const [protein, pattern] of proteinPatterns) {
    const index = name.search(pattern);
    if (index >= 0 && index < at) {
      mainProtein = protein;
      at = index;
    }
  }
  return {
    lifeStage: firstMatch(lifeStagePatterns, name),
    foodType: firstMatch(foodTypePatterns, name),
    mainProtein,
    diets: dietsIn(name),
  };
}

const isOneOf = <T extends string>(values: readonly T[], value: string): value is T => (values as readonly string[]).includes(value);

/**
 * A stated list of special diets read back: the known ones it names, in `specialDiets` order;
 * null when it states none.
 * @example statedDiets("sensitive,grain-free") // ["grain-free", "sensitive"]
 */
export function statedDiets(list: string): SpecialDiet[] | null {
  const named = new Set(list.split(",").map((item) => item.trim()));
  const diets = specialDiets.filter((diet) => named.has(diet));
  return diets.length > 0 ? diets : null;
}

/**
 * A food's facts: each one the product states, else what its name says.
 * @example foodFactsOf({ lifeStage: "senior", foodType: "", mainProtein: "", specialDiets: "" }, "Adult Dry Dog Food Lamb 2kg") // { lifeStage: "senior", foodType: "dry", mainProtein: "lamb", diets: [] }
 */
export function foodFactsOf(stated: StatedFoodFacts, name: string): FoodFacts {
  const read = foodFactsFromName(name);
  return {
    lifeStage: isOneOf(foodLifeStages, stated.lifeStage) ? stated.lifeStage : read.lifeStage,
    foodType: isOneOf(foodTypes, stated.foodType) ? stated.foodType : read.foodType,
    mainProtein: isOneOf(mainProteins, stated.mainProtein) ? stated.mainProtein : read.mainProtein,
    diets: statedDiets(stated.specialDiets) ?? read.diets,
  };
}

/** A life stage in a species' words: "Puppy" for a dog's junior food, "Kitten" for a cat's. */
export function lifeStageLabel(stage: FoodLifeStage, species: Species | null): string {
  if (stage !== "junior" || species === null) return foodLifeStageLabels[stage];
  return species === "dog" ? "Puppy" : "Kitten";
}

/**
 * The facts as a short line for a page, known ones only, in a fixed order.
 * @example foodFactsLine({ lifeStage: "adult", foodType: "dry", mainProtein: "chicken", diets: ["grain-free"] }, "dog") // ["Adult", "Dry", "Chicken", "Grain-free"]
 */
export function foodFactsLine(facts: FoodFacts, species: Species | null): string[] {
  return [
    ...(facts.lifeStage ? [lifeStageLabel(facts.lifeStage, species)] : []),
    ...(facts.foodType ? [foodTypeLabels[facts.foodType]] : []),
    ...(facts.mainProtein ? [mainProteinLabels[facts.mainProtein]] : []),
    ...facts.diets.map((diet) => specialDietLabels[diet]),
  ];
}
