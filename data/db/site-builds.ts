/**
 * The record of site builds (table site_builds): one row per build, written when it starts
 * (result "running") and completed when it ends, so the admin can see what the live site was
 * built from and why the last build failed.
 */
import type { Db } from "./client.ts";
import type { SiteBuildRow } from "./rows.ts";
import { statement } from "./statements.ts";

/** full: every page; fast: only the pages a few products' changes affect, over the live release. */
export type BuildKind = "full" | "fast";
export type BuildResult = "running" | "succeeded" | "failed";

export interface BuildRecord {
  id: number;
  startedAt: string;
  finishedAt: string | null;
  durationMs: number | null;
  kind: BuildKind;
  result: BuildResult;
  /** The release folder's name. */
  release: string | null;
  /** Pages (and other files the build rendered) written. */
  pages: number | null;
  /** The last lines of the build's output. */
  logTail: string | null;
}

/** How much of a build's output a record keeps: enough for the error and its context. */
export const logTailChars = 4000;

/** A build's row; its kind and result hold only the values the builder writes. */
type BuildRow = Omit<SiteBuildRow, "kind" | "result"> & { kind: BuildKind; result: BuildResult };

const toRecord = (row: BuildRow): BuildRecord => ({
  id: row.id,
  startedAt: row.started_at,
  finishedAt: row.finished_at,
  durationMs: row.duration_ms,
  kind: row.kind,
  result: row.result,
  release: row.release,
  pages: row.pages,
  logTail: row.log_tail,
});

const columns = "id, started_at, finished_at, duration_ms, kind, result, release, pages, log_tail";

/** Records a build that has started; returns its id. */
export function recordBuildStart(db: Db, build: { kind: BuildKind; release: string; startedAt: Date }): number {
  const row = statement<{ id: number }>(db, "INSERT INTO site_builds (started_at, kind, result, release) VALUES (?, ?, 'running', ?) RETURNING id").get(
    build.startedAt.toISOString(),
    build.kind,
    build.release,
  )!;
  return row.id;
}

/** Completes a build's record; only a running build is completed (false otherwise). */
export function recordBuildFinish(
  db: Db,
  id: number,
  outcome: { result: "succeeded" | "failed"; finishedAt: Date; pages: number | null; log: string },
): boolean {
  const started = statement<{ started_at: string }>(db, "SELECT started_at FROM site_builds WHERE id = ? AND result = 'running'").get(id);
  if (!started) return false;
  const durationMs = Math.max(0, outcome.finishedAt.getTime() - Date.parse(started.started_at));
  statement(db, "UPDATE site_builds SET finished_at = ?, duration_ms = ?, result = ?, pages = ?, log_tail = ? WHERE id = ?").run(
    outcome.finishedAt.toISOString(),
    durationMs,
    outcome.result,
    outcome.pages,
    outcome.log.slice(-logTailChars),
    id,
  );
  return true;
}

/**
 * Builds left "running" by a process that ended mid-build (killed, crashed) are failed: nothing
 * will finish them. Call once at start, before this process records builds of its own.
 */
export function failAbandonedBuilds(db: Db, now: Date): number {
  return statement(
    db,
    "UPDATE site_builds SET result = 'failed', finished_at = ?, log_tail = 'The process running this build ended before it finished.' WHERE result = 'running'",
  ).run(now.toISOString()).changes;
}

/** The latest builds, newest first. */
export function listBuilds(db: Db, limit: number): BuildRecord[] {
  return statement<BuildRow>(db, `SELECT ${columns} FROM site_builds ORDER BY id DESC LIMIT ?`).all(limit).map(toRecord);
}

export function getBuild(db: Db, id: number): BuildRecord | null {
  const row = statement<BuildRow>(db, `SELECT ${columns} FROM site_builds WHERE id = ?`).get(id);
  return row ? toRecord(row) : null;
}

/** The latest build (running or finished), or null before the first. */
export function latestBuild(db: Db): BuildRecord | null {
  return listBuilds(db, 1)[0] ?? null;
}
