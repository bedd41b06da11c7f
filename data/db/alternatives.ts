/**
 * The read behind "Similar food, cheaper per day": a food and the foods of its species that are
 * on sale, as the comparison (data/domain/alternatives.ts) sees them. The foods of a species are
 * read once per catalogue revision (every catalogue write moves it) and kept, with each one's
 * facts worked out; a request then only checks which prices are still current and compares.
 */
import type { Db } from "./client.ts";
import { catalogueRevision } from "./catalogue-revision.ts";
import { guideOf, packGramsOf } from "./food-costs.ts";
import { prescriptionOnlySqlList } from "./product-rows.ts";
import type { ProductPriceRow, ProductRow } from "./rows.ts";
import { statement } from "./statements.ts";
import type { FoodChoice } from "../domain/alternatives.ts";
import type { FoodSummary } from "../domain/alternatives-json.ts";
import type { Species } from "../domain/feeding.ts";
import { foodSpeciesOf } from "../domain/food.ts";
import { foodFactsOf } from "../domain/food-facts.ts";

/** A food with what a recommendation shows of it. */
export type FoodOnSale = FoodSummary;

type FoodRow = Pick<
  ProductRow,
  | "id"
  | "slug"
  | "name"
  | "image"
  | "brand"
  | "family_key"
  | "kcal_per_kg"
  | "feeding_guide"
  | "best_price_pence"
  | "life_stage"
  | "food_type"
  | "main_protein"
  | "special_diets"
> &
  Pick<ProductPriceRow, "in_stock" | "stale" | "price_override" | "last_checked_at"> & { category_slug: string; retailer: string | null };

// The best offer's own row says whether that price is current; prescription-only medicines are never recommended.
const foodColumns = `p.id, p.slug, p.name, p.image, p.brand, p.family_key, p.kcal_per_kg, p.feeding_guide, p.best_price_pence,
  p.life_stage, p.food_type, p.main_protein, p.special_diets, c.slug AS category_slug, r.name AS retailer,
  o.in_stock, o.stale, o.price_override, o.last_checked_at
  FROM products p
  JOIN categories c ON c.id = p.category_id
  LEFT JOIN retailers r ON r.id = p.best_retailer_id
  LEFT JOIN product_prices o ON o.product_id = p.id AND o.retailer_id = p.best_retailer_id`;

/** Food categories of a species: its "<species>-food" category and that category's aisles ("dog-food-wet"). */
const speciesFoodSql = `SELECT ${foodColumns}
  WHERE (c.slug = ? OR c.slug LIKE ?) AND p.best_price_pence IS NOT NULL AND p.legal_category NOT IN ${prescriptionOnlySqlList}`;

function foodOf(row: FoodRow, species: Species, freshForMs: number): FoodOnSale {
  // A price on sale when read, current until its last check is `freshForMs` old (a price set by hand, or never checked, stays current).
  const onSale = row.in_stock === 1 && row.stale === 0;
  const checkedAt = Date.parse(row.last_checked_at ?? "");
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    image: row.image,
    brand: row.brand,
    retailer: row.retailer,
    species,
    familyKey: row.family_key,
    facts: foodFactsOf({ lifeStage: row.life_stage, foodType: row.food_type, mainProtein: row.main_protein, specialDiets: row.special_diets }, row.name),
    packGrams: packGramsOf(row.name),
    kcalPerKg: row.kcal_per_kg,
    guide: guideOf(row.feeding_guide),
    bestPricePence: onSale ? row.best_price_pence : null,
    currentUntil: row.price_override === 1 || Number.isNaN(checkedAt) ? null : new Date(checkedAt + freshForMs).toISOString(),
  };
}

/**
 * Whether a food's best price is still current at `now` (an ISO time): its current-until time not
 * passed (a price current until exactly `now` still is). A food without a price has nothing to compare.
 */
export const isCurrent = (food: FoodChoice, now: string): boolean => food.currentUntil === null || now <= food.currentUntil;

interface Kept {
  revision: number;
  freshForMs: number;
  bySpecies: Map<Species, FoodOnSale[]>;
}
const kept = new WeakMap<Db, Kept>();

/** The foods of `species` with a best price, as of the catalogue's current revision (kept until the next write). */
export function foodsOfSpecies(db: Db, species: Species, freshForMs: number): FoodOnSale[] {
  const revision = catalogueRevision(db);
  let entry = kept.get(db);
  if (!entry || entry.revision !== revision || entry.freshForMs !== freshForMs) {
    entry = { revision, freshForMs, bySpecies: new Map() };
    kept.set(db, entry);
  }
  let foods = entry.bySpecies.get(species);
  if (!foods) {
    const rows = statement<FoodRow>(db, speciesFoodSql).all(`${species}-food`, `${species}-food-%`);
    foods = rows.map((row) => foodOf(row, species, freshForMs));
    entry.bySpecies.set(species, foods);
  }
  return foods;
}

/** The food at `slug`, when it is one (a product of a food category); null for any other product or none. */
export function foodBySlug(db: Db, slug: string, freshForMs: number): FoodOnSale | null | undefined {
  const row = statement<FoodRow>(db, `SELECT ${foodColumns} WHERE p.slug = ?`).get(slug);
  if (!row) return undefined;
  const species = foodSpeciesOf(row.category_slug);
  return species === null ? null : foodOf(row, species, freshForMs);
}
