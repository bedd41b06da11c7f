/**
 * The nightly job's runs as the machine routes, the admin screen and `npm run nightly:remote`
 * see them: its steps with their labels, each step's outcome in the run's summary, and the
 * summary as lines a person reads. Pure: the admin island imports it.
 */
import type { RunStatus } from "./feed-sources.ts";

/** The steps, in the order they run, with what a person reads. */
export const nightlyStepLabels = {
  feeds: "Feed imports",
  prices: "Page prices",
  alerts: "Price alerts",
  build: "Site build",
} as const;
export type NightlyStep = keyof typeof nightlyStepLabels;
export const nightlySteps = Object.keys(nightlyStepLabels) as NightlyStep[];

/** A run goes through an import run's states (queued, running, then succeeded or failed), with their labels. */
export type NightlyStatus = RunStatus;

/** One feed source's import in the feeds step. */
export interface NightlyFeedOutcome {
  name: string;
  /** The import run's id; null when it did not start. */
  runId: number | null;
  status: "succeeded" | "failed";
  rowsRead: number;
  created: number;
  matched: number;
  pricesChanged: number;
  held: number;
  error: string | null;
}

interface StepOutcome {
  durationMs: number;
  /** Why the step failed; absent when it did not. */
  error?: string;
}

export interface NightlySummary {
  feeds?: StepOutcome & { sources?: NightlyFeedOutcome[] };
  prices?: StepOutcome & {
    result?: string;
    checked?: number;
    changed?: number;
    held?: number;
    failed?: number;
    stale?: number;
    notModified?: number;
    blocked?: number;
    backedOff?: number;
    failures?: string[];
    /** Why the pages were not read this run (a refresh read them recently). */
    skipped?: string;
  };
  alerts?: StepOutcome & {
    sent?: number;
    failed?: number;
    rearmed?: number;
    /** Alerts mailed since the run started, by this check or the one a price change set off. */
    mailedSinceStart?: number;
  };
  build?: StepOutcome & { requested?: "changes" | "full"; kind?: string; result?: string; pages?: number | null; release?: string | null };
}

export interface NightlyRun {
  id: number;
  /** schedule, admin, or token:<token id>. */
  trigger: string;
  status: NightlyStatus;
  /** The step being run; the last one run once the run has ended. */
  step: NightlyStep | null;
  summary: NightlySummary;
  error: string | null;
  /** The site release the run's build published. */
  releaseId: string | null;
  queuedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;

/** "Label (duration): details; failed: why", leaving out what a step does not have. */
function stepLine(step: NightlyStep, durationMs: number, details: string | null, error: string | undefined): string {
  const parts = [details, error ? `failed: ${error}` : null].filter((part) => part !== null);
  return `${nightlyStepLabels[step]} (${seconds(durationMs)})${parts.length > 0 ? `: ${parts.join("; ")}` : ""}`;
}

/**
 * The summary as one line per step (and one per feed source), in the order the steps ran.
 * @example nightlySummaryLines({ alerts: { durationMs: 1200, sent: 2, failed: 0, rearmed: 1 } })
 *   // ["Price alerts (1.2 s): 2 sent, 0 failed, 1 re-armed"]
 */
export function nightlySummaryLines(summary: NightlySummary): string[] {
  const lines: string[] = [];
  if (summary.feeds) {
    const { sources = [], durationMs, error } = summary.feeds;
    const failed = sources.filter((source) => source.status === "failed").length;
    // Failed sources are listed below with their reasons; the step's own error shows when it failed otherwise.
    lines.push(stepLine("feeds", durationMs, `${plural(sources.length, "source")}, ${failed} failed`, failed > 0 ? undefined : error));
    for (const source of sources) {
      lines.push(
        source.status === "failed"
          ? `  ${source.name}: failed: ${source.error ?? "unknown error"}`
          : `  ${source.name}: ${source.rowsRead} rows, ${source.created} created, ${source.matched} matched, ${source.pricesChanged} prices changed, ${source.held} held`,
      );
    }
  }
  if (summary.prices) {
    const p = summary.prices;
    const counts =
      p.skipped !== undefined
        ? p.skipped
        : p.result === undefined
          ? null
          : `${p.result}, ${p.checked} checked, ${p.changed} changed, ${p.held} held, ${p.failed} failed, ${p.stale} marked stale` +
            (p.notModified || p.blocked || p.backedOff ? `, ${p.notModified ?? 0} not modified, ${p.blocked ?? 0} blocked by robots.txt, ${p.backedOff ?? 0} backed off` : "");
    lines.push(stepLine("prices", p.durationMs, counts, p.error));
    for (const line of p.failures ?? []) lines.push(`  ${line}`);
  }
  if (summary.alerts) {
    const a = summary.alerts;
    const mailed = a.mailedSinceStart !== undefined && a.mailedSinceStart > (a.sent ?? 0) ? `; ${a.mailedSinceStart} mailed since the run started` : "";
    lines.push(stepLine("alerts", a.durationMs, a.sent === undefined ? null : `${a.sent} sent, ${a.failed} failed, ${a.rearmed} re-armed${mailed}`, a.error));
  }
  if (summary.build) {
    const b = summary.build;
    const built = b.result === undefined ? null : `${b.kind} build ${b.result}${b.pages == null ? "" : `, ${b.pages} pages`}${b.release ? `, release ${b.release}` : ""}`;
    const why = b.requested === "full" ? "nothing changed, so a full build was asked for" : null;
    lines.push(stepLine("build", b.durationMs, [built, why].filter((part) => part !== null).join("; ") || null, b.error));
  }
  return lines;
}
