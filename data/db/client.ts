import Database from "better-sqlite3";
import fs from "node:fs";
import path from "node:path";
import { projectRoot } from "../config.ts";

/**
 * A database connection. Queries are prepared SQL on the better-sqlite3 client (see
 * statements.ts): the hot read paths need nothing more, and keeping the drizzle runtime out of
 * the build and request processes saves about 200 MB of memory in each. drizzle owns the schema
 * (schema.ts) and the migrations (drizzle-kit output in data/migrations, applied by migrateDb).
 */
export interface Db {
  readonly $client: Database.Database;
}

const migrationsFolder = path.join(projectRoot, "data/migrations");

/**
 * Opens (creating if needed) the SQLite file with the pragmas every connection needs:
 * WAL so readers never block the writer, foreign keys on, and a busy timeout so a second
 * process (seed, alert check) waits instead of failing with SQLITE_BUSY.
 */
export function openDb(file: string, options: { readonly?: boolean } = {}): Db {
  if (!options.readonly) fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new Database(file, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
  if (!options.readonly) sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("cache_size = -32000");
  sqlite.pragma("temp_store = MEMORY");
  return { $client: sqlite };
}

/**
 * Whether drizzle's migrator would apply anything: it applies every committed migration newer
 * (by its journal's "when") than the newest one recorded in __drizzle_migrations, all of them
 * when that table is missing or empty.
 */
export function migrationsPending(db: Db): boolean {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, "meta/_journal.json"), "utf8")) as { entries: { when: number }[] };
  const newest = Math.max(...journal.entries.map((entry) => entry.when));
  const recorded = db.$client.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'").get();
  if (!recorded) return true;
  const last = db.$client.prepare("SELECT created_at FROM __drizzle_migrations ORDER BY created_at DESC LIMIT 1").pluck().get();
  return last === undefined || last === null || Number(last) < newest;
}

/**
 * Applies the committed drizzle-kit migrations that have not run yet (drizzle's own migrator).
 * A database that has them all is left alone without loading drizzle: its runtime takes about
 * 150 MB that a long-running process (the server) would hold until it exits.
 */
export async function migrateDb(db: Db): Promise<void> {
  if (!migrationsPending(db)) return;
  const [{ drizzle }, { migrate }] = await Promise.all([import("drizzle-orm/better-sqlite3"), import("drizzle-orm/better-sqlite3/migrator")]);
  migrate(drizzle(db.$client), { migrationsFolder });
}

export function closeDb(db: Db): void {
  db.$client.close();
}
