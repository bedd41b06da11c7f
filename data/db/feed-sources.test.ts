/** Feed sources and import runs over a real SQLite file: domain types back, the database's rules kept. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WriteRefused } from "./catalogue-writer/transaction.ts";
import {
  claimRun,
  createFeedSource,
  deleteFeedSource,
  feedSourceKey,
  finishRun,
  getFeedSource,
  getRun,
  latestRuns,
  listFeedSources,
  listRuns,
  markRunStarted,
  recordRunProgress,
  RunConflict,
  setFeedSourceFile,
  touchRuns,
  updateFeedSource,
} from "./feed-sources.ts";
import { tempDb, type TempDb } from "./fixtures/temp-db.ts";
import { emptyCounters } from "../domain/feed-sources.ts";

let temp: TempDb;
let retailerKey: string;
beforeAll(async () => {
  temp = await tempDb(5);
  retailerKey = (temp.db.$client.prepare("SELECT key FROM retailers WHERE compares_prices = 1 ORDER BY id LIMIT 1").get() as { key: string }).key;
});
afterAll(() => temp.remove());

const t0 = new Date("2026-11-27T09:00:00.000Z");
const at = (ms: number) => new Date(t0.getTime() + ms);

describe("feed sources", () => {
  it("are created, read back as domain types, listed by name, changed field by field and deleted with their runs", () => {
    const db = temp.db;
    const url = createFeedSource(
      db,
      { name: "Zooplus feed", kind: "url", url: "https://feeds.example.com/z?key=s3cret", retailerKey, createProducts: true, schedule: "15 3 * * *" },
      t0,
    );
    expect(url).toEqual({
      id: url.id,
      name: "Zooplus feed",
      kind: "url",
      url: "https://feeds.example.com/z?key=s3cret",
      fileName: null,
      storedFile: null,
      fileBytes: null,
      layout: "auto",
      mapping: null,
      retailerKey,
      createProducts: true,
      schedule: "15 3 * * *",
      enabled: true,
      createdAt: t0.toISOString(),
      updatedAt: t0.toISOString(),
    });
    const file = createFeedSource(db, { name: "a file feed", kind: "file", layout: "mapped", mapping: { name: "Title", price: "Cost", link: "URL" } }, t0);
    expect(file).toMatchObject({ createProducts: false, enabled: true, mapping: { name: "Title", price: "Cost", link: "URL" }, retailerKey: null, schedule: null });
    // A download named without a schedule is read every 6 hours; one named with null has none.
    expect(createFeedSource(db, { name: "six-hourly", kind: "url", url: "https://feeds.example.com/a" }, t0).schedule).toBe("0 */6 * * *");
    expect(createFeedSource(db, { name: "by hand", kind: "url", url: "https://feeds.example.com/b", schedule: null }, t0).schedule).toBeNull();
    expect(listFeedSources(db).map((source) => source.name)).toEqual(["a file feed", "by hand", "six-hourly", "Zooplus feed"]);

    const changed = updateFeedSource(db, url.id, { schedule: null, enabled: false, retailerKey: null }, at(1000))!;
    expect(changed).toMatchObject({
      url: "https://feeds.example.com/z?key=s3cret",
      schedule: null,
      enabled: false,
      retailerKey: null,
      createProducts: true,
      updatedAt: at(1000).toISOString(),
    });
    expect(updateFeedSource(db, 999_999, { name: "x" }, t0)).toBeNull();
    // Fields left out keep their values: the mapping, the retailer.
    const renamed = updateFeedSource(db, file.id, { name: "A file feed", retailerKey }, at(1500))!;
    expect(updateFeedSource(db, file.id, { enabled: false }, at(1600))).toMatchObject({ name: "A file feed", mapping: { name: "Title", price: "Cost", link: "URL" }, retailerKey, enabled: false });
    expect(renamed.retailerKey).toBe(retailerKey);
    expect(() => updateFeedSource(db, file.id, { retailerKey: "no-such-shop" }, at(1700))).toThrow(new WriteRefused(400, 'retailerKey "no-such-shop" is not a known retailer'));
    expect(setFeedSourceFile(db, 999_999, { fileName: "x.csv", storedFile: "x.feed", fileBytes: 1 }, t0)).toBeNull();

    const uploaded = setFeedSourceFile(db, file.id, { fileName: "feed.csv", storedFile: "source-1-a.feed", fileBytes: 123 }, at(2000))!;
    expect(uploaded.replaced).toBeNull();
    expect(setFeedSourceFile(db, file.id, { fileName: "feed2.csv", storedFile: "source-1-b.feed", fileBytes: 456 }, at(3000))!.replaced).toBe("source-1-a.feed");
    expect(getFeedSource(db, file.id)).toMatchObject({
      fileName: "feed2.csv",
      storedFile: "source-1-b.feed",
      fileBytes: 456,
      mapping: { name: "Title", price: "Cost", link: "URL" },
    });

    const run = claimRun(db, { sourceId: file.id, sourceKey: feedSourceKey(file.id), sourceLabel: file.name, trigger: "admin" }, t0);
    finishRun(db, run.id, { status: "succeeded", counters: emptyCounters(), messages: [], totalMessages: 0, error: null }, at(1));
    expect(deleteFeedSource(db, file.id)?.storedFile).toBe("source-1-b.feed");
    expect(getFeedSource(db, file.id)).toBeNull();
    expect(getRun(db, run.id)).toBeNull();
    expect(deleteFeedSource(db, file.id)).toBeNull();
  });

  it("refuse a taken name (in any case) and a retailer that is unknown or not compared, storing nothing", () => {
    const db = temp.db;
    createFeedSource(db, { name: "Unique feed", kind: "file" }, t0);
    const count = () => listFeedSources(db).length;
    const before = count();
    expect(() => createFeedSource(db, { name: "UNIQUE FEED", kind: "file" }, t0)).toThrow(new WriteRefused(409, 'A feed source called "UNIQUE FEED" exists already'));
    expect(() => createFeedSource(db, { name: "Other", kind: "file", retailerKey: "no-such-shop" }, t0)).toThrow('retailerKey "no-such-shop" is not a known retailer');
    const voucherOnly = db.$client
      .prepare("INSERT INTO retailers (key, name, logo, website, compares_prices) VALUES ('voucher-shop', 'Voucher Shop', '/x.svg', 'https://v.example', 0) RETURNING key")
      .get() as { key: string };
    expect(() => createFeedSource(db, { name: "Other", kind: "file", retailerKey: voucherOnly.key }, t0)).toThrow("is a retailer whose prices we do not compare");
    expect(count()).toBe(before);
    const other = createFeedSource(db, { name: "Second", kind: "file" }, t0);
    expect(() => updateFeedSource(db, other.id, { name: "unique feed" }, t0)).toThrow("exists already");
    expect(() => updateFeedSource(db, other.id, { url: "https://x.example/f" }, t0)).toThrow("url must be left out for a file source");
    expect(getFeedSource(db, other.id)?.name).toBe("Second");
  });
});

describe("import runs", () => {
  it("never overlap for one source: a second claim is refused while the first is queued or running, and allowed after it ends", () => {
    const db = temp.db;
    const claim = { sourceId: null, sourceKey: "sample", sourceLabel: "Sample feed", trigger: "admin" as const };
    const first = claimRun(db, claim, t0);
    expect(first).toMatchObject({ status: "queued", sourceKey: "sample", trigger: "admin", rowsRead: 0, refused: {}, messages: [], startedAt: null });
    expect(() => claimRun(db, claim, at(1000))).toThrow(RunConflict);
    markRunStarted(db, first.id, at(2000));
    try {
      claimRun(db, { ...claim, trigger: "schedule" }, at(3000));
      expect.unreachable();
    } catch (error) {
      expect((error as RunConflict).message).toBe(`"Sample feed" is importing already (run ${first.id}, running); wait for it to finish`);
    }
    // Another source is not held up.
    const other = claimRun(db, { ...claim, sourceKey: "amazon", sourceLabel: "Amazon" }, at(3000));
    recordRunProgress(db, first.id, { ...emptyCounters(), rowsRead: 500, matched: 20, refused: { malformed: 2 } }, at(4000));
    expect(getRun(db, first.id)).toMatchObject({ status: "running", rowsRead: 500, matched: 20, refused: { malformed: 2 }, startedAt: at(2000).toISOString() });
    const finished = finishRun(
      db,
      first.id,
      { status: "succeeded", counters: { ...emptyCounters(), rowsRead: 900, created: 3 }, messages: ["line 4: bad"], totalMessages: 7, error: null },
      at(5000),
    );
    expect(finished).toMatchObject({ status: "succeeded", rowsRead: 900, created: 3, messages: ["line 4: bad"], totalMessages: 7, finishedAt: at(5000).toISOString() });
    const second = claimRun(db, claim, at(6000));
    expect(listRuns(db, "sample").map((run) => run.id)).toEqual([second.id, first.id]);
    expect(latestRuns(db).get("sample")?.id).toBe(second.id);
    expect(latestRuns(db).get("amazon")?.id).toBe(other.id);
    finishRun(db, second.id, { status: "failed", counters: emptyCounters(), messages: [], totalMessages: 0, error: "no" }, at(7000));
    finishRun(db, other.id, { status: "failed", counters: emptyCounters(), messages: [], totalMessages: 0, error: "no" }, at(7000));
  });

  it("a run whose process stopped updating it is closed as failed instead of blocking the source", () => {
    const db = temp.db;
    const claim = { sourceId: null, sourceKey: "abandoned", sourceLabel: "Abandoned", trigger: "cli" as const };
    const dead = claimRun(db, claim, t0);
    markRunStarted(db, dead.id, t0);
    // Still within the time a live run updates itself: refused.
    expect(() => claimRun(db, claim, at(60_000), 120_000)).toThrow(RunConflict);
    const next = claimRun(db, claim, at(121_000), 120_000);
    expect(getRun(db, dead.id)).toMatchObject({ status: "failed", error: "The import stopped without finishing (its process ended)" });
    expect(next.status).toBe("queued");
  });

  it("a run its process says is alive (touchRuns) is not abandoned, however long it waits", () => {
    const db = temp.db;
    const claim = { sourceId: null, sourceKey: "waiting", sourceLabel: "Waiting", trigger: "cli" as const };
    const waiting = claimRun(db, claim, t0);
    touchRuns(db, [waiting.id], at(100_000));
    expect(() => claimRun(db, claim, at(200_000), 120_000)).toThrow(RunConflict);
    expect(getRun(db, waiting.id)?.status).toBe("queued");
  });
});
