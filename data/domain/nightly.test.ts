import { describe, expect, it } from "vitest";
import { nightlySummaryLines } from "./nightly.ts";

describe("nightlySummaryLines", () => {
  it("writes one line per step in the order they ran, and one per feed source", () => {
    expect(
      nightlySummaryLines({
        build: { durationMs: 61_000, requested: "changes", kind: "fast", result: "succeeded", pages: 28, release: "r1" },
        feeds: {
          durationMs: 2500,
          sources: [
            { name: "Awin", runId: 3, status: "succeeded", rowsRead: 10, created: 1, matched: 9, pricesChanged: 4, held: 0, error: null },
            { name: "Broken", runId: 4, status: "failed", rowsRead: 0, created: 0, matched: 0, pricesChanged: 0, held: 0, error: "the connection was refused" },
          ],
          error: "1 of 2 failed (Broken)",
        },
        prices: { durationMs: 300, result: "partial", checked: 20, changed: 2, held: 1, failed: 1, stale: 0, failures: ["Zooplus: https://z.example/a: timed out"] },
        alerts: { durationMs: 100, sent: 2, failed: 0, rearmed: 1 },
      }),
    ).toEqual([
      "Feed imports (2.5 s): 2 sources, 1 failed",
      "  Awin: 10 rows, 1 created, 9 matched, 4 prices changed, 0 held",
      "  Broken: failed: the connection was refused",
      "Page prices (0.3 s): partial, 20 checked, 2 changed, 1 held, 1 failed, 0 marked stale",
      "  Zooplus: https://z.example/a: timed out",
      "Price alerts (0.1 s): 2 sent, 0 failed, 1 re-armed",
      "Site build (61.0 s): fast build succeeded, 28 pages, release r1",
    ]);
  });

  it("says why a step failed when it stopped on an error, and that a full build was asked for when nothing changed", () => {
    expect(
      nightlySummaryLines({
        feeds: { durationMs: 0, error: "The server is stopping; no import starts now" },
        prices: { durationMs: 10, error: "The server is stopping; the refresh did not run" },
        build: { durationMs: 5, requested: "full", kind: "full", result: "failed", pages: null, release: null, error: "the full build failed: out of memory" },
      }),
    ).toEqual([
      "Feed imports (0.0 s): 0 sources, 0 failed; failed: The server is stopping; no import starts now",
      "Page prices (0.0 s): failed: The server is stopping; the refresh did not run",
      "Site build (0.0 s): full build failed; nothing changed, so a full build was asked for; failed: the full build failed: out of memory",
    ]);
  });

  it("counts the alerts mailed since the run started when a check set off by the prices sent them first", () => {
    expect(nightlySummaryLines({ alerts: { durationMs: 0, sent: 0, failed: 0, rearmed: 0, mailedSinceStart: 2 } })).toEqual([
      "Price alerts (0.0 s): 0 sent, 0 failed, 0 re-armed; 2 mailed since the run started",
    ]);
    expect(nightlySummaryLines({ alerts: { durationMs: 0, sent: 2, failed: 0, rearmed: 0, mailedSinceStart: 2 } })).toEqual(["Price alerts (0.0 s): 2 sent, 0 failed, 0 re-armed"]);
  });

  it("counts pages not modified, blocked and backed off when there were any, and says why no page was read", () => {
    expect(
      nightlySummaryLines({ prices: { durationMs: 0, result: "succeeded", checked: 5, changed: 0, held: 0, failed: 0, stale: 0, notModified: 3, blocked: 1, backedOff: 0 } }),
    ).toEqual(["Page prices (0.0 s): succeeded, 5 checked, 0 changed, 0 held, 0 failed, 0 marked stale, 3 not modified, 1 blocked by robots.txt, 0 backed off"]);
    expect(nightlySummaryLines({ prices: { durationMs: 0, result: "succeeded", checked: 5, changed: 0, held: 0, failed: 0, stale: 0, notModified: 0, blocked: 0, backedOff: 0 } })).toEqual([
      "Page prices (0.0 s): succeeded, 5 checked, 0 changed, 0 held, 0 failed, 0 marked stale",
    ]);
    expect(nightlySummaryLines({ prices: { durationMs: 0, skipped: "the refresh that finished at 2026-11-27T02:41:00.000Z read them (within 12 hours): not read again" } })).toEqual([
      "Page prices (0.0 s): the refresh that finished at 2026-11-27T02:41:00.000Z read them (within 12 hours): not read again",
    ]);
  });
});

describe("nightlySummaryLines: counts and missing parts", () => {
  it("counts the failed sources only, says one source in the singular, and gives a failed source without a reason as an unknown error", () => {
    const source = { runId: 1, rowsRead: 1, created: 0, matched: 1, pricesChanged: 0, held: 0, error: null };
    expect(
      nightlySummaryLines({
        feeds: {
          durationMs: 0,
          sources: [
            { ...source, name: "A", status: "succeeded" },
            { ...source, name: "B", status: "succeeded" },
            { ...source, name: "C", status: "failed" },
          ],
        },
      }),
    ).toEqual([
      "Feed imports (0.0 s): 3 sources, 1 failed",
      "  A: 1 rows, 0 created, 1 matched, 0 prices changed, 0 held",
      "  B: 1 rows, 0 created, 1 matched, 0 prices changed, 0 held",
      "  C: failed: unknown error",
    ]);
    expect(nightlySummaryLines({ feeds: { durationMs: 0, sources: [{ ...source, name: "A", status: "succeeded" }] } })[0]).toBe("Feed imports (0.0 s): 1 source, 0 failed");
  });

  it("writes a step with neither counts nor an error as its label and duration alone, and leaves out counts a step did not reach", () => {
    expect(nightlySummaryLines({ alerts: { durationMs: 1500 } })).toEqual(["Price alerts (1.5 s)"]);
    expect(nightlySummaryLines({ prices: { durationMs: 0 } })).toEqual(["Page prices (0.0 s)"]);
    expect(nightlySummaryLines({ alerts: { durationMs: 0, error: "the mailer is down" } })).toEqual(["Price alerts (0.0 s): failed: the mailer is down"]);
    expect(nightlySummaryLines({ build: { durationMs: 0, requested: "changes", error: "the build could not start" } })).toEqual([
      "Site build (0.0 s): failed: the build could not start",
    ]);
  });

  it("adds the not-modified, blocked and backed-off counts when any one of them is there, a missing one as 0", () => {
    const base = { durationMs: 0, result: "succeeded", checked: 5, changed: 0, held: 0, failed: 0, stale: 0 };
    const counts = "Page prices (0.0 s): succeeded, 5 checked, 0 changed, 0 held, 0 failed, 0 marked stale";
    expect(nightlySummaryLines({ prices: { ...base, notModified: 2 } })).toEqual([`${counts}, 2 not modified, 0 blocked by robots.txt, 0 backed off`]);
    expect(nightlySummaryLines({ prices: { ...base, blocked: 1 } })).toEqual([`${counts}, 0 not modified, 1 blocked by robots.txt, 0 backed off`]);
    expect(nightlySummaryLines({ prices: { ...base, backedOff: 4 } })).toEqual([`${counts}, 0 not modified, 0 blocked by robots.txt, 4 backed off`]);
  });
});
