/**
 * Reads and records of the price pipeline that are not catalogue writes: the held prices the
 * admin reviews, and one record per price refresh (Platform Health shows the last one).
 */
import type { Db } from "./client.ts";
import type { PriceHoldRow, PriceRefreshRunRow, ProductRow, RetailerRow } from "./rows.ts";
import { statement } from "./statements.ts";
import type { Pence } from "../domain/money.ts";

export interface HeldPrice {
  id: number;
  product: { id: number; name: string; slug: string };
  retailer: { id: number; name: string };
  publishedPricePence: Pence | null;
  heldPricePence: Pence;
  inStock: boolean | null;
  source: string;
  url: string;
  observedAt: string;
  /** A first offer at this retailer, held against the product's best price (publishedPricePence). */
  newOffer: boolean;
  /** Why it was held besides a jump beyond the hold factor (a price read with low confidence); null: the jump. */
  reason: string | null;
}

type HeldRow = Pick<
  PriceHoldRow,
  "id" | "product_id" | "retailer_id" | "published_price_pence" | "held_price_pence" | "in_stock" | "source" | "url" | "observed_at" | "new_offer" | "reason"
> & { product_name: ProductRow["name"]; product_slug: ProductRow["slug"]; retailer_name: RetailerRow["name"] };

/** Held prices waiting for a decision, oldest first (the longest-waiting is reviewed first). */
export function pendingHolds(db: Db, limit = 500): HeldPrice[] {
  const rows = statement<HeldRow>(
    db,
    `SELECT h.id, h.product_id, p.name AS product_name, p.slug AS product_slug, h.retailer_id, r.name AS retailer_name,
       h.published_price_pence, h.held_price_pence, h.in_stock, h.source, h.url, h.observed_at, h.new_offer, h.reason
     FROM price_holds h JOIN products p ON p.id = h.product_id JOIN retailers r ON r.id = h.retailer_id
     WHERE h.status = 'pending' ORDER BY h.observed_at, h.id LIMIT ?`,
  ).all(limit);
  return rows.map((row) => ({
    id: row.id,
    product: { id: row.product_id, name: row.product_name, slug: row.product_slug },
    retailer: { id: row.retailer_id, name: row.retailer_name },
    publishedPricePence: row.published_price_pence,
    heldPricePence: row.held_price_pence,
    inStock: row.in_stock === null ? null : row.in_stock === 1,
    source: row.source,
    url: row.url,
    observedAt: row.observed_at,
    newOffer: row.new_offer === 1,
    reason: row.reason,
  }));
}

export type RefreshResult = "running" | "succeeded" | "partial" | "failed";

export interface RefreshRun {
  id: number;
  startedAt: string;
  finishedAt: string | null;
  durationMs: number | null;
  checked: number;
  changed: number;
  held: number;
  failed: number;
  result: RefreshResult;
  failures: string[];
}

export interface RefreshTotals {
  checked: number;
  changed: number;
  held: number;
  failed: number;
}

/** How many failure lines a run keeps for the admin. */
const keptFailures = 50;

export function recordRefreshStart(db: Db, startedAt: Date): number {
  const row = statement<Pick<PriceRefreshRunRow, "id">>(db, "INSERT INTO price_refresh_runs (started_at, result) VALUES (?, 'running') RETURNING id").get(startedAt.toISOString())!;
  return row.id;
}

/**
 * Completes a run. Its result: failed when offers were due and none could be checked, partial
 * when some failed, else succeeded.
 */
export function recordRefreshFinish(
  db: Db,
  id: number,
  totals: RefreshTotals,
  failures: readonly string[],
  finishedAt: Date,
  /** A run that stopped on an error failed, whatever it had checked. */
  stopped = false,
): Exclude<RefreshResult, "running"> {
  const result = stopped ? "failed" : refreshResult(totals);
  const started = statement<Pick<PriceRefreshRunRow, "started_at">>(db, "SELECT started_at FROM price_refresh_runs WHERE id = ?").get(id);
  const durationMs = started ? Math.max(0, finishedAt.getTime() - Date.parse(started.started_at)) : null;
  statement(
    db,
    "UPDATE price_refresh_runs SET finished_at = ?, duration_ms = ?, checked = ?, changed = ?, held = ?, failed = ?, result = ?, failures = ? WHERE id = ?",
  ).run(
    finishedAt.toISOString(),
    durationMs,
    totals.checked,
    totals.changed,
    totals.held,
    totals.failed,
    result,
    failures.length > 0 ? failures.slice(0, keptFailures).join("\n") : null,
    id,
  );
  return result;
}

/** failed: offers were due and none could be checked; partial: some failed; else succeeded. */
export function refreshResult(totals: RefreshTotals): Exclude<RefreshResult, "running"> {
  if (totals.failed > 0 && totals.checked === 0) return "failed";
  return totals.failed > 0 ? "partial" : "succeeded";
}

/** A run's row; its result holds only the values the refresh writes. */
type RunRow = Omit<PriceRefreshRunRow, "result"> & { result: RefreshResult };

/** A run still "running" after this long was killed (its process died): it is reported as failed. */
export const refreshRunDeadAfterMs = 6 * 60 * 60 * 1000;

/** The newest refresh run (running or finished), or null when none has run. */
export function latestRefreshRun(db: Db, now = new Date()): RefreshRun | null {
  const row = statement<RunRow>(
    db,
    "SELECT id, started_at, finished_at, duration_ms, checked, changed, held, failed, result, failures FROM price_refresh_runs ORDER BY started_at DESC, id DESC LIMIT 1",
  ).get();
  if (!row) return null;
  const dead = row.result === "running" && now.getTime() - Date.parse(row.started_at) > refreshRunDeadAfterMs;
  return {
    id: row.id,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    durationMs: row.duration_ms,
    checked: row.checked,
    changed: row.changed,
    held: row.held,
    failed: row.failed,
    result: dead ? "failed" : row.result,
    failures: dead ? ["The refresh stopped without finishing (its process ended)"] : row.failures ? row.failures.split("\n") : [],
  };
}
