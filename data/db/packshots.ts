/** What a product's packshot drawing is made from (data/domain/packshot.ts). */
import type { Db } from "./client.ts";
import { statement } from "./statements.ts";
import type { PackshotProduct } from "../domain/packshot.ts";

/** The product's name, brand and category slug, or null when no product has this slug. */
export function getPackshotProduct(db: Db, slug: string): PackshotProduct | null {
  const row = statement<{ name: string; brand: string | null; categorySlug: string }>(
    db,
    "SELECT p.name AS name, p.brand AS brand, c.slug AS categorySlug FROM products p JOIN categories c ON c.id = p.category_id WHERE p.slug = ?",
  ).get(slug);
  return row ? { name: row.name, brand: row.brand, categorySlug: row.categorySlug } : null;
}
