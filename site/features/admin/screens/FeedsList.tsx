/**
 * /admin/feeds: every product feed source (the configured AWIN_FEED_URL feed first, read-only)
 * with where it is read from (a URL masked), its layout, the retailer it feeds or "By merchant
 * column", whether it creates products, its schedule and its last run. Run now starts a run in
 * the background; its live counters show above the list until it ends.
 */
import { useState } from "react";
import { feedLayoutLabels, isFinished, type FeedRun, type FeedSourceView } from "../../../../data/domain/feed-sources.ts";
import { toast } from "../../toast/toast.store.ts";
import { deleteFeedSource, describeError, errorMessage, fetchFeedSources, fetchRetailers, startFeedRun } from "../admin-api.ts";
import { runSummary, sourceLocation } from "../feeds.ts";
import { formatDateTime } from "../format.ts";
import { CirclePlus, Play, SquarePen, Trash } from "../icons.tsx";
import { adminPaths } from "../routes.ts";
import { RunProgress, RunStatusBadge, useRun } from "../RunProgress.tsx";
import { AdminLink, Badge, Card, LoadFailed, Loading, PageHeader, Table, Td, Th, useLoad } from "../ui.tsx";

async function loadFeeds() {
  const [sources, retailers] = await Promise.all([fetchFeedSources(), fetchRetailers()]);
  return { sources, retailerNames: new Map(retailers.map((retailer) => [retailer.key, retailer.name])) };
}

export default function FeedsList() {
  const { state, reload } = useLoad(loadFeeds, []);
  const [started, setStarted] = useState<FeedRun | null>(null);
  const [starting, setStarting] = useState<FeedSourceView["id"] | null>(null);
  const { run } = useRun(started, (finished) => {
    toast(
      finished.status === "succeeded"
        ? { title: `Import of ${finished.sourceLabel} finished`, description: runSummary(finished) }
        : { title: "Import failed", description: finished.error ?? "", variant: "destructive" },
    );
    reload();
  });

  async function runNow(source: FeedSourceView) {
    setStarting(source.id);
    try {
      setStarted((await startFeedRun(source.id)).run);
      toast({ title: `Import of ${source.name} started` });
      reload();
    } catch (error) {
      toast({ title: "The import did not start", description: errorMessage(error, "Please try again."), variant: "destructive" });
    } finally {
      setStarting(null);
    }
  }

  async function remove(source: FeedSourceView) {
    if (typeof source.id !== "number" || !window.confirm(`Are you sure you want to delete the feed "${source.name}"?`)) return;
    try {
      await deleteFeedSource(source.id);
      toast({ title: "Feed deleted" });
      reload();
    } catch (error) {
      toast({ title: "Failed to delete the feed", description: errorMessage(error, "Please try again."), variant: "destructive" });
    }
  }

  return (
    <div>
      <PageHeader
        title="Feeds"
        description="Product feeds from affiliate networks and retailers: where each is read from, how, and when."
        back={{ href: adminPaths.dashboard, label: "Dashboard" }}
        actions={
          <AdminLink href={adminPaths.newFeed} className="btn-primary">
            <CirclePlus className="size-4" aria-hidden="true" />
            Add feed
          </AdminLink>
        }
      />
      {run && (
        <Card aria-labelledby="live-run-heading" className="mb-6">
          <h2 id="live-run-heading" className="mb-3 text-lg font-semibold text-slate-900">
            {isFinished(run.status) ? "Last import" : "Importing"}
          </h2>
          <RunProgress run={run} />
        </Card>
      )}
      {state.kind === "loading" && <Loading label="Loading feeds..." />}
      {state.kind === "failed" && <LoadFailed message={`Error loading feeds: ${describeError(state.error)}`} onRetry={reload} />}
      {state.kind === "ready" && state.data.sources.length === 0 && (
        <div className="card p-8 text-center text-slate-600">No feeds yet. Add one with its download link or a file.</div>
      )}
      {state.kind === "ready" && state.data.sources.length > 0 && (
        // Phones get one card per feed; wider screens the table.
        <ul className="card divide-y divide-slate-100 md:hidden" aria-label="Feed sources">
          {state.data.sources.map((source) => (
            <li key={source.id} className="grid gap-2 p-4 text-sm" data-testid="feed-card">
              <div>
                <span className="block font-semibold text-slate-900">{source.name}</span>
                <span className="mt-0.5 block text-xs break-all text-slate-600">{sourceLocation(source)}</span>
                {source.readOnly && (
                  <span className="mt-1 inline-block">
                    <Badge tone="slate">Read-only: set in the server's environment</Badge>
                  </span>
                )}
              </div>
              <dl className="grid grid-cols-2 gap-x-3 gap-y-1 text-xs">
                <dt className="text-slate-600">Layout</dt>
                <dd className="text-slate-900">{feedLayoutLabels[source.layout]}</dd>
                <dt className="text-slate-600">Retailer</dt>
                <dd className="text-slate-900">{retailerText(source, state.data.retailerNames)}</dd>
                <dt className="text-slate-600">Creates products</dt>
                <dd className="text-slate-900">{source.createProducts ? "Yes" : "No"}</dd>
                <dt className="text-slate-600">Schedule</dt>
                <dd className="text-slate-900">{source.schedule ? `${source.schedule}${source.enabled ? "" : " (paused)"}` : "By hand"}</dd>
              </dl>
              <div data-testid="feed-last-run">
                <LastRun source={source} />
              </div>
              <div className="-ml-2 flex flex-wrap">
                <FeedActions source={source} disabled={starting !== null} onRun={runNow} onDelete={remove} />
              </div>
            </li>
          ))}
        </ul>
      )}
      {state.kind === "ready" && state.data.sources.length > 0 && (
        <div className="hidden md:block">
          <Table
            caption="Feed sources"
            minWidth="64rem"
            head={
              <tr>
                <Th>Feed</Th>
                <Th>Layout</Th>
                <Th>Retailer</Th>
                <Th>Creates products</Th>
                <Th>Schedule</Th>
                <Th>Last run</Th>
                <Th className="text-right">Actions</Th>
              </tr>
            }
          >
            {state.data.sources.map((source) => (
              <tr key={source.id} className="align-top hover:bg-slate-50" data-testid="feed-row">
                <Td>
                  <span className="block font-semibold text-slate-900">{source.name}</span>
                  <span className="mt-0.5 block max-w-72 text-xs break-all text-slate-600">{sourceLocation(source)}</span>
                  {source.readOnly && (
                    <span className="mt-1 inline-block">
                      <Badge tone="slate">Read-only: set in the server's environment</Badge>
                    </span>
                  )}
                </Td>
                <Td>{feedLayoutLabels[source.layout]}</Td>
                <Td>{retailerText(source, state.data.retailerNames)}</Td>
                <Td>{source.createProducts ? "Yes" : "No"}</Td>
                <Td>
                  {source.schedule ? <code className="rounded bg-slate-100 px-1.5 py-0.5 text-xs">{source.schedule}</code> : "By hand"}
                  {source.schedule && !source.enabled && <span className="mt-1 block text-xs text-slate-600">Paused</span>}
                  {source.nextRunAt && <span className="mt-1 block text-xs text-slate-600">Next {formatDateTime(source.nextRunAt)}</span>}
                </Td>
                <Td data-testid="feed-last-run">
                  <LastRun source={source} />
                </Td>
                <Td className="text-right whitespace-nowrap">
                  <FeedActions source={source} disabled={starting !== null} onRun={runNow} onDelete={remove} />
                </Td>
              </tr>
            ))}
          </Table>
        </div>
      )}
    </div>
  );
}

function retailerText(source: FeedSourceView, names: Map<string, string>): string {
  return source.retailerKey ? (names.get(source.retailerKey) ?? source.retailerKey) : "By merchant column";
}

function LastRun({ source }: { source: FeedSourceView }) {
  if (!source.lastRun) return <>Never run</>;
  return (
    <>
      <RunStatusBadge status={source.lastRun.status} />
      <span className="mt-1 block text-xs text-slate-600">{formatDateTime(source.lastRun.finishedAt ?? source.lastRun.queuedAt)}</span>
      <span className="mt-0.5 block max-w-60 text-xs break-words text-slate-700">{runSummary(source.lastRun)}</span>
    </>
  );
}

function FeedActions(props: { source: FeedSourceView; disabled: boolean; onRun: (source: FeedSourceView) => void; onDelete: (source: FeedSourceView) => void }) {
  const { source } = props;
  return (
    <>
      <button type="button" className="btn-ghost px-2" disabled={props.disabled} onClick={() => props.onRun(source)} aria-label={`Run now: ${source.name}`}>
        <Play className="size-4" aria-hidden="true" />
        Run now
      </button>
      {typeof source.id === "number" && (
        <>
          <AdminLink href={adminPaths.editFeed(source.id)} className="btn-ghost px-2" aria-label={`Edit ${source.name}`}>
            <SquarePen className="size-4" aria-hidden="true" />
            Edit
          </AdminLink>
          <button type="button" className="btn-ghost px-2 text-red-700 hover:bg-red-50" onClick={() => props.onDelete(source)} aria-label={`Delete ${source.name}`}>
            <Trash className="size-4" aria-hidden="true" />
            Delete
          </button>
        </>
      )}
    </>
  );
}
