/**
 * The daily retention run inside the server (and one at start, for a server that was down): it
 * deletes visitor data the privacy policy says is kept no longer (data/db/retention.ts). It also
 * keeps the anonymous tables within their row ceilings (data/db/storage-ceilings.ts), at start, with
 * every daily run and hourly in between, so a flood of writes is trimmed within the hour.
 */
import type { Db } from "../../data/db/client.ts";
import { deleteExpiredVisitorData, type RetentionResult } from "../../data/db/retention.ts";
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
}

/** "3 clicks, 1 favourites" for the counts above zero; empty when nothing went. */
const deletedList = (result: object) =>
  Object.entries(result)
    .filter(([, count]) => (count as number) > 0)
    .map(([kind, count]) => `${count as number} ${kind}`)
    .join(", ");

export function startRetentionSchedule({ db, intervalMs = retentionIntervalMs, ceilings, now = () => new Date(), log = console.error }: RetentionScheduleOptions): RetentionSchedule {
  const runNow = () => deleteExpiredVisitorData(db, now());
  const trimNow = () => (ceilings ? deleteOverCeilings(db, ceilings) : null);
  // A busy or failing database must not stop the server; the next run tries again.
  const guarded = (name: string, run: () => void) => () => {
    try {
      run();
    } catch (error) {
      log(`${name} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const trim = guarded("Row ceiling run", () => {
    const deleted = deletedList(trimNow() ?? {});
    if (deleted) log(`Row ceilings: deleted the oldest ${deleted}`);
  });
  const scheduled = guarded("Retention run", () => {
    const deleted = deletedList(runNow());
    if (deleted) log(`Retention: deleted ${deleted}`);
  });
  const daily = () => {
    scheduled();
    trim();
  };
  const timer = intervalMs > 0 ? setInterval(daily, intervalMs) : null;
  const hourly = intervalMs > 0 && ceilings ? setInterval(trim, Math.min(ceilingIntervalMs, intervalMs)) : null;
  // The timers alone must not keep a process alive (tests, scripts); the server's listener does.
  timer?.unref();
  hourly?.unref();
  if (timer) daily();
  return {
    runNow,
    trimNow,
    stop() {
      if (timer) clearInterval(timer);
      if (hourly) clearInterval(hourly);
    },
  };
}
