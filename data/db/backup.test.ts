import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { backupDatabase, checkCatalogueFile, lastBackup, latestKnownMigration, listBackups, pruneBackups, restoreDatabase, RestoreRefused } from "./backup.ts";
import { openDb } from "./client.ts";
import { catalogueRevision } from "./catalogue-revision.ts";
import { tempDb, type TempDb } from "./fixtures/temp-db.ts";

let temp: TempDb;
let dir: string;
beforeAll(async () => {
  temp = await tempDb(30);
});
afterAll(() => temp.remove());
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-backups-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const count = (db: Database.Database, table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
const sha = (file: string) => crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");
const at = (minute: number) => new Date(Date.UTC(2026, 6, 1, 3, minute, 0, 0));

/** A copy of the seeded catalogue in its own folder, for tests that restore into it. */
async function liveCopy(): Promise<string> {
  const file = path.join(dir, "live", "pawprice.db");
  fs.mkdirSync(path.dirname(file));
  await temp.db.$client.backup(file);
  return file;
}

describe("backups", () => {
  it("a backup is a sound single-file PawPrice catalogue with the same rows, named by its UTC time", async () => {
    const taken = await backupDatabase(temp.db, { dir, now: new Date("2026-07-01T02:30:00.123Z") });
    expect(taken.name).toBe("pawprice-20260701T023000.123Z.db");
    expect(taken.takenAt).toBe("2026-07-01T02:30:00.123Z");
    expect(taken.bytes).toBe(fs.statSync(taken.file).size);
    expect(fs.readdirSync(dir)).toEqual([taken.name]);
    expect(() => checkCatalogueFile(taken.file)).not.toThrow();
    const copy = new Database(taken.file, { readonly: true });
    try {
      expect(copy.pragma("journal_mode", { simple: true })).toBe("delete");
      for (const table of ["products", "product_prices", "categories", "retailers", "price_history", "__drizzle_migrations"]) {
        expect(count(copy, table), table).toBe(count(temp.db.$client, table));
      }
      const names = (db: Database.Database) => db.prepare("SELECT id, name, best_price_pence FROM products ORDER BY id").all();
      expect(names(copy)).toEqual(names(temp.db.$client));
    } finally {
      copy.close();
    }
    expect(lastBackup(dir)).toMatchObject({ name: taken.name, bytes: taken.bytes });
  });

  it("keeps exactly the newest N backups by the time in their names; a restore's copy of the replaced database is not counted", async () => {
    fs.writeFileSync(path.join(dir, "pawprice-before-restore-20200101T000000.000Z.db"), "kept");
    fs.writeFileSync(path.join(dir, "notes.txt"), "not a backup");
    for (const minute of [1, 2, 3]) await backupDatabase(temp.db, { dir, keep: 3, now: at(minute) });
    // Exactly N: nothing goes.
    expect(listBackups(dir).map((backup) => backup.takenAt)).toEqual([at(3), at(2), at(1)].map((date) => date.toISOString()));
    const fourth = await backupDatabase(temp.db, { dir, keep: 3, now: at(4) });
    expect(fourth.deleted).toEqual(["pawprice-20260701T030100.000Z.db"]);
    // Taken out of order: the order is the time in the name, not when the file was written.
    const older = await backupDatabase(temp.db, { dir, keep: 3, now: at(0) });
    expect(older.deleted).toEqual(["pawprice-20260701T030000.000Z.db"]);
    expect(listBackups(dir).map((backup) => backup.name)).toEqual([
      "pawprice-20260701T030400.000Z.db",
      "pawprice-20260701T030300.000Z.db",
      "pawprice-20260701T030200.000Z.db",
    ]);
    expect(pruneBackups(dir, 1)).toEqual(["pawprice-20260701T030300.000Z.db", "pawprice-20260701T030200.000Z.db"]);
    expect(fs.readdirSync(dir).sort()).toEqual(["notes.txt", "pawprice-20260701T030400.000Z.db", "pawprice-before-restore-20200101T000000.000Z.db"]);
    expect(() => pruneBackups(dir, 0)).toThrow(/at least 1/);
  });

  it("says there is no backup yet in an empty or missing folder", () => {
    expect(lastBackup(dir)).toBeNull();
    expect(lastBackup(path.join(dir, "missing"))).toBeNull();
    expect(listBackups(path.join(dir, "missing"))).toEqual([]);
  });
});

describe("restore", () => {
  it("backs up the current database first, then restores the file's rows and moves the revision past both", async () => {
    const live = await liveCopy();
    const backup = await backupDatabase(temp.db, { dir, now: at(1) });
    const db = openDb(live);
    try {
      db.$client.prepare("UPDATE products SET name = 'Changed after the backup' WHERE id = (SELECT min(id) FROM products)").run();
      db.$client.prepare("DELETE FROM product_prices WHERE product_id = (SELECT max(id) FROM products)").run();
      db.$client.prepare("INSERT INTO app_settings (key, value, updated_at) VALUES ('catalogue_revision', '41', '2026-01-01') ON CONFLICT(key) DO UPDATE SET value = '41'").run();
      const changedPrices = count(db.$client, "product_prices");

      const { before } = await restoreDatabase(live, backup.file, { dir, now: at(2) });

      expect(before?.name).toBe("pawprice-before-restore-20260701T030200.000Z.db");
      const saved = new Database(before!.file, { readonly: true });
      try {
        expect(saved.prepare("SELECT name FROM products ORDER BY id LIMIT 1").pluck().get()).toBe("Changed after the backup");
        expect(count(saved, "product_prices")).toBe(changedPrices);
      } finally {
        saved.close();
      }
      // The open connection sees the restored database.
      expect(db.$client.prepare("SELECT name FROM products ORDER BY id LIMIT 1").pluck().get()).not.toBe("Changed after the backup");
      expect(count(db.$client, "product_prices")).toBe(count(temp.db.$client, "product_prices"));
      expect(catalogueRevision(db)).toBe(Math.max(41, catalogueRevision(temp.db)) + 1);
      expect(db.$client.pragma("integrity_check", { simple: true })).toBe("ok");
      // The copy before a restore is not one of the counted backups, but is the newest backup.
      expect(listBackups(dir).map((each) => each.name)).toEqual([backup.name]);
      expect(lastBackup(dir)?.name).toBe(before!.name);
    } finally {
      db.$client.close();
    }
  });

  it("refuses a damaged file and changes nothing (no copy taken, the database's bytes the same)", async () => {
    const live = await liveCopy();
    const backup = await backupDatabase(temp.db, { dir, now: at(1) });
    const damaged = path.join(dir, "damaged.db");
    const bytes = fs.readFileSync(backup.file);
    // Overwrite pages in the middle of the file (table b-trees), keeping the header.
    bytes.fill(0x5a, 4096 * 3, 4096 * 6);
    fs.writeFileSync(damaged, bytes);
    const truncated = path.join(dir, "truncated.db");
    fs.writeFileSync(truncated, bytes.subarray(0, 100));
    const notSqlite = path.join(dir, "notes.db");
    fs.writeFileSync(notSqlite, "just some text, not a database");
    const before = sha(live);
    for (const file of [damaged, truncated, notSqlite, path.join(dir, "missing.db")]) {
      await expect(restoreDatabase(live, file, { dir, now: at(2) }), file).rejects.toThrow(RestoreRefused);
    }
    expect(sha(live)).toBe(before);
    expect(fs.readdirSync(dir).filter((name) => name.includes("before-restore"))).toEqual([]);
    expect(fs.readdirSync(path.dirname(live)).filter((name) => name.startsWith(".restore-"))).toEqual([]);
  });

  it("refuses an SQLite file that is not a PawPrice catalogue, and one with a migration newer than this code", async () => {
    const live = await liveCopy();
    const before = sha(live);
    const other = path.join(dir, "other.db");
    const plain = new Database(other);
    plain.exec("CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO products (name) VALUES ('not ours')");
    plain.close();
    await expect(restoreDatabase(live, other, { dir })).rejects.toThrow(/not a PawPrice catalogue/);

    const newer = (await backupDatabase(temp.db, { dir, now: at(1) })).file;
    const future = new Database(newer);
    future.prepare("INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('future', ?)").run(latestKnownMigration() + 1);
    future.close();
    await expect(restoreDatabase(live, newer, { dir })).rejects.toThrow(/newer PawPrice/);
    // Exactly the newest known migration is fine.
    const current = new Database(newer);
    current.prepare("DELETE FROM __drizzle_migrations WHERE hash = 'future'").run();
    current.close();
    expect(() => checkCatalogueFile(newer)).not.toThrow();

    expect(sha(live)).toBe(before);
    expect(fs.readdirSync(dir).filter((name) => name.includes("before-restore"))).toEqual([]);
  });
});

/**
 * Another process writing in a loop: each transaction adds one row to load_a and one to load_b,
 * so any consistent snapshot has as many rows in each. Resolves with the rows it wrote.
 */
function writer(file: string, ms: number): { started: Promise<void>; done: Promise<number> } {
  const script = `
    const Database = require(${JSON.stringify(require.resolve("better-sqlite3"))});
    const db = new Database(${JSON.stringify(file)});
    db.pragma("busy_timeout = 5000");
    db.exec("CREATE TABLE IF NOT EXISTS load_a (n INTEGER); CREATE TABLE IF NOT EXISTS load_b (n INTEGER)");
    const a = db.prepare("INSERT INTO load_a (n) VALUES (?)");
    const b = db.prepare("INSERT INTO load_b (n) VALUES (?)");
    const write = db.transaction((n) => { a.run(n); b.run(n); });
    const end = Date.now() + ${ms};
    let n = 0;
    write(n++);
    process.stdout.write("started\\n");
    while (Date.now() < end) write(n++);
    db.close();
    process.stdout.write("wrote " + n + "\\n");
  `;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  let output = "";
  let signalStart!: () => void;
  const started = new Promise<void>((resolve) => (signalStart = resolve));
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString();
    if (output.includes("started")) signalStart();
  });
  const done = new Promise<number>((resolve, reject) =>
    child.on("exit", (code) => (code === 0 ? resolve(Number(/wrote (\d+)/.exec(output)?.[1])) : reject(new Error(`writer exited ${code}`)))),
  );
  return { started, done };
}

const { createRequire } = await import("node:module");
const require = createRequire(import.meta.url);

describe("under load", () => {
  it("a backup taken while another process writes is one consistent snapshot, and a restore under writes leaves a sound database", async () => {
    const live = await liveCopy();
    const db = openDb(live);
    try {
      const load = writer(live, 1500);
      await load.started;
      const backups = [];
      for (let minute = 1; minute <= 3; minute++) backups.push(await backupDatabase(db, { dir, now: at(minute) }));
      const restored = restoreDatabase(live, backups[0]!.file, { dir, now: at(10) });
      const wrote = await load.done;
      await restored;
      for (const backup of backups) {
        const copy = new Database(backup.file, { readonly: true });
        try {
          expect(copy.pragma("integrity_check", { simple: true })).toBe("ok");
          expect(count(copy, "load_a")).toBeGreaterThan(0);
          expect(count(copy, "load_a")).toBe(count(copy, "load_b"));
          expect(count(copy, "products")).toBe(count(temp.db.$client, "products"));
        } finally {
          copy.close();
        }
      }
      // Writes went on during the backups: the last one holds more than the first, all fewer than were written.
      const rows = (file: string) => {
        const copy = new Database(file, { readonly: true });
        const n = count(copy, "load_a");
        copy.close();
        return n;
      };
      expect(rows(backups[2]!.file)).toBeGreaterThanOrEqual(rows(backups[0]!.file));
      expect(rows(backups[2]!.file)).toBeLessThan(wrote);
      // The live database after the restore and the writes after it: sound, each write whole.
      expect(db.$client.pragma("integrity_check", { simple: true })).toBe("ok");
      expect(count(db.$client, "load_a")).toBe(count(db.$client, "load_b"));
      expect(count(db.$client, "products")).toBe(count(temp.db.$client, "products"));
    } finally {
      db.$client.close();
    }
  }, 30_000);
});
