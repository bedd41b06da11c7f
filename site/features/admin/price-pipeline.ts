/**
 * Wording for the price pipeline's admin screens, apart from their UI: held prices on
 * /admin/price-review and the last price refresh on /admin/analytics.
 */
import { formatPrice } from "../../../data/domain/display.ts";
import { fromPounds } from "../../../data/domain/money.ts";
import { ApiError } from "../../lib/api.ts";
import type { toast } from "../toast/toast.store.ts";
import type { HoldDecision, HoldFactor, PriceHold, PriceRefreshRun } from "./admin-api.ts";
import { formatDuration } from "./format.ts";

type ToastInput = Parameters<typeof toast>[0];

/**
 * How far the held price is from the published one, as a whole percentage with its sign (a
 * true minus sign); "—" without a published price to compare with.
 * @example priceChange(10, 2.8) // "−72%"
 * @example priceChange(10, 41) // "+310%"
 * @example priceChange(null, 5) // "—"
 */
export function priceChange(published: number | null, held: number): string {
  if (published === null || !(published > 0) || !Number.isFinite(held)) return "—";
  // In pence, so float noise (0.1 + 0.2) cannot tip a half-percent either way.
  const publishedPence = fromPounds(published);
  const percent = Math.round(((fromPounds(held) - publishedPence) / publishedPence) * 100);
  if (percent > 0) return `+${percent}%`;
  return percent < 0 ? `\u2212${-percent}%` : "0%";
}

/** A factor as a whole percentage: 0.4 gives 40. */
const percentOf = (factor: number) => Math.round(factor * 100);

/**
 * The hold rule in one sentence, from the server's factors.
 * @example holdRule({ below: 0.4, above: 2.5 }) // "A new price below 40% or above 250% of the published price is held here for review instead of being published."
 */
export function holdRule(factor: HoldFactor): string {
  return `A new price below ${percentOf(factor.below)}% or above ${percentOf(factor.above)}% of the published price is held here for review instead of being published.`;
}

/**
 * Where a held price was read.
 * @example sourceLabel("page") // "Retailer page"
 * @example sourceLabel("feed:sample") // "Feed: sample"
 */
export function sourceLabel(source: string): string {
  if (source === "page") return "Retailer page";
  if (source.startsWith("feed:")) return `Feed: ${source.slice("feed:".length)}`;
  return source;
}

/** The toast after a decision on a held price went through. */
export function decisionToast(decision: HoldDecision, hold: Pick<PriceHold, "product" | "retailer" | "publishedPrice" | "heldPrice">): ToastInput {
  if (decision === "accept") {
    return { title: "Price accepted", description: `Published ${formatPrice(hold.heldPrice)} at ${hold.retailer.name} for ${hold.product.name}` };
  }
  return {
    title: "Price rejected",
    description: hold.publishedPrice === null ? `Nothing new published at ${hold.retailer.name}` : `Kept ${formatPrice(hold.publishedPrice)} at ${hold.retailer.name}`,
  };
}

/** The toast when a decision failed, with the server's message when it sent one. */
export function decisionFailedToast(decision: HoldDecision, error: unknown): ToastInput {
  const reason = error instanceof ApiError ? error.error : undefined;
  return {
    title: decision === "accept" ? "Could not accept the price" : "Could not reject the price",
    description: reason ?? "Please try again.",
    variant: "destructive",
  };
}

/** Whether a failed decision means the hold is no longer waiting (gone, or reviewed elsewhere). */
export function holdSettled(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 409);
}

export const refreshResults = {
  running: { tone: "slate", text: "Running" },
  succeeded: { tone: "green", text: "Succeeded" },
  partial: { tone: "amber", text: "Partial" },
  failed: { tone: "red", text: "Failed" },
} as const;

const count = (value: number) => value.toLocaleString("en-GB");

/**
 * A price refresh run's counts in one line (its time taken once it finished).
 * @example refreshSummary({ checked: 120, changed: 14, held: 2, failed: 1, durationMs: 72_000, ... }) // "checked 120 · changed 14 · held 2 · failed 1 · took 1 min 12 s"
 */
export function refreshSummary(run: Pick<PriceRefreshRun, "checked" | "changed" | "held" | "failed" | "durationMs">): string {
  const counts = `checked ${count(run.checked)} · changed ${count(run.changed)} · held ${count(run.held)} · failed ${count(run.failed)}`;
  return run.durationMs === null ? counts : `${counts} · took ${formatDuration(run.durationMs)}`;
}
