/** Writes of the affiliate IDs every outbound link carries. */
import type { Db } from "../client.ts";
import { changedFields, recordAudit } from "../audit.ts";
import { statement } from "../statements.ts";
import { affiliateKeys, type AffiliateIds } from "../../domain/catalogue.ts";
import { catalogueTransaction, noChange, siteWideChange, type Written } from "./transaction.ts";

/** Stores all five IDs; every outbound link carries them, so every page is rebuilt. */
export function setAffiliateIds(db: Db, ids: AffiliateIds, now = new Date()): Written<AffiliateIds> {
  return catalogueTransaction(db, () => {
    const rows = statement(db, "SELECT key, value FROM affiliate_settings").all() as { key: string; value: string }[];
    const stored = new Map(rows.map((row) => [row.key, row.value]));
    const before = Object.fromEntries(affiliateKeys.map((key) => [key, stored.get(key) ?? ""]));
    const diff = changedFields(before, { ...ids });
    if (diff.names.length === 0) return { value: ids, change: noChange };
    const upsert = statement(
      db,
      "INSERT INTO affiliate_settings (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
    );
    for (const key of affiliateKeys) upsert.run(key, ids[key], now.toISOString());
    recordAudit(
      db,
      { action: "update", entity: "affiliate-ids", entityId: null, summary: `Updated affiliate IDs: ${diff.names.join(", ")}`, before: diff.before, after: diff.after },
      now,
    );
    return { value: ids, change: siteWideChange };
  });
}
