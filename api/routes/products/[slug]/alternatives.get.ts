import { defineCachedRead } from "../../../http/cached-route.ts";
import { badRequest, notFound } from "../../../http/http.ts";
import { pricePipelineConfig } from "../../../../data/config.ts";
import { foodBySlug, foodsOfSpecies, isCurrent, type FoodOnSale } from "../../../../data/db/alternatives.ts";
import { findAlternatives } from "../../../../data/domain/alternatives.ts";
import { alternativesJson, notAFood } from "../../../../data/domain/alternatives-json.ts";
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
    if (!food) return notAFood;
    const now = new Date().toISOString();
    const current = (each: FoodOnSale) => (isCurrent(each, now) ? each : { ...each, bestPricePence: null });
    // Only foods of its type can be equivalents: the rest are not looked at further.
    const candidates = foodsOfSpecies(db, food.species, freshForMs).filter((each) => each.facts.foodType === food.facts.foodType && isCurrent(each, now));
    return alternativesJson(food, findAlternatives(current(food), candidates, pet));
  },
});
