import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { closeDb, migrateDb, migrationsPending, openDb } from "./client.ts";
import { projectRoot } from "../config.ts";

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

describe("migrateDb", () => {
  const newest = () => {
    const journal = JSON.parse(fs.readFileSync(path.join(projectRoot, "data/migrations/meta/_journal.json"), "utf8")) as { entries: { when: number }[] };
    return Math.max(...journal.entries.map((entry) => entry.when));
  };

  it("applies every migration to a new file, then finds none pending", async () => {
    const db = openDb(path.join(dir, "migrate", "app.db"));
    expect(migrationsPending(db)).toBe(true);
    await migrateDb(db);
    expect(migrationsPending(db)).toBe(false);
    const applied = db.$client.prepare("SELECT count(*) FROM __drizzle_migrations").pluck().get();
    expect(applied).toBe(fs.readdirSync(path.join(projectRoot, "data/migrations")).filter((file) => file.endsWith(".sql")).length);
    expect(db.$client.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'products'").pluck().get()).toBe(1);
    closeDb(db);
  });

  it("counts a migration pending exactly when the newest one recorded is older than the newest committed", async () => {
    const db = openDb(path.join(dir, "pending", "app.db"));
    await migrateDb(db);
    // drizzle's table declares "id SERIAL", which SQLite leaves empty: rows are told apart by rowid.
    const last = db.$client.prepare("SELECT rowid FROM __drizzle_migrations ORDER BY created_at DESC LIMIT 1").pluck().get();
    const setLast = (when: number) => db.$client.prepare("UPDATE __drizzle_migrations SET created_at = ? WHERE rowid = ?").run(when, last);
    setLast(newest());
    expect(migrationsPending(db)).toBe(false);
    setLast(newest() - 1);
    expect(migrationsPending(db)).toBe(true);
    db.$client.exec("DELETE FROM __drizzle_migrations");
    expect(migrationsPending(db)).toBe(true);
    db.$client.exec("DROP TABLE __drizzle_migrations");
    expect(migrationsPending(db)).toBe(true);
    closeDb(db);
  });

  it("leaves an up-to-date database as it is", async () => {
    const db = openDb(path.join(dir, "current", "app.db"));
    await migrateDb(db);
    const before = db.$client.prepare("SELECT rowid, hash, created_at FROM __drizzle_migrations ORDER BY rowid").all();
    const version = db.$client.pragma("schema_version", { simple: true });
    await migrateDb(db);
    expect(db.$client.prepare("SELECT rowid, hash, created_at FROM __drizzle_migrations ORDER BY rowid").all()).toEqual(before);
    expect(db.$client.pragma("schema_version", { simple: true })).toBe(version);
    closeDb(db);
  });
});
