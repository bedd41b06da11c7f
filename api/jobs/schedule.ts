/**
 * The server's timetable: every background job that runs on a clock is a named entry here
 * ({ name, every: milliseconds or a cron pattern in UK time, runAtStart?, run }), started and
 * stopped together.
 *
 * Rules:
 * - A job never overlaps itself: a tick that comes while its last run is still going is skipped
 *   (the run under way covers it); asking for a run then joins the one under way.
 * - A run that throws (or rejects) is logged as "<title> failed: <message>"; the job stays on the
 *   timetable and its next tick runs as usual.
 * - Every finished run is reported to the observers as (name, "ok" | "failed", milliseconds,
 *   routine), routine being the job's own flag (a frequent check: the log keeps its successful
 *   runs at debug level).
 * - runAtStart true runs the job as the schedule starts (a synchronous job has finished when
 *   start() returns); a number runs it that many milliseconds after the start instead.
 * - Interval jobs tick on setInterval, cron jobs on croner (Europe/London); neither keeps a
 *   process alive on its own (the server's listener does).
 */
import { Cron } from "croner";

export type JobOutcome = "ok" | "failed";

export interface JobDefinition {
  /** Unique in its schedule, e.g. "retention". */
  name: string;
  /** Milliseconds between runs (more than 0), or a cron pattern in UK time. */
  every: number | string;
  /** true: run as the schedule starts; a number: run once that many ms after the start. */
  runAtStart?: boolean | number;
  /** How the log names it ("Retention run failed: ..."); default the name. */
  title?: string;
  /**
   * A check that runs every few seconds: a line for each of its successful runs would bury the
   * log, so they are logged at debug level (failures as any job's).
   */
  routine?: boolean;
  run(): unknown;
}

export interface JobStatus {
  name: string;
  /** "every 3600 s" or the cron pattern. */
  every: string;
  running: boolean;
  lastRunAt: string | null;
  lastOutcome: JobOutcome | null;
  lastDurationMs: number | null;
  lastError: string | null;
  /** When the timetable runs it next (null: the schedule is not running). */
  nextRunAt: string | null;
}

export type RunObserver = (name: string, outcome: JobOutcome, ms: number, routine: boolean) => void;

export interface Schedule {
  /** Puts a job on the timetable (started at once when the schedule runs already). Throws on a name in use. */
  add(job: JobDefinition): void;
  /** Takes a job off the timetable; a run under way finishes. */
  remove(name: string): void;
  has(name: string): boolean;
  /** Starts every job's timer (and the runs at start). */
  start(): void;
  /** Runs a job now, off the timetable; joins its run under way. */
  run(name: string): Promise<JobOutcome>;
  /** Each job in the order added. */
  status(): JobStatus[];
  /** When the timetable runs the job next (null: unknown job or not running). */
  nextRun(name: string): Date | null;
  /** Adds an observer of finished runs; returns what removes it. */
  onRun(observer: RunObserver): () => void;
  /** Stops every timer and waits for the runs under way. */
  stop(): Promise<void>;
}

export interface ScheduleOptions {
  log?: (line: string) => void;
  onRun?: RunObserver;
  /** The clock for status and next-run times (tests). */
  now?: () => Date;
}

interface Entry {
  job: JobDefinition;
  timers: ReturnType<typeof setTimeout>[];
  cron: Cron | null;
  /** When the interval timer was set (the next tick is a whole number of intervals later). */
  intervalFrom: number | null;
  current: Promise<JobOutcome> | null;
  lastRunAt: Date | null;
  lastOutcome: JobOutcome | null;
  lastDurationMs: number | null;
  lastError: string | null;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Checks a job's timing: a positive whole number of ms, or a pattern croner accepts. */
export function checkEvery(every: number | string): void {
  if (typeof every === "number") {
    if (!Number.isSafeInteger(every) || every <= 0) throw new Error(`A job's interval must be a whole number of milliseconds above 0, got ${every}`);
    return;
  }
  new Cron(every, { paused: true, timezone: "Europe/London" }).stop();
}

export function createSchedule(options: ScheduleOptions = {}): Schedule {
  const log = options.log ?? console.error;
  const now = options.now ?? (() => new Date());
  const observers = new Set<RunObserver>(options.onRun ? [options.onRun] : []);
  const entries = new Map<string, Entry>();
  let started = false;
  let stopped = false;

  const report = (entry: Entry, outcome: JobOutcome, startedAt: number, error?: unknown) => {
    const ms = performance.now() - startedAt;
    entry.lastOutcome = outcome;
    entry.lastDurationMs = ms;
    entry.lastError = outcome === "failed" ? message(error) : null;
    if (outcome === "failed") log(`${entry.job.title ?? entry.job.name} failed: ${message(error)}`);
    for (const observer of observers) {
      try {
        observer(entry.job.name, outcome, ms, entry.job.routine === true);
      } catch (observerError) {
        log(`A job observer failed on ${entry.job.name}: ${message(observerError)}`);
      }
    }
    return outcome;
  };

  /** Runs the job unless it is running (then the run under way is answered). */
  const execute = (entry: Entry): Promise<JobOutcome> => {
    if (entry.current) return entry.current;
    entry.lastRunAt = now();
    const startedAt = performance.now();
    let result: unknown;
    try {
      result = entry.job.run();
    } catch (error) {
      return Promise.resolve(report(entry, "failed", startedAt, error));
    }
    if (!(result instanceof Promise)) return Promise.resolve(report(entry, "ok", startedAt));
    const tracked: Promise<JobOutcome> = result
      .then(
        () => report(entry, "ok", startedAt),
        (error: unknown) => report(entry, "failed", startedAt, error),
      )
      .finally(() => {
        if (entry.current === tracked) entry.current = null;
      });
    entry.current = tracked;
    return tracked;
  };

  /** A timer's tick: skipped while the last run is still going. */
  const tick = (entry: Entry) => {
    if (stopped || entries.get(entry.job.name) !== entry) return;
    if (typeof entry.job.every === "number") entry.intervalFrom = Date.now();
    if (entry.current) return;
    void execute(entry);
  };

  const arm = (entry: Entry) => {
    const { job } = entry;
    if (typeof job.every === "number") {
      const timer = setInterval(() => tick(entry), job.every);
      timer.unref();
      entry.timers.push(timer);
      entry.intervalFrom = Date.now();
    } else {
      entry.cron = new Cron(job.every, { timezone: "Europe/London", protect: true }, () => tick(entry));
    }
    if (typeof job.runAtStart === "number") {
      const timer = setTimeout(() => tick(entry), job.runAtStart);
      timer.unref();
      entry.timers.push(timer);
    } else if (job.runAtStart) {
      tick(entry);
    }
  };

  const disarm = (entry: Entry) => {
    for (const timer of entry.timers) clearTimeout(timer);
    entry.timers = [];
    entry.cron?.stop();
    entry.cron = null;
    entry.intervalFrom = null;
  };

  const nextRun = (name: string): Date | null => {
    const entry = entries.get(name);
    if (!entry || !started || stopped) return null;
    if (entry.cron) return entry.cron.nextRun();
    if (entry.intervalFrom === null || typeof entry.job.every !== "number") return null;
    return new Date(entry.intervalFrom + entry.job.every);
  };

  return {
    add(job) {
      if (entries.has(job.name)) throw new Error(`A job called "${job.name}" is on the schedule already`);
      checkEvery(job.every);
      const entry: Entry = { job, timers: [], cron: null, intervalFrom: null, current: null, lastRunAt: null, lastOutcome: null, lastDurationMs: null, lastError: null };
      entries.set(job.name, entry);
      if (started && !stopped) arm(entry);
    },
    remove(name) {
      const entry = entries.get(name);
      if (!entry) return;
      disarm(entry);
      entries.delete(name);
    },
    has: (name) => entries.has(name),
    start() {
      if (started || stopped) return;
      started = true;
      for (const entry of [...entries.values()]) arm(entry);
    },
    run(name) {
      const entry = entries.get(name);
      if (!entry) return Promise.reject(new Error(`No job called "${name}" is on the schedule`));
      return execute(entry);
    },
    status() {
      return [...entries.values()].map((entry) => ({
        name: entry.job.name,
        every: typeof entry.job.every === "number" ? `every ${entry.job.every / 1000} s` : entry.job.every,
        running: entry.current !== null,
        lastRunAt: entry.lastRunAt?.toISOString() ?? null,
        lastOutcome: entry.lastOutcome,
        lastDurationMs: entry.lastDurationMs,
        lastError: entry.lastError,
        nextRunAt: nextRun(entry.job.name)?.toISOString() ?? null,
      }));
    },
    nextRun,
    onRun(observer) {
      observers.add(observer);
      return () => observers.delete(observer);
    },
    async stop() {
      stopped = true;
      for (const entry of entries.values()) disarm(entry);
      await Promise.all([...entries.values()].map((entry) => entry.current));
    },
  };
}
