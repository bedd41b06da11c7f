/** How many favourites and active price alerts a visitor has: the header's badges. */
import type { Db } from "./client.ts";
import { statement } from "./statements.ts";

export interface VisitorCounts {
  favorites: number;
  /** Active alerts only, as the visitor's alerts page lists them. */
  alerts: number;
}

export function visitorCounts(db: Db, userId: string): VisitorCounts {
  return statement<VisitorCounts>(
    db,
    `SELECT (SELECT count(*) FROM favorites WHERE user_id = ?) AS favorites,
            (SELECT count(*) FROM price_alerts WHERE user_id = ? AND is_active = 1) AS alerts`,
  ).get(userId, userId)!;
}
