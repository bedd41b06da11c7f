/**
 * Which products are a pet's diet, and the pet's body as the product grid sends it to the API for
 * the cost-per-day sort. No zod here: the grid island bundles this module (the API validates the
 * parameters with `costSortPetQuery` in queries.ts).
 */
import type { PackSize } from "./product-quantity.ts";
import type { Activity, LifeStage, PetBody, Species } from "./feeding.ts";

/** Food categories by species: a slug "dog-food" or "cat-food", or one of their sub-aisles ("dog-food-wet"). Treats are not a diet. */
const foodCategoryPattern = /^(dog|cat)-food(?:-[a-z0-9-]+)?$/;

/**
 * The species a category's products feed as a diet, or null for any other category.
 * @example foodSpeciesOf("dog-food") // "dog"
 * @example foodSpeciesOf("cat-food") // "cat"
 * @example foodSpeciesOf("dog-treats") // null
 */
export function foodSpeciesOf(categorySlug: string | null | undefined): Species | null {
  const match = categorySlug ? foodCategoryPattern.exec(categorySlug) : null;
  return match ? (match[1] as Species) : null;
}

/**
 * The grams of food in a pack, when its size is a weight; null for volumes, counts and unknown sizes.
 * @example foodPackGrams({ amount: 12000, unit: "kg", label: "12kg" }) // 12000
 * @example foodPackGrams({ amount: 40, unit: "item", label: "40 pouches" }) // null
 */
export function foodPackGrams(pack: PackSize | null | undefined): number | null {
  return pack && pack.unit === "kg" && pack.amount > 0 ? pack.amount : null;
}

/** The pet's body as query parameters, in this order: never its name (the name stays in the browser). */
export const petQueryNames = ["species", "weightKg", "lifeStage", "activity", "neutered"] as const;

/**
 * The pet's body as GET /api/products takes it with sort=cost_per_day: weight in kg to at most
 * two decimals, neutered as "true"/"false".
 * @example petQueryParams({ species: "dog", weightKg: 10, lifeStage: "adult", activity: "normal", neutered: true }) // { species: "dog", weightKg: "10", lifeStage: "adult", activity: "normal", neutered: "true" }
 */
export function petQueryParams(pet: PetBody): Record<(typeof petQueryNames)[number], string> {
  return {
    species: pet.species,
    weightKg: String(Math.round(pet.weightKg * 100) / 100),
    lifeStage: pet.lifeStage,
    activity: pet.activity,
    neutered: String(pet.neutered),
  };
}

export type { Activity, LifeStage, PetBody, Species };
