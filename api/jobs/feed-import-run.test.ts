/**
 * executeImport over a real temporary SQLite file: what a run stores and signals whoever started
 * it (its messages up to the cap, the hold policy, the change signal once, a failure's masked
 * reason and log line, the server stopping before or during it), and its two timers (the live
 * counters every progressMs, the heartbeat every 15 s), both stopped when it ends.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { claimImport, executeImport, type ExecuteOptions, type ImportTarget } from "./feed-import.ts";
import type { CatalogueChange } from "../../data/db/catalogue-writer/transaction.ts";
import { tempDb, type TempDb } from "../../data/db/fixtures/temp-db.ts";
import type { RunCounters } from "../../data/domain/feed-sources.ts";
import type { FeedItem } from "../../data/domain/feed-row.ts";
import { readFeed } from "../../data/feeds/read-feed.ts";

const feed = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../data/feeds/fixtures/google-merchant.tsv");
const at = new Date("2026-11-20T03:00:00.000Z");
let temp: TempDb;
/** The fixture's rows: 3 offers and 2 rows it cannot read. */
let items: FeedItem[];

beforeAll(async () => {
  temp = await tempDb(5, at);
  temp.db.$client.prepare("UPDATE retailers SET hosts = ? WHERE key = 'zooplus'").run(JSON.stringify(["barkwell.example.co.uk"]));
  items = [];
  for await (const item of readFeed(feed, { retailerKey: "zooplus", now: at })) items.push(item);
});
afterAll(() => temp.remove());
afterEach(() => {
  vi.useRealTimers();
});

async function* streamOf(list: readonly FeedItem[]): AsyncGenerator<FeedItem> {
  for (const item of list) yield item;
}

const targetOf = (key: string, open: ImportTarget["open"]): ImportTarget => ({ key, sourceId: null, label: `Feed ${key}`, tagName: key, createProducts: true, open });

/** Claims and runs an import of `target`, collecting what it signals and logs. */
async function run(target: ImportTarget, options: Partial<ExecuteOptions> = {}) {
  const changes: CatalogueChange[] = [];
  const logged: string[] = [];
  const result = await executeImport(temp.db, claimImport(temp.db, target, "cli", at).id, target, {
    catalogueChanged: (change) => changes.push(change),
    log: (line) => logged.push(line),
    now: () => at,
    ...options,
  });
  return { run: result, changes, logged };
}

const updatedAt = (id: number) => (temp.db.$client.prepare("SELECT updated_at FROM feed_import_runs WHERE id = ?").get(id) as { updated_at: string }).updated_at;

describe("a run that reads its source", () => {
  it("keeps messages up to maxMessages and counts them all, signals its change once, and a run that changes nothing signals nothing", async () => {
    const first = await run(targetOf("capped", async () => streamOf(items)), { maxMessages: 1 });
    expect(first.run).toMatchObject({ status: "succeeded", created: 2, totalMessages: 3, error: null });
    expect(first.run.messages).toHaveLength(1);
    expect(first.changes).toHaveLength(1);
    expect(first.changes[0]!.productIds).toHaveLength(2);
    expect(first.logged).toEqual([]);

    const again = await run(targetOf("capped", async () => streamOf(items)));
    // Each row now exists: two more messages, every one kept under the default cap.
    expect(again.run).toMatchObject({ status: "succeeded", created: 0, totalMessages: 5 });
    expect(again.run.messages).toHaveLength(5);
    expect(again.changes).toEqual([]);
  });

  it("holds prices by the policy it is given", async () => {
    await run(targetOf("policy", async () => streamOf(items)));
    const dearer = items.map((item) => (item.kind === "offer" ? { ...item, offer: { ...item.offer, pricePence: Math.round(item.offer.pricePence * 1.2) } } : item));
    const { run: result } = await run(targetOf("policy", async () => streamOf(dearer)), { policy: { below: 0.9, above: 1.1 } });
    expect(result).toMatchObject({ status: "succeeded", held: 3, pricesChanged: 0 });
  });
});

describe("a run that fails", () => {
  it("stores and logs the reason with its URLs masked, keeps no messages, and signals nothing when nothing was written", async () => {
    const open = async (): Promise<AsyncIterable<FeedItem>> => {
      throw new Error("https://feeds.example.com/f.csv?key=secret-value-1234 answered 404");
    };
    const { run: result, changes, logged } = await run(targetOf("fails", open));
    expect(result).toMatchObject({ status: "failed", error: "https://feeds.example.com/••••••1234 answered 404", messages: [], totalMessages: 0 });
    expect(logged).toEqual(["Import of Feed fails failed: https://feeds.example.com/••••••1234 answered 404"]);
    expect(changes).toEqual([]);
  });

  it("does not open the source when the server is stopping before the run starts", async () => {
    const controller = new AbortController();
    controller.abort();
    const open = vi.fn(async () => streamOf(items));
    const { run: result } = await run(targetOf("stopped-early", open), { signal: controller.signal });
    expect(result).toMatchObject({ status: "failed", error: "The server stopped before the import started; run it again" });
    expect(open).not.toHaveBeenCalled();
  });

  it("stops between rows when the server stops during the run", async () => {
    const controller = new AbortController();
    async function* stopsAfterOne(): AsyncGenerator<FeedItem> {
      yield items[0]!;
      controller.abort();
      yield* items.slice(1);
    }
    const { run: result } = await run(targetOf("stopped-during", async () => stopsAfterOne()), { signal: controller.signal });
    expect(result).toMatchObject({ status: "failed", error: "The server stopped during the import; run it again", rowsRead: 1 });
  });
});

describe("a run's timers", () => {
  /** A source that yields its first row, then waits until `release` is called. */
  function pausing() {
    let release!: () => void;
    let reached!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const paused = new Promise<void>((resolve) => (reached = resolve));
    async function* rows(): AsyncGenerator<FeedItem> {
      yield items[0]!;
      reached();
      await gate;
    }
    return { rows, paused, release };
  }

  it("stores the live counters every progressMs (500 by default), and stops both timers when the run ends", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    for (const [progressMs, key] of [
      [100, "progress-100"],
      [undefined, "progress-default"],
    ] as const) {
      const { rows, paused, release } = pausing();
      const seen: RunCounters[] = [];
      const done = run(targetOf(key, async () => rows()), { progressMs, onProgress: (counters) => seen.push(counters) });
      await paused;
      const every = progressMs ?? 500;
      vi.advanceTimersByTime(every - 1);
      expect(seen).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(seen.map((counters) => counters.rowsRead)).toEqual([1]);
      release();
      await done;
      expect(vi.getTimerCount()).toBe(0);
    }
  });

  it("says every 15 seconds that the run is alive while it waits on its source", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    let clock = at;
    const { rows, paused, release } = pausing();
    const target = targetOf("heartbeat", async () => rows());
    const id = claimImport(temp.db, target, "cli", at).id;
    const done = executeImport(temp.db, id, target, { catalogueChanged: () => {}, log: () => {}, now: () => clock, progressMs: 3_600_000 });
    await paused;
    clock = new Date(at.getTime() + 15_000);
    vi.advanceTimersByTime(14_999);
    expect(updatedAt(id)).toBe(at.toISOString());
    vi.advanceTimersByTime(1);
    expect(updatedAt(id)).toBe(clock.toISOString());
    release();
    await done;
    expect(vi.getTimerCount()).toBe(0);
  });
});
