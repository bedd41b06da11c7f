/**
 * The audit log: one row per admin write, in the same transaction as the write, so the log
 * never claims a change that did not happen (or misses one that did).
 */
import type { Db } from "./client.ts";
import { statement } from "./statements.ts";

export type AuditEntity = "product" | "category" | "retailer" | "voucher" | "affiliate-ids" | "subscriber" | "site" | "machine-token" | "privacy-request";

export interface AuditRecord {
  /** lookup, export, erase: a data-rights request (privacy-request), recorded without its key. */
  action: "create" | "update" | "delete" | "rebuild" | "revoke" | "lookup" | "export" | "erase";
  entity: AuditEntity;
  entityId: number | null;
  summary: string;
  /** The changed fields before and after (absent on create / delete). */
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

export interface AuditEntry {
  id: number;
  at: string;
  action: string;
  entity: string;
  entityId: number | null;
  summary: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/** Writes one entry; call inside the write's transaction. */
export function recordAudit(db: Db, record: AuditRecord, now: Date): void {
  statement(db, "INSERT INTO audit_log (at, action, entity, entity_id, summary, before, after) VALUES (?, ?, ?, ?, ?, ?, ?)").run(
    now.toISOString(),
    record.action,
    record.entity,
    record.entityId,
    record.summary,
    record.before ? JSON.stringify(record.before) : null,
    record.after ? JSON.stringify(record.after) : null,
  );
}

interface AuditRow {
  id: number;
  at: string;
  action: string;
  entity: string;
  entity_id: number | null;
  summary: string;
  before: string | null;
  after: string | null;
}

/** The latest entries, newest first. */
export function latestAudit(db: Db, limit: number): AuditEntry[] {
  const rows = statement<AuditRow>(db, "SELECT id, at, action, entity, entity_id, summary, before, after FROM audit_log ORDER BY at DESC, id DESC LIMIT ?").all(
    limit,
  );
  return rows.map((row) => ({
    id: row.id,
    at: row.at,
    action: row.action,
    entity: row.entity,
    entityId: row.entity_id,
    summary: row.summary,
    before: row.before === null ? null : (JSON.parse(row.before) as Record<string, unknown>),
    after: row.after === null ? null : (JSON.parse(row.after) as Record<string, unknown>),
  }));
}

/**
 * The fields whose values differ between two flat records, as `before` / `after` pairs holding
 * only those fields (values compared as JSON, so nested lists compare by content).
 */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): { before: Record<string, unknown>; after: Record<string, unknown>; names: string[] } {
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (name) => JSON.stringify(before[name]) !== JSON.stringify(after[name]),
  );
  return {
    before: Object.fromEntries(names.map((name) => [name, before[name] ?? null])),
    after: Object.fromEntries(names.map((name) => [name, after[name] ?? null])),
    names,
  };
}
