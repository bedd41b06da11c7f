/**
 * The nightly job, run by this server on its own catalogue (the workflow starts it with a machine
 * token, NIGHTLY_CRON can schedule it here): one run at a time, each through four steps in order.
 *
 *   feeds   every enabled admin feed source, and the configured AWIN feed when it is set, imported
 *           now (one after another, as every import runs); each one awaited
 *   prices  the price refresh (feeds, then the retailer pages of the other offers), unless one
 *           finished within the last 12 hours (the server's own daily read, REFRESH_CRON): retailer
 *           pages are read at most once in that time, so the step says so and reads nothing
 *   alerts  the price-alert check (and the queued confirmation mails), awaited
 *   build   the site rebuild the changes asked for, awaited; when nothing asked for one since the
 *           run started, a full build. The release it published is the run's.
 *
 * A step that fails does not stop the steps after it (prices still go out when a feed is broken,
 * and what changed is still built), but the run ends failed, naming each failure. A feed import
 * that fails, a refresh that read no page, an alert mail not sent and a build that failed are
 * failures. Each step's counts and duration are kept in the run's summary as it goes.
 */
import type { Db } from "../data/db/client.ts";
import { getRun, listFeedSources, RunConflict } from "../data/db/feed-sources.ts";
import { claimNightlyRun, failAbandonedNightlyRuns, finishNightlyRun, markNightlyStarted, recordNightlyStep } from "../data/db/nightly-runs.ts";
import { latestBuild } from "../data/db/site-builds.ts";
import { latestRefreshRun } from "../data/db/price-review.ts";
import { isFinished } from "../data/domain/feed-sources.ts";
import type { NightlyFeedOutcome, NightlyRun, NightlyStep, NightlySummary } from "../data/domain/nightly.ts";
import type { SiteBuilds } from "./context.ts";
import { configuredFeedId, type FeedImports } from "./feed-imports.ts";
import type { AlertSchedule } from "./jobs/alert-check.ts";
import type { ImportTarget } from "./jobs/feed-import.ts";
import type { PricePipeline } from "./price-pipeline.ts";
import { createSchedule, type JobDefinition, type Schedule } from "./jobs/schedule.ts";

export interface NightlyOptions {
  db: Db;
  feedImports: FeedImports;
  pipeline: PricePipeline;
  alerts: AlertSchedule;
  /** The site rebuild job, read when the build step starts (absent: the step fails). */
  site: () => SiteBuilds | undefined;
  /** A cron pattern (UK time) for runs inside the server; null: none. */
  cron?: string | null;
  log?: (line: string) => void;
  /** The server's schedule to put the scheduled run on (default: one of its own, started at once). */
  schedule?: Schedule;
}

export interface Nightly {
  /** Queues a run and starts it, unless one is queued or running: that one is answered instead (`created` false). */
  start(trigger: string): { run: NightlyRun; created: boolean };
  /** Resolves when the run has ended (at once for a run this process does not hold). */
  finished(id: number): Promise<void>;
  /** Starts nothing more; resolves when the run under way has ended (its steps fail as the jobs they wait on stop). */
  stop(): Promise<void>;
}

/** The server is stopping: no run starts. */
export class NightlyStopping extends Error {
  override name = "NightlyStopping";
  constructor() {
    super("The server is stopping; no nightly run starts now");
  }
}

/** A refresh that finished this recently has read the pages: the nightly run does not read them again. */
const pagesReadAgainAfterMs = 12 * 60 * 60 * 1000;

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));
const lastLine = (text: string | null) => text?.trim().split("\n").at(-1)?.trim() || "no output";

export function createNightly(options: NightlyOptions): Nightly {
  const { db, feedImports, pipeline, alerts } = options;
  const log = options.log ?? console.error;
  const held = new Map<number, Promise<void>>();
  let stopping = false;

  const closed = failAbandonedNightlyRuns(db, new Date());
  if (closed > 0) log(`Nightly: ${closed} run(s) left unfinished by a stopped server marked failed`);

  /** Each import target to run: the enabled admin sources, then the configured feed; a source that cannot run is a failure already. */
  const feedTargets = (failures: NightlyFeedOutcome[]): { name: string; target: ImportTarget }[] => {
    const targets: { name: string; target: ImportTarget }[] = [];
    const add = (name: string, target: () => ImportTarget) => {
      try {
        targets.push({ name, target: target() });
      } catch (error) {
        failures.push({ name, runId: null, status: "failed", rowsRead: 0, created: 0, matched: 0, pricesChanged: 0, held: 0, error: message(error) });
      }
    };
    for (const source of listFeedSources(db)) if (source.enabled) add(source.name, () => feedImports.targetOf(source));
    const configured = feedImports.configured.get(configuredFeedId);
    if (configured) add(configured.label, () => feedImports.configuredTarget(configuredFeedId));
    return targets;
  };

  const feeds = async (): Promise<NonNullable<NightlySummary["feeds"]>> => {
    const started = performance.now();
    const sources: NightlyFeedOutcome[] = [];
    for (const { name, target } of feedTargets(sources)) {
      let runId: number;
      try {
        runId = feedImports.start(target, "schedule").id;
      } catch (error) {
        // Importing already (its schedule, the admin): that run's outcome is as fresh.
        if (!(error instanceof RunConflict)) {
          sources.push({ name, runId: null, status: "failed", rowsRead: 0, created: 0, matched: 0, pricesChanged: 0, held: 0, error: message(error) });
          continue;
        }
        runId = error.run.id;
      }
      await feedImports.finished(runId);
      const run = getRun(db, runId);
      const ended = run !== null && isFinished(run.status);
      sources.push({
        name,
        runId,
        status: ended && run.status === "succeeded" ? "succeeded" : "failed",
        rowsRead: run?.rowsRead ?? 0,
        created: run?.created ?? 0,
        matched: run?.matched ?? 0,
        pricesChanged: run?.pricesChanged ?? 0,
        held: run?.held ?? 0,
        error: ended ? (run.error ?? null) : `still importing in another process (run ${runId}); not waited for`,
      });
    }
    const failed = sources.filter((source) => source.status === "failed").map((source) => source.name);
    return {
      durationMs: performance.now() - started,
      sources,
      ...(failed.length > 0 ? { error: `${failed.length} of ${sources.length} failed (${failed.join(", ")})` } : {}),
    };
  };

  const prices = async (): Promise<NonNullable<NightlySummary["prices"]>> => {
    const started = performance.now();
    const recent = latestRefreshRun(db);
    const finishedAt = recent?.finishedAt ? Date.parse(recent.finishedAt) : Number.NaN;
    if (recent && recent.result !== "failed" && Date.now() - finishedAt < pagesReadAgainAfterMs) {
      return { durationMs: performance.now() - started, skipped: `the refresh that finished at ${recent.finishedAt} read them (within 12 hours): not read again` };
    }
    const summary = await pipeline.refresh();
    const { result, checked, changed, held, failed, stale, notModified, blocked, backedOff } = summary;
    return {
      durationMs: performance.now() - started,
      result,
      checked,
      changed,
      held,
      failed,
      stale,
      notModified,
      blocked,
      backedOff,
      failures: summary.failures.slice(0, 10),
      ...(result === "failed" ? { error: `the refresh failed: ${summary.failures[0] ?? "no page could be read"}` } : {}),
    };
  };

  /**
   * The alert check, awaited. A price change also sets off a check of its own as soon as it is
   * written, so the alerts a run's prices made due are often mailed before this step: the count of
   * alerts mailed since the run started says how many the run's prices reached.
   */
  const alertCheck = async (runStartedAt: Date): Promise<NonNullable<NightlySummary["alerts"]>> => {
    const started = performance.now();
    const { sent, failed, rearmed } = await alerts.runNow();
    const mailedSinceStart = db.$client.prepare("SELECT count(*) FROM price_alerts WHERE last_notified_at >= ?").pluck().get(runStartedAt.toISOString()) as number;
    return {
      durationMs: performance.now() - started,
      sent,
      failed,
      rearmed,
      mailedSinceStart,
      ...(failed > 0 ? { error: `${failed} alert mail(s) not sent; the next check retries them` } : {}),
    };
  };

  const build = async (buildsBefore: number): Promise<{ outcome: NonNullable<NightlySummary["build"]>; release: string | null }> => {
    const started = performance.now();
    const site = options.site();
    if (!site?.settled) throw new Error("This server does not build the site (SITE_BUILD=never)");
    let record = await site.settled();
    let requested: "changes" | "full" = "changes";
    if (record === null || record.id <= buildsBefore) {
      requested = "full";
      void Promise.resolve(site.request({ productIds: [], categoryIds: [], siteWide: true })).catch(() => undefined);
      record = await site.settled();
    }
    const durationMs = performance.now() - started;
    if (record === null || record.id <= buildsBefore) return { outcome: { durationMs, requested, error: "no build ran (the server is stopping)" }, release: null };
    const outcome = { durationMs, requested, kind: record.kind, result: record.result, pages: record.pages, release: record.release };
    if (record.result !== "succeeded") return { outcome: { ...outcome, error: `the ${record.kind} build failed: ${lastLine(record.logTail)}` }, release: null };
    return { outcome, release: record.release };
  };

  /** Runs one step: its outcome (or the error it threw) goes into the summary. */
  const step = async <K extends NightlyStep>(id: number, summary: NightlySummary, name: K, run: () => Promise<NonNullable<NightlySummary[K]>>) => {
    if (stopping) throw new Error("The server stopped during this run");
    recordNightlyStep(db, id, name, summary);
    log(`Nightly run ${id}: ${name}...`);
    const started = performance.now();
    try {
      summary[name] = await run();
    } catch (error) {
      summary[name] = { durationMs: performance.now() - started, error: message(error) } as NightlySummary[K];
    }
  };

  const execute = async (id: number) => {
    const summary: NightlySummary = {};
    let release: string | null = null;
    let stopped: string | null = null;
    const startedAt = new Date();
    markNightlyStarted(db, id, startedAt);
    const buildsBefore = latestBuild(db)?.id ?? 0;
    try {
      await step(id, summary, "feeds", feeds);
      await step(id, summary, "prices", prices);
      await step(id, summary, "alerts", () => alertCheck(startedAt));
      await step(id, summary, "build", async () => {
        const built = await build(buildsBefore);
        release = built.release;
        return built.outcome;
      });
    } catch (error) {
      stopped = message(error);
    }
    const failures = (["feeds", "prices", "alerts", "build"] as const).flatMap((name) => {
      const error = summary[name]?.error;
      return error ? [`${name}: ${error}`] : [];
    });
    if (stopped) failures.push(stopped);
    const run = finishNightlyRun(
      db,
      id,
      { status: failures.length > 0 ? "failed" : "succeeded", summary, error: failures.length > 0 ? failures.join("; ") : null, releaseId: release },
      new Date(),
    );
    log(`Nightly run ${id} ${run.status}${run.error ? `: ${run.error}` : ""}`);
  };

  const start = (trigger: string) => {
    if (stopping) throw new NightlyStopping();
    const claimed = claimNightlyRun(db, trigger, new Date());
    if (claimed.created) {
      const id = claimed.run.id;
      const done = execute(id)
        .catch((error: unknown) => log(`Nightly run ${id} could not be recorded: ${message(error)}`))
        .finally(() => held.delete(id));
      held.set(id, done);
    }
    return claimed;
  };

  // The scheduled start: a run already queued or going is answered instead (and said so).
  const job: JobDefinition | null = options.cron
    ? {
        name: "nightly",
        title: "Scheduled nightly run",
        every: options.cron,
        run: () => {
          const { run, created } = start("schedule");
          if (!created) log(`Scheduled nightly run not started: run ${run.id} is ${run.status}`);
        },
      }
    : null;
  const own = job && !options.schedule ? createSchedule({ log }) : null;
  const schedule = options.schedule ?? own;
  if (job) schedule!.add(job);
  own?.start();

  return {
    start,
    async finished(id) {
      await held.get(id);
    },
    async stop() {
      stopping = true;
      if (job) schedule!.remove(job.name);
      void own?.stop();
      await Promise.all(held.values());
    },
  };
}
