/**
 * SHIM (replaced on merge): the feed reader's contract, delegating to today's Awin CSV reader
 * (./awin-feed.ts). Layout and column mapping are accepted and ignored (every feed is read as
 * Awin CSV); `retailerKey` is given to rows naming no merchant; sniffFeed reads the header line
 * of a CSV (plain or gzip). The real reader replaces this file with the same exports.
 */
import { createReadStream } from "node:fs";
import { constants, gunzipSync } from "node:zlib";
import { FeedRefused, readFeed as readAwinFeed, detectDelimiter } from "./awin-feed.ts";
import { headerProblem, normaliseHeaderName, type FeedItem } from "../domain/feed-row.ts";

export type FeedLayout = "awin-publisher" | "awin-merchant" | "google-merchant" | "mapped";
export const feedFields = [
  "name",
  "price",
  "link",
  "currency",
  "salePrice",
  "originalPrice",
  "delivery",
  "inStock",
  "externalId",
  "gtin",
  "mpn",
  "brand",
  "image",
  "description",
  "category",
  "merchantName",
  "merchantId",
] as const; // mapped needs name, price, link
export type FeedField = (typeof feedFields)[number];
/** Our field -> the feed's column name. */
export type ColumnMapping = Partial<Record<FeedField, string>>;
export interface FeedReadOptions {
  layout?: FeedLayout | "auto";
  mapping?: ColumnMapping;
  /** Rows naming no merchant get this retailer. */
  retailerKey?: string | null;
  maxBytes?: number;
}

export async function* readFeed(input: NodeJS.ReadableStream | string, options: FeedReadOptions = {}): AsyncGenerator<FeedItem> {
  for await (const item of readAwinFeed(input)) {
    if (item.kind === "offer" && item.offer.merchantKey === "" && options.retailerKey) {
      yield { kind: "offer", offer: { ...item.offer, merchantKey: options.retailerKey } };
    } else {
      yield item;
    }
  }
}

export interface FeedSniff {
  format: "csv" | "tsv" | "xml";
  layout: FeedLayout | null;
  columns: string[];
  sample: Record<string, string>[];
  description: string;
}

/** Splits one CSV line on the delimiter, honouring double quotes (enough for a header and a sample row). */
function splitLine(line: string, delimiter: string): string[] {
  const cells: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === delimiter) {
      cells.push(cell);
      cell = "";
    } else cell += char;
  }
  cells.push(cell);
  return cells;
}

/** The first `maxBytes` of the input (ungzipped when it is gzip; a cut-off gzip stream decodes what arrived). */
async function headOf(input: NodeJS.ReadableStream | string, maxBytes: number): Promise<Buffer> {
  const source = typeof input === "string" ? createReadStream(input) : input;
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of source) {
      const bytes = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
      chunks.push(bytes);
      length += bytes.length;
      if (length >= maxBytes) break;
    }
  } finally {
    if ("destroy" in source && typeof source.destroy === "function") source.destroy();
  }
  const raw = Buffer.concat(chunks).subarray(0, maxBytes);
  if (raw[0] !== 0x1f || raw[1] !== 0x8b) return raw;
  try {
    return gunzipSync(raw, { finishFlush: constants.Z_SYNC_FLUSH }).subarray(0, maxBytes);
  } catch {
    throw new FeedRefused("The file looks like gzip but could not be decompressed");
  }
}

export async function sniffFeed(input: NodeJS.ReadableStream | string, options: { maxBytes?: number } = {}): Promise<FeedSniff> {
  const head = await headOf(input, options.maxBytes ?? 256 * 1024);
  const text = head.toString("utf8").replace(/^\uFEFF/, "");
  const lines = text.split(/\r?\n|\r/).filter((line) => line.trim() !== "");
  const headerLine = lines[0] ?? "";
  if (/^\s*</.test(headerLine)) throw new FeedRefused("This file is not a product feed in a layout this reader knows");
  const delimiter = detectDelimiter(headerLine);
  const columns = splitLine(headerLine, delimiter).map((cell) => cell.trim());
  const problem = headerProblem(columns.map(normaliseHeaderName));
  if (columns.length < 2) throw new FeedRefused("This file is not a product feed: its first line is not a header of columns");
  const sample = lines.slice(1, 3).map((line) => {
    const cells = splitLine(line, delimiter);
    return Object.fromEntries(columns.map((column, index) => [column, cells[index] ?? ""]));
  });
  const format = delimiter === "\t" ? "tsv" : "csv";
  const layout: FeedLayout | null = problem === null ? "awin-publisher" : null;
  return {
    format,
    layout,
    columns,
    sample,
    description: layout ? `Awin product feed (${format.toUpperCase()}, ${columns.length} columns)` : `${format.toUpperCase()} with ${columns.length} columns; map them to our fields`,
  };
}

export { FeedRefused };
