/**
 * Row ceilings on the tables anonymous visitors fill: however many clients write, each table keeps
 * at most its ceiling of anonymous rows, and past it the oldest go first (the retention job runs
 * this; the settings are in data/config.ts).
 *
 * A price alert whose address has been confirmed is not anonymous: someone who reads that
 * mailbox asked for it, and its number is bounded by the confirmation mails (a few per mailbox a
 * day) and each visitor's alert limit. So the alerts' ceiling counts only alerts still waiting for
 * confirmation, and only those are ever deleted here: a confirmed alert is never pruned, whatever
 * its age and however full the table.
 */
import type { Db } from "./client.ts";
import { statement } from "./statements.ts";

export interface TableCeilings {
  /** Affiliate click records (user_behaviour). */
  clicks: number;
  favourites: number;
  recentlyViewed: number;
  voucherUses: number;
  /** Price alerts waiting for their address to be confirmed. */
  pendingAlerts: number;
}

/** Rows deleted from each table. */
export type CeilingResult = Record<keyof TableCeilings, number>;

interface CeilingTable {
  table: string;
  /** Which rows are anonymous: only these count against the ceiling and only these are deleted. */
  anonymous: string;
  /**
   * Oldest first. Rows are stored with the time they are made and ids grow in the order rows are
   * stored, so where the time column has no index of its own the id gives the same order.
   */
  oldestFirst: string;
}

const tables: Record<keyof TableCeilings, CeilingTable> = {
  clicks: { table: "user_behaviour", anonymous: "1", oldestFirst: "timestamp, id" },
  favourites: { table: "favorites", anonymous: "1", oldestFirst: "id" },
  recentlyViewed: { table: "recently_viewed", anonymous: "1", oldestFirst: "id" },
  voucherUses: { table: "voucher_uses", anonymous: "1", oldestFirst: "day, rowid" },
  pendingAlerts: { table: "price_alerts", anonymous: "confirmed_at IS NULL", oldestFirst: "id" },
};

/**
 * Deletes the oldest anonymous rows of each table holding more than its ceiling, down to exactly
 * the ceiling (a table at its ceiling is left alone). A table whose rowid span is within the
 * ceiling cannot hold more rows than that, so it is not counted at all: the check is cheap while
 * tables are well under their ceilings.
 */
export function deleteOverCeilings(db: Db, ceilings: TableCeilings): CeilingResult {
  return db.$client
    .transaction((): CeilingResult => {
      const result = {} as CeilingResult;
      for (const [name, { table, anonymous, oldestFirst }] of Object.entries(tables) as [keyof TableCeilings, CeilingTable][]) {
        const ceiling = ceilings[name];
        result[name] = 0;
        const { span } = statement<{ span: number }>(db, `SELECT coalesce(max(rowid) - min(rowid) + 1, 0) AS span FROM ${table}`).get()!;
        if (span <= ceiling) continue;
        const { n: rows } = statement<{ n: number }>(db, `SELECT count(*) AS n FROM ${table} WHERE ${anonymous}`).get()!;
        if (rows <= ceiling) continue;
        result[name] = statement(
          db,
          `DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} WHERE ${anonymous} ORDER BY ${oldestFirst} LIMIT ?)`,
        ).run(rows - ceiling).changes;
      }
      return result;
    })
    .immediate();
}
