/**
 * The one path every import takes, whoever asks (a schedule, the admin, `npm run import`):
 *
 * 1. `claimImport` stores a queued run for the source, or refuses (RunConflict) while the source
 *    has one queued or running, in this process or another.
 * 2. `executeImport` runs it: the source's rows go through the catalogue writer (importFeed), the
 *    live counters are stored at most every 500 ms (not per row), the run ends `succeeded` with
 *    its result or `failed` with the reason, and the change signal is sent once at the end: the
 *    merged change of a finished run, or "everything" when a failed run had committed writes.
 *
 * Error texts are stored with every URL in them masked: a feed's download link holds its API key.
 */
import type { Db } from "../../data/db/client.ts";
import { catalogueRevision } from "../../data/db/catalogue-revision.ts";
import { isChange, type CatalogueChange } from "../../data/db/catalogue-writer/transaction.ts";
import { claimRun, finishRun, markRunStarted, recordRunProgress, touchRuns, type RunClaim } from "../../data/db/feed-sources.ts";
import { defaultHoldPolicy, type HoldPolicy } from "../../data/domain/price-hold.ts";
import { emptyCounters, maskUrlsIn, type FeedRun, type RunCounters, type RunTrigger } from "../../data/domain/feed-sources.ts";
import type { FeedItem } from "../../data/domain/feed-row.ts";
import { countersOf, importFeed } from "./product-import.ts";

/** A source ready to import: what the run row names, what the offers are tagged with, how to read it. */
export interface ImportTarget {
  /** The one-run-at-a-time key (feed-sources.ts feedSourceKey, or a configured source's name). */
  key: string;
  /** The admin feed source's id; null for a configured source. */
  sourceId: number | null;
  label: string;
  /** Stored as the offers' source (`feed:<name>`). */
  tagName: string;
  createProducts: boolean;
  /** Opens the rows as a stream; throws when the source cannot be read (the run fails with the reason). */
  open(signal: AbortSignal): Promise<AsyncIterable<FeedItem>>;
}

export interface ExecuteOptions {
  policy?: HoldPolicy;
  /** Every committed change goes here, once per run. */
  catalogueChanged(change: CatalogueChange): void;
  /** Called with the counters as they are stored. */
  onProgress?: (counters: RunCounters) => void;
  /** Stops the import between rows (server shutdown); the run fails saying so. */
  signal?: AbortSignal;
  log?: (line: string) => void;
  /** Messages kept with the run (the count is exact). */
  maxMessages?: number;
  /** How often the counters are stored while the run reads (default 500 ms; only when they moved). */
  progressMs?: number;
  now?: () => Date;
}

/** Stores a queued run of `target`; RunConflict (from data/db/feed-sources.ts) while one is going. */
export function claimImport(db: Db, target: ImportTarget, trigger: RunTrigger, now = new Date()): FeedRun {
  const claim: RunClaim = { sourceId: target.sourceId, sourceKey: target.key, sourceLabel: target.label, trigger };
  return claimRun(db, claim, now);
}

/** How often a run says it is alive while it waits on something slow (a download that has not started). */
const heartbeatMs = 15_000;

async function* stopWhenAborted(items: AsyncIterable<FeedItem>, signal: AbortSignal | undefined): AsyncGenerator<FeedItem> {
  for await (const item of items) {
    if (signal?.aborted) throw new Error("The server stopped during the import; run it again");
    yield item;
  }
}

/**
 * Runs a claimed run to its end and returns it as stored. A source that cannot be read, or a
 * failure half-way, ends the run `failed` with the reason (it does not throw).
 */
export async function executeImport(db: Db, runId: number, target: ImportTarget, options: ExecuteOptions): Promise<FeedRun> {
  const now = options.now ?? (() => new Date());
  const log = options.log ?? console.error;
  const signal = options.signal ?? new AbortController().signal;
  markRunStarted(db, runId, now());
  const heartbeat = setInterval(() => touchRuns(db, [runId], now()), heartbeatMs);
  heartbeat.unref();
  const startRevision = catalogueRevision(db);
  let live: () => RunCounters = emptyCounters;
  let stored = JSON.stringify(emptyCounters());
  const storeProgress = () => {
    const counters = live();
    const text = JSON.stringify(counters);
    if (text === stored) return;
    stored = text;
    recordRunProgress(db, runId, counters, now());
    options.onProgress?.(counters);
  };
  const progress = setInterval(storeProgress, options.progressMs ?? 500);
  progress.unref();
  try {
    if (signal.aborted) throw new Error("The server stopped before the import started; run it again");
    const items = await target.open(signal);
    const summary = await importFeed(db, stopWhenAborted(items, signal), {
      source: { name: target.tagName, createProducts: target.createProducts },
      policy: options.policy ?? defaultHoldPolicy,
      maxMessages: options.maxMessages ?? 100,
      now,
      watch: (counters) => (live = counters),
    });
    if (isChange(summary.change)) options.catalogueChanged(summary.change);
    return finishRun(db, runId, { status: "succeeded", counters: countersOf(summary), messages: summary.errors, totalMessages: summary.totalErrors, error: null }, now());
  } catch (error) {
    // Each product was written whole, but which ones is not known here: everything may have changed.
    if (catalogueRevision(db) !== startRevision) options.catalogueChanged({ productIds: [], categoryIds: [], siteWide: true });
    const reason = maskUrlsIn(error instanceof Error ? error.message : String(error));
    log(`Import of ${target.label} failed: ${reason}`);
    return finishRun(db, runId, { status: "failed", counters: live(), messages: [], totalMessages: 0, error: reason }, now());
  } finally {
    clearInterval(heartbeat);
    clearInterval(progress);
  }
}
