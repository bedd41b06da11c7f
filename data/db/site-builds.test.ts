import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDb, type TempDb } from "./fixtures/temp-db.ts";
import {
  failAbandonedBuilds,
  getBuild,
  latestBuild,
  listBuilds,
  logTailChars,
  recordBuildFinish,
  recordBuildStart,
} from "./site-builds.ts";

let temp: TempDb;
beforeAll(async () => {
  temp = await tempDb();
});
afterAll(() => temp.remove());

const row = (id: number) => temp.db.$client.prepare("SELECT * FROM site_builds WHERE id = ?").get(id);
const clear = () => temp.db.$client.exec("DELETE FROM site_builds");

describe("site build records", () => {
  it("has no latest build before the first", () => {
    clear();
    expect(latestBuild(temp.db)).toBeNull();
  });

  it("records a start as running, then its finish with the duration, pages and log", () => {
    clear();
    const id = recordBuildStart(temp.db, { kind: "full", release: "r1", startedAt: new Date("2026-11-22T10:00:00.000Z") });
    expect(latestBuild(temp.db)).toEqual({
      id,
      startedAt: "2026-11-22T10:00:00.000Z",
      finishedAt: null,
      durationMs: null,
      kind: "full",
      result: "running",
      release: "r1",
      pages: null,
      logTail: null,
    });
    const finished = recordBuildFinish(temp.db, id, {
      result: "succeeded",
      finishedAt: new Date("2026-11-22T10:00:07.250Z"),
      pages: 59,
      log: "59 page(s) built",
    });
    expect(finished).toBe(true);
    expect(row(id)).toEqual({
      id,
      started_at: "2026-11-22T10:00:00.000Z",
      finished_at: "2026-11-22T10:00:07.250Z",
      duration_ms: 7250,
      kind: "full",
      result: "succeeded",
      release: "r1",
      pages: 59,
      log_tail: "59 page(s) built",
    });
  });

  it("keeps only the end of a long log", () => {
    clear();
    const id = recordBuildStart(temp.db, { kind: "fast", release: "r2", startedAt: new Date() });
    const log = `${"x".repeat(10_000)}the error at the end`;
    recordBuildFinish(temp.db, id, { result: "failed", finishedAt: new Date(), pages: null, log });
    const build = latestBuild(temp.db)!;
    expect(build.logTail).toHaveLength(logTailChars);
    expect(build.logTail!.endsWith("the error at the end")).toBe(true);
    expect(build).toMatchObject({ kind: "fast", result: "failed", pages: null });
  });

  it("finishes a build only once, and only a running one", () => {
    clear();
    const id = recordBuildStart(temp.db, { kind: "full", release: "r3", startedAt: new Date("2026-11-22T10:00:00.000Z") });
    expect(
      recordBuildFinish(temp.db, id, { result: "failed", finishedAt: new Date("2026-11-22T10:00:01.000Z"), pages: null, log: "first" }),
    ).toBe(true);
    expect(
      recordBuildFinish(temp.db, id, { result: "succeeded", finishedAt: new Date("2026-11-22T10:00:02.000Z"), pages: 3, log: "second" }),
    ).toBe(false);
    expect(recordBuildFinish(temp.db, id + 1, { result: "succeeded", finishedAt: new Date(), pages: 1, log: "" })).toBe(false);
    expect(latestBuild(temp.db)).toMatchObject({ id, result: "failed", logTail: "first", durationMs: 1000 });
  });

  it("reads one build by id, whichever is latest", () => {
    clear();
    const first = recordBuildStart(temp.db, { kind: "fast", release: "first", startedAt: new Date() });
    recordBuildStart(temp.db, { kind: "full", release: "second", startedAt: new Date() });
    expect(getBuild(temp.db, first)).toMatchObject({ id: first, kind: "fast", release: "first" });
    expect(getBuild(temp.db, first + 2)).toBeNull();
  });

  it("lists the latest builds newest first, up to the limit", () => {
    clear();
    const ids = ["a", "b", "c"].map((release) => recordBuildStart(temp.db, { kind: "full", release, startedAt: new Date() }));
    expect(listBuilds(temp.db, 2).map((build) => build.release)).toEqual(["c", "b"]);
    expect(latestBuild(temp.db)!.id).toBe(ids[2]);
  });

  it("fails the builds a previous process left running, and no finished one", () => {
    clear();
    const done = recordBuildStart(temp.db, { kind: "full", release: "done", startedAt: new Date() });
    recordBuildFinish(temp.db, done, { result: "succeeded", finishedAt: new Date(), pages: 1, log: "" });
    const left = recordBuildStart(temp.db, { kind: "fast", release: "left", startedAt: new Date("2026-11-22T10:00:00.000Z") });
    expect(failAbandonedBuilds(temp.db, new Date("2026-11-22T11:00:00.000Z"))).toBe(1);
    expect(latestBuild(temp.db)).toMatchObject({ id: left, result: "failed", finishedAt: "2026-11-22T11:00:00.000Z" });
    expect(latestBuild(temp.db)!.logTail).toMatch(/ended before it finished/);
    expect(listBuilds(temp.db, 2)[1]).toMatchObject({ id: done, result: "succeeded" });
    expect(failAbandonedBuilds(temp.db, new Date())).toBe(0);
  });
});
