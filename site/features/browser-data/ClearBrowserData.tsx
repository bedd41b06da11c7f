/**
 * /your-data: shows this browser's anonymous visitor id and clears this browser's data after a
 * confirmation: the server deletes every row of the visitor id, then the browser forgets the id
 * and its other stored data (site/lib/browser/browser-data.ts). Without a visitor id there is
 * nothing on the server, and only the browser's storage is cleared.
 */
import { Trash2 } from "lucide-react";
import { useEffect, useState } from "react";
import { api, ApiError } from "../../lib/api.ts";
import { clearBrowserData } from "../../lib/browser/browser-data.ts";
import { storedVisitorId } from "../../lib/browser/visitor.ts";
import { announceVisitorCountsChanged } from "../../lib/browser/visitor-counts.ts";

/** What the server deleted, by kind (the kinds a visitor id reaches). */
type Deleted = Partial<Record<"favorites" | "recentlyViewed" | "priceAlerts" | "emailConsents" | "emailConfirmations" | "clicks" | "voucherUses" | "profiles" | "recommendations", number>>;

const words: { key: keyof Deleted; one: string; many: string }[] = [
  { key: "favorites", one: "favourite", many: "favourites" },
  { key: "recentlyViewed", one: "recently viewed product", many: "recently viewed products" },
  { key: "priceAlerts", one: "price alert", many: "price alerts" },
  { key: "emailConsents", one: "e-mail address confirmation", many: "e-mail address confirmations" },
  { key: "emailConfirmations", one: "confirmation e-mail record", many: "confirmation e-mail records" },
  { key: "clicks", one: "retailer link record", many: "retailer link records" },
  { key: "voucherUses", one: "voucher use", many: "voucher uses" },
  { key: "profiles", one: "profile", many: "profiles" },
  { key: "recommendations", one: "recommendation", many: "recommendations" },
];

/** "2 favourites, 1 price alert and 3 recently viewed products", or null when nothing was deleted. */
function deletedText(deleted: Deleted): string | null {
  const parts = words.flatMap(({ key, one, many }) => {
    const count = deleted[key] ?? 0;
    return count > 0 ? [`${count.toLocaleString("en-GB")} ${count === 1 ? one : many}`] : [];
  });
  if (parts.length === 0) return null;
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

type State =
  | { kind: "reading" }
  | { kind: "ready"; visitorId: string | null }
  | { kind: "confirming"; visitorId: string | null }
  | { kind: "clearing"; visitorId: string | null }
  | { kind: "failed"; visitorId: string | null; message: string }
  | { kind: "done"; deleted: string | null };

export default function ClearBrowserData() {
  const [state, setState] = useState<State>({ kind: "reading" });

  // Read after hydration: the static page cannot know this browser's id. Reading never makes one.
  useEffect(() => setState({ kind: "ready", visitorId: storedVisitorId() }), []);

  async function clear(visitorId: string | null) {
    setState({ kind: "clearing", visitorId });
    try {
      const deleted = visitorId === null ? {} : (await api.delete<{ deleted: Deleted }>("/api/visitor-data", { userId: visitorId })).deleted;
      // Only once the server has deleted its rows: a failure leaves the browser able to try again with the same id.
      clearBrowserData();
      announceVisitorCountsChanged();
      setState({ kind: "done", deleted: deletedText(deleted) });
    } catch (error) {
      const message = error instanceof ApiError ? (error.error ?? "The server could not delete your data.") : "We could not reach the server.";
      setState({ kind: "failed", visitorId, message: `${message} Nothing was deleted; please try again.` });
    }
  }

  if (state.kind === "reading") return <p className="text-sm text-slate-600">Reading this browser's data...</p>;

  if (state.kind === "done") {
    return (
      <div role="status" className="rounded-lg border border-emerald-200 bg-emerald-50 p-4 text-sm text-emerald-950" data-testid="browser-data-cleared">
        <p className="font-semibold">This browser's data has been cleared.</p>
        <p className="mt-1">
          {state.deleted ? `Deleted from our server: ${state.deleted}.` : "Our server held nothing for this browser."} This browser no longer has a visitor
          id; a new one is made if you save something again.
        </p>
      </div>
    );
  }

  const { visitorId } = state;
  return (
    <div className="grid gap-4">
      <p className="text-sm text-slate-700" data-testid="browser-visitor-id">
        {visitorId ? (
          <>
            This browser's visitor id: <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.9em] break-all text-slate-800">{visitorId}</code>
          </>
        ) : (
          "This browser has no visitor id, so our server holds nothing for it."
        )}
      </p>
      {state.kind === "failed" && (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900">
          {state.message}
        </p>
      )}
      {state.kind === "confirming" || state.kind === "clearing" ? (
        <div role="alertdialog" aria-labelledby="clear-confirm-title" aria-describedby="clear-confirm-text" className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-950">
          <p id="clear-confirm-title" className="font-semibold">
            Delete this browser's data now?
          </p>
          <p id="clear-confirm-text" className="mt-1">
            Everything listed above goes for good, from our server and from this browser. This cannot be undone.
          </p>
          <div className="mt-3 flex flex-wrap gap-2">
            <button type="button" className="btn bg-red-700 text-white hover:bg-red-800" onClick={() => void clear(visitorId)} disabled={state.kind === "clearing"} autoFocus>
              <Trash2 className="size-4" aria-hidden="true" />
              Yes, delete it
            </button>
            <button type="button" className="btn-outline" onClick={() => setState({ kind: "ready", visitorId })} disabled={state.kind === "clearing"}>
              Cancel
            </button>
          </div>
        </div>
      ) : (
        <div>
          <button type="button" className="btn border border-red-200 bg-white text-red-700 hover:bg-red-50" onClick={() => setState({ kind: "confirming", visitorId })}>
            <Trash2 className="size-4" aria-hidden="true" />
            Clear this browser's data
          </button>
        </div>
      )}
    </div>
  );
}
