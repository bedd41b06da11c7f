/**
 * The price refresh (nightly, `npm run refresh`, or REFRESH_CRON inside the server).
 *
 * 1. Feeds first: every source configured for refresh is streamed; each row that matches an
 *    existing offer becomes a price check. The retailers a feed covers are not read page by page.
 * 2. Pages for the rest, most watched products first (see data/db/refresh-order.ts): a few sites
 *    at a time (concurrency), one request at a time per site, and politely:
 *    - robots.txt (RFC 9309) is read once per site and kept 24 hours; a page it disallows for our
 *      product token is never fetched (blocked). A 4xx robots.txt allows everything; a 429, 5xx
 *      or no answer blocks the whole site for this run and is asked again by the next.
 *    - Two requests to one site are at least max(hostDelayMs, its Crawl-delay) apart; a site
 *      whose Crawl-delay is over a minute gets only the pages that fit in 30 minutes.
 *    - A 429 or 503 makes the site wait: its Retry-After, else a back-off doubling with each busy
 *      answer in a row. The page is then asked once more. A wait over 5 minutes, or a second busy
 *      answer, leaves the site's other pages to a later run (backed off), and later runs keep
 *      away until the wait is over (crawl_hosts). Other sites carry on meanwhile.
 *    - A page whose published price was read from it is asked for with its ETag/Last-Modified;
 *      a 304 confirms the stored price (not modified).
 *    A page with no price, several prices it does not choose between, a price in another or no
 *    named currency, or a failed fetch counts as failed for that offer; one failing retailer never
 *    stops the others. A low-confidence price (read from visible text alone) is held for review
 *    with its rule as the reason, never published unseen.
 * 3. Checks go through the catalogue writer in batches (history, best prices, review hold);
 *    offers unconfirmed within the freshness window (24 hours by default) are then marked stale.
 * 4. The run is recorded (checked, changed, held, failed, duration; the pages blocked or backed
 *    off in the failure lines) for Platform Health, and returns one merged change for one alert
 *    check and one rebuild.
 */
import type { Db } from "../../data/db/client.ts";
import { isChange, mergeChanges, type CatalogueChange } from "../../data/db/catalogue-writer/transaction.ts";
import { getCrawlHost, saveBackOff, saveRobots, type StoredRobots } from "../../data/db/crawl-hosts.ts";
import { markStaleOffers, recordPageValidators, recordPriceChecks, type PageValidatorsRead, type PriceCheck } from "../../data/db/price-writer.ts";
import { defaultHoldPolicy, type HoldPolicy } from "../../data/domain/price-hold.ts";
import { recordRefreshFinish, recordRefreshStart, type RefreshResult } from "../../data/db/price-review.ts";
import { offersToRead, unchangedPageChecks, type OfferToRead } from "../../data/db/refresh-order.ts";
import { matchKey } from "../../data/domain/feed-row.ts";
import { defaultFreshForMs } from "../../data/domain/offers.ts";
import type { OfferReading } from "../../data/domain/offer-extract.ts";
import type { FeedItem } from "../../data/feeds/awin-feed.ts";
import { FetchFailed, FetchRefused } from "../lib/guarded-fetch.ts";
import type { PageReader, RobotsAnswer } from "../lib/page-price.ts";
import { backOffMs, longestBlockMs, longestWaitMs, pagesPerRun, requestGapMs, retryAfterMs, robotsFresh, robotsRules } from "./crawl-manners.ts";

export interface RefreshFeed {
  name: string;
  open(): Promise<AsyncIterable<FeedItem>>;
}

export interface RefreshOptions {
  db: Db;
  feeds?: readonly RefreshFeed[];
  /** Reads retailer pages and their sites' robots.txt. */
  reader: PageReader;
  concurrency?: number;
  hostDelayMs?: number;
  policy?: HoldPolicy;
  /** How long a confirmed price counts as current (default 24 hours). */
  freshForMs?: number;
  now?: () => Date;
  log?: (line: string) => void;
  /** Offers done so far, of how many pages are to be read. */
  onProgress?: (done: number, total: number) => void;
}

export interface RefreshSummary {
  result: Exclude<RefreshResult, "running">;
  checked: number;
  changed: number;
  held: number;
  /** Pages that answered 304 to the validators sent: their stored prices confirmed (counted in checked too). */
  notModified: number;
  /** Pages not fetched because robots.txt disallows them, or could not be read. */
  blocked: number;
  /** Pages left for a later run because their site asked us to wait, or its Crawl-delay left no time. */
  backedOff: number;
  /** Pages and feeds that could not be read (blocked and backed-off pages are not among them). */
  failed: number;
  /** Offers marked stale at the end. */
  stale: number;
  durationMs: number;
  /** The first failures, blocked and backed-off pages, "Retailer: url: reason". */
  failures: string[];
  change: CatalogueChange;
}

const batchSize = 100;
const keptFailures = 50;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** scheme://host[:port] of an http(s) URL (null: not one): robots.txt and pacing go by it. */
function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.origin : null;
  } catch {
    return null;
  }
}

/** The site asked us to wait longer than a run waits: the rest of its pages are left for later. */
class SiteBusy extends Error {}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The check a page's reading gives the offer, or why it gives none. */
function pageCheck(offer: OfferToRead, reading: OfferReading | null): PriceCheck | string {
  const read = reading?.status === "found" ? reading.offer : null;
  if (reading?.status === "undecided") return reading.reason;
  if (read === null) return "no price found on the page";
  if (read.currency === null) return "the page names no currency";
  if (read.currency !== "GBP") return `priced in ${read.currency}, not pounds`;
  const holdReason = read.confidence === "low" ? `low confidence: ${read.evidence.rule}` : undefined;
  return { productId: offer.productId, retailerId: offer.retailerId, pricePence: read.price, inStock: read.inStock, source: "page", ...(holdReason ? { holdReason } : {}) };
}

export async function refreshPrices(options: RefreshOptions): Promise<RefreshSummary> {
  const { db } = options;
  const now = options.now ?? (() => new Date());
  const log = options.log ?? (() => {});
  const policy = options.policy ?? defaultHoldPolicy;
  const freshForMs = options.freshForMs ?? defaultFreshForMs;
  const started = now();
  const runId = recordRefreshStart(db, started);
  const totals = { checked: 0, changed: 0, held: 0, notModified: 0, blocked: 0, backedOff: 0, failed: 0 };
  const failures: string[] = [];
  const changes: CatalogueChange[] = [];
  const note = (line: string) => {
    if (failures.length < keptFailures) failures.push(line);
  };
  const fail = (line: string) => {
    totals.failed += 1;
    note(line);
  };

  let pending: PriceCheck[] = [];
  let pendingValidators: PageValidatorsRead[] = [];
  let pendingUnchanged: OfferToRead[] = [];
  const flush = () => {
    const checks = [...pending, ...unchangedPageChecks(db, pendingUnchanged)];
    if (checks.length > 0) {
      const { value, change } = recordPriceChecks(db, checks, policy, now());
      totals.checked += value.checked;
      totals.changed += value.changed;
      totals.held += value.held;
      if (isChange(change)) changes.push(change);
    }
    recordPageValidators(db, pendingValidators);
    pending = [];
    pendingValidators = [];
    pendingUnchanged = [];
  };
  const check = (item: PriceCheck) => {
    pending.push(item);
    if (pending.length + pendingUnchanged.length >= batchSize) flush();
  };
  const confirmUnchanged = (offer: OfferToRead) => {
    totals.notModified += 1;
    pendingUnchanged.push(offer);
    if (pending.length + pendingUnchanged.length >= batchSize) flush();
  };

  try {
    // 1. Feeds.
    const retailers = db.$client.prepare<unknown[], { id: number; key: string; name: string }>("SELECT id, key, name FROM retailers WHERE compares_prices = 1").all();
    const retailerByKey = new Map(retailers.map((retailer) => [retailer.key, retailer]));
    const covered = new Set<number>();
    if ((options.feeds ?? []).length > 0) {
      const products = db.$client.prepare<unknown[], { id: number; name: string; brand: string | null; gtin: string | null }>("SELECT id, name, brand, gtin FROM products").all();
      const byGtin = new Map<string, number>();
      const byKey = new Map<string, number>();
      for (const product of products) {
        if (product.gtin && !byGtin.has(product.gtin)) byGtin.set(product.gtin, product.id);
        const key = matchKey(product.brand, product.name);
        if (!byKey.has(key)) byKey.set(key, product.id);
      }
      const offers = new Set((db.$client.prepare("SELECT product_id, retailer_id FROM product_prices").raw().all() as [number, number][]).map(([p, r]) => `${p}:${r}`));
      for (const feed of options.feeds ?? []) {
        let rows = 0;
        try {
          for await (const item of await feed.open()) {
            if (item.kind !== "offer") continue;
            rows += 1;
            const retailer = retailerByKey.get(item.offer.merchantKey);
            if (!retailer) continue;
            covered.add(retailer.id);
            const productId = (item.offer.gtin ? byGtin.get(item.offer.gtin) : undefined) ?? byKey.get(matchKey(item.offer.brand, item.offer.name));
            if (productId === undefined || !offers.has(`${productId}:${retailer.id}`)) continue;
            check({
              productId,
              retailerId: retailer.id,
              pricePence: item.offer.pricePence,
              originalPricePence: item.offer.originalPricePence,
              inStock: item.offer.inStock,
              deliveryPence: item.offer.deliveryPence,
              source: `feed:${feed.name}`,
              repeatPricePence: item.offer.repeatPricePence,
              repeatTerms: item.offer.repeatTerms,
              multiBuy: item.offer.multiBuy,
              memberPricePence: item.offer.memberPricePence,
              memberScheme: item.offer.memberScheme,
            });
          }
          log(`Feed ${feed.name}: ${rows} rows read`);
        } catch (error) {
          // The feed's retailers fall back to their pages.
          fail(`Feed ${feed.name}: ${errorText(error)}`);
          log(`Feed ${feed.name} failed: ${errorText(error)}`);
        }
      }
      flush();
    }

    // 2. Pages, for offers of retailers no feed covered, most watched first.
    const toRead = offersToRead(db, now(), freshForMs / 2).filter((offer) => !covered.has(offer.retailerId));
    // Each site's queue in watch order; the sites whose top offer is most watched start first.
    const byOrigin = new Map<string, OfferToRead[]>();
    for (const offer of toRead) {
      const origin = originOf(offer.url);
      if (origin === null) {
        fail(`${offer.retailerName}: ${offer.url}: not a web address`);
        continue;
      }
      const queue = byOrigin.get(origin) ?? [];
      queue.push(offer);
      byOrigin.set(origin, queue);
    }
    const total = toRead.length;
    log(`Pages: ${total} to read at ${byOrigin.size} sites`);
    let done = 0;
    const progress = () => {
      done += 1;
      options.onProgress?.(done, total);
    };
    const hostDelayMs = options.hostDelayMs ?? 1500;

    const readSite = async (origin: string, queue: OfferToRead[]) => {
      const skip = (offer: OfferToRead, outcome: "blocked" | "backedOff", reason: string) => {
        totals[outcome] += 1;
        note(`${offer.retailerName}: ${offer.url}: ${reason}`);
        progress();
      };
      const known = getCrawlHost(db, origin);
      // No request, robots.txt included, before the time an earlier run's 429/503 asked for.
      if (known?.blockedUntil) {
        const waitMs = known.blockedUntil.getTime() - now().getTime();
        if (waitMs > longestWaitMs) {
          for (const offer of queue) skip(offer, "backedOff", `the site asked us to wait (until ${known.blockedUntil.toISOString()})`);
          return;
        }
        if (waitMs > 0) await sleep(waitMs);
      }

      // Requests to the site go one at a time, each at least gapMs after the last one ended and
      // not before a busy answer's wait is over.
      let gapMs = hostDelayMs;
      let lastEnded: number | null = null;
      let busyUntil = 0;
      const paced = async <T>(send: () => Promise<T>): Promise<T> => {
        const waitMs = Math.max(lastEnded === null ? 0 : lastEnded + gapMs, busyUntil) - performance.now();
        if (waitMs > 0) await sleep(waitMs);
        try {
          return await send();
        } finally {
          lastEnded = performance.now();
        }
      };

      let robots: StoredRobots;
      let unreadable = "";
      if (robotsFresh(known, now())) robots = known.robots;
      else {
        let answer: RobotsAnswer;
        try {
          answer = await paced(() => options.reader.readRobots(origin));
        } catch (error) {
          if (error instanceof FetchRefused) {
            // An origin the guard refuses has no page that could be read: each fails with the reason.
            for (const offer of queue) {
              fail(`${offer.retailerName}: ${offer.url}: ${error.message}`);
              progress();
            }
            return;
          }
          answer = { state: "disallow", reason: errorText(error) };
        }
        if (answer.state === "disallow") unreadable = answer.reason;
        saveRobots(db, origin, answer, now());
        robots = answer;
      }
      const rules = robotsRules(origin, robots);
      gapMs = requestGapMs(hostDelayMs, rules.crawlDelayMs);
      const pageLimit = pagesPerRun(rules.crawlDelayMs);
      const notAllowed = robots.state === "disallow" ? `robots.txt could not be read (${unreadable}), so nothing is read from the site this run` : "robots.txt disallows it";

      let busyStreak = known?.busyStreak ?? 0;
      const answered = () => {
        if (busyStreak === 0) return;
        busyStreak = 0;
        saveBackOff(db, origin, null, 0);
      };
      /** Reads the page; a 429/503 makes the site wait and the page is asked once more. Throws SiteBusy when the site's pages must wait for a later run. */
      const readPolitely = async (offer: OfferToRead) => {
        let waitedMs = 0;
        for (let attempt = 1; ; attempt += 1) {
          try {
            const answer = await paced(() => (offer.validators ? options.reader.readPage(offer.url, offer.validators) : options.reader.readPage(offer.url)));
            answered();
            return answer;
          } catch (error) {
            if (!(error instanceof FetchFailed) || (error.status !== 429 && error.status !== 503)) {
              if (error instanceof FetchFailed && error.status !== null) answered();
              throw error;
            }
            busyStreak += 1;
            const askedMs = retryAfterMs(error.retryAfter, now());
            const waitMs = askedMs ?? backOffMs(gapMs, busyStreak);
            saveBackOff(db, origin, new Date(now().getTime() + Math.min(waitMs, longestBlockMs)), busyStreak);
            if (askedMs !== null && askedMs > longestWaitMs) throw new SiteBusy(`the site asked us to wait (Retry-After ${error.retryAfter})`);
            if (attempt === 2) throw new SiteBusy(`the site answered ${error.status} again after a wait of ${Math.ceil(waitedMs / 1000)} s`);
            waitedMs = waitMs;
            busyUntil = performance.now() + waitMs;
          }
        }
      };

      let busy: string | null = null;
      let read = 0;
      for (const offer of queue) {
        if (!rules.allows(offer.url)) {
          skip(offer, "blocked", notAllowed);
          continue;
        }
        if (busy !== null) {
          skip(offer, "backedOff", busy);
          continue;
        }
        if (read >= pageLimit) {
          skip(offer, "backedOff", `robots.txt asks for ${(rules.crawlDelayMs ?? 0) / 1000} s between requests: only the ${pageLimit} most watched of its pages are read per run`);
          continue;
        }
        read += 1;
        try {
          const answer = await readPolitely(offer);
          if (answer.notModified) confirmUnchanged(offer);
          else {
            const checked = pageCheck(offer, answer.reading);
            if (typeof checked === "string") fail(`${offer.retailerName}: ${offer.url}: ${checked}`);
            else {
              check(checked);
              pendingValidators.push({ productId: offer.productId, retailerId: offer.retailerId, ...answer.validators });
            }
          }
        } catch (error) {
          if (error instanceof SiteBusy) {
            busy = error.message;
            skip(offer, "backedOff", busy);
            continue;
          }
          fail(`${offer.retailerName}: ${offer.url}: ${errorText(error)}`);
        }
        progress();
      }
    };

    // Up to `concurrency` sites at once, each site's offers one after another.
    const sites = [...byOrigin.entries()];
    const concurrency = Math.max(1, options.concurrency ?? 4);
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(concurrency, sites.length) }, async () => {
        while (next < sites.length) {
          const [origin, queue] = sites[next]!;
          next += 1;
          await readSite(origin, queue);
        }
      }),
    );
    flush();

    // 3. Offers nobody confirmed within the freshness window.
    const stale = markStaleOffers(db, now(), freshForMs);
    if (isChange(stale.change)) changes.push(stale.change);

    const finished = now();
    const result = recordRefreshFinish(db, runId, totals, storedFailures(totals, failures), finished);
    return {
      result,
      ...totals,
      stale: stale.value.marked,
      durationMs: finished.getTime() - started.getTime(),
      failures,
      change: mergeChanges(changes),
    };
  } catch (error) {
    // Whatever was written stays written (each batch is whole); the run is recorded as failed.
    fail(`Refresh stopped: ${errorText(error)}`);
    recordRefreshFinish(db, runId, totals, storedFailures(totals, failures), now(), true);
    throw error;
  }
}

/** The run's failure lines as stored: the pages left unread on purpose counted first (the run table has no column for them). */
function storedFailures(totals: { blocked: number; backedOff: number }, failures: readonly string[]): string[] {
  if (totals.blocked === 0 && totals.backedOff === 0) return [...failures];
  return [`Not read on purpose: ${totals.blocked} blocked by robots.txt, ${totals.backedOff} backed off (the site asked us to wait)`, ...failures];
}
