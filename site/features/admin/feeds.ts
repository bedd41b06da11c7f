/**
 * The Feeds screen's and the import screen's rules, apart from their UI: what an upload is sent
 * as, how a run's counters read, a mapping guessed from a feed's column names, and a finished
 * run as the import results card shows it.
 */
import { mappableFields, refusalLabels, refusedTotal, type ColumnMapping, type FeedRun, type FeedSourceView, type RefusalReason } from "../../../data/domain/feed-sources.ts";
import type { ImportResult } from "./admin-api.ts";

/** How often a running import is asked for its counters. */
export const runPollMs = 1000;

/**
 * The content type a feed file is uploaded with, from its name (the server takes these raw types).
 * @example uploadContentType("feed.csv.gz") // "application/gzip"
 * @example uploadContentType("Feed.CSV") // "text/csv"
 * @example uploadContentType("export.dat") // "application/octet-stream"
 */
export function uploadContentType(fileName: string): string {
  const name = fileName.toLowerCase();
  if (name.endsWith(".gz")) return "application/gzip";
  if (name.endsWith(".csv")) return "text/csv";
  if (name.endsWith(".tsv")) return "text/tab-separated-values";
  if (name.endsWith(".xml")) return "application/xml";
  return "application/octet-stream";
}

/** The counters of a run in the order they are shown, with their labels. */
export function runCounts(run: FeedRun): { label: string; value: number }[] {
  return [
    { label: "Rows read", value: run.rowsRead },
    { label: "Matched", value: run.matched },
    { label: "Created", value: run.created },
    { label: "Offers added", value: run.offersAdded },
    { label: "Prices changed", value: run.pricesChanged },
    { label: "Held for review", value: run.held },
    { label: "Unmatched", value: run.unmatched },
    { label: "Refused", value: refusedTotal(run.refused) },
  ];
}

/** The refused rows by reason, largest first, in words. */
export function refusalLines(run: Pick<FeedRun, "refused">): { reason: string; count: number }[] {
  return Object.entries(run.refused)
    .filter((entry): entry is [RefusalReason, number] => (entry[1] ?? 0) > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([reason, count]) => ({ reason: refusalLabels[reason] ?? reason, count }));
}

/**
 * One line saying how a run went, for the list.
 * @example runSummary({ status: "succeeded", rowsRead: 120, created: 3, matched: 100, refused: { malformed: 2 } }) // "120 rows: 3 created, 100 matched, 2 refused"
 */
export function runSummary(run: Pick<FeedRun, "status" | "rowsRead" | "created" | "matched" | "refused" | "error">): string {
  if (run.status === "failed") return run.error ?? "Failed";
  const refused = refusedTotal(run.refused);
  const n = (value: number) => value.toLocaleString("en-GB");
  return `${n(run.rowsRead)} rows: ${n(run.created)} created, ${n(run.matched)} matched${refused > 0 ? `, ${n(refused)} refused` : ""}`;
}

/** A finished run as the import results card shows it. */
export function importResultOf(run: FeedRun): ImportResult {
  return {
    success: run.created,
    errors: run.messages,
    totalErrors: run.totalMessages,
    skipped: run.matched + run.unmatched + refusedTotal(run.refused),
    source: { label: run.sourceLabel },
  };
}

/** Column names feeds commonly use for each of our fields (lower case), in the order tried. */
const likelyColumns: Record<(typeof mappableFields)[number], string[]> = {
  name: ["product_name", "title", "name", "product name"],
  price: ["search_price", "price", "store_price", "display_price"],
  link: ["merchant_deep_link", "link", "aw_deep_link", "url", "product_url"],
  currency: ["currency"],
  salePrice: ["sale_price"],
  originalPrice: ["rrp_price", "product_price_old", "original_price"],
  delivery: ["delivery_cost", "shipping"],
  inStock: ["in_stock", "availability", "stock_status"],
  externalId: ["aw_product_id", "id", "merchant_product_id"],
  gtin: ["ean", "gtin", "product_gtin", "upc"],
  mpn: ["mpn"],
  brand: ["brand_name", "brand"],
  image: ["merchant_image_url", "image_link", "image", "aw_image_url"],
  description: ["description"],
  category: ["category_name", "merchant_category", "product_type", "category"],
  merchantName: ["merchant_name"],
  merchantId: ["merchant_id"],
  legalCategory: ["legal_category", "vmd_category", "distribution_category"],
};

/**
 * A first mapping for a feed's columns: each field gets the first column named as feeds usually
 * name it (the admin checks and changes it); the mapping already chosen wins.
 * @example suggestMapping(["Title", "Price", "Link"], {}) // { name: "Title", price: "Price", link: "Link" }
 */
export function suggestMapping(columns: readonly string[], chosen: ColumnMapping | null): ColumnMapping {
  const byLower = new Map(columns.map((column) => [column.trim().toLowerCase(), column]));
  const mapping: ColumnMapping = {};
  for (const field of mappableFields) {
    const current = chosen?.[field];
    if (current && columns.includes(current)) {
      mapping[field] = current;
      continue;
    }
    const match = likelyColumns[field].map((name) => byLower.get(name)).find((column) => column !== undefined);
    if (match) mapping[field] = match;
  }
  return mapping;
}

/** Where a source is read from, as the list shows it: the masked URL or the file's name. */
export function sourceLocation(source: Pick<FeedSourceView, "kind" | "maskedUrl" | "fileName">): string {
  if (source.kind === "url") return source.maskedUrl ?? "";
  return source.fileName ?? "No file uploaded yet";
}
