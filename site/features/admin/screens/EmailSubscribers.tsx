/**
 * /admin/email-subscribers: newsletter sign-ups (newest first) with their counts, an export of
 * the active, confirmed addresses as a text file (one per line) and removal of a subscriber.
 * A sign-up waits for its address to be confirmed (double opt-in) before any newsletter goes to it.
 */
import { Download, Mails, Trash } from "../icons.tsx";
import { toast } from "../../toast/toast.store.ts";
import { deleteSubscriber, errorMessage, fetchSubscribers, type EmailSubscriber } from "../admin-api.ts";
import { formatDateTime, timeSince } from "../format.ts";
import { adminPaths } from "../routes.ts";
import { Badge, downloadFile, LoadFailed, PageHeader, useLoad } from "../ui.tsx";

function SkeletonRows() {
  return (
    <ul className="divide-y divide-slate-100" aria-hidden="true" data-testid="subscriber-skeleton">
      {Array.from({ length: 5 }, (_, index) => (
        <li key={index} className="flex items-center gap-4 p-4">
          <div className="grid flex-1 gap-2">
            <div className="h-4 w-56 max-w-full animate-pulse rounded bg-slate-200" />
            <div className="h-3 w-40 max-w-full animate-pulse rounded bg-slate-100" />
          </div>
          <div className="h-6 w-16 animate-pulse rounded-full bg-slate-100" />
        </li>
      ))}
    </ul>
  );
}

/** The list's rows also say whether the address confirmed its sign-up. */

function subscriberBadge(subscriber: EmailSubscriber) {
  if (!subscriber.isActive) return <Badge tone="slate">Inactive</Badge>;
  return subscriber.isConfirmed ? <Badge tone="green">Active</Badge> : <Badge tone="amber">Awaiting confirmation</Badge>;
}

export default function EmailSubscribers() {
  const { state, reload, setData } = useLoad(fetchSubscribers, []);
  const subscribers = state.kind === "ready" ? state.data : [];
  // Only confirmed addresses may be mailed, so only they count as active and are exported.
  const active = subscribers.filter((subscriber) => subscriber.isActive && subscriber.isConfirmed);
  const pending = subscribers.filter((subscriber) => subscriber.isActive && !subscriber.isConfirmed);

  function exportEmails() {
    const text = active.map((subscriber) => subscriber.email).join("\n");
    downloadFile(new Blob([text ? `${text}\n` : ""], { type: "text/plain;charset=utf-8" }), "email-subscribers.txt");
    toast({ title: "Email list exported successfully" });
  }

  async function remove(subscriber: EmailSubscriber) {
    if (!window.confirm(`Remove ${subscriber.email} from the subscribers?`)) return;
    try {
      await deleteSubscriber(subscriber.id);
      setData(subscribers.filter((other) => other.id !== subscriber.id));
      toast({ title: "Email subscriber removed successfully" });
      reload();
    } catch (error) {
      toast({ title: "Failed to remove subscriber", description: errorMessage(error, ""), variant: "destructive" });
    }
  }

  const counters = [
    ["Total", subscribers.length],
    ["Active", active.length],
    ["Awaiting confirmation", pending.length],
    ["Inactive", subscribers.length - active.length - pending.length],
  ] as const;

  return (
    <div>
      <PageHeader
        title="Email Subscribers"
        back={{ href: adminPaths.dashboard, label: "Dashboard" }}
        actions={
          <button type="button" className="btn-primary" onClick={exportEmails} disabled={state.kind !== "ready" || active.length === 0}>
            <Download className="size-4" aria-hidden="true" />
            Export Emails
          </button>
        }
      />
      <dl className="mb-6 grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="subscriber-counts">
        {counters.map(([label, count]) => (
          <div key={label} className="card p-4">
            <dt className="text-sm text-slate-600">{label}</dt>
            <dd className="text-2xl font-bold text-slate-900 tabular-nums">{state.kind === "ready" ? count.toLocaleString("en-GB") : "–"}</dd>
          </div>
        ))}
      </dl>
      {state.kind === "failed" && <LoadFailed message={errorMessage(state.error, "Could not load the subscribers.")} onRetry={reload} />}
      <section className="card" aria-labelledby="subscribers-heading" aria-busy={state.kind === "loading"}>
        <h2 id="subscribers-heading" className="border-b border-slate-200 px-4 py-3 text-base font-semibold text-slate-900">
          Subscribers
        </h2>
        {state.kind === "loading" && (
          <>
            <p role="status" className="sr-only">
              Loading subscribers...
            </p>
            <SkeletonRows />
          </>
        )}
        {state.kind === "ready" && subscribers.length === 0 && (
          <div className="px-4 py-12 text-center">
            <Mails className="mx-auto size-10 text-slate-300" aria-hidden="true" />
            <p className="mt-3 font-semibold text-slate-900">No subscribers yet</p>
            <p className="mt-1 text-sm text-slate-600">Email subscribers will appear here when users sign up for updates.</p>
          </div>
        )}
        {state.kind === "ready" && subscribers.length > 0 && (
          <ul className="divide-y divide-slate-100">
            {subscribers.map((subscriber) => (
              <li key={subscriber.id} className="flex flex-wrap items-center gap-3 px-4 py-3" data-testid="subscriber">
                <div className="min-w-0 flex-1">
                  <p className="font-medium break-all text-slate-900">{subscriber.email}</p>
                  <p className="text-xs text-slate-600">
                    <time dateTime={subscriber.subscribedAt} title={formatDateTime(subscriber.subscribedAt)}>
                      Subscribed {timeSince(subscriber.subscribedAt)} ago
                    </time>
                    {" · "}Source: {subscriber.source}
                  </p>
                </div>
                {subscriberBadge(subscriber)}
                <button type="button" className="btn-ghost px-2 text-red-700 hover:bg-red-50" onClick={() => void remove(subscriber)} aria-label={`Delete ${subscriber.email}`}>
                  <Trash className="size-4" aria-hidden="true" />
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
