/**
 * Stored admin credentials and sessions. The database holds only the password's scrypt hash
 * and SHA-256 digests of session ids: a copy of the file lets nobody sign in.
 */
import type { Db } from "./client.ts";
import { statement } from "./statements.ts";

const passwordHashKey = "admin_password_hash";

export function storedPasswordHash(db: Db): string | null {
  const row = statement<{ value: string }>(db, "SELECT value FROM app_settings WHERE key = ?").get(passwordHashKey);
  return row?.value ?? null;
}

/** Stores a new password hash and ends every session (whoever knew the old password is out). */
export function storePasswordHash(db: Db, hash: string, now = new Date()): void {
  db.$client
    .transaction(() => {
      statement(
        db,
        "INSERT INTO app_settings (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
      ).run(passwordHashKey, hash, now.toISOString());
      statement(db, "DELETE FROM admin_sessions").run();
    })
    .immediate();
}

export interface SessionTimes {
  createdAt: string;
  lastSeenAt: string;
}

export function insertSession(db: Db, tokenHash: string, now: Date): void {
  statement(db, "INSERT INTO admin_sessions (token_hash, created_at, last_seen_at) VALUES (?, ?, ?)").run(tokenHash, now.toISOString(), now.toISOString());
}

export function findSession(db: Db, tokenHash: string): SessionTimes | null {
  const row = statement<{ created_at: string; last_seen_at: string }>(db, "SELECT created_at, last_seen_at FROM admin_sessions WHERE token_hash = ?").get(tokenHash);
  return row ? { createdAt: row.created_at, lastSeenAt: row.last_seen_at } : null;
}

export function touchSession(db: Db, tokenHash: string, now: Date): void {
  statement(db, "UPDATE admin_sessions SET last_seen_at = ? WHERE token_hash = ?").run(now.toISOString(), tokenHash);
}

export function deleteSession(db: Db, tokenHash: string): void {
  statement(db, "DELETE FROM admin_sessions WHERE token_hash = ?").run(tokenHash);
}

/** Removes sessions idle since before `idleBefore` or created before `createdBefore`. */
export function deleteExpiredSessions(db: Db, idleBefore: Date, createdBefore: Date): number {
  return statement(db, "DELETE FROM admin_sessions WHERE last_seen_at < ? OR created_at < ?").run(idleBefore.toISOString(), createdBefore.toISOString())
    .changes;
}
