/**
 * The import screen's rules, apart from its UI: which toast a run raises and how the skipped
 * products are listed.
 */
import { ApiError } from "../../lib/api.ts";
import type { ImportResult } from "./admin-api.ts";
import type { toast } from "../toast/toast.store.ts";

type ToastInput = Parameters<typeof toast>[0];

/** At most this many skipped-product messages are listed; the rest are counted. */
export const shownSkippedMessages = 5;

/** How many rows were skipped with a message; the server may send fewer messages than that. */
export function skippedCount(result: Pick<ImportResult, "errors" | "totalErrors">): number {
  return Math.max(result.totalErrors, result.errors.length);
}

/**
 * The first 5 skipped-product messages, and the line for the rest.
 * @example skippedList({ errors: ["a", "b"], totalErrors: 2 }) // { shown: ["a", "b"], more: null }
 * @example skippedList({ errors: ["a", "b", "c", "d", "e", "f"], totalErrors: 140 }) // { shown: ["a", ..., "e"], more: "... and 135 more" }
 */
export function skippedList(result: Pick<ImportResult, "errors" | "totalErrors">): { shown: string[]; more: string | null } {
  const shown = result.errors.slice(0, shownSkippedMessages);
  const rest = skippedCount(result) - shown.length;
  return { shown, more: rest > 0 ? `... and ${rest} more` : null };
}

/**
 * The toast after a run: the count imported, or, when anything was skipped, how many.
 * @example importToast({ success: 20, errors: [], totalErrors: 0 }) // { title: "Successfully imported 20 products from Amazon Best Sellers" }
 */
export function importToast(result: Pick<ImportResult, "success" | "errors" | "totalErrors">): ToastInput {
  const skipped = skippedCount(result);
  if (skipped > 0) return { title: "Some Products Skipped", description: `${skipped} products were skipped (likely already exist)` };
  return { title: `Successfully imported ${result.success} products from Amazon Best Sellers` };
}

export const importFailedText = "Failed to import products. Please try again.";

/**
 * Why a run failed, in words. The server's own message when it refused the run (a 4xx, 503 when
 * the product source is not configured, 502 when the source's API refused); otherwise the general
 * text, since a crash's message means nothing to the admin.
 */
export function importFailureMessage(error: unknown): string {
  if (error instanceof ApiError && error.error && ((error.status >= 400 && error.status < 500) || error.status === 502 || error.status === 503)) return error.error;
  return importFailedText;
}

export function importFailedToast(error: unknown): ToastInput {
  return { title: "Import Failed", description: importFailureMessage(error), variant: "destructive" };
}
