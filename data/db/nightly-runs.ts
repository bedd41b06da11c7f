/**
 * Runs of the nightly job (table nightly_runs). Only one run is queued or running at a time:
 * `claimNightlyRun` checks and inserts in one IMMEDIATE transaction and answers the run under way
 * when there is one. A run left queued or running by a server that stopped is closed as failed
 * when the next one starts.
 */
import type { Db } from "./client.ts";
import type { NightlyRunRow } from "./rows.ts";
import { statement } from "./statements.ts";
import type { NightlyRun, NightlyStatus, NightlyStep, NightlySummary } from "../domain/nightly.ts";

/** A run's row; its status and step hold only the values the CHECK and the runner write. */
type RunRow = Omit<NightlyRunRow, "status" | "step"> & { status: NightlyStatus; step: NightlyStep | null };

const toRun = (row: RunRow): NightlyRun => ({
  id: row.id,
  trigger: row.trigger,
  status: row.status,
  step: row.step,
  summary: JSON.parse(row.summary) as NightlySummary,
  error: row.error,
  releaseId: row.release_id,
  queuedAt: row.queued_at,
  startedAt: row.started_at,
  finishedAt: row.finished_at,
});

/** Queues a run, or answers the one queued or running: `created` says which. */
export function claimNightlyRun(db: Db, trigger: string, now: Date): { run: NightlyRun; created: boolean } {
  return db.$client
    .transaction(() => {
      const active = statement<RunRow>(db, "SELECT * FROM nightly_runs WHERE status IN ('queued', 'running') ORDER BY id LIMIT 1").get();
      if (active) return { run: toRun(active), created: false };
      const row = statement<RunRow>(db, "INSERT INTO nightly_runs (trigger, status, queued_at) VALUES (?, 'queued', ?) RETURNING *").get(trigger, now.toISOString())!;
      return { run: toRun(row), created: true };
    })
    .immediate();
}

export function markNightlyStarted(db: Db, id: number, now: Date): void {
  statement(db, "UPDATE nightly_runs SET status = 'running', started_at = ? WHERE id = ?").run(now.toISOString(), id);
}

/** Stores the step now running and the summary of the steps before it. */
export function recordNightlyStep(db: Db, id: number, step: NightlyStep, summary: NightlySummary): void {
  statement(db, "UPDATE nightly_runs SET step = ?, summary = ? WHERE id = ?").run(step, JSON.stringify(summary), id);
}

export interface NightlyOutcome {
  status: "succeeded" | "failed";
  summary: NightlySummary;
  error: string | null;
  releaseId: string | null;
}

export function finishNightlyRun(db: Db, id: number, outcome: NightlyOutcome, now: Date): NightlyRun {
  const row = statement<RunRow>(db, "UPDATE nightly_runs SET status = ?, finished_at = ?, summary = ?, error = ?, release_id = ? WHERE id = ? RETURNING *").get(
    outcome.status,
    now.toISOString(),
    JSON.stringify(outcome.summary),
    outcome.error,
    outcome.releaseId,
    id,
  )!;
  return toRun(row);
}

/** Closes runs a stopped server left queued or running as failed; returns how many. */
export function failAbandonedNightlyRuns(db: Db, now: Date): number {
  return statement(
    db,
    "UPDATE nightly_runs SET status = 'failed', finished_at = ?, error = 'The server stopped before this run finished' WHERE status IN ('queued', 'running')",
  ).run(now.toISOString()).changes;
}

export function getNightlyRun(db: Db, id: number): NightlyRun | null {
  const row = statement<RunRow>(db, "SELECT * FROM nightly_runs WHERE id = ?").get(id);
  return row ? toRun(row) : null;
}

/** The latest runs, newest first. */
export function listNightlyRuns(db: Db, limit = 10): NightlyRun[] {
  return statement<RunRow>(db, "SELECT * FROM nightly_runs ORDER BY id DESC LIMIT ?").all(limit).map(toRun);
}
