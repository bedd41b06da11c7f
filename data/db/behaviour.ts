import type { Db } from "./client.ts";
import type { ProductRow, RetailerRow } from "./rows.ts";
import { statement } from "./statements.ts";

export interface ClickRecord {
  retailer: string;
  productName: string;
  productId?: number | undefined;
  price: number | null;
  url?: string | undefined;
  timestamp: string;
}

/** A visitor's click events kept in any 24 hours; more are refused (a real shopper clicks far fewer). */
export const dailyClickCap = 200;

export type ClickOutcome = "recorded" | "unknown-product" | "daily-cap";

/**
 * Stores affiliate clicks as user behaviour (action 'affiliate_click'), resolving the retailer by
 * name. Stores nothing when a click names a product that does not exist, or when the visitor's
 * events in the last 24 hours would pass the daily cap. The row's time is the server's (what
 * the cap and the retention periods count); the browser's own click time stays in the metadata.
 */
export function recordClicks(db: Db, userId: string, sessionId: string | undefined, clicks: readonly ClickRecord[], now = new Date()): ClickOutcome {
  return db.$client.transaction((): ClickOutcome => {
    const since = new Date(now.getTime() - 24 * 60 * 60 * 1000).toISOString();
    const { recent } = statement<{ recent: number }>(
      db,
      "SELECT count(*) AS recent FROM user_behaviour WHERE user_id = ? AND action = 'affiliate_click' AND timestamp > ?",
    ).get(userId, since)!;
    if (recent + clicks.length > dailyClickCap) return "daily-cap";
    const productExists = statement<Pick<ProductRow, "category_id">>(db, "SELECT category_id FROM products WHERE id = ?");
    const retailerByName = statement<Pick<RetailerRow, "id">>(db, "SELECT id FROM retailers WHERE name = ? COLLATE NOCASE");
    const insert = statement(
      db,
      `INSERT INTO user_behaviour (user_id, product_id, action, category_id, retailer_id, session_id, timestamp, metadata)
       VALUES (?, ?, 'affiliate_click', ?, ?, ?, ?, ?)`,
    );
    const rows = [];
    for (const click of clicks) {
      let categoryId: number | null = null;
      if (click.productId !== undefined) {
        const product = productExists.get(click.productId);
        if (!product) return "unknown-product";
        categoryId = product.category_id;
      }
      const retailer = retailerByName.get(click.retailer);
      rows.push([
        userId,
        click.productId ?? null,
        categoryId,
        retailer?.id ?? null,
        sessionId ?? null,
        now.toISOString(),
        JSON.stringify({ retailer: click.retailer, productName: click.productName, price: click.price, url: click.url, clickedAt: click.timestamp }),
      ]);
    }
    for (const row of rows) insert.run(...row);
    return "recorded";
  })();
}
