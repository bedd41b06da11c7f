/**
 * The daily retention run inside the server (and one at start, for a server that was down): it
 * deletes visitor data the privacy policy says is kept no longer (data/db/retention.ts). It also
 * keeps the anonymous tables within their row ceilings (data/db/storage-ceilings.ts), at start and
 * hourly, so a flood of writes is trimmed within the hour. Both are jobs on the server's schedule.
 */
import type { Db } from "../../data/db/client.ts";
import { deleteExpiredVisitorData, type RetentionResult } from "../../data/db/retention.ts";
import { createSchedule, type JobDefinition, type Schedule } from "./schedule.ts";
import { deleteOverCeilings, type CeilingResult, type TableCeilings } from "../../data/db/storage-ceilings.ts";

export const retentionIntervalMs = 24 * 60 * 60 * 1000;
export const ceilingIntervalMs = 60 * 60 * 1000;

export interface RetentionSchedule {
  /** Runs the deletion now and returns what went. */
  runNow(): RetentionResult;
  /** Trims the tables over their ceilings now and returns what went (nothing without ceilings). */
  trimNow(): CeilingResult | null;
  stop(): void;
}

export interface RetentionScheduleOptions {
  db: Db;
  /** Milliseconds between runs (default a day); 0 runs only when asked. */
  intervalMs?: number;
  /** The anonymous tables' row ceilings (absent: none are kept). */
  ceilings?: TableCeilings | undefined;
  now?: () => Date;
  log?: (message: string) => void;
  /** The server's schedule to put the jobs on (default: one of their own, started at once). */
  schedule?: Schedule;
}

/** "3 clicks, 1 favourites" for the counts above zero; empty when nothing went. */
const deletedList = (result: object) =>
  Object.entries(result)
    .filter(([, count]) => (count as number) > 0)
    .map(([kind, count]) => `${count as number} ${kind}`)
    .join(", ");

export function startRetentionSchedule({
  db,
  intervalMs = retentionIntervalMs,
  ceilings,
  now = () => new Date(),
  log = console.error,
  schedule,
}: RetentionScheduleOptions): RetentionSchedule {
  const runNow = () => deleteExpiredVisitorData(db, now());
  const trimNow = () => (ceilings ? deleteOverCeilings(db, ceilings) : null);
  // A busy or failing database must not stop the server; the schedule logs the failure and the next run tries again.
  const jobs: JobDefinition[] = [];
  if (intervalMs > 0) {
    jobs.push({
      name: "retention",
      title: "Retention run",
      every: intervalMs,
      runAtStart: true,
      run: () => {
        const deleted = deletedList(runNow());
        if (deleted) log(`Retention: deleted ${deleted}`);
      },
    });
    if (ceilings) {
      jobs.push({
        name: "row-ceilings",
        title: "Row ceiling run",
        every: Math.min(ceilingIntervalMs, intervalMs),
        runAtStart: true,
        run: () => {
          const deleted = deletedList(trimNow() ?? {});
          if (deleted) log(`Row ceilings: deleted the oldest ${deleted}`);
        },
      });
    }
  }
  const own = schedule ? null : createSchedule({ log });
  const target = schedule ?? own!;
  for (const job of jobs) target.add(job);
  own?.start();
  return {
    runNow,
    trimNow,
    stop() {
      for (const job of jobs) target.remove(job.name);
      void own?.stop();
    },
  };
}
