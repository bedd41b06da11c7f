/**
 * A product's own row, as the admin edits it (its offers apart): what the catalogue writer
 * compares an update with and what the product form loads.
 */
import type { Db } from "./client.ts";
import { statement } from "./statements.ts";
import { prescriptionOnlyCategories } from "../domain/legal-category.ts";
import type { ProductRow } from "./rows.ts";
import { productDetailList, type ProductDetailColumn } from "../domain/product-details.ts";

/** The product details' columns as an SQL list ("description, ingredients"), `prefix` before each ("p."). */
export function detailColumnsSql(prefix = ""): string {
  return productDetailList.map((detail) => `${prefix}${detail.column}`).join(", ");
}

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
  | ProductDetailColumn
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

const productRowSql = `SELECT id, name, slug, ${detailColumnsSql()}, image, brand, category_id, rating, review_count, is_featured, family_key, kcal_per_kg, feeding_guide, legal_category
  FROM products WHERE id = ?`;

export function productRow(db: Db, id: number): ProductOwnRow | undefined {
  return statement<ProductOwnRow>(db, productRowSql).get(id);
}
