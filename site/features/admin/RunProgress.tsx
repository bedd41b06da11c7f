/**
 * An import run as it goes and when it has ended: its state, the live counters (asked for every
 * second while it runs), the rows refused by reason, and the first messages. Used by the Feeds
 * screens and the import screen.
 */
import { useEffect, useState } from "react";
import { isFinished, runStatusLabels, type FeedRun } from "../../../data/domain/feed-sources.ts";
import { fetchFeedRun } from "./admin-api.ts";
import { refusalLines, runCounts, runPollMs } from "./feeds.ts";
import { skippedList } from "./amazon-import.ts";
import { formatDateTime } from "./format.ts";
import { Badge } from "./ui.tsx";

/** The run, asked for again every second until it has ended; `onFinished` is called once when it ends. */
export function useRun(initial: FeedRun | null, onFinished?: (run: FeedRun) => void): { run: FeedRun | null; failed: unknown } {
  const [run, setRun] = useState<FeedRun | null>(initial);
  const [failed, setFailed] = useState<unknown>(null);
  const runId = initial?.id ?? null;
  useEffect(() => {
    setRun(initial);
    setFailed(null);
    if (runId === null || (initial && isFinished(initial.status))) return;
    let current = true;
    let timer: number | undefined;
    const poll = () => {
      fetchFeedRun(runId).then(
        (next) => {
          if (!current) return;
          setRun(next);
          if (isFinished(next.status)) onFinished?.(next);
          else timer = window.setTimeout(poll, runPollMs);
        },
        (error: unknown) => current && setFailed(error),
      );
    };
    timer = window.setTimeout(poll, runPollMs);
    return () => {
      current = false;
      window.clearTimeout(timer);
    };
    // A new run (another id) starts polling afresh; the rest follow it.
  }, [runId]);
  return { run, failed };
}

const statusTone = { queued: "slate", running: "amber", succeeded: "green", failed: "red" } as const;

export function RunStatusBadge({ status }: { status: FeedRun["status"] }) {
  return <Badge tone={statusTone[status]}>{runStatusLabels[status]}</Badge>;
}

export function RunProgress({ run }: { run: FeedRun }) {
  const refusals = refusalLines(run);
  const messages = skippedList({ errors: run.messages, totalErrors: run.totalMessages });
  const finished = isFinished(run.status);
  return (
    <div data-testid="run-progress" data-status={run.status}>
      <p className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
        <span role="status" aria-live="polite" className="inline-flex items-center gap-2">
          <span className="sr-only">Import {runStatusLabels[run.status].toLowerCase()}</span>
          <RunStatusBadge status={run.status} />
        </span>
        <span>
          Run {run.id} of {run.sourceLabel}
          {run.startedAt ? `, started ${formatDateTime(run.startedAt)}` : ""}
          {run.finishedAt ? `, finished ${formatDateTime(run.finishedAt)}` : ""}
        </span>
      </p>
      {run.status === "failed" && run.error && (
        <p role="alert" className="mt-3 rounded-lg border border-red-200 bg-red-50 p-3 text-sm break-words text-red-900">
          {run.error}
        </p>
      )}
      <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="run-counts">
        {runCounts(run).map(({ label, value }) => (
          <div key={label} className="rounded-lg bg-slate-50 p-3 ring-1 ring-slate-200">
            <dt className="text-xs text-slate-600">{label}</dt>
            <dd className="text-xl font-bold text-slate-900 tabular-nums">{value.toLocaleString("en-GB")}</dd>
          </div>
        ))}
      </dl>
      {refusals.length > 0 && (
        <>
          <h3 className="mt-4 text-sm font-semibold text-slate-800">Refused rows by reason</h3>
          <ul className="mt-2 grid gap-1 text-sm text-slate-700" data-testid="run-refusals">
            {refusals.map(({ reason, count }) => (
              <li key={reason} className="flex justify-between gap-3 rounded-md bg-amber-50 px-3 py-1.5 text-amber-950">
                <span>{reason}</span>
                <span className="font-semibold tabular-nums">{count.toLocaleString("en-GB")}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      {finished && messages.shown.length > 0 && (
        <>
          <h3 className="mt-4 text-sm font-semibold text-slate-800">Messages</h3>
          <ul className="mt-2 grid gap-1 text-sm text-slate-700" data-testid="run-messages">
            {messages.shown.map((message, index) => (
              <li key={index} className="rounded-md bg-slate-50 px-3 py-1.5 break-words">
                {message}
              </li>
            ))}
            {messages.more && <li className="px-3 py-1.5 text-slate-600">{messages.more}</li>}
          </ul>
        </>
      )}
    </div>
  );
}
