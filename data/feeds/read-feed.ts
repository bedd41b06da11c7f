/**
 * Reads a product feed in any layout the site knows as a stream of offers and row errors, never
 * holding the file in memory: Awin's publisher download, Awin's merchant upload, Google Merchant
 * Center (TSV/CSV, or RSS 2.0 / Atom XML), or any other CSV through the column mapping the site
 * owner sets. Gzip is detected by its bytes; decompressed bytes are capped.
 *
 * A file that is not a feed (an HTML page, a JSON document, a ZIP archive, an XML document of
 * another kind, a table no layout fits) is refused with FeedRefused before any item is yielded,
 * its message naming what the file looks like and what it lacks. A bad row never stops the rest:
 * it becomes an error item with its line and the reading goes on.
 */
import { createReadStream } from "node:fs";
import {
  awinCellsOf,
  columnKey,
  columnsRead,
  detectLayout,
  layoutColumns,
  layoutLabels,
  layoutRecordOf,
  layoutTitles,
  merchantProblem,
  noLayoutProblem,
  resolveLayout,
  type ColumnMapping,
  type FeedLayout,
  type LayoutColumns,
  type LayoutRecord,
} from "../domain/feed-layouts.ts";
import { isKnownColumn, normaliseHeaderName, parseFeedCells, type FeedItem, type FeedRowContext } from "../domain/feed-row.ts";
import { csvRecords, decodeCell } from "./csv-feed.ts";
import { defaultMaxFeedBytes, feedBytes, FeedRefused, FeedTooLarge, headText, maxLeadingBlankBytes, notAFeed, peek } from "./feed-input.ts";
import { xmlRecords } from "./xml-feed.ts";

export { feedFields, type ColumnMapping, type FeedField, type FeedLayout } from "../domain/feed-layouts.ts";
export type { FeedItem, FeedOffer } from "../domain/feed-row.ts";
export { FeedRefused, FeedTooLarge };

export interface FeedReadOptions {
  /** Default auto: detected from the header or root element and the first item. */
  layout?: FeedLayout | "auto";
  /** Required when layout is "mapped"; with layout auto, used when no built-in layout fits. */
  mapping?: ColumnMapping;
  /** The source's retailer: rows that name no merchant get it (merchantKey); rows that name one keep theirs. */
  retailerKey?: string | null;
  /** Cap on the (decompressed) bytes read, default 2 GiB; past it the read fails with FeedTooLarge. */
  maxBytes?: number;
  /** The time a sale price's effective dates are compared with; default now. */
  now?: Date;
}

export interface FeedSniff {
  format: "csv" | "tsv" | "xml";
  /** The layout detected, or null for a table no built-in layout fits (it needs a column mapping). */
  layout: FeedLayout | null;
  /** Header names as written (CSV/TSV), or the element names of the first items (XML). */
  columns: string[];
  /** The first 3 rows (or items), column -> text. */
  sample: Record<string, string>[];
  /** What the file is, e.g. "Google Merchant Center XML (RSS 2.0)". */
  description: string;
}

type Created = { destroy(): void }[];

/** Opens a path or takes a stream, runs `work`, and destroys every stream made however it ends. */
async function* withInput<T>(input: NodeJS.ReadableStream | string, work: (stream: NodeJS.ReadableStream, created: Created) => AsyncGenerator<T>): AsyncGenerator<T> {
  const stream = typeof input === "string" ? createReadStream(input) : input;
  const created: Created = [];
  try {
    yield* work(stream, created);
  } finally {
    for (const part of created) part.destroy();
    if ("destroy" in stream && typeof stream.destroy === "function") stream.destroy();
  }
}

/** The feed's decompressed bytes and whether they are XML, after refusing what is no feed at all. */
async function openFeed(stream: NodeJS.ReadableStream, maxBytes: number, created: Created): Promise<{ xml: boolean; chunks: AsyncGenerator<Buffer> }> {
  const bytes = await feedBytes(stream, maxBytes, created);
  const opening = await peek(bytes[Symbol.asyncIterator](), (head) => headText(head) !== "" || head.length >= maxLeadingBlankBytes);
  const refusal = notAFeed(opening.head);
  if (refusal !== null) throw new FeedRefused(refusal);
  return { xml: headText(opening.head).startsWith("<"), chunks: opening.chunks };
}

/**
 * The items of a feed, in file order, from a stream or a file path. Throws FeedRefused (before
 * yielding anything) when the input is not a product feed in a layout it can read, and
 * FeedTooLarge when it passes `maxBytes`; read and gunzip errors are thrown as they happen. A
 * header-only feed yields nothing. The input stream is used up: it is destroyed when reading
 * ends, fails or the caller stops early, so a file is always closed.
 *
 * Lines are physical lines of the (uncompressed) file, 1-based, where a record (or an XML item's
 * opening tag) starts.
 */
export function readFeed(input: NodeJS.ReadableStream | string, options: FeedReadOptions = {}): AsyncGenerator<FeedItem, void, undefined> {
  return withInput(input, async function* (stream, created) {
    const opened = await openFeed(stream, options.maxBytes ?? defaultMaxFeedBytes, created);
    yield* opened.xml ? xmlItems(opened.chunks, options) : tableItems(opened.chunks, options, created);
  });
}

/** One layout record as an item: the required fields' emptiness said in the layout's own column names, then parseFeedCells. */
function itemOf(record: LayoutRecord, line: number, columns: LayoutColumns, context: FeedRowContext, now: Date): FeedItem {
  for (const [field, words] of [
    ["price", "no price"],
    ["link", "no link to the product"],
  ] as const) {
    if (record[field] === undefined) return { kind: "error", line, error: `line ${line}: ${words} (${(columns[field] ?? [field]).join(" and ")} empty)` };
  }
  return parseFeedCells(awinCellsOf(record, now), line, context);
}

/** The layout a table is read in, or a refusal naming what the table lacks. */
function tableLayout(names: string[], what: string, options: FeedReadOptions): FeedLayout {
  if (options.layout !== undefined && options.layout !== "auto") return options.layout;
  const detected = detectLayout(names);
  if (detected !== null) return detected;
  if (options.mapping !== undefined) return "mapped";
  throw new FeedRefused(noLayoutProblem(what, names));
}

/** How each data row of a table becomes an item, once its header is known. */
function tableReader(names: string[], delimiter: string, options: FeedReadOptions): (line: number, record: string[]) => FeedItem {
  const context: FeedRowContext = { retailerKey: options.retailerKey ?? null };
  const layout = tableLayout(names, delimiter === "\t" ? "a TSV" : "a CSV", options);
  const resolution = resolveLayout(layout, names, options.mapping, context);
  if (resolution.problem !== null) throw new FeedRefused(resolution.problem);
  if (layout === "awin-publisher") {
    const header = names.map(normaliseHeaderName);
    const wanted = header.map(isKnownColumn);
    return (line, record) => {
      const cells: Record<string, string> = {};
      for (let i = 0; i < header.length; i++) if (wanted[i]) cells[header[i]!] = decodeCell(record[i]!);
      return parseFeedCells(cells, line, context);
    };
  }
  const now = options.now ?? new Date();
  const columns = layoutColumns(layout, options.mapping);
  const read = columnsRead(columns);
  const keys = names.map(columnKey);
  const wanted = keys.map((key) => read.has(key));
  return (line, record) => {
    const cells: Record<string, string> = {};
    for (let i = 0; i < keys.length; i++) {
      // A repeated column name: the first non-blank cell wins.
      if (wanted[i] && !cells[keys[i]!]?.trim()) cells[keys[i]!] = decodeCell(record[i]!);
    }
    return itemOf(layoutRecordOf(columns, cells), line, columns, context, now);
  };
}

async function* tableItems(chunks: AsyncGenerator<Buffer>, options: FeedReadOptions, created: Created): AsyncGenerator<FeedItem, void, undefined> {
  let reader: ((line: number, record: string[]) => FeedItem) | null = null;
  for await (const event of csvRecords(chunks, created)) {
    if (event.kind === "header") reader = tableReader(event.names, event.delimiter, options);
    else if (event.kind === "error") yield event;
    else yield reader!(event.line, event.cells);
  }
  if (reader === null) throw new FeedRefused("This file is not a product feed: it has no header line");
}

const noPriceFeed = "This file is not a product feed: it is an RSS or Atom feed whose items have no price (a news or blog feed?)";

async function* xmlItems(chunks: AsyncGenerator<Buffer>, options: FeedReadOptions): AsyncGenerator<FeedItem, void, undefined> {
  const context: FeedRowContext = { retailerKey: options.retailerKey ?? null };
  const now = options.now ?? new Date();
  const layout = options.layout === undefined || options.layout === "auto" ? "google-merchant" : options.layout;
  if (layout === "awin-publisher" || layout === "awin-merchant") throw new FeedRefused(`This file is XML, but ${layoutLabels[layout]} is a CSV file`);
  if (layout === "mapped" && options.mapping === undefined) throw new FeedRefused("A mapped feed needs its column mapping (which element holds the name, the price and the link)");
  const columns = layoutColumns(layout, options.mapping);
  const noMerchant = merchantProblem(layout, columns, context);
  let declaresGoogle = false;
  let first = true;
  for await (const event of xmlRecords(chunks)) {
    if (event.kind === "root") {
      if (noMerchant !== null) throw new FeedRefused(noMerchant);
      declaresGoogle = event.declaresGoogle;
    } else if (event.kind === "error") {
      yield event;
    } else {
      if (first && layout === "google-merchant" && !declaresGoogle && event.fields.price === undefined) throw new FeedRefused(noPriceFeed);
      first = false;
      yield itemOf(layoutRecordOf(columns, event.fields), event.line, columns, context, now);
    }
  }
}

/**
 * What a feed is, from its first rows, for the admin setting up a source: its format, the layout
 * detected (null for a table that needs a column mapping), its columns and first 3 rows. Reads
 * only as far as that and closes the input. Throws FeedRefused for a file that is no feed at all
 * (an HTML page, a JSON document, a ZIP archive, an XML document of another kind, a news feed).
 */
export async function sniffFeed(input: NodeJS.ReadableStream | string, options: { maxBytes?: number } = {}): Promise<FeedSniff> {
  const results = withInput(input, async function* (stream, created): AsyncGenerator<FeedSniff> {
    const opened = await openFeed(stream, options.maxBytes ?? defaultMaxFeedBytes, created);
    yield opened.xml ? await sniffXml(opened.chunks) : await sniffTable(opened.chunks, created);
  });
  try {
    const first = await results.next();
    return first.value as FeedSniff;
  } finally {
    await results.return(undefined);
  }
}

async function sniffTable(chunks: AsyncGenerator<Buffer>, created: Created): Promise<FeedSniff> {
  let names: string[] | null = null;
  let format: "csv" | "tsv" = "csv";
  const sample: Record<string, string>[] = [];
  for await (const event of csvRecords(chunks, created)) {
    if (event.kind === "header") {
      names = event.names;
      format = event.delimiter === "\t" ? "tsv" : "csv";
    } else if (event.kind === "row") {
      sample.push(Object.fromEntries(names!.map((name, i) => [name, decodeCell(event.cells[i] ?? "")])));
      if (sample.length === 3) break;
    }
  }
  if (names === null) throw new FeedRefused("This file is not a product feed: it has no header line");
  const layout = detectLayout(names);
  const kind = format.toUpperCase();
  const description = layout === null ? `${kind} whose columns fit no known layout: set a column mapping` : `${layoutTitles[layout]} ${kind}`;
  return { format, layout, columns: names, sample, description };
}

async function sniffXml(chunks: AsyncGenerator<Buffer>): Promise<FeedSniff> {
  let root = "";
  let declaresGoogle = false;
  const sample: Record<string, string>[] = [];
  for await (const event of xmlRecords(chunks)) {
    if (event.kind === "root") {
      root = event.root;
      declaresGoogle = event.declaresGoogle;
    } else if (event.kind === "record") {
      sample.push(event.fields);
      if (sample.length === 3) break;
    }
  }
  if (!declaresGoogle && sample.length > 0 && sample[0]!.price === undefined) throw new FeedRefused(noPriceFeed);
  const columns = [...new Set(sample.flatMap((fields) => Object.keys(fields)))];
  const kind = root.toLowerCase().endsWith("rss") ? "RSS 2.0" : "Atom";
  return { format: "xml", layout: "google-merchant", columns, sample, description: `${layoutTitles["google-merchant"]} XML (${kind})` };
}
