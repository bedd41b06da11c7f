/**
 * Reads an affiliate product feed in Awin's CSV layout as a stream of offers and row errors,
 * never holding the file in memory: gzip (detected by its magic bytes, whatever the file is
 * called), a UTF-8 byte-order mark, a comma, semicolon, tab or pipe delimiter (detected from the
 * header line) and cells in UTF-8 or Windows-1252 (detected per cell) are all read as they come.
 *
 * A file that is not a feed (an HTML or JSON error page saved as .csv, an empty file, a header
 * without the required columns) is refused with FeedRefused before any item is yielded. A bad
 * row never stops the rest: it becomes an error item with its line and the reading goes on.
 */
import { isUtf8 } from "node:buffer";
import { createReadStream } from "node:fs";
import { Readable, pipeline } from "node:stream";
import { createGunzip } from "node:zlib";
import { parse, type CsvError, type Info } from "csv-parse";
import { headerProblem, isKnownColumn, normaliseHeaderName, parseFeedCells, type FeedItem } from "../domain/feed-row.ts";

export type { FeedItem, FeedOffer } from "../domain/feed-row.ts";

/** The file is not a product feed at all; the message says why, for the person who uploaded it. */
export class FeedRefused extends Error {
  override name = "FeedRefused";
}

/** Longest record accepted: far above any real product row, low enough that an unclosed quote cannot eat the memory. */
const maxRecordBytes = 4 * 1024 * 1024;
/** How far to look for the end of the header line before giving up on finding one. */
const maxHeaderBytes = 1024 * 1024;

const windows1252 = new TextDecoder("windows-1252");

/**
 * A cell as text. csv-parse reads the file as Latin-1, which maps each byte to one character, so
 * the cell's bytes come back exactly: UTF-8 when they are valid UTF-8, else Windows-1252 (which
 * decodes any byte). An ASCII cell (most of them) is the same in all three.
 */
function decodeCell(latin1: string): string {
  if (!/[^\x00-\x7f]/.test(latin1)) return latin1;
  const bytes = Buffer.from(latin1, "latin1");
  return isUtf8(bytes) ? bytes.toString("utf8") : windows1252.decode(bytes);
}

async function* bytesOf(stream: NodeJS.ReadableStream): AsyncGenerator<Buffer> {
  for await (const chunk of stream) yield typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
}

/**
 * Reads chunks until `enough` holds for what was read or the source ends. `chunks` streams it all:
 * the head as its first chunk, then the rest as it comes.
 */
async function peek(source: AsyncIterator<Buffer>, enough: (head: Buffer) => boolean): Promise<{ head: Buffer; chunks: AsyncGenerator<Buffer> }> {
  let head = Buffer.alloc(0);
  let done = false;
  while (!enough(head)) {
    const next = await source.next();
    if (next.done === true) {
      done = true;
      break;
    }
    head = Buffer.concat([head, next.value]);
  }
  async function* chunks(): AsyncGenerator<Buffer> {
    if (head.length > 0) yield head;
    if (done) return;
    for (let next = await source.next(); next.done !== true; next = await source.next()) yield next.value;
  }
  return { head, chunks: chunks() };
}

/** Streams `chunks` through `transform`; an error anywhere surfaces when reading the result. */
function through<T extends NodeJS.ReadWriteStream>(chunks: AsyncIterable<Buffer>, transform: T): T {
  pipeline(Readable.from(chunks), transform, () => {
    // pipeline destroys `transform` with the error, so the reader sees it; nothing to do here.
  });
  return transform;
}

const utf8Bom = Buffer.from([0xef, 0xbb, 0xbf]);

/** Why the first bytes cannot be a CSV feed, or null when they might be. */
function notAFeed(head: Buffer): string | null {
  if (head.subarray(0, 4).equals(Buffer.from("PK\x03\x04", "latin1"))) return "This file is not a product feed: it looks like a ZIP archive (unzip it first)";
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) {
    return "This file is not a product feed this reader can use: it is UTF-16 text (save it as UTF-8)";
  }
  const text = head.toString("utf8").trimStart();
  if (text === "") return "The feed is empty";
  if (head.includes(0)) return "This file is not a product feed: it looks like a binary file";
  if (/^<(?:!doctype html|html|head|body|title|!--)/i.test(text) || (text.startsWith("<") && /<html[\s>]/i.test(text))) {
    return "This file is not a product feed: it looks like an HTML page (an error or login page saved as .csv?)";
  }
  if (text.startsWith("<")) return "This file is not a product feed: it looks like an XML document";
  if (text.startsWith("{") || text.startsWith("[")) {
    const excerpt = text.replace(/\s+/g, " ").slice(0, 120);
    return `This file is not a product feed: it looks like JSON (${excerpt})`;
  }
  return null;
}

const delimiters = [",", ";", "\t", "|"] as const;
type Delimiter = (typeof delimiters)[number];

/** The delimiter the header line uses most (header cells never contain one); comma on a tie or none. */
export function detectDelimiter(headerLine: string): Delimiter {
  let best: Delimiter = ",";
  let bestCount = 0;
  for (const delimiter of delimiters) {
    const count = headerLine.split(delimiter).length - 1;
    if (count > bestCount) [best, bestCount] = [delimiter, count];
  }
  return best;
}

/** Line breaks inside a record's cells: all of them (\r\n as one), and the \r\n pairs alone. */
function breaksIn(fields: readonly string[]): { breaks: number; crlf: number } {
  let breaks = 0;
  let crlf = 0;
  for (const field of fields) {
    if (!field.includes("\n") && !field.includes("\r")) continue;
    breaks += field.match(/\r\n|\r|\n/g)?.length ?? 0;
    crlf += field.match(/\r\n/g)?.length ?? 0;
  }
  return { breaks, crlf };
}

/** A CSV syntax error in words, without csv-parse's own line count (see readFeed). */
function syntaxProblem(error: CsvError): string {
  switch (error.code) {
    case "CSV_QUOTE_NOT_CLOSED":
      return "malformed CSV: a quote opened in this row is never closed, so the rest of the file was one cell";
    case "CSV_MAX_RECORD_SIZE":
      return `malformed CSV: a row longer than ${maxRecordBytes} bytes (an unclosed quote?); the rows it swallowed were not imported`;
    default:
      return `malformed CSV: ${error.message} (row not imported)`;
  }
}

/**
 * The items of a feed, in file order, from a stream or a file path. Throws FeedRefused (before
 * yielding anything) when the input is not a product feed; read and gunzip errors are thrown as
 * they happen. A header-only feed yields nothing. The input stream is used up: it is destroyed
 * when reading ends, fails or the caller stops early, so a file is always closed.
 *
 * Lines are physical lines of the (uncompressed) file, 1-based, where a record starts: blank
 * lines count, and a quoted cell with line breaks moves every later line on by its breaks.
 */
export async function* readFeed(input: NodeJS.ReadableStream | string): AsyncGenerator<FeedItem, void, undefined> {
  const stream = typeof input === "string" ? createReadStream(input) : input;
  const created: { destroy(): void }[] = [];
  try {
    yield* readStream(stream, created);
  } finally {
    for (const part of created) part.destroy();
    if ("destroy" in stream && typeof stream.destroy === "function") stream.destroy();
  }
}

/** readFeed's work; every stream it makes is put in `created`, for readFeed to destroy. */
async function* readStream(stream: NodeJS.ReadableStream, created: { destroy(): void }[]): AsyncGenerator<FeedItem, void, undefined> {
  let bytes: AsyncIterable<Buffer> = bytesOf(stream);
  const start = await peek(bytes[Symbol.asyncIterator](), (head) => head.length >= 2);
  bytes = start.chunks;
  if (start.head[0] === 0x1f && start.head[1] === 0x8b) {
    const gunzip = createGunzip();
    created.push(gunzip);
    bytes = through(bytes, gunzip);
  }

  const headerEnd = (head: Buffer) => {
    const body = head.subarray(head.subarray(0, 3).equals(utf8Bom) ? 3 : 0);
    return body.toString("latin1").trimStart().includes("\n") || head.length >= maxHeaderBytes;
  };
  const opening = await peek(bytes[Symbol.asyncIterator](), headerEnd);
  const hasBom = opening.head.subarray(0, 3).equals(utf8Bom);
  const head = hasBom ? opening.head.subarray(3) : opening.head;
  const refusal = notAFeed(head);
  if (refusal !== null) throw new FeedRefused(refusal);
  const headerLine =
    head
      .toString("utf8")
      .trimStart()
      .split(/\r?\n|\r/, 1)[0] ?? "";

  const skipped: { line: number; error: string }[] = [];
  // csv-parse counts a \r\n inside a quoted cell as two lines; `crlfSeen` takes those back off.
  let crlfSeen = 0;
  const parser = parse({
    delimiter: detectDelimiter(headerLine),
    // One character per byte: see decodeCell.
    encoding: "latin1",
    info: true,
    // Not `trim`: in Latin-1, 0xA0 is a no-break space but also the last byte of UTF-8 "à";
    // the row parser trims each decoded cell instead.
    relax_column_count: true,
    // A quote inside a cell that is not quoted ("Bed 24\" Grey") or after a closing quote is kept
    // as text rather than failing the row.
    relax_quotes: true,
    skip_empty_lines: true,
    skip_records_with_empty_values: true,
    skip_records_with_error: true,
    max_record_size: maxRecordBytes,
    on_skip: (error) => {
      if (error) skipped.push({ line: Number(error.lines) - crlfSeen, error: syntaxProblem(error) });
      return undefined;
    },
  });
  created.push(parser);
  async function* withoutBom(): AsyncGenerator<Buffer> {
    let first = true;
    for await (const chunk of opening.chunks) {
      yield first && hasBom ? chunk.subarray(3) : chunk;
      first = false;
    }
  }
  // The BOM is taken off here rather than by csv-parse, whose `bom` option would switch it from
  // Latin-1 (needed to decode each cell on its own) to UTF-8.
  // The first chunk of `opening` is the whole head, so the BOM is at its start.
  through(withoutBom(), parser);

  let header: string[] | null = null;
  let wanted: boolean[] = [];
  const flushSkipped = function* (beforeLine: number): Generator<FeedItem> {
    while (skipped.length > 0 && skipped[0]!.line < beforeLine) {
      const { line, error } = skipped.shift()!;
      yield { kind: "error", line, error: `line ${line}: ${error}` };
    }
  };

  for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: Info }>) {
    const { breaks, crlf } = breaksIn(record);
    crlfSeen += crlf;
    const line = info.lines - crlfSeen - breaks;
    if (header === null) {
      header = record.map((cell) => normaliseHeaderName(decodeCell(cell)));
      const problem = headerProblem(header);
      if (problem !== null) throw new FeedRefused(problem);
      wanted = header.map(isKnownColumn);
      continue;
    }
    yield* flushSkipped(line);
    // Extra cells that are all empty (a trailing delimiter on every row) are not a different row.
    let length = record.length;
    while (length > header.length && record[length - 1]!.length === 0) length--;
    if (length !== header.length) {
      yield { kind: "error", line, error: `line ${line}: ${length} cells where the header has ${header.length} (row not imported)` };
      continue;
    }
    const cells: Record<string, string> = {};
    for (let i = 0; i < header.length; i++) {
      if (wanted[i]) cells[header[i]!] = decodeCell(record[i]!);
    }
    yield parseFeedCells(cells, line);
  }
  if (header === null) throw new FeedRefused("This file is not a product feed: it has no header line");
  yield* flushSkipped(Number.POSITIVE_INFINITY);
}
