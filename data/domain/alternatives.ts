/**
 * "Similar food, cheaper per day": the foods a pet could eat instead of one, and cheaper. A food
 * is an equivalent when it feeds the same species, is of the same type (dry, wet, raw), is made
 * for the same life stage (or for all life stages), has the same main protein when the food's is
 * known, and claims every special diet the food claims (a grain-free food's equivalent is
 * grain-free too). Another size of the same food is not an equivalent (the product page offers
 * sizes apart). A food whose type or life stage is unknown has no equivalents: too little is
 * known to say what would do instead.
 *
 * Ranked by what a day of it costs the visitor's pet at its best price to the door (the lowest
 * in-stock, current total), or, with no pet, or when a day's cost cannot be worked out for the
 * food itself, by its price per kg; only those cheaper than the food on the same measure, the
 * cheapest first (ties by id), one size of each other food (its cheapest). Each comes as a recommendation: its saving, a score (the saving as
 * a share of the food's own cost, 3 decimals), the reason it was chosen, and when it expires
 * (when the first of the two prices compared stops being current).
 */
import { dailyCostFor, dailyGrams, type FeedingGuide, type PetBody, type Species } from "./feeding.ts";
import { foodFactsLine, type FoodFacts } from "./food-facts.ts";
import type { Pence } from "./money.ts";

/** A food as the comparison sees it: its facts, pack and best current price. */
export interface FoodChoice {
  id: number;
  species: Species;
  /** Sizes of one food share a family key; null: a food of one size. */
  familyKey: string | null;
  facts: FoodFacts;
  /** Grams in the pack; null when its size is not a weight. */
  packGrams: number | null;
  kcalPerKg: number | null;
  guide: FeedingGuide | null;
  /** The lowest in-stock, current total to the door; null when nothing is on sale. */
  bestPricePence: Pence | null;
  /** When that price stops being current (ISO time); null: it does not (a price set by hand). */
  currentUntil: string | null;
}

export type CostBasis = "day" | "kg";

export interface Alternative<F extends FoodChoice = FoodChoice> {
  food: F;
  basis: CostBasis;
  /** Its cost on the basis (pence a day for the pet, or pence per kg). */
  costPence: Pence;
  /** The food's own cost on the same basis. */
  productCostPence: Pence;
  savingPence: Pence;
  /** The saving as a share of the food's cost, 0 to 1, three decimals. */
  score: number;
  /** The facts it shares with the food, in the page's words ("Adult", "Dry", "Chicken", "Grain-free"). */
  matched: string[];
  reason: string;
  /** When the recommendation lapses: the earlier of the two prices' current-until times; null: never by time. */
  expiresAt: string | null;
}

export interface AlternativesAnswer<F extends FoodChoice = FoodChoice> {
  basis: CostBasis | null;
  /** The food's own cost on the basis; null when it has no price (then nothing is cheaper). */
  productCostPence: Pence | null;
  alternatives: Alternative<F>[];
}

/** How many equivalents a food page shows at most. */
export const maxAlternatives = 4;

/** Whether `other` could be fed instead of `food` (see the module's rules). */
export function isEquivalent(food: FoodChoice, other: FoodChoice): boolean {
  const { facts } = food;
  if (other.id === food.id || other.species !== food.species) return false;
  if (food.familyKey !== null && other.familyKey === food.familyKey) return false;
  if (facts.foodType === null || facts.lifeStage === null) return false;
  if (other.facts.foodType !== facts.foodType) return false;
  if (other.facts.lifeStage !== facts.lifeStage && other.facts.lifeStage !== "all") return false;
  if (facts.mainProtein !== null && other.facts.mainProtein !== facts.mainProtein) return false;
  return facts.diets.every((diet) => other.facts.diets.includes(diet));
}

/** What a day of `food` costs the pet, in pence; null when that cannot be worked out. */
function perDayPence(food: FoodChoice, pet: PetBody): Pence | null {
  const grams = dailyGrams(pet, { kcalPerKg: food.kcalPerKg, guide: food.guide })?.grams ?? null;
  return dailyCostFor(grams, food.packGrams, food.bestPricePence);
}

/** Its price per kg in whole pence (rounded half up); null for a pack not sold by weight or no price. */
function perKgPence(food: FoodChoice): Pence | null {
  const grams = food.packGrams ?? 0;
  if (grams <= 0 || food.bestPricePence === null) return null;
  return Math.round((food.bestPricePence * 1000) / grams);
}

const earlier = (a: string | null, b: string | null): string | null => (a === null ? b : b === null ? a : a < b ? a : b);

/**
 * The food's cheaper equivalents among `foods`, at most `limit`, cheapest first.
 * @example findAlternatives(adultDryChicken, [dearer, cheaperSame, cheaperWet], null).alternatives.map((a) => a.food.id) // [cheaperSame.id]
 */
export function findAlternatives<F extends FoodChoice>(
  food: FoodChoice,
  foods: readonly F[],
  pet: PetBody | null,
  limit = maxAlternatives,
): AlternativesAnswer<F> {
  const ownPerDay = pet === null ? null : perDayPence(food, pet);
  const productCostPence = ownPerDay ?? perKgPence(food);
  if (productCostPence === null) return { basis: null, productCostPence: null, alternatives: [] };
  const basis: CostBasis = ownPerDay === null ? "kg" : "day";
  const matched = foodFactsLine(food.facts, food.species);
  const reason = `Also ${matched.join(" · ")}, and cheaper ${basis === "day" ? "a day for your pet" : "per kg"}`;
  const cheaper: Alternative<F>[] = [];
  for (const other of foods) {
    if (!isEquivalent(food, other)) continue;
    const costPence = basis === "day" ? perDayPence(other, pet!) : perKgPence(other);
    if (costPence === null || costPence >= productCostPence) continue;
    const savingPence = productCostPence - costPence;
    cheaper.push({
      food: other,
      basis,
      costPence,
      productCostPence,
      savingPence,
      score: Math.round((savingPence / productCostPence) * 1000) / 1000,
      matched,
      reason,
      expiresAt: earlier(food.currentUntil, other.currentUntil),
    });
  }
  cheaper.sort((a, b) => a.costPence - b.costPence || a.food.id - b.food.id);
  // One size of each other food: its cheapest on the basis (the first, once sorted).
  const families = new Set<string>();
  const oneEach = cheaper.filter(({ food: other }) => {
    if (other.familyKey === null) return true;
    if (families.has(other.familyKey)) return false;
    families.add(other.familyKey);
    return true;
  });
  return { basis, productCostPence, alternatives: oneEach.slice(0, limit) };
}
