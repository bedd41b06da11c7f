/** Visitor data keyed by the anonymous visitor id: recently viewed products. */
import type { Db } from "./client.ts";
import { statement } from "./statements.ts";
import { toPounds } from "../domain/money.ts";
import type { RecentlyViewedItem } from "../domain/catalogue.ts";

/** How many recently viewed products are kept per visitor. */
export const recentlyViewedLimit = 20;


/** Records a view: one entry per product (a repeat view moves it to the front), the newest 20 kept. */
export function recordView(db: Db, userId: string, productId: number): void {
  db.$client.transaction(() => {
    statement(
      db,
      `INSERT INTO recently_viewed (user_id, product_id, viewed_at) VALUES (?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
       ON CONFLICT (user_id, product_id) DO UPDATE SET viewed_at = excluded.viewed_at`,
    ).run(userId, productId);
    statement(
      db,
      `DELETE FROM recently_viewed WHERE user_id = ? AND id NOT IN (
         SELECT id FROM recently_viewed WHERE user_id = ? ORDER BY viewed_at DESC, id DESC LIMIT ?)`,
    ).run(userId, userId, recentlyViewedLimit);
  })();
}

export function listRecentlyViewed(db: Db, userId: string): RecentlyViewedItem[] {
  const rows = statement(
    db,
    `SELECT p.id, p.slug, p.name, p.image, p.best_price_pence, rv.viewed_at
     FROM recently_viewed rv JOIN products p ON p.id = rv.product_id
     WHERE rv.user_id = ? ORDER BY rv.viewed_at DESC, rv.id DESC LIMIT ?`,
  ).all(userId, recentlyViewedLimit) as { id: number; slug: string; name: string; image: string; best_price_pence: number | null; viewed_at: string }[];
  return rows.map((row) => ({
    id: row.id,
    slug: row.slug,
    name: row.name,
    image: row.image,
    bestPrice: toPounds(row.best_price_pence),
    viewedAt: row.viewed_at,
  }));
}
