/**
 * `npm run backup` and `npm run restore -- <file>` as commands (real processes over a real SQLite
 * file): what they print, what they write, and their exit codes (0 done, 1 refused or failed,
 * 2 bad arguments).
 */
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot } from "../data/config.ts";
import { tempDb, type TempDb } from "../data/db/fixtures/temp-db.ts";

let temp: TempDb;
let backupDir: string;
beforeAll(async () => {
  temp = await tempDb(5);
  backupDir = path.join(path.dirname(temp.file), "backups");
});
afterAll(() => temp.remove());

const run = (script: string, args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [path.join(projectRoot, "scripts", script), ...args], {
    env: { ...process.env, DATABASE_PATH: temp.file, BACKUP_DIR: backupDir, BACKUP_KEEP: "2", ...env },
    encoding: "utf8",
    timeout: 60_000,
  });
const sha = (file: string) => crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");
const productName = () => temp.db.$client.prepare("SELECT name FROM products ORDER BY id LIMIT 1").pluck().get() as string;

describe("npm run backup and npm run restore", () => {
  it("backs up, keeping BACKUP_KEEP backups; restores one after backing up the current database", () => {
    const original = productName();
    const files: string[] = [];
    for (let i = 0; i < 3; i++) {
      const result = run("backup.ts", []);
      expect(result.status, result.stderr).toBe(0);
      const file = /to (\S+) \(\d+ bytes\)/.exec(result.stdout)?.[1];
      expect(file && fs.existsSync(file)).toBe(true);
      files.push(file!);
    }
    expect(fs.readdirSync(backupDir).filter((name) => /^pawprice-\d/.test(name))).toHaveLength(2);
    expect(fs.existsSync(files[0]!)).toBe(false);

    temp.db.$client.prepare("UPDATE products SET name = 'Renamed before the restore' WHERE id = (SELECT min(id) FROM products)").run();
    const restored = run("restore.ts", [files[2]!]);
    expect(restored.status, restored.stderr).toBe(0);
    expect(restored.stdout).toMatch(/Backed up the current database to .*pawprice-before-restore-\d{8}T\d{6}\.\d{3}Z\.db/);
    expect(productName()).toBe(original);
    expect(fs.readdirSync(backupDir).filter((name) => name.startsWith("pawprice-before-restore-"))).toHaveLength(1);
  });

  it("refuses a file that is not a catalogue (exit 1, nothing changed) and a bad command line (exit 2)", () => {
    const notes = path.join(path.dirname(temp.file), "notes.db");
    fs.writeFileSync(notes, "not a database");
    const before = sha(temp.file);
    const copies = fs.readdirSync(backupDir).length;
    const refused = run("restore.ts", [notes]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/^restore: failed: .*notes\.db/);
    expect(sha(temp.file)).toBe(before);
    expect(fs.readdirSync(backupDir)).toHaveLength(copies);
    expect(run("restore.ts", []).status).toBe(2);
    expect(run("restore.ts", ["a.db", "b.db"]).status).toBe(2);
    expect(run("backup.ts", ["extra"]).status).toBe(2);
    expect(run("backup.ts", [], { BACKUP_KEEP: "0" }).status).toBe(1);
  });
});
