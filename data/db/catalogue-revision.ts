/**
 * A counter that every catalogue write moves (the catalogue writer and the seed, inside their
 * transactions). A server watching the file for other processes' commits looks at it to tell a
 * catalogue change (rebuild pages) from other writes (a build record, an alert check, a
 * newsletter run), which change nothing a page shows.
 */
import type { Db } from "./client.ts";
import { statement } from "./statements.ts";

const revisionKey = "catalogue_revision";

/** Moves the revision on and returns the new one; call inside the transaction of a catalogue write. */
export function bumpCatalogueRevision(db: Db): number {
  const row = statement<{ value: string }>(
    db,
    `INSERT INTO app_settings (key, value, updated_at) VALUES (?, '1', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
     ON CONFLICT(key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT), updated_at = excluded.updated_at
     RETURNING value`,
  ).get(revisionKey)!;
  return Number(row.value);
}

export function catalogueRevision(db: Db): number {
  const row = statement<{ value: string }>(db, "SELECT value FROM app_settings WHERE key = ?").get(revisionKey);
  return row ? Number(row.value) : 0;
}
