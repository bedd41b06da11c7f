/**
 * A product's own row, as the admin edits it (its offers apart): what the catalogue writer
 * compares an update with and what the product form loads.
 */
import type { Db } from "./client.ts";
import { statement } from "./statements.ts";
import { prescriptionOnlyCategories } from "../domain/legal-category.ts";
import type { ProductRow } from "./rows.ts";

/**
 * The legal categories that need a prescription, as an SQL list ('POM-V', 'POM-VPS'), from the
 * domain's one rule (isPrescriptionOnly): queries that promote leave such products out with it.
 */
export const prescriptionOnlySqlList = `(${prescriptionOnlyCategories.map((category) => `'${category}'`).join(", ")})`;

/** feeding_guide is JSON of the feeding guide's rows, or null. */
export type ProductOwnRow = Pick<
  ProductRow,
  | "id"
  | "name"
  | "slug"
  | "description"
  | "image"
  | "brand"
  | "category_id"
  | "rating"
  | "review_count"
  | "is_featured"
  | "family_key"
  | "kcal_per_kg"
  | "feeding_guide"
  | "legal_category"
>;

export function productRow(db: Db, id: number): ProductOwnRow | undefined {
  return statement<ProductOwnRow>(
    db,
    `SELECT id, name, slug, description, image, brand, category_id, rating, review_count, is_featured, family_key, kcal_per_kg, feeding_guide, legal_category
     FROM products WHERE id = ?`,
  ).get(id);
}
