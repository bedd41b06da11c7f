/**
 * A food's cheaper equivalents as GET /api/products/:slug/alternatives sends them: money in
 * pounds, each recommendation with the product it points to.
 */
import type { Alternative, AlternativesAnswer, CostBasis, FoodChoice } from "./alternatives.ts";
import { foodFactsLine } from "./food-facts.ts";
import { toPounds } from "./money.ts";
import { productPath } from "./paths.ts";
import type { Species } from "./feeding.ts";

/** A food as a recommendation names it. */
export interface FoodSummary extends FoodChoice {
  slug: string;
  name: string;
  image: string;
  brand: string | null;
  /** The retailer of its best price. */
  retailer: string | null;
}

export interface AlternativeJson {
  product: { id: number; slug: string; name: string; brand: string | null; image: string; url: string };
  /** Its best price to the door, and where. */
  bestPrice: number | null;
  retailer: string | null;
  /** Pounds a day for the pet, or per kg (the answer's basis). */
  cost: number;
  saving: number;
  score: number;
  matched: string[];
  reason: string;
  expiresAt: string | null;
}

export interface AlternativesJson {
  /** The food asked about; null for a product that is not a food. */
  food: { id: number; slug: string; species: Species; facts: string[] } | null;
  basis: CostBasis | null;
  /** The food's own cost on the basis. */
  cost: number | null;
  alternatives: AlternativeJson[];
}

export const notAFood: AlternativesJson = { food: null, basis: null, cost: null, alternatives: [] };

export function alternativesJson(food: FoodSummary, answer: AlternativesAnswer<FoodSummary>): AlternativesJson {
  return {
    food: { id: food.id, slug: food.slug, species: food.species, facts: foodFactsLine(food.facts, food.species) },
    basis: answer.basis,
    cost: toPounds(answer.productCostPence),
    alternatives: answer.alternatives.map(alternativeJson),
  };
}

function alternativeJson({ food, costPence, savingPence, score, matched, reason, expiresAt }: Alternative<FoodSummary>): AlternativeJson {
  return {
    product: { id: food.id, slug: food.slug, name: food.name, brand: food.brand, image: food.image, url: productPath(food.slug) },
    bestPrice: toPounds(food.bestPricePence),
    retailer: food.retailer,
    cost: toPounds(costPence),
    saving: toPounds(savingPence),
    score,
    matched,
    reason,
    expiresAt,
  };
}
