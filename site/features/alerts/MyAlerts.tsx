import { BellOff, Trash2 } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import { formatPrice } from "../../../data/domain/display.ts";
import { homePath, productPath } from "../../../data/domain/paths.ts";
import { metStatuses, type AlertKind, type AlertStatus as AlertStatusText } from "../../../data/domain/alerts.ts";
import { api, ApiError } from "../../lib/api.ts";
import { getVisitorId } from "../../lib/browser/visitor.ts";
import { announceVisitorCountsChanged } from "../../lib/browser/visitor-counts.ts";
import { cn } from "../../lib/cn.ts";
import { toast } from "../toast/toast.store.ts";

interface Alert {
  id: number;
  /** Only for a target-price alert. */
  targetPrice: number | null;
  email: string;
  status: AlertStatusText;
  /** Nothing is mailed until the address is confirmed with the link we sent. */
  state: "pending_confirmation" | "active";
  product: { name: string; slug: string; bestPrice: number | null };
  kind: AlertKind;
  /** What the alert waits for, in words: "a drop of 10% from £20.00, to £18.00 or less", "back in stock". */
  condition: string;
}

/** A status that is good news (the condition holds now): each kind's met status. */
const goodNews: ReadonlySet<AlertStatusText> = metStatuses;

/** The target price, or for the other kinds their condition in words ("Back in stock"). */
function AlertCondition({ alert }: { alert: Alert }) {
  if (alert.kind === "target" && alert.targetPrice !== null) return <>{formatPrice(alert.targetPrice)}</>;
  return <span data-testid="alert-condition">{alert.condition.charAt(0).toUpperCase() + alert.condition.slice(1)}</span>;
}

function AlertStatus({ alert }: { alert: Alert }) {
  if (alert.state === "pending_confirmation") {
    return (
      <span className="rounded-full bg-slate-100 px-2.5 py-1 text-xs font-semibold text-slate-800" data-testid="alert-pending-confirmation">
        Waiting for you to confirm your e-mail
      </span>
    );
  }
  return (
    <span
      className={cn(
        "rounded-full px-2.5 py-1 text-xs font-semibold",
        goodNews.has(alert.status) ? "bg-emerald-100 text-emerald-800" : "bg-amber-100 text-amber-900",
      )}
    >
      {alert.status}
    </span>
  );
}

function DeleteButton({ alert, onDelete }: { alert: Alert; onDelete: (alert: Alert) => Promise<void> }) {
  return (
    <button type="button" className="btn-ghost px-2 py-1 text-red-700" onClick={() => void onDelete(alert)} aria-label={`Delete the alert for ${alert.product.name}`}>
      <Trash2 className="size-4" aria-hidden="true" /> Delete
    </button>
  );
}

type State = { kind: "loading" } | { kind: "failed" } | { kind: "ready"; alerts: Alert[] };

/** /my-alerts: the visitor's alerts with live status; delete after confirming. */
export default function MyAlerts() {
  const [state, setState] = useState<State>({ kind: "loading" });

  const load = useCallback(() => {
    setState({ kind: "loading" });
    api
      .get<Alert[]>("/api/price-alerts", { userId: getVisitorId() })
      .then((alerts) => setState({ kind: "ready", alerts }))
      .catch((error) => {
        console.error("Failed to fetch price alerts", error);
        setState({ kind: "failed" });
      });
  }, []);
  useEffect(load, [load]);

  const remove = async (alert: Alert) => {
    if (!window.confirm("Are you sure you want to delete this price alert?")) return;
    try {
      await api.delete(`/api/price-alerts/${alert.id}`, { userId: getVisitorId() });
      announceVisitorCountsChanged();
      toast({ title: "Price alert deleted", description: "Your price alert has been removed successfully." });
      load();
    } catch (error) {
      const message = error instanceof ApiError ? (error.error ?? error.message) : String(error);
      toast({ title: "Failed to delete price alert", description: message, variant: "destructive" });
    }
  };

  if (state.kind === "loading") {
    return (
      <p className="py-12 text-center text-slate-600" role="status">
        Loading your price alerts...
      </p>
    );
  }
  if (state.kind === "failed") {
    return (
      <div className="card py-12 text-center" role="alert">
        <p className="font-semibold text-slate-900">Failed to load your price alerts</p>
        <button type="button" className="btn-primary mt-4" onClick={load}>
          Try Again
        </button>
      </div>
    );
  }
  if (state.alerts.length === 0) {
    return (
      <div className="card py-12 text-center">
        <BellOff className="mx-auto size-10 text-slate-400" aria-hidden="true" />
        <p className="mt-3 text-lg font-semibold text-slate-900">No Price Alerts Set</p>
        <p className="mt-1 text-slate-600">Set an alert on any product page and we'll e-mail you when the price drops.</p>
        <a href={homePath} className="btn-primary mt-5">
          Browse Products
        </a>
      </div>
    );
  }
  return (
    <>
      {/* Phones: one card per alert, Delete in reach without scrolling sideways. */}
      <ul className="space-y-3 md:hidden" aria-label="Your price alerts" data-testid="alerts-list">
        {state.alerts.map((alert) => (
          <li key={alert.id} className="card p-4" data-testid="alert-card">
            <a href={productPath(alert.product.slug)} className="font-medium text-slate-900 hover:text-brand-700 hover:underline">
              {alert.product.name}
            </a>
            <p className="text-xs break-all text-slate-600">{alert.email}</p>
            <dl className="mt-3 grid grid-cols-2 gap-3 text-sm">
              <div>
                <dt className="text-xs text-slate-600">Current price</dt>
                <dd className="font-semibold tabular-nums">{formatPrice(alert.product.bestPrice, "N/A")}</dd>
              </div>
              <div>
                <dt className="text-xs text-slate-600">{alert.kind === "target" ? "Target price" : "Alert when"}</dt>
                <dd className="tabular-nums">
                  <AlertCondition alert={alert} />
                </dd>
              </div>
            </dl>
            <div className="mt-3 flex flex-wrap items-center justify-between gap-2">
              <AlertStatus alert={alert} />
              <DeleteButton alert={alert} onDelete={remove} />
            </div>
          </li>
        ))}
      </ul>
      <div className="card hidden overflow-x-auto md:block">
        <table className="w-full min-w-[40rem] text-left text-sm" data-testid="alerts-table">
          <caption className="sr-only">Your price alerts</caption>
          <thead className="border-b border-slate-200 bg-slate-50 text-xs tracking-wide text-slate-600 uppercase">
            <tr>
              <th scope="col" className="px-4 py-3">
                Product
              </th>
              <th scope="col" className="px-4 py-3">
                Current Price
              </th>
              <th scope="col" className="px-4 py-3">
                {state.alerts.every((alert) => alert.kind === "target") ? "Target Price" : "Target Price / Alert When"}
              </th>
              <th scope="col" className="px-4 py-3">
                Status
              </th>
              <th scope="col" className="px-4 py-3">
                Actions
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {state.alerts.map((alert) => (
              <tr key={alert.id}>
                <td className="px-4 py-3">
                  <a href={productPath(alert.product.slug)} className="font-medium text-slate-900 hover:text-brand-700 hover:underline">
                    {alert.product.name}
                  </a>
                  <p className="text-xs text-slate-600">{alert.email}</p>
                </td>
                <td className="px-4 py-3 font-semibold tabular-nums">{formatPrice(alert.product.bestPrice, "N/A")}</td>
                <td className="px-4 py-3 tabular-nums">
                  <AlertCondition alert={alert} />
                </td>
                <td className="px-4 py-3">
                  <AlertStatus alert={alert} />
                </td>
                <td className="px-4 py-3">
                  <DeleteButton alert={alert} onDelete={remove} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
