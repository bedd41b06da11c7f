import { defineCachedRead } from "../../../http/cached-route.ts";
import { badRequest, notFound } from "../../../http/http.ts";
import { pricePipelineConfig } from "../../../../data/config.ts";
import { foodBySlug, foodsOfSpecies, isCurrent, type FoodOnSale } from "../../../../data/db/alternatives.ts";
import { findAlternatives, type Alternative } from "../../../../data/domain/alternatives.ts";
import { foodFactsLine } from "../../../../data/domain/food-facts.ts";
import { toPounds } from "../../../../data/domain/money.ts";
import { productPath } from "../../../../data/domain/paths.ts";
import { alternativesQuery, petOfQuery, slugParam } from "../../../../data/domain/queries.ts";

/**
 * "Similar food, cheaper per day" for a food: its equivalents (same species, type, life stage,
 * main protein and special diets) that cost less a day for the pet described by the query, or
 * less per kg without one, from prices that may be compared now (in stock, current), cheapest
 * first, at most four. Each is a recommendation: score, reason, when it expires. A product that is
 * not a food answers no alternatives; a pet of another species than the food's is refused.
 */
export default defineCachedRead({
  summary: "A food's cheaper equivalents",
  path: { slug: slugParam() },
  query: alternativesQuery,
  maxAgeSeconds: 60,
  read: ({ path: { slug }, query }, { db }) => {
    const freshForMs = pricePipelineConfig().freshForMs;
    const food = foodBySlug(db, slug, freshForMs);
    if (food === undefined) throw notFound("Product not found");
    const pet = petOfQuery(query);
    if (food && pet && pet.species !== food.species) throw badRequest(`species: this is ${food.species} food, not ${pet.species} food`);
    if (!food) return { food: null, basis: null, cost: null, alternatives: [] };
    const now = new Date();
    const current = (each: FoodOnSale) => (isCurrent(each, now) ? each : { ...each, bestPricePence: null });
    const answer = findAlternatives(current(food), foodsOfSpecies(db, food.species, freshForMs).filter((each) => isCurrent(each, now)), pet);
    return {
      food: { id: food.id, slug: food.slug, species: food.species, facts: foodFactsLine(food.facts, food.species) },
      // What the food itself costs on the basis: pounds a day for the pet, or per kg.
      basis: answer.basis,
      cost: toPounds(answer.productCostPence),
      alternatives: answer.alternatives.map(alternativeJson),
    };
  },
});

/** A recommendation as the API sends it: money in pounds. */
function alternativeJson({ food, costPence, savingPence, score, matched, reason, expiresAt }: Alternative<FoodOnSale>) {
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
