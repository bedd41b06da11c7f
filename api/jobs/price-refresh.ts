/**
 * The price refresh (nightly, `npm run refresh`, or REFRESH_CRON inside the server).
 *
 * 1. Feeds first: every source configured for refresh is streamed; each row that matches an
 *    existing offer becomes a price check. The retailers a feed covers are not read page by page.
 * 2. Pages for the rest: every other offer's retailer page is read (guarded fetch + extractor),
 *    a few sites at a time (concurrency), one request at a time per site with a delay between.
 *    A page with no price, several prices it does not choose between, a price in another or no
 *    named currency, or a failed fetch counts as failed for that offer; one failing retailer never
 *    stops the others. A low-confidence price (read from visible text alone) is held for review
 *    with its rule as the reason, never published unseen.
 * 3. Checks go through the catalogue writer in batches (history, best prices, review hold);
 *    offers unconfirmed for 72 hours are then marked stale.
 * 4. The run is recorded (checked, changed, held, failed, duration) for Platform Health, and
 *    returns one merged change for one alert check and one rebuild.
 */
import type { Db } from "../../data/db/client.ts";
import { isChange, mergeChanges, type CatalogueChange } from "../../data/db/catalogue-writer.ts";
import { defaultHoldPolicy, markStaleOffers, recordPriceChecks, type HoldPolicy, type PriceCheck } from "../../data/db/price-writer.ts";
import { recordRefreshFinish, recordRefreshStart, type RefreshResult } from "../../data/db/price-review.ts";
import { matchKey } from "../../data/domain/feed-row.ts";
import type { OfferReading } from "../../data/domain/offer-extract.ts";
import type { FeedItem } from "../../data/feeds/awin-feed.ts";

export interface RefreshFeed {
  name: string;
  open(): Promise<AsyncIterable<FeedItem>>;
}

export interface RefreshOptions {
  db: Db;
  feeds?: readonly RefreshFeed[];
  /** Reads a retailer page's offer (null: the page shows no price); throws when the page cannot be read. */
  readPage(url: string): Promise<OfferReading | null>;
  concurrency?: number;
  hostDelayMs?: number;
  policy?: HoldPolicy;
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
  failed: number;
  /** Offers marked stale at the end. */
  stale: number;
  durationMs: number;
  /** The first failures, "Retailer: url: reason". */
  failures: string[];
  change: CatalogueChange;
}

interface OfferToRead {
  productId: number;
  retailerId: number;
  retailerName: string;
  url: string;
}

const batchSize = 100;
const keptFailures = 50;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function hostOf(url: string): string | null {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return null;
  }
}

export async function refreshPrices(options: RefreshOptions): Promise<RefreshSummary> {
  const { db } = options;
  const now = options.now ?? (() => new Date());
  const log = options.log ?? (() => {});
  const policy = options.policy ?? defaultHoldPolicy;
  const started = now();
  const runId = recordRefreshStart(db, started);
  const totals = { checked: 0, changed: 0, held: 0, failed: 0 };
  const failures: string[] = [];
  const changes: CatalogueChange[] = [];
  const fail = (line: string) => {
    totals.failed += 1;
    if (failures.length < keptFailures) failures.push(line);
  };

  let pending: PriceCheck[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    const { value, change } = recordPriceChecks(db, pending, policy, now());
    totals.checked += value.checked;
    totals.changed += value.changed;
    totals.held += value.held;
    if (isChange(change)) changes.push(change);
    pending = [];
  };
  const check = (item: PriceCheck) => {
    pending.push(item);
    if (pending.length >= batchSize) flush();
  };

  try {
    // 1. Feeds.
    const retailers = db.$client.prepare("SELECT id, key, name FROM retailers WHERE compares_prices = 1").all() as { id: number; key: string; name: string }[];
    const retailerByKey = new Map(retailers.map((retailer) => [retailer.key, retailer]));
    const covered = new Set<number>();
    if ((options.feeds ?? []).length > 0) {
      const products = db.$client.prepare("SELECT id, name, brand, gtin FROM products").all() as { id: number; name: string; brand: string | null; gtin: string | null }[];
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
            });
          }
          log(`Feed ${feed.name}: ${rows} rows read`);
        } catch (error) {
          // The feed's retailers fall back to their pages.
          fail(`Feed ${feed.name}: ${error instanceof Error ? error.message : String(error)}`);
          log(`Feed ${feed.name} failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      flush();
    }

    // 2. Pages, for offers of retailers no feed covered.
    const toRead = (
      db.$client
        .prepare(
          `SELECT pp.product_id AS productId, pp.retailer_id AS retailerId, r.name AS retailerName, pp.url AS url
           FROM product_prices pp JOIN retailers r ON r.id = pp.retailer_id
           WHERE r.compares_prices = 1 AND pp.url <> '' ORDER BY pp.retailer_id, pp.product_id`,
        )
        .all() as OfferToRead[]
    ).filter((offer) => !covered.has(offer.retailerId));
    const byHost = new Map<string, OfferToRead[]>();
    for (const offer of toRead) {
      const host = hostOf(offer.url);
      if (host === null) {
        fail(`${offer.retailerName}: ${offer.url}: not a web address`);
        continue;
      }
      const queue = byHost.get(host) ?? [];
      queue.push(offer);
      byHost.set(host, queue);
    }
    const total = toRead.length;
    let done = 0;
    const hosts = [...byHost.values()];
    const hostDelayMs = options.hostDelayMs ?? 1500;
    const readHost = async (queue: OfferToRead[]) => {
      for (const [position, offer] of queue.entries()) {
        if (position > 0 && hostDelayMs > 0) await sleep(hostDelayMs);
        try {
          const reading = await options.readPage(offer.url);
          const read = reading?.status === "found" ? reading.offer : null;
          if (reading === null || reading.status === "none") fail(`${offer.retailerName}: ${offer.url}: no price found on the page`);
          else if (reading.status === "undecided") fail(`${offer.retailerName}: ${offer.url}: ${reading.reason}`);
          else if (read === null) fail(`${offer.retailerName}: ${offer.url}: no price found on the page`);
          else if (read.currency === null) fail(`${offer.retailerName}: ${offer.url}: the page names no currency`);
          else if (read.currency !== "GBP") fail(`${offer.retailerName}: ${offer.url}: priced in ${read.currency}, not pounds`);
          else {
            const holdReason = read.confidence === "low" ? `low confidence: ${read.evidence.rule}` : undefined;
            check({ productId: offer.productId, retailerId: offer.retailerId, pricePence: read.price, inStock: read.inStock, source: "page", ...(holdReason ? { holdReason } : {}) });
          }
        } catch (error) {
          fail(`${offer.retailerName}: ${offer.url}: ${error instanceof Error ? error.message : String(error)}`);
        }
        done += 1;
        options.onProgress?.(done, total);
      }
    };
    // Up to `concurrency` sites at once, each site's offers one after another.
    const concurrency = Math.max(1, options.concurrency ?? 4);
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(concurrency, hosts.length) }, async () => {
        while (next < hosts.length) {
          const queue = hosts[next]!;
          next += 1;
          await readHost(queue);
        }
      }),
    );
    flush();

    // 3. Offers nobody confirmed for 72 hours.
    const stale = markStaleOffers(db, now());
    if (isChange(stale.change)) changes.push(stale.change);

    const finished = now();
    const result = recordRefreshFinish(db, runId, totals, failures, finished);
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
    fail(`Refresh stopped: ${error instanceof Error ? error.message : String(error)}`);
    recordRefreshFinish(db, runId, totals, failures, now(), true);
    throw error;
  }
}
