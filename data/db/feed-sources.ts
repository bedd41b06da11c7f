/**
 * Feed sources (the admin's product feeds) and their import runs: reads return domain types,
 * writes check what the database knows (unique names, known retailers). A source's URL is read
 * here for the import only; what the API sends is built from `FeedSource` by the route layer,
 * masked.
 *
 * Runs: one source never has two runs going. `claimRun` checks and inserts in one IMMEDIATE
 * transaction, so two processes (the server and `npm run import`) cannot both start one; a run
 * whose `updated_at` has not moved for `staleAfterMs` is one whose process died, and is closed
 * as failed instead of blocking the source for ever.
 */
import type { Db } from "./client.ts";
import type { FeedImportRunRow, FeedSourceRow } from "./rows.ts";
import { WriteRefused } from "./catalogue-writer/transaction.ts";
import type { FeedSourceChanges, FeedSourceInput } from "../domain/feed-sources.schema.ts";
import { defaultFeedSchedule, type ColumnMapping, type FeedLayoutChoice, type FeedRun, type FeedSourceKind, type RefusalCounts, type RunCounters, type RunStatus, type RunTrigger } from "../domain/feed-sources.ts";

export interface FeedSource {
  id: number;
  name: string;
  kind: FeedSourceKind;
  /** The download URL, whole: for the import only, never sent to a browser. */
  url: string | null;
  fileName: string | null;
  /** The upload's file name inside the uploads folder. */
  storedFile: string | null;
  fileBytes: number | null;
  layout: FeedLayoutChoice;
  mapping: ColumnMapping | null;
  retailerKey: string | null;
  createProducts: boolean;
  schedule: string | null;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
}

type SourceRow = FeedSourceRow;

function toSource(row: SourceRow): FeedSource {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind as FeedSourceKind,
    url: row.url,
    fileName: row.file_name,
    storedFile: row.stored_file,
    fileBytes: row.file_bytes,
    layout: row.layout as FeedLayoutChoice,
    mapping: row.mapping === null ? null : (JSON.parse(row.mapping) as ColumnMapping),
    retailerKey: row.retailer_key,
    createProducts: row.create_products === 1,
    schedule: row.schedule,
    enabled: row.enabled === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function listFeedSources(db: Db): FeedSource[] {
  return db.$client.prepare<unknown[], SourceRow>("SELECT * FROM feed_sources ORDER BY name COLLATE NOCASE, id").all().map(toSource);
}

export function getFeedSource(db: Db, id: number): FeedSource | null {
  const row = db.$client.prepare<unknown[], SourceRow>("SELECT * FROM feed_sources WHERE id = ?").get(id);
  return row ? toSource(row) : null;
}

function checkName(db: Db, name: string, exceptId: number | null): void {
  const taken = db.$client.prepare("SELECT id FROM feed_sources WHERE name = ? COLLATE NOCASE AND id IS NOT ?").get(name, exceptId);
  if (taken) throw new WriteRefused(409, `A feed source called "${name}" exists already`);
}

function checkRetailer(db: Db, key: string | null | undefined): void {
  if (key === null || key === undefined) return;
  const retailer = db.$client.prepare<unknown[], { compares_prices: number }>("SELECT compares_prices FROM retailers WHERE key = ?").get(key);
  if (!retailer) throw new WriteRefused(400, `retailerKey "${key}" is not a known retailer`);
  if (retailer.compares_prices !== 1) throw new WriteRefused(400, `retailerKey "${key}" is a retailer whose prices we do not compare`);
}

export function createFeedSource(db: Db, input: FeedSourceInput, now: Date): FeedSource {
  return db.$client
    .transaction(() => {
      checkName(db, input.name, null);
      checkRetailer(db, input.retailerKey);
      const at = now.toISOString();
      const row = db.$client
        .prepare<unknown[], SourceRow>(
          `INSERT INTO feed_sources (name, kind, url, layout, mapping, retailer_key, create_products, schedule, enabled, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
        )
        .get(
          input.name,
          input.kind,
          input.url ?? null,
          input.layout ?? "auto",
          input.mapping ? JSON.stringify(input.mapping) : null,
          input.retailerKey ?? null,
          input.createProducts ? 1 : 0,
          // A download gets the default schedule unless one (or null: none) is named; an uploaded file changes only by upload.
          input.schedule !== undefined ? input.schedule : input.kind === "url" ? defaultFeedSchedule : null,
          input.enabled === false ? 0 : 1,
          at,
          at,
        )!;
      return toSource(row);
    })
    .immediate();
}

/** Applies the changes given (a field left out keeps its value); null when there is no such source. */
export function updateFeedSource(db: Db, id: number, changes: FeedSourceChanges, now: Date): FeedSource | null {
  return db.$client
    .transaction(() => {
      const current = getFeedSource(db, id);
      if (!current) return null;
      if (changes.name !== undefined) checkName(db, changes.name, id);
      checkRetailer(db, changes.retailerKey);
      if (changes.url !== undefined && current.kind !== "url") throw new WriteRefused(400, "url must be left out for a file source (upload its file instead)");
      const next = {
        name: changes.name ?? current.name,
        url: changes.url ?? current.url,
        layout: changes.layout ?? current.layout,
        mapping: changes.mapping === undefined ? current.mapping : changes.mapping,
        retailerKey: changes.retailerKey === undefined ? current.retailerKey : changes.retailerKey,
        createProducts: changes.createProducts ?? current.createProducts,
        schedule: changes.schedule === undefined ? current.schedule : changes.schedule,
        enabled: changes.enabled ?? current.enabled,
      };
      const row = db.$client
        .prepare<unknown[], SourceRow>(
          `UPDATE feed_sources SET name = ?, url = ?, layout = ?, mapping = ?, retailer_key = ?, create_products = ?, schedule = ?, enabled = ?, updated_at = ?
           WHERE id = ? RETURNING *`,
        )
        .get(
          next.name,
          next.url,
          next.layout,
          next.mapping ? JSON.stringify(next.mapping) : null,
          next.retailerKey,
          next.createProducts ? 1 : 0,
          next.schedule,
          next.enabled ? 1 : 0,
          now.toISOString(),
          id,
        )!;
      return toSource(row);
    })
    .immediate();
}

/** Records a file source's new upload; the file the source had before, if any, is returned for deleting. */
export function setFeedSourceFile(
  db: Db,
  id: number,
  file: { fileName: string; storedFile: string; fileBytes: number },
  now: Date,
): { source: FeedSource; replaced: string | null } | null {
  return db.$client
    .transaction(() => {
      const current = getFeedSource(db, id);
      if (!current) return null;
      const row = db.$client
        .prepare<unknown[], SourceRow>("UPDATE feed_sources SET file_name = ?, stored_file = ?, file_bytes = ?, updated_at = ? WHERE id = ? RETURNING *")
        .get(file.fileName, file.storedFile, file.fileBytes, now.toISOString(), id)!;
      return { source: toSource(row), replaced: current.storedFile };
    })
    .immediate();
}

/** Deletes a source with its runs; the deleted source (to remove its upload), or null when there was none. */
export function deleteFeedSource(db: Db, id: number): FeedSource | null {
  const row = db.$client.prepare<unknown[], SourceRow>("DELETE FROM feed_sources WHERE id = ? RETURNING *").get(id);
  return row ? toSource(row) : null;
}

// ---------------------------------------------------------------------------------------------
// Runs

type RunRow = FeedImportRunRow;

function toRun(row: RunRow): FeedRun {
  return {
    id: row.id,
    sourceId: row.source_id,
    sourceKey: row.source_key,
    sourceLabel: row.source_label,
    trigger: row.trigger as RunTrigger,
    status: row.status as RunStatus,
    queuedAt: row.queued_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    rowsRead: row.rows_read,
    matched: row.matched,
    created: row.created,
    offersAdded: row.offers_added,
    pricesChanged: row.prices_changed,
    held: row.held,
    unmatched: row.unmatched,
    refused: JSON.parse(row.refused) as RefusalCounts,
    messages: JSON.parse(row.messages) as string[],
    totalMessages: row.total_messages,
    error: row.error,
  };
}

/** The key the one-run-at-a-time rule uses: an admin source's id, else the configured source's name. */
export const feedSourceKey = (id: number) => `source:${id}`;

/** The source has a run going: the caller says so (409) rather than starting a second. */
export class RunConflict extends Error {
  override name = "RunConflict";
  readonly run: FeedRun;
  constructor(run: FeedRun) {
    super(`"${run.sourceLabel}" is importing already (run ${run.id}, ${run.status}); wait for it to finish`);
    this.run = run;
  }
}

/** How long a queued or running run may go without an update before it counts as abandoned. */
export const defaultStaleAfterMs = 2 * 60_000;

export interface RunClaim {
  sourceId: number | null;
  sourceKey: string;
  sourceLabel: string;
  trigger: RunTrigger;
}

/**
 * Inserts a queued run for the source, unless it has one queued or running (RunConflict). Runs of
 * the source abandoned by a process that stopped (no update for `staleAfterMs`) are closed as failed first.
 */
export function claimRun(db: Db, claim: RunClaim, now: Date, staleAfterMs = defaultStaleAfterMs): FeedRun {
  return db.$client
    .transaction(() => {
      const at = now.toISOString();
      const staleBefore = new Date(now.getTime() - staleAfterMs).toISOString();
      db.$client
        .prepare(
          `UPDATE feed_import_runs SET status = 'failed', finished_at = ?, error = 'The import stopped without finishing (its process ended)'
           WHERE source_key = ? AND status IN ('queued', 'running') AND updated_at < ?`,
        )
        .run(at, claim.sourceKey, staleBefore);
      const active = db.$client.prepare<unknown[], RunRow>("SELECT * FROM feed_import_runs WHERE source_key = ? AND status IN ('queued', 'running') ORDER BY id LIMIT 1").get(claim.sourceKey);
      if (active) throw new RunConflict(toRun(active));
      const row = db.$client
        .prepare<unknown[], RunRow>(
          `INSERT INTO feed_import_runs (source_id, source_key, source_label, trigger, status, queued_at, updated_at)
           VALUES (?, ?, ?, ?, 'queued', ?, ?) RETURNING *`,
        )
        .get(claim.sourceId, claim.sourceKey, claim.sourceLabel, claim.trigger, at, at)!;
      return toRun(row);
    })
    .immediate();
}

export function markRunStarted(db: Db, id: number, now: Date): void {
  db.$client.prepare("UPDATE feed_import_runs SET status = 'running', started_at = ?, updated_at = ? WHERE id = ?").run(now.toISOString(), now.toISOString(), id);
}

/** The counter columns, in the order `counterValues` gives their values. */
const counterColumns = "rows_read = ?, matched = ?, created = ?, offers_added = ?, prices_changed = ?, held = ?, unmatched = ?, refused = ?";
const counterValues = (c: RunCounters) => [c.rowsRead, c.matched, c.created, c.offersAdded, c.pricesChanged, c.held, c.unmatched, JSON.stringify(c.refused)];

/** Stores the live counters (and says the run is alive). */
export function recordRunProgress(db: Db, id: number, counters: RunCounters, now: Date): void {
  db.$client.prepare(`UPDATE feed_import_runs SET ${counterColumns}, updated_at = ? WHERE id = ?`).run(...counterValues(counters), now.toISOString(), id);
}

/** Says the runs are alive (queued runs waiting their turn, a run waiting on a slow download). */
export function touchRuns(db: Db, ids: readonly number[], now: Date): void {
  const touch = db.$client.prepare("UPDATE feed_import_runs SET updated_at = ? WHERE id = ? AND status IN ('queued', 'running')");
  for (const id of ids) touch.run(now.toISOString(), id);
}

export interface RunOutcome {
  status: "succeeded" | "failed";
  counters: RunCounters;
  messages: string[];
  totalMessages: number;
  error: string | null;
}

export function finishRun(db: Db, id: number, outcome: RunOutcome, now: Date): FeedRun {
  const at = now.toISOString();
  const row = db.$client
    .prepare<unknown[], RunRow>(
      `UPDATE feed_import_runs SET status = ?, finished_at = ?, updated_at = ?, started_at = coalesce(started_at, ?), ${counterColumns}, messages = ?, total_messages = ?, error = ?
       WHERE id = ? RETURNING *`,
    )
    .get(outcome.status, at, at, at, ...counterValues(outcome.counters), JSON.stringify(outcome.messages), outcome.totalMessages, outcome.error, id)!;
  return toRun(row);
}

export function getRun(db: Db, id: number): FeedRun | null {
  const row = db.$client.prepare<unknown[], RunRow>("SELECT * FROM feed_import_runs WHERE id = ?").get(id);
  return row ? toRun(row) : null;
}

/** A source's latest runs, newest first. */
export function listRuns(db: Db, sourceKey: string, limit = 20): FeedRun[] {
  return db.$client.prepare<unknown[], RunRow>("SELECT * FROM feed_import_runs WHERE source_key = ? ORDER BY id DESC LIMIT ?").all(sourceKey, limit).map(toRun);
}

/** The latest run of each source key that has one. */
export function latestRuns(db: Db): Map<string, FeedRun> {
  const rows = db.$client
    .prepare<unknown[], RunRow>("SELECT r.* FROM feed_import_runs r JOIN (SELECT source_key, max(id) AS id FROM feed_import_runs GROUP BY source_key) latest ON latest.id = r.id")
    .all();
  return new Map(rows.map((row) => [row.source_key, toRun(row)]));
}
