/** Visitor data keyed by the anonymous visitor id: recently viewed products. */
import type { Db } from "./client.ts";
import { statement } from "./statements.ts";
import { toPounds } from "../domain/money.ts";
import type { RecentlyViewedItem } from "../domain/catalogue.ts";

/** How many recently viewed products are kept per visitor. */
export const recentlyViewedLimit = 20;


/**
 * Records a view: one entry per product (a repeat view moves it to the front), the newest 20 kept.
 * True when the product was not in the visitor's list (a new entry), false for a repeat view.
 */
export function recordView(db: Db, userId: string, productId: number): boolean {
  return db.$client.transaction(() => {
    // Delete and insert (not upsert) so the newest view always has the highest id: two views in
    // the same millisecond still come back in the order they happened.
    const repeat = statement(db, "DELETE FROM recently_viewed WHERE user_id = ? AND product_id = ?").run(userId, productId).changes > 0;
    statement(db, "INSERT INTO recently_viewed (user_id, product_id) VALUES (?, ?)").run(userId, productId);
    statement(
      db,
      `DELETE FROM recently_viewed WHERE user_id = ? AND id NOT IN (
         SELECT id FROM recently_viewed WHERE user_id = ? ORDER BY id DESC LIMIT ?)`,
    ).run(userId, userId, recentlyViewedLimit);
    return !repeat;
  })();
}

export function listRecentlyViewed(db: Db, userId: string): RecentlyViewedItem[] {
  const rows = statement<{
    id: number;
    slug: string;
    name: string;
    image: string;
    best_price_pence: number | null;
    viewed_at: string;
    retailer_count: number;
  }>(
    db,
    `SELECT p.id, p.slug, p.name, p.image, p.best_price_pence, rv.viewed_at,
       (SELECT count(DISTINCT pp.retailer_id) FROM product_prices pp WHERE pp.product_id = p.id) AS retailer_count
     FROM recently_viewed rv JOIN products p ON p.id = rv.product_id
     WHERE rv.user_id = ? ORDER BY rv.id DESC LIMIT ?`,
  ).all(userId, recentlyViewedLimit);
  return rows.map((row) => ({
    id: row.id,
    slug: row.slug,
    name: row.name,
    image: row.image,
    bestPrice: toPounds(row.best_price_pence),
    viewedAt: row.viewed_at,
    retailerCount: row.retailer_count,
  }));
}
