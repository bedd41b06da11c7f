/**
 * The daily retention run inside the server (and one at start, for a server that was down): it
 * deletes visitor data the privacy policy says is kept no longer (data/db/retention.ts).
 */
import type { Db } from "../../data/db/client.ts";
import { deleteExpiredVisitorData, type RetentionResult } from "../../data/db/retention.ts";

export const retentionIntervalMs = 24 * 60 * 60 * 1000;

export interface RetentionSchedule {
  /** Runs the deletion now and returns what went. */
  runNow(): RetentionResult;
  stop(): void;
}

export interface RetentionScheduleOptions {
  db: Db;
  /** Milliseconds between runs (default a day); 0 runs only when asked. */
  intervalMs?: number;
  now?: () => Date;
  log?: (message: string) => void;
}

export function startRetentionSchedule({ db, intervalMs = retentionIntervalMs, now = () => new Date(), log = console.error }: RetentionScheduleOptions): RetentionSchedule {
  const runNow = () => deleteExpiredVisitorData(db, now());
  const scheduled = () => {
    try {
      const result = runNow();
      const deleted = Object.entries(result).filter(([, count]) => count > 0);
      if (deleted.length) log(`Retention: deleted ${deleted.map(([kind, count]) => `${count} ${kind}`).join(", ")}`);
    } catch (error) {
      // A busy or failing database must not stop the server; the next run tries again.
      log(`Retention run failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const timer = intervalMs > 0 ? setInterval(scheduled, intervalMs) : null;
  // The timer alone must not keep a process alive (tests, scripts); the server's listener does.
  timer?.unref();
  if (timer) scheduled();
  return {
    runNow,
    stop() {
      if (timer) clearInterval(timer);
    },
  };
}
