import type { Db } from "./client.ts";
import { statement } from "./statements.ts";

export interface ClickRecord {
  retailer: string;
  productName: string;
  productId?: number | undefined;
  price: number | null;
  url?: string | undefined;
  timestamp: string;
}

/**
 * Stores affiliate clicks as user behaviour (action 'affiliate_click'), resolving the retailer by
 * name. Returns false, storing nothing, when a click names a product that does not exist.
 */
export function recordClicks(db: Db, userId: string, sessionId: string | undefined, clicks: readonly ClickRecord[]): boolean {
  return db.$client.transaction(() => {
    const productExists = statement(db, "SELECT category_id FROM products WHERE id = ?");
    const retailerByName = statement(db, "SELECT id FROM retailers WHERE name = ? COLLATE NOCASE");
    const insert = statement(
      db,
      `INSERT INTO user_behaviour (user_id, product_id, action, category_id, retailer_id, session_id, timestamp, metadata)
       VALUES (?, ?, 'affiliate_click', ?, ?, ?, ?, ?)`,
    );
    const rows = [];
    for (const click of clicks) {
      let categoryId: number | null = null;
      if (click.productId !== undefined) {
        const product = productExists.get(click.productId) as { category_id: number } | undefined;
        if (!product) return false;
        categoryId = product.category_id;
      }
      const retailer = retailerByName.get(click.retailer) as { id: number } | undefined;
      rows.push([
        userId,
        click.productId ?? null,
        categoryId,
        retailer?.id ?? null,
        sessionId ?? null,
        click.timestamp,
        JSON.stringify({ retailer: click.retailer, productName: click.productName, price: click.price, url: click.url }),
      ]);
    }
    for (const row of rows) insert.run(...row);
    return true;
  })();
}
