/**
 * /admin/price-review: prices a check found too far from the published price (beyond the hold
 * factor), so they were held instead of published. Each can be accepted (published now) or
 * rejected (the published price stays); a decided row leaves the list. Phones get one card per
 * held price, wider screens a table.
 */
import { useRef, useState } from "react";
import { formatPrice } from "../../../../data/domain/display.ts";
import { toast } from "../../toast/toast.store.ts";
import { acceptPriceHold, errorMessage, fetchPriceHolds, rejectPriceHold, type HoldDecision, type PriceHold } from "../admin-api.ts";
import { formatDateTime } from "../format.ts";
import { ArrowUpRight, CircleCheckBig, CircleX, RefreshCw } from "../icons.tsx";
import { decisionFailedToast, decisionToast, holdRule, holdSettled, priceChange, sourceLabel } from "../price-pipeline.ts";
import { adminPaths } from "../routes.ts";
import { AdminLink, Badge, LoadFailed, Loading, PageHeader, Table, Td, Th, useLoad } from "../ui.tsx";

const send: Record<HoldDecision, (id: number) => Promise<unknown>> = { accept: acceptPriceHold, reject: rejectPriceHold };

export default function PriceReview() {
  const { state, reload } = useLoad(fetchPriceHolds, []);
  /** Holds decided here (or found already decided): hidden until the next load drops them. */
  const [settled, setSettled] = useState<ReadonlySet<number>>(new Set());
  /** The decision being sent for each hold. */
  const [pending, setPending] = useState<ReadonlyMap<number, HoldDecision>>(new Map());
  const status = useRef<HTMLParagraphElement>(null);

  function settle(id: number) {
    setSettled((previous) => new Set(previous).add(id));
    // The focused button went with its row: keep the keyboard user on the page, at the count.
    requestAnimationFrame(() => {
      if (document.activeElement === document.body || !document.activeElement?.isConnected) status.current?.focus();
    });
  }

  async function decide(hold: PriceHold, decision: HoldDecision) {
    setPending((previous) => new Map(previous).set(hold.id, decision));
    try {
      await send[decision](hold.id);
      settle(hold.id);
      toast(decisionToast(decision, hold));
    } catch (error) {
      if (holdSettled(error)) settle(hold.id);
      toast(decisionFailedToast(decision, error));
    } finally {
      setPending((previous) => {
        const next = new Map(previous);
        next.delete(hold.id);
        return next;
      });
    }
  }

  const data = state.kind === "ready" ? state.data : null;
  const holds = data ? data.holds.filter((hold) => !settled.has(hold.id)) : [];

  return (
    <div>
      <PageHeader
        title="Price Review"
        description="Prices that moved too far at the last checks wait here instead of going live."
        back={{ href: adminPaths.dashboard, label: "Dashboard" }}
        actions={
          <button type="button" className="btn-outline" onClick={reload} disabled={state.kind === "loading"}>
            <RefreshCw className="size-4" aria-hidden="true" />
            Refresh
          </button>
        }
      />
      {state.kind === "loading" && <Loading label="Loading held prices..." />}
      {state.kind === "failed" && <LoadFailed message={errorMessage(state.error, "Could not load the held prices.")} onRetry={reload} />}
      {data && (
        <>
          <div className={holds.length === 0 ? "card p-8 text-center" : "mb-4"} data-testid="price-review-summary">
            <p ref={status} tabIndex={-1} className="font-medium text-slate-900 outline-none">
              {holds.length === 0 ? "No prices are waiting for review." : `${holds.length} price${holds.length === 1 ? " is" : "s are"} waiting for review.`}
            </p>
            <p className="mt-1 text-sm text-slate-600">{holdRule(data.factor)}</p>
          </div>
          {holds.length > 0 && (
            <>
              <HoldCards holds={holds} pending={pending} onDecide={decide} />
              <HoldTable holds={holds} pending={pending} onDecide={decide} />
            </>
          )}
        </>
      )}
    </div>
  );
}

interface HoldListProps {
  holds: PriceHold[];
  pending: ReadonlyMap<number, HoldDecision>;
  onDecide: (hold: PriceHold, decision: HoldDecision) => void;
}

/** A held first offer at a retailer: compared with the product's best price, and accepting adds it. */
function NewOfferNote({ hold }: { hold: PriceHold }) {
  return (
    <>
      {hold.newOffer && <span className="block text-xs font-medium text-amber-800">New offer, against the best price</span>}
      {hold.reason !== null && <span className="block text-xs text-amber-800">Held: {hold.reason}</span>}
    </>
  );
}

/** What the decision buttons act on, read out after their names. */
function holdSummary(hold: PriceHold): string {
  const published = hold.publishedPrice === null ? "no published price" : formatPrice(hold.publishedPrice);
  return `${hold.product.name} at ${hold.retailer.name}: ${published} to ${formatPrice(hold.heldPrice)}`;
}

function DecisionButtons({
  hold,
  pending,
  describedBy,
  onDecide,
}: {
  hold: PriceHold;
  pending: HoldDecision | undefined;
  describedBy: string;
  onDecide: HoldListProps["onDecide"];
}) {
  return (
    <div className="flex flex-wrap gap-2 md:flex-nowrap md:justify-end">
      <span id={describedBy} className="sr-only">
        {holdSummary(hold)}
      </span>
      <button type="button" className="btn-primary" disabled={pending !== undefined} aria-describedby={describedBy} onClick={() => onDecide(hold, "accept")}>
        <CircleCheckBig className="size-4" aria-hidden="true" />
        {pending === "accept" ? "Accepting..." : "Accept"}
      </button>
      <button type="button" className="btn-outline" disabled={pending !== undefined} aria-describedby={describedBy} onClick={() => onDecide(hold, "reject")}>
        <CircleX className="size-4" aria-hidden="true" />
        {pending === "reject" ? "Rejecting..." : "Reject"}
      </button>
    </div>
  );
}

function PageLink({ hold }: { hold: PriceHold }) {
  return (
    <a href={hold.url} target="_blank" rel="noopener" className="inline-flex items-center gap-1 font-medium whitespace-nowrap text-brand-700 hover:underline" title={hold.url}>
      View page
      <ArrowUpRight className="size-3.5" aria-hidden="true" />
      <span className="sr-only">
        {" "}
        of {hold.product.name} at {hold.retailer.name} (opens in a new tab)
      </span>
    </a>
  );
}

function Observed({ hold }: { hold: PriceHold }) {
  return (
    <>
      <time dateTime={hold.observedAt}>{formatDateTime(hold.observedAt)}</time>
      <span className="block text-xs text-slate-500">{sourceLabel(hold.source)}</span>
    </>
  );
}

function HeldPrice({ hold }: { hold: PriceHold }) {
  return (
    <>
      <span className="font-semibold text-slate-900 tabular-nums">{formatPrice(hold.heldPrice)}</span>
      {hold.inStock === false && (
        <span className="mt-1 block whitespace-nowrap">
          <Badge tone="red">Out of stock</Badge>
        </span>
      )}
    </>
  );
}

function HoldCards({ holds, pending, onDecide }: HoldListProps) {
  return (
    <ul className="card divide-y divide-slate-100 md:hidden" aria-label="Prices held for review">
      {holds.map((hold) => (
        <li key={hold.id} className="grid gap-3 p-4" data-testid="price-hold-card">
          <div>
            <AdminLink href={adminPaths.editProduct(hold.product.id)} className="font-medium break-words text-slate-900 hover:underline">
              {hold.product.name}
            </AdminLink>
            <p className="text-sm text-slate-600">
              {hold.retailer.name}
              <NewOfferNote hold={hold} />
            </p>
          </div>
          <dl className="grid grid-cols-3 gap-2 text-sm">
            <div>
              <dt className="text-xs text-slate-600">Published</dt>
              <dd className="tabular-nums">{formatPrice(hold.publishedPrice, "N/A")}</dd>
            </div>
            <div>
              <dt className="text-xs text-slate-600">Held</dt>
              <dd>
                <HeldPrice hold={hold} />
              </dd>
            </div>
            <div>
              <dt className="text-xs text-slate-600">Change</dt>
              <dd className="font-semibold tabular-nums">{priceChange(hold.publishedPrice, hold.heldPrice)}</dd>
            </div>
          </dl>
          <div className="flex flex-wrap items-end justify-between gap-2 text-sm text-slate-600">
            <div>
              Observed <Observed hold={hold} />
            </div>
            <PageLink hold={hold} />
          </div>
          <DecisionButtons hold={hold} pending={pending.get(hold.id)} describedBy={`hold-${hold.id}-card`} onDecide={onDecide} />
        </li>
      ))}
    </ul>
  );
}

function HoldTable({ holds, pending, onDecide }: HoldListProps) {
  return (
    <div className="hidden md:block">
      <Table
        caption="Prices held for review"
        minWidth="56rem"
        head={
          <tr>
            <Th>Product</Th>
            <Th>Retailer</Th>
            <Th className="text-right">Published</Th>
            <Th className="text-right">Held</Th>
            <Th className="text-right">Change</Th>
            <Th>Observed</Th>
            <Th>
              <span className="sr-only">Decision</span>
            </Th>
          </tr>
        }
      >
        {holds.map((hold) => (
          <tr key={hold.id} className="hover:bg-slate-50" data-testid="price-hold-row">
            <th scope="row" className="max-w-64 min-w-44 px-3 py-3 pl-4 text-left align-middle font-medium text-slate-900">
              <AdminLink href={adminPaths.editProduct(hold.product.id)} className="hover:text-brand-700 hover:underline">
                {hold.product.name}
              </AdminLink>
            </th>
            <Td className="min-w-32">
              {hold.retailer.name}
              <NewOfferNote hold={hold} />
              <span className="block text-xs">
                <PageLink hold={hold} />
              </span>
            </Td>
            <Td className="text-right tabular-nums">{formatPrice(hold.publishedPrice, "N/A")}</Td>
            <Td className="text-right whitespace-nowrap">
              <HeldPrice hold={hold} />
            </Td>
            <Td className="text-right font-semibold whitespace-nowrap tabular-nums">{priceChange(hold.publishedPrice, hold.heldPrice)}</Td>
            <Td className="whitespace-nowrap text-slate-700">
              <Observed hold={hold} />
            </Td>
            <Td className="text-right">
              <DecisionButtons hold={hold} pending={pending.get(hold.id)} describedBy={`hold-${hold.id}-row`} onDecide={onDecide} />
            </Td>
          </tr>
        ))}
      </Table>
    </div>
  );
}
