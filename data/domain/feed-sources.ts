/**
 * Feed sources and their import runs as the API and the admin's Feeds screen see them: the
 * layouts with their labels, the fields a mapped feed needs, the reasons a row is refused, and
 * how a source's download URL is shown (masked: it holds the network's API key). Pure, no zod:
 * the admin island imports it; the input schema is in feed-sources.schema.ts.
 */
import type { FeedField, FeedLayout } from "../feeds/read-feed.ts";

/** Each layout the reader knows, with what the admin reads in the layout select. "auto" detects it. */
export const feedLayoutLabels = {
  auto: "Detect from the file",
  "awin-publisher": "Awin publisher feed",
  "awin-merchant": "Awin merchant feed",
  "google-merchant": "Google Merchant Center feed",
  mapped: "Mapped columns",
} as const satisfies Record<FeedLayout | "auto", string>;
export type FeedLayoutChoice = keyof typeof feedLayoutLabels;
export const feedLayoutChoices = Object.keys(feedLayoutLabels) as FeedLayoutChoice[];

/**
 * Our fields a mapped feed's columns can fill, in the mapping form's order, with their labels;
 * `required` ones must be mapped. The same list as the reader's `feedFields` (a test checks it).
 */
export const feedFieldLabels = {
  name: { label: "Product name", required: true },
  price: { label: "Price", required: true },
  link: { label: "Product link", required: true },
  currency: { label: "Currency", required: false },
  salePrice: { label: "Sale price", required: false },
  originalPrice: { label: "Original (RRP) price", required: false },
  delivery: { label: "Delivery cost", required: false },
  inStock: { label: "In stock", required: false },
  externalId: { label: "Feed's product id", required: false },
  gtin: { label: "GTIN / EAN barcode", required: false },
  mpn: { label: "MPN", required: false },
  brand: { label: "Brand", required: false },
  image: { label: "Image URL", required: false },
  description: { label: "Description", required: false },
  category: { label: "Category", required: false },
  merchantName: { label: "Merchant name", required: false },
  merchantId: { label: "Merchant id", required: false },
  legalCategory: { label: "Legal category (POM-V, POM-VPS, NFA-VPS, AVM-GSL)", required: false },
} as const satisfies Record<FeedField, { label: string; required: boolean }>;
export const mappableFields = Object.keys(feedFieldLabels) as FeedField[];
export const requiredMappedFields = mappableFields.filter((field) => feedFieldLabels[field].required);

export type ColumnMapping = Partial<Record<FeedField, string>>;

/** The mapped layout's missing required fields (empty: the mapping can be read). */
export function missingMappedFields(mapping: ColumnMapping | null): FeedField[] {
  return requiredMappedFields.filter((field) => !mapping?.[field]);
}

export const feedSourceKinds = ["url", "file"] as const;
export type FeedSourceKind = (typeof feedSourceKinds)[number];

export const runTriggers = ["schedule", "admin", "cli"] as const;

/**
 * A new download source's schedule unless the admin names one (or null for none): every 6 hours,
 * on the hour, so its prices are confirmed several times within a day's freshness window.
 */
export const defaultFeedSchedule = "0 */6 * * *";
export type RunTrigger = (typeof runTriggers)[number];

/** A run's states: queued (waiting for another import to finish), running, then one of the two ends. */
export const runStatusLabels = {
  queued: "Queued",
  running: "Running",
  succeeded: "Succeeded",
  failed: "Failed",
} as const;
export type RunStatus = keyof typeof runStatusLabels;
export const isFinished = (status: RunStatus) => status === "succeeded" || status === "failed";

/** Why rows were not imported, each with the words the admin reads. */
export const refusalLabels = {
  malformed: "Malformed or unreadable row",
  "retailer-not-compared": "Merchant is not a retailer we compare",
  "no-category": "Category matches none of ours",
  invalid: "Product details not valid",
  conflict: "Conflicts with the catalogue",
} as const;
export type RefusalReason = keyof typeof refusalLabels;
export type RefusalCounts = Partial<Record<RefusalReason, number>>;

/** The counters a run keeps up to date while it reads. */
export interface RunCounters {
  rowsRead: number;
  /** Rows that matched a product already in the catalogue. */
  matched: number;
  created: number;
  offersAdded: number;
  pricesChanged: number;
  /** Prices held for review instead of published. */
  held: number;
  /** Rows matching no product, from a source that does not create products. */
  unmatched: number;
  refused: RefusalCounts;
}

export const emptyCounters = (): RunCounters => ({ rowsRead: 0, matched: 0, created: 0, offersAdded: 0, pricesChanged: 0, held: 0, unmatched: 0, refused: {} });

/** Rows refused in all. */
export const refusedTotal = (refused: RefusalCounts): number => Object.values(refused).reduce((sum, count) => sum + (count ?? 0), 0);

/** An import run as stored and as the API answers it. */
export interface FeedRun extends RunCounters {
  id: number;
  /** The admin feed source's id; null for a configured source (sample, awin, amazon, a CLI file). */
  sourceId: number | null;
  sourceKey: string;
  sourceLabel: string;
  trigger: RunTrigger;
  status: RunStatus;
  queuedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** The first messages (skipped and refused rows); `totalMessages` counts them all. */
  messages: string[];
  totalMessages: number;
  error: string | null;
}

/** A feed source as the API sends it: its URL masked, where its upload is stored left out. */
export interface FeedSourceView {
  /** A number for the admin's sources; "awin" for the one AWIN_FEED_URL / AWIN_FEED_FILE configures. */
  id: number | "awin";
  name: string;
  kind: FeedSourceKind;
  /** The download URL masked (see maskFeedUrl); null for a file. */
  maskedUrl: string | null;
  fileName: string | null;
  fileBytes: number | null;
  layout: FeedLayoutChoice;
  mapping: ColumnMapping | null;
  /** The retailer every row is an offer of; null: each row's merchant column says. */
  retailerKey: string | null;
  createProducts: boolean;
  schedule: string | null;
  enabled: boolean;
  /** Configured by environment variables: shown and runnable, not edited here. */
  readOnly: boolean;
  createdAt: string | null;
  updatedAt: string | null;
  lastRun: FeedRun | null;
  /** When the schedule runs it next (null: no schedule, or disabled). */
  nextRunAt: string | null;
}

const maskDots = "••••••";

/**
 * A download URL with everything but its scheme, host and last 4 characters hidden: feed links
 * carry the network's API key in their path or query, and it never leaves the server.
 * @example maskFeedUrl("https://productdata.awin.com/datafeed/download/apikey/0123456789abcdef/fid/1/format/csv") // "https://productdata.awin.com/••••••/csv"
 * @example maskFeedUrl("https://feeds.example.com/f.csv?key=secret-value-1234") // "https://feeds.example.com/••••••1234"
 * @example maskFeedUrl("not a url") // "••••••"
 */
export function maskFeedUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return maskDots;
  }
  const rest = `${parsed.pathname}${parsed.search}${parsed.hash}`.replace(/^\//, "");
  // A short rest would give most of itself away in its last 4 characters.
  const tail = rest.length >= 12 ? rest.slice(-4) : "";
  return `${parsed.protocol}//${parsed.host}/${rest === "" ? "" : maskDots}${tail}`;
}

/** Text (an error message) with every http(s) URL in it masked; a URL masked already stays as it is. */
export function maskUrlsIn(text: string): string {
  return text.replace(/https?:\/\/[^\s"'<>]+/gi, (url) =>
    url.includes(maskDots) ? url : maskFeedUrl(url.replace(/[),.;:]+$/, "")) + (/[),.;:]+$/.exec(url)?.[0] ?? ""),
  );
}
