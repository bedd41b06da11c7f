/**
 * Backups of the catalogue database, and restoring one.
 *
 * Rules:
 * - A backup is taken with SQLite's online backup API in one step, under one read snapshot: it is
 *   the database as of one moment even while other connections write (they are not blocked).
 *   It is written under a hidden temporary name, checked (quick_check), made a single file
 *   (rollback journal, no write-ahead log) and only then renamed to
 *   pawprice-<UTC time, e.g. 20260701T023000.123Z>.db, so a half-written file never looks like a
 *   backup.
 * - After each backup only the newest `keep` backups are kept (by the time in their names). The
 *   copies a restore takes of the database it replaces (pawprice-before-restore-<time>.db) are
 *   never deleted by that count.
 * - A restore refuses a file that fails SQLite's integrity_check, that is not a PawPrice
 *   catalogue (no migrations table or no products table) or that holds a migration newer than
 *   this code knows. Nothing is changed when it refuses.
 * - A restore first backs up the database it replaces. The file is brought up to this code's
 *   migrations on a temporary copy, then copied into the live database through the online backup
 *   API in one step: a running server's connections see the old database or the restored one,
 *   never a mix, and the write-ahead log stays consistent. The catalogue revision is then moved
 *   past both, so a running server takes the restore for a catalogue change (drops its caches,
 *   rebuilds every page) within its watch interval.
 */
import fs from "node:fs";
import path from "node:path";
import { projectRoot } from "../config.ts";
import { migrateDb, openDb, type Db } from "./client.ts";

export interface BackupFile {
  file: string;
  name: string;
  /** When it was taken (from its name), ISO 8601 UTC. */
  takenAt: string;
  bytes: number;
}

/** A file the restore will not use; nothing was changed. */
export class RestoreRefused extends Error {
  override name = "RestoreRefused";
}

const prefix = "pawprice-";
const beforeRestorePrefix = "pawprice-before-restore-";
const namePattern = /^pawprice-(before-restore-)?(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})\.(\d{3})Z\.db$/;
/** Pages copied per backup step: all of them, so the copy is one snapshot. */
const allPages = 0x7fffffff;

/** The UTC time as a file name part: 20260701T023000.123Z. */
function stamp(at: Date): string {
  return at.toISOString().replace(/[-:]/g, "");
}

/** The backup's time, from its name (null: not a backup's name). */
function takenAt(name: string): string | null {
  const match = namePattern.exec(name);
  if (!match) return null;
  const [, , year, month, day, hour, minute, second, ms] = match;
  return `${year}-${month}-${day}T${hour}:${minute}:${second}.${ms}Z`;
}

function describe(dir: string, name: string): BackupFile | null {
  const at = takenAt(name);
  if (at === null) return null;
  const file = path.join(dir, name);
  return { file, name, takenAt: at, bytes: fs.statSync(file).size };
}

/** The scheduled (and `npm run backup`) backups in `dir`, newest first; the copies taken before restores are not among them. */
export function listBackups(dir: string): BackupFile[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.startsWith(prefix) && !name.startsWith(beforeRestorePrefix))
    .flatMap((name) => describe(dir, name) ?? [])
    .sort((a, b) => (a.takenAt < b.takenAt ? 1 : a.takenAt > b.takenAt ? -1 : 0));
}

/** The newest backup of any kind in `dir` (a copy taken before a restore counts), or null. */
export function lastBackup(dir: string): BackupFile | null {
  if (!fs.existsSync(dir)) return null;
  let newest: BackupFile | null = null;
  for (const name of fs.readdirSync(dir)) {
    const backup = describe(dir, name);
    if (backup && (newest === null || backup.takenAt > newest.takenAt)) newest = backup;
  }
  return newest;
}

/** Deletes all but the newest `keep` backups; returns the names deleted. */
export function pruneBackups(dir: string, keep: number): string[] {
  if (!Number.isInteger(keep) || keep < 1) throw new Error(`The number of backups to keep must be a whole number of at least 1, got ${keep}`);
  const old = listBackups(dir).slice(keep);
  for (const backup of old) fs.rmSync(backup.file, { force: true });
  return old.map((backup) => backup.name);
}

/** Copies `source`'s main database into `file` in one step (one read snapshot). */
async function copyDatabase(source: Db, file: string): Promise<void> {
  await source.$client.backup(file, { progress: () => allPages });
}

/** Copies the database into `file` as a single checked file (no write-ahead log). */
async function writeCheckedCopy(db: Db, file: string): Promise<void> {
  const partial = path.join(path.dirname(file), `.${path.basename(file)}.partial`);
  fs.rmSync(partial, { force: true });
  try {
    await copyDatabase(db, partial);
    const copy = openDb(partial);
    try {
      copy.$client.pragma("journal_mode = DELETE");
      const check = copy.$client.pragma("quick_check(1)", { simple: true });
      if (check !== "ok") throw new Error(`The backup failed its check (${String(check)})`);
    } finally {
      copy.$client.close();
    }
    fs.renameSync(partial, file);
  } finally {
    fs.rmSync(partial, { force: true });
    fs.rmSync(`${partial}-wal`, { force: true });
    fs.rmSync(`${partial}-shm`, { force: true });
  }
}

export interface BackupOptions {
  /** Where backups go (created if missing). */
  dir: string;
  /** How many backups to keep after this one (absent: all). */
  keep?: number;
  now?: Date;
}

/** Backs the database up into `dir` and keeps the newest `keep` backups. */
export async function backupDatabase(db: Db, { dir, keep, now = new Date() }: BackupOptions): Promise<BackupFile & { deleted: string[] }> {
  fs.mkdirSync(dir, { recursive: true });
  const name = `${prefix}${stamp(now)}.db`;
  const file = path.join(dir, name);
  if (fs.existsSync(file)) throw new Error(`A backup called ${name} exists already`);
  await writeCheckedCopy(db, file);
  const taken = describe(dir, name)!;
  // A backup named older than the newest `keep` (a clock set back) is itself deleted here.
  const deleted = keep === undefined ? [] : pruneBackups(dir, keep);
  return { ...taken, deleted };
}

/** The newest migration this code knows (its time, as drizzle records it). */
export function latestKnownMigration(): number {
  const journal = JSON.parse(fs.readFileSync(path.join(projectRoot, "data/migrations/meta/_journal.json"), "utf8")) as { entries: { when: number }[] };
  return Math.max(...journal.entries.map((entry) => entry.when));
}

/** Refuses a file that is damaged, not a PawPrice catalogue or newer than this code (RestoreRefused). */
export function checkCatalogueFile(file: string): void {
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) throw new RestoreRefused(`${file} is not a file`);
  let db: Db;
  try {
    db = openDb(file, { readonly: true });
  } catch (error) {
    throw new RestoreRefused(`${file} cannot be opened as an SQLite database (${error instanceof Error ? error.message : String(error)})`);
  }
  try {
    let problems: string[];
    try {
      problems = (db.$client.pragma("integrity_check") as { integrity_check: string }[]).map((row) => row.integrity_check);
    } catch (error) {
      throw new RestoreRefused(`${file} is damaged or not an SQLite database (${error instanceof Error ? error.message : String(error)})`);
    }
    if (problems.length !== 1 || problems[0] !== "ok") throw new RestoreRefused(`${file} failed SQLite's integrity check: ${problems.slice(0, 3).join("; ")}`);
    const tables = new Set(db.$client.prepare<unknown[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((row) => row.name));
    if (!tables.has("__drizzle_migrations") || !tables.has("products")) throw new RestoreRefused(`${file} is not a PawPrice catalogue (it has no migrations or no products table)`);
    const newest = db.$client.prepare<unknown[], { at: number | null }>("SELECT max(created_at) AS at FROM __drizzle_migrations").get()!.at;
    if (newest !== null && Number(newest) > latestKnownMigration()) {
      throw new RestoreRefused(`${file} was written by a newer PawPrice (its database has migrations this code does not know); update the code first`);
    }
  } finally {
    db.$client.close();
  }
}

const revisionKey = "catalogue_revision";
const revisionOf = (db: Db) => {
  const tables = db.$client.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'app_settings'").get();
  if (!tables) return 0;
  const row = db.$client.prepare<unknown[], { value: string }>("SELECT value FROM app_settings WHERE key = ?").get(revisionKey);
  return row ? Number(row.value) : 0;
};

export interface RestoreOptions {
  /** Where the copy of the replaced database goes. */
  dir: string;
  now?: Date;
}

export interface RestoreResult {
  /** The copy of the database the restore replaced (null: there was none). */
  before: BackupFile | null;
}

/** Restores `backupFile` into the database at `databaseFile` (see the rules at the top). */
export async function restoreDatabase(databaseFile: string, backupFile: string, { dir, now = new Date() }: RestoreOptions): Promise<RestoreResult> {
  checkCatalogueFile(backupFile);
  if (path.resolve(backupFile) === path.resolve(databaseFile)) throw new RestoreRefused("The file to restore is the database itself");
  // Brought up to this code's migrations on a temporary copy next to the database.
  const staged = path.join(path.dirname(databaseFile), `.restore-${stamp(now)}-${process.pid}.db`);
  const cleanStaged = () => {
    for (const name of [staged, `${staged}-wal`, `${staged}-shm`, `${staged}-journal`]) fs.rmSync(name, { force: true });
  };
  try {
    const source = openDb(backupFile, { readonly: true });
    try {
      await copyDatabase(source, staged);
    } finally {
      source.$client.close();
    }
    const copy = openDb(staged);
    try {
      await migrateDb(copy);
      let before: BackupFile | null = null;
      if (fs.existsSync(databaseFile)) {
        const live = openDb(databaseFile);
        try {
          fs.mkdirSync(dir, { recursive: true });
          const name = `${beforeRestorePrefix}${stamp(now)}.db`;
          await writeCheckedCopy(live, path.join(dir, name));
          before = describe(dir, name);
          // Past both revisions: a server watching the live file sees a catalogue change.
          const revision = Math.max(revisionOf(live), revisionOf(copy)) + 1;
          copy.$client
            .prepare("INSERT INTO app_settings (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at")
            .run(revisionKey, String(revision), now.toISOString());
        } finally {
          live.$client.close();
        }
      }
      // Into the live file in one step: its other connections see the old database or this one.
      await copyDatabase(copy, databaseFile);
      return { before };
    } finally {
      copy.$client.close();
    }
  } finally {
    cleanStaged();
  }
}
