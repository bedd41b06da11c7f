/** Refresh run records (Platform Health's "Last price refresh") over a real SQLite file. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDb, type TempDb } from "./fixtures/temp-db.ts";
import { latestRefreshRun, recordRefreshFinish, recordRefreshStart, refreshResult, refreshRunDeadAfterMs } from "./price-review.ts";

let temp: TempDb;
beforeAll(async () => {
  temp = await tempDb();
});
afterAll(() => temp.remove());

const t0 = new Date("2026-11-22T03:15:00.000Z");
const at = (ms: number) => new Date(t0.getTime() + ms);

describe("refreshResult", () => {
  it("is failed only when offers failed and none was checked; partial when some failed", () => {
    expect(refreshResult({ checked: 0, changed: 0, held: 0, failed: 1 })).toBe("failed");
    expect(refreshResult({ checked: 1, changed: 0, held: 0, failed: 1 })).toBe("partial");
    expect(refreshResult({ checked: 1, changed: 0, held: 0, failed: 0 })).toBe("succeeded");
    expect(refreshResult({ checked: 0, changed: 0, held: 0, failed: 0 })).toBe("succeeded");
  });
});

describe("refresh runs", () => {
  it("none: null; a run records its totals, duration and first failures; the newest is the last", () => {
    expect(latestRefreshRun(temp.db, t0)).toBeNull();
    const id = recordRefreshStart(temp.db, t0);
    expect(latestRefreshRun(temp.db, at(1000))).toMatchObject({ id, result: "running", finishedAt: null, durationMs: null });
    const failures = Array.from({ length: 60 }, (_, i) => `Zooplus: https://www.zooplus.co.uk/p/${i}: timed out`);
    expect(recordRefreshFinish(temp.db, id, { checked: 10, changed: 3, held: 1, failed: 60 }, failures, at(72_000))).toBe("partial");
    const run = latestRefreshRun(temp.db, at(80_000))!;
    expect(run).toMatchObject({ id, checked: 10, changed: 3, held: 1, failed: 60, result: "partial", durationMs: 72_000, finishedAt: at(72_000).toISOString() });
    // The first 50 failure lines are kept.
    expect(run.failures).toEqual(failures.slice(0, 50));

    const next = recordRefreshStart(temp.db, at(3_600_000));
    expect(recordRefreshFinish(temp.db, next, { checked: 5, changed: 0, held: 0, failed: 0 }, [], at(3_601_000), true)).toBe("failed");
    expect(latestRefreshRun(temp.db, at(3_700_000))).toMatchObject({ id: next, result: "failed", failures: [] });
  });

  it("a run left running longer than 6 hours (its process died) reads as failed", () => {
    const start = at(10 * 3_600_000);
    const id = recordRefreshStart(temp.db, start);
    expect(latestRefreshRun(temp.db, new Date(start.getTime() + refreshRunDeadAfterMs))).toMatchObject({ id, result: "running" });
    expect(latestRefreshRun(temp.db, new Date(start.getTime() + refreshRunDeadAfterMs + 1))).toMatchObject({
      id,
      result: "failed",
      failures: ["The refresh stopped without finishing (its process ended)"],
    });
  });
});
