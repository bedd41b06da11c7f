/**
 * The price pipeline as the server runs it: the price refresh (on demand and on REFRESH_CRON),
 * the stale sweep, and reading one page's price (the product form's extract action). Imports run
 * as background jobs of their own (feed-imports.ts). Every write goes through the catalogue writer; each finished run hands
 * its merged change to the change signal once (drop caches, check alerts, one rebuild).
 */
import type { Db } from "../data/db/client.ts";
import { catalogueRevision } from "../data/db/catalogue-revision.ts";
import { isChange, type CatalogueChange } from "../data/db/catalogue-writer/transaction.ts";
import { markStaleOffers, rederiveDailyPrices } from "../data/db/price-writer.ts";
import { defaultHoldPolicy, type HoldPolicy } from "../data/domain/price-hold.ts";
import { refreshPrices, type RefreshSummary } from "./jobs/price-refresh.ts";
import { createJobRunner } from "./jobs/runner.ts";
import { createSchedule, type JobDefinition, type Schedule } from "./jobs/schedule.ts";
import { utcDay } from "../data/domain/deal-facts.ts";
import { defaultFreshForMs, freshnessText } from "../data/domain/offers.ts";
import type { PageRead, PageReader } from "./lib/page-price.ts";
import { productSources, type ProductSource } from "./product-sources.ts";

export interface PricePipelineOptions {
  db: Db;
  /** Reads retailer pages and their robots.txt. */
  reader: PageReader;
  /** Default: from the environment (see product-sources.ts). */
  sources?: Map<string, ProductSource>;
  holdPolicy?: HoldPolicy;
  concurrency?: number;
  hostDelayMs?: number;
  /** A cron pattern (UK time) for the refresh inside the server; null: none. */
  refreshCron?: string | null;
  /** How long a confirmed price counts as current (default 24 hours). */
  freshForMs?: number;
  /**
   * Minutes between sweeps (offers unconfirmed within the freshness window lose the best price;
   * the first sweep of each UTC day re-checks every was-price against the last 90 days); 0: none.
   */
  staleSweepMinutes?: number;
  catalogueChanged(change: CatalogueChange): void;
  log?: (line: string) => void;
  /** Told of every refresh run's end: its summary, or null when the run itself failed, and how long it took. */
  onRefreshed?: (summary: RefreshSummary | null, ms: number) => void;
  /** The server's schedule to put the refresh and the sweep on (default: one of their own, started at once). */
  schedule?: Schedule;
}

export interface PricePipeline {
  /** Reads one page's offer whole (the product form's extract action). */
  readPage(url: string): Promise<PageRead>;
  holdPolicy: HoldPolicy;
  /** Runs a refresh (coalesced: a request during a run gets one more run after it). */
  refresh(): Promise<RefreshSummary>;
  /** When the scheduled refresh runs next (null: not scheduled). */
  nextScheduledRefresh(): Date | null;
  /** How long a confirmed price counts as current. */
  freshForMs: number;
  /** Marks offers unconfirmed within the freshness window stale now (the server also does it every 5 minutes). */
  sweepStale(): number;
  /**
   * Re-checks every product's was-price for `now`'s UTC day (the history moves a day on; see
   * rederiveDailyPrices) unless this pipeline has done it for that day: the number of products
   * changed, or null when the day was done already. The sweep runs it.
   */
  rederiveForDay(now?: Date): number | null;
  stop(): Promise<void>;
}

export function createPricePipeline(options: PricePipelineOptions): PricePipeline {
  const { db } = options;
  const log = options.log ?? console.error;
  const sources = options.sources ?? productSources();
  const holdPolicy = options.holdPolicy ?? defaultHoldPolicy;
  const freshForMs = options.freshForMs ?? defaultFreshForMs;

  const signal = (change: CatalogueChange) => {
    if (isChange(change)) options.catalogueChanged(change);
  };
  /**
   * Runs a batch job; when it fails after committing some of its writes (each whole), what it
   * changed is unknown here, so the change signal gets "everything" (drop caches, check alerts,
   * rebuild all pages) before the failure goes on to the caller.
   */
  const signalPartial = async <T>(job: () => Promise<T>): Promise<T> => {
    const startRevision = catalogueRevision(db);
    try {
      return await job();
    } catch (error) {
      if (catalogueRevision(db) !== startRevision) options.catalogueChanged({ productIds: [], categoryIds: [], siteWide: true });
      throw error;
    }
  };

  const refresher = createJobRunner<RefreshSummary | null>(
    async () => {
      const started = performance.now();
      const summary = await signalPartial(() => refreshPrices({
        db,
        feeds: [...sources.values()].flatMap((source) => (source.kind === "feed" && source.refresh ? [{ name: source.name, open: source.open }] : [])),
        reader: options.reader,
        concurrency: options.concurrency,
        hostDelayMs: options.hostDelayMs,
        policy: holdPolicy,
        freshForMs,
        log,
      })).catch((error: unknown) => {
        options.onRefreshed?.(null, performance.now() - started);
        throw error;
      });
      options.onRefreshed?.(summary, summary.durationMs);
      log(
        `Price refresh ${summary.result}: ${summary.checked} checked, ${summary.changed} changed, ${summary.held} held, ${summary.notModified} not modified, ` +
          `${summary.blocked} blocked by robots.txt, ${summary.backedOff} backed off, ${summary.failed} failed, ${summary.stale} marked stale in ${(summary.durationMs / 1000).toFixed(1)} s`,
      );
      signal(summary.change);
      return summary;
    },
    { whenStopped: null },
  );

  const sweepStale = () => {
    const { value, change } = markStaleOffers(db, new Date(), freshForMs);
    signal(change);
    return value.marked;
  };
  /** The UTC day whose was-prices this pipeline has re-checked (null: none yet, so the first sweep does). */
  let rederivedDay: string | null = null;
  const rederiveForDay = (now = new Date()) => {
    const day = utcDay(now);
    if (day === rederivedDay) return null;
    const { value, change } = rederiveDailyPrices(db, now);
    rederivedDay = day;
    signal(change);
    return value.changed;
  };
  // Every 5 minutes: a price stops counting as best at most 5 minutes after its window ends.
  const sweepMinutes = options.staleSweepMinutes ?? 5;
  const jobs: JobDefinition[] = [];
  if (options.refreshCron) {
    jobs.push({ name: "price-refresh", title: "Scheduled price refresh", every: options.refreshCron, run: () => refresher.request() });
  }
  if (sweepMinutes > 0) {
    jobs.push({
      name: "stale-sweep",
      title: "Stale sweep",
      every: sweepMinutes * 60_000,
      run: () => {
        const marked = sweepStale();
        if (marked > 0) log(`Marked ${marked} offers stale (not confirmed for ${freshnessText(freshForMs)})`);
        const rederived = rederiveForDay();
        if (rederived !== null && rederived > 0) log(`Re-checked was-prices for a new day: ${rederived} products changed`);
      },
    });
  }
  const own = options.schedule ? null : createSchedule({ log });
  const schedule = options.schedule ?? own!;
  for (const job of jobs) schedule.add(job);
  own?.start();

  return {
    readPage: (url) => options.reader.readPage(url),
    sweepStale,
    rederiveForDay,
    holdPolicy,
    freshForMs,
    async refresh() {
      const summary = await refresher.request();
      if (summary === null) throw new Error("The server is stopping; the refresh did not run");
      return summary;
    },
    nextScheduledRefresh: () => (options.refreshCron ? schedule.nextRun("price-refresh") : null),
    async stop() {
      for (const job of jobs) schedule.remove(job.name);
      await own?.stop();
      await refresher.stop();
    },
  };
}
