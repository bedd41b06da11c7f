/**
 * The demo refresher: keeps the seeded demo catalogue's offers confirmed, so a demo left running
 * keeps its best prices instead of going stale (nothing else confirms a demo price: the price
 * refresh never reads a demo offer's page).
 *
 * Rules:
 * - When any demo offer was last confirmed 20 hours ago or more, every demo offer is checked
 *   through the one price writer (source demo, stock and stated was-price as they are, the
 *   was-price dropped once the price reaches it): that confirms it, writes history when the price
 *   moves, and re-derives best prices and deal facts as a real check does.
 * - An offer's first check of a UK day moves its price by the day's demo move
 *   (data/domain/demo-prices.ts); a later check the same day repeats the price. So the price moves
 *   once a UK day, while confirmations come every 20 to 21 hours: never a day apart, so no demo
 *   offer goes stale under a freshness window of 24 hours or more.
 * - The rule is looked at when the server starts (shortly after, once the site build is
 *   connected) and then hourly; with no demo offer there is nothing to do.
 */
import type { Db } from "../../data/db/client.ts";
import { isChange, type CatalogueChange, type Written } from "../../data/db/catalogue-writer/transaction.ts";
import { demoOffers, demoSource, oldestDemoCheck } from "../../data/db/demo.ts";
import { recordPriceChecks, type PriceCheck, type PriceCheckCounts } from "../../data/db/price-writer.ts";
import { ukToday } from "../../data/domain/dates.ts";
import { demoPriceMove } from "../../data/domain/demo-prices.ts";
import { createSchedule, type JobDefinition, type Schedule } from "./schedule.ts";

/** A demo offer confirmed this long ago is due again. */
export const demoRecheckAfterMs = 20 * 60 * 60 * 1000;
/** How often the rule is looked at. */
export const demoCheckIntervalMs = 60 * 60 * 1000;
/** The first look after the server starts (its site build is connected by then). */
export const demoStartDelayMs = 1000;

const noCounts: PriceCheckCounts = { checked: 0, changed: 0, held: 0, missing: 0 };
const noChange: CatalogueChange = { productIds: [], categoryIds: [], siteWide: false };

/** Whether a demo offer was last confirmed `demoRecheckAfterMs` or more before `now` (false: no demo offer). */
export function demoRefreshDue(db: Db, now: Date): boolean {
  const oldest = oldestDemoCheck(db);
  return oldest !== null && now.getTime() - Date.parse(oldest) >= demoRecheckAfterMs;
}

/** Checks every demo offer now: the day's move on its first check of the UK day, else its price again. */
export function refreshDemoOffers(db: Db, now = new Date()): Written<PriceCheckCounts> {
  const offers = demoOffers(db);
  if (offers.length === 0) return { value: { ...noCounts }, change: noChange };
  const day = ukToday(now);
  const checks: PriceCheck[] = offers.map((offer) => ({
    productId: offer.productId,
    retailerId: offer.retailerId,
    pricePence: ukToday(new Date(offer.checkedAt)) === day ? offer.pricePence : demoPriceMove({ ...offer, day }),
    // Kept while above the price: a price that rises to the stated was-price drops it.
    originalPricePence: offer.originalPricePence,
    inStock: null,
    source: demoSource,
  }));
  return recordPriceChecks(db, checks, undefined, now);
}

export interface DemoRefreshSchedule {
  /** Refreshes the demo offers if due (see the rules); null when not due. */
  runIfDue(): PriceCheckCounts | null;
  stop(): void;
}

export interface DemoRefreshOptions {
  db: Db;
  catalogueChanged(change: CatalogueChange): void;
  /** Milliseconds between looks at the rule (default an hour); 0: only when asked. */
  intervalMs?: number;
  /** Milliseconds from start to the first look (default 1 s). */
  startDelayMs?: number;
  now?: () => Date;
  log?: (line: string) => void;
  /** The server's schedule to put the job on (default: one of its own, started at once). */
  schedule?: Schedule;
}

export function startDemoRefresh({
  db,
  catalogueChanged,
  intervalMs = demoCheckIntervalMs,
  startDelayMs = demoStartDelayMs,
  now = () => new Date(),
  log = console.error,
  schedule,
}: DemoRefreshOptions): DemoRefreshSchedule {
  const runIfDue = () => {
    const at = now();
    if (!demoRefreshDue(db, at)) return null;
    const { value, change } = refreshDemoOffers(db, at);
    if (isChange(change)) catalogueChanged(change);
    return value;
  };
  // A busy or failing database must not stop the server; the schedule logs the failure and the next look tries again.
  const job: JobDefinition = {
    name: "demo-refresh",
    title: "Demo price refresh",
    every: intervalMs,
    runAtStart: startDelayMs,
    run: () => {
      const counts = runIfDue();
      if (counts) log(`Demo prices confirmed: ${counts.checked} offers checked, ${counts.changed} moved`);
    },
  };
  const own = intervalMs > 0 && !schedule ? createSchedule({ log }) : null;
  const target = schedule ?? own;
  if (intervalMs > 0) target!.add(job);
  own?.start();
  return {
    runIfDue,
    stop() {
      if (intervalMs > 0) target!.remove(job.name);
      void own?.stop();
    },
  };
}
