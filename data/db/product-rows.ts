/**
 * A product's own row, as the admin edits it (its offers apart): what the catalogue writer
 * compares an update with and what the product form loads.
 */
import type { Db } from "./client.ts";
import { statement } from "./statements.ts";
import { prescriptionOnlyCategories, type LegalCategory } from "../domain/legal-category.ts";

/**
 * The legal categories that need a prescription, as an SQL list ('POM-V', 'POM-VPS'), from the
 * domain's one rule (isPrescriptionOnly): queries that promote leave such products out with it.
 */
export const prescriptionOnlySqlList = `(${prescriptionOnlyCategories.map((category) => `'${category}'`).join(", ")})`;

export interface ProductOwnRow {
  id: number;
  name: string;
  slug: string;
  description: string;
  image: string;
  brand: string | null;
  category_id: number;
  rating: number;
  review_count: number;
  is_featured: number;
  family_key: string | null;
  kcal_per_kg: number | null;
  /** JSON of the feeding guide's rows, or null. */
  feeding_guide: string | null;
  legal_category: LegalCategory;
}

export function productRow(db: Db, id: number): ProductOwnRow | undefined {
  return statement(
    db,
    `SELECT id, name, slug, description, image, brand, category_id, rating, review_count, is_featured, family_key, kcal_per_kg, feeding_guide, legal_category
     FROM products WHERE id = ?`,
  ).get(id) as ProductOwnRow | undefined;
}
