import Database from "better-sqlite3";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import fs from "node:fs";
import path from "node:path";
import { projectRoot } from "../config.ts";
import * as schema from "./schema.ts";

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

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
  return drizzle(sqlite, { schema }) as Db;
}

/** Applies the committed drizzle-kit migrations that have not run yet. */
export function migrateDb(db: Db): void {
  migrate(db, { migrationsFolder });
}

export function closeDb(db: Db): void {
  db.$client.close();
}
