/**
 * Machine tokens (table machine_tokens). The database holds only each token's SHA-256 and its
 * first characters: the token itself is returned once, when it is created, and a copy of the file
 * lets nobody call the server. A revoked token stays listed, with when it was revoked.
 */
import crypto from "node:crypto";
import type { Db } from "./client.ts";
import type { MachineTokenRow } from "./rows.ts";
import { statement } from "./statements.ts";
import { machineTokenPrefix, shownPrefixLength, type CreatedMachineToken, type MachineScope, type MachineTokenView } from "../domain/machine-tokens.ts";

type TokenRow = Pick<MachineTokenRow, "id" | "name" | "prefix" | "scopes" | "created_at" | "last_used_at" | "revoked_at">;

const columns = "id, name, prefix, scopes, created_at, last_used_at, revoked_at";

const toView = (row: TokenRow): MachineTokenView => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  scopes: JSON.parse(row.scopes) as MachineScope[],
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
  revokedAt: row.revoked_at,
});

/** The stored form of a token: SHA-256, hex. */
export function hashMachineToken(token: string): string {
  return crypto.createHash("sha256").update(token).digest("hex");
}

/** Creates a token with these scopes; the answer carries the token itself, which is stored nowhere. */
export function createMachineToken(db: Db, input: { name: string; scopes: readonly MachineScope[] }, now: Date): CreatedMachineToken {
  const token = machineTokenPrefix + crypto.randomBytes(32).toString("base64url");
  const row = statement<TokenRow>(db, `INSERT INTO machine_tokens (name, token_hash, prefix, scopes, created_at) VALUES (?, ?, ?, ?, ?) RETURNING ${columns}`).get(
    input.name,
    hashMachineToken(token),
    token.slice(0, shownPrefixLength),
    JSON.stringify(input.scopes),
    now.toISOString(),
  )!;
  return { ...toView(row), token };
}

/** The token with this hash, revoked or not; null when there is none. */
export function findMachineToken(db: Db, tokenHash: string): MachineTokenView | null {
  const row = statement<TokenRow>(db, `SELECT ${columns} FROM machine_tokens WHERE token_hash = ?`).get(tokenHash);
  return row ? toView(row) : null;
}

/** Every token, newest first. */
export function listMachineTokens(db: Db): MachineTokenView[] {
  return statement<TokenRow>(db, `SELECT ${columns} FROM machine_tokens ORDER BY id DESC`).all().map(toView);
}

/** Records a use of the token, unless one was recorded less than `everyMs` ago (a burst of calls costs one write). */
export function touchMachineToken(db: Db, id: number, now: Date, everyMs = 60_000): void {
  statement(db, "UPDATE machine_tokens SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)").run(
    now.toISOString(),
    id,
    new Date(now.getTime() - everyMs).toISOString(),
  );
}

/**
 * Revokes the token (a revoked one keeps its first revocation time): the token and whether this
 * call revoked it; null when there is no such token.
 */
export function revokeMachineToken(db: Db, id: number, now: Date): { token: MachineTokenView; revokedNow: boolean } | null {
  const { changes } = statement(db, "UPDATE machine_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL").run(now.toISOString(), id);
  const row = statement<TokenRow>(db, `SELECT ${columns} FROM machine_tokens WHERE id = ?`).get(id);
  return row ? { token: toView(row), revokedNow: changes > 0 } : null;
}
