import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { closeDb, openDb } from "./client.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-client-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("openDb", () => {
  it("creates the file and its folder, in WAL mode with foreign keys on", () => {
    const file = path.join(dir, "new", "folder", "app.db");
    const db = openDb(file);
    expect(fs.existsSync(file)).toBe(true);
    expect(db.$client.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.$client.pragma("foreign_keys", { simple: true })).toBe(1);
    expect(db.$client.pragma("busy_timeout", { simple: true })).toBe(5000);
    db.$client.exec("CREATE TABLE t (x)");
    closeDb(db);
    expect(db.$client.open).toBe(false);
  });

  it("opens read-only only a file that exists, and refuses writes through it", () => {
    expect(() => openDb(path.join(dir, "missing.db"), { readonly: true })).toThrow();
    expect(fs.existsSync(path.join(dir, "missing.db"))).toBe(false);
    const reader = openDb(path.join(dir, "new", "folder", "app.db"), { readonly: true });
    expect(reader.$client.readonly).toBe(true);
    expect(() => reader.$client.exec("INSERT INTO t VALUES (1)")).toThrow(/readonly/);
    closeDb(reader);
  });
});
