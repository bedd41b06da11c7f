import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changedFields, latestAudit, recordAudit } from "./audit.ts";
import { tempDb, type TempDb } from "./fixtures/temp-db.ts";

let temp: TempDb;
beforeAll(async () => {
  temp = await tempDb();
});
afterAll(() => temp.remove());

describe("the audit log", () => {
  it("reads back newest first, with before/after as objects and null where there were none", () => {
    recordAudit(temp.db, { action: "create", entity: "category", entityId: 1, summary: "first" }, new Date("2026-01-01T00:00:00Z"));
    recordAudit(
      temp.db,
      { action: "update", entity: "product", entityId: 2, summary: "second", before: { name: "A" }, after: { name: "B" } },
      new Date("2026-01-02T00:00:00Z"),
    );
    recordAudit(temp.db, { action: "update", entity: "product", entityId: 3, summary: "after only", after: { rating: 4 } }, new Date("2026-01-02T00:00:00Z"));
    const entries = latestAudit(temp.db, 2);
    expect(entries.map((entry) => entry.summary)).toEqual(["after only", "second"]);
    expect(entries[0]).toMatchObject({ before: null, after: { rating: 4 }, entityId: 3, at: "2026-01-02T00:00:00.000Z" });
    expect(entries[1]).toMatchObject({ action: "update", entity: "product", before: { name: "A" }, after: { name: "B" } });
    expect(latestAudit(temp.db, 5).at(-1)).toMatchObject({ summary: "first", before: null, after: null });
  });

  it("names the fields that differ, keeping only those", () => {
    expect(changedFields({ a: 1, b: [1, 2], c: "x" }, { a: 1, b: [1, 3], d: true })).toEqual({
      before: { b: [1, 2], c: "x", d: null },
      after: { b: [1, 3], c: null, d: true },
      names: ["b", "c", "d"],
    });
  });
});
