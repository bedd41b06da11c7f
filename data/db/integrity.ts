/**
 * Whether the database file is sound: SQLite's quick_check (every page and index entry is
 * readable and well-formed; cheaper than a full integrity_check because it skips comparing
 * index contents with their tables). A damaged file (SQLITE_CORRUPT, SQLITE_NOTADB) is "corrupt".
 */
import type { Db } from "./client.ts";

export type Integrity = { state: "ok" } | { state: "corrupt"; detail: string };

const damagedCodes = new Set(["SQLITE_CORRUPT", "SQLITE_NOTADB", "SQLITE_CORRUPT_INDEX", "SQLITE_CORRUPT_VTAB", "SQLITE_CORRUPT_SEQUENCE"]);

/** Whether an error thrown by SQLite means the file is damaged (not busy, not a bad query). */
export function isDamagedDatabaseError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && damagedCodes.has(code);
}

export function checkIntegrity(db: Db): Integrity {
  try {
    const rows = db.$client.pragma("quick_check(1)") as { quick_check: string }[];
    const first = rows[0]?.quick_check ?? "no answer";
    return first === "ok" ? { state: "ok" } : { state: "corrupt", detail: first };
  } catch (error) {
    if (isDamagedDatabaseError(error)) return { state: "corrupt", detail: (error as Error).message };
    throw error;
  }
}

/** A monitor may poll every few seconds: a sound file is re-checked at most this often. */
const integrityEveryMs = 30_000;
const lastChecks = new WeakMap<Db, { at: number; result: Integrity }>();

/**
 * The file's state for health reports: checked at most every 30 s while sound; once damaged it
 * stays reported as damaged (a damaged file does not heal), including when a request's query
 * found the damage first (`noteDamage`).
 */
export function databaseIntegrity(db: Db, now = Date.now()): Integrity {
  const last = lastChecks.get(db);
  if (last && (last.result.state === "corrupt" || now - last.at < integrityEveryMs)) return last.result;
  const result = checkIntegrity(db);
  lastChecks.set(db, { at: now, result });
  return result;
}

/** Records that a query failed on a damaged file, so health says so at once. */
export function noteDamage(db: Db, error: unknown): void {
  if (isDamagedDatabaseError(error)) lastChecks.set(db, { at: Date.now(), result: { state: "corrupt", detail: (error as Error).message } });
}
