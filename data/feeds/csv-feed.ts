/**
 * A delimited feed (CSV, TSV, semicolons, pipes) as a stream of records, never holding the file:
 * a UTF-8 byte-order mark, the delimiter (detected from the header line) and cells in UTF-8 or
 * Windows-1252 (detected per cell) are read as they come. Which cells mean what is the layout's
 * business (read-feed.ts); this module yields the header, then each record's raw cells with the
 * line it starts on, and a syntax error as an error with its line.
 */
import { isUtf8 } from "node:buffer";
import { parse, type CsvError, type Info } from "csv-parse";
import { peek, through, utf8Bom } from "./feed-input.ts";

/** Longest record accepted: far above any real product row, low enough that an unclosed quote cannot eat the memory. */
export const maxRecordBytes = 4 * 1024 * 1024;
/** How far to look for the end of the header line before giving up on finding one. */
const maxHeaderBytes = 1024 * 1024;

const windows1252 = new TextDecoder("windows-1252");

/**
 * A cell as text. csv-parse reads the file as Latin-1, which maps each byte to one character, so
 * the cell's bytes come back exactly: UTF-8 when they are valid UTF-8, else Windows-1252 (which
 * decodes any byte). An ASCII cell (most of them) is the same in all three.
 */
export function decodeCell(latin1: string): string {
  if (!/[^\x00-\x7f]/.test(latin1)) return latin1;
  const bytes = Buffer.from(latin1, "latin1");
  return isUtf8(bytes) ? bytes.toString("utf8") : windows1252.decode(bytes);
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

/** A CSV syntax error in words, without csv-parse's own line count (see csvRecords). */
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

export type CsvEvent =
  /** The header as written (decoded, not normalised), and the delimiter it uses. */
  | { kind: "header"; names: string[]; delimiter: Delimiter }
  /** A record's cells as Latin-1 text (see decodeCell), with the line it starts on. */
  | { kind: "row"; line: number; cells: string[] }
  | { kind: "error"; line: number; error: string };

/**
 * The header line's text, read from the head of the file (byte-order mark and leading blank
 * lines skipped), once enough has come: the chunks go on from the start of the file.
 */
export async function csvHead(chunks: AsyncGenerator<Buffer>): Promise<{ headerLine: string; chunks: AsyncGenerator<Buffer>; hasBom: boolean }> {
  const headerEnd = (head: Buffer) => {
    const body = head.subarray(head.subarray(0, 3).equals(utf8Bom) ? 3 : 0);
    return body.toString("latin1").trimStart().includes("\n") || head.length >= maxHeaderBytes;
  };
  const opening = await peek(chunks[Symbol.asyncIterator](), headerEnd);
  const hasBom = opening.head.subarray(0, 3).equals(utf8Bom);
  const head = hasBom ? opening.head.subarray(3) : opening.head;
  const headerLine =
    head
      .toString("utf8")
      .trimStart()
      .split(/\r?\n|\r/, 1)[0] ?? "";
  return { headerLine, chunks: opening.chunks, hasBom };
}

/**
 * The records of a delimited file, in file order: the header first, then rows and errors. Lines
 * are physical lines of the (uncompressed) file, 1-based, where a record starts: blank lines
 * count, and a quoted cell with line breaks moves every later line on by its breaks. The parser
 * is put in `created` for the caller to destroy.
 */
export async function* csvRecords(chunks: AsyncGenerator<Buffer>, created: { destroy(): void }[]): AsyncGenerator<CsvEvent, void, undefined> {
  const opening = await csvHead(chunks);
  const delimiter = detectDelimiter(opening.headerLine);
  const skipped: { line: number; error: string }[] = [];
  // csv-parse counts a \r\n inside a quoted cell as two lines; `crlfSeen` takes those back off.
  let crlfSeen = 0;
  const parser = parse({
    delimiter,
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
      yield first && opening.hasBom ? chunk.subarray(3) : chunk;
      first = false;
    }
  }
  // The BOM is taken off here rather than by csv-parse, whose `bom` option would switch it from
  // Latin-1 (needed to decode each cell on its own) to UTF-8. The first chunk of `opening` is the
  // whole head, so the BOM is at its start.
  // Errors of the input (a cap reached, a broken gzip) reach the parser through pipeline.
  through(withoutBom(), parser);

  let headerCount: number | null = null;
  const flushSkipped = function* (beforeLine: number): Generator<CsvEvent> {
    while (skipped.length > 0 && skipped[0]!.line < beforeLine) {
      const { line, error } = skipped.shift()!;
      yield { kind: "error", line, error: `line ${line}: ${error}` };
    }
  };

  for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: Info }>) {
    const { breaks, crlf } = breaksIn(record);
    crlfSeen += crlf;
    const line = info.lines - crlfSeen - breaks;
    if (headerCount === null) {
      headerCount = record.length;
      yield { kind: "header", names: record.map(decodeCell), delimiter };
      continue;
    }
    yield* flushSkipped(line);
    // Extra cells that are all empty (a trailing delimiter on every row) are not a different row.
    let length = record.length;
    while (length > headerCount && record[length - 1]!.length === 0) length--;
    if (length !== headerCount) {
      yield { kind: "error", line, error: `line ${line}: ${length} cells where the header has ${headerCount} (row not imported)` };
      continue;
    }
    yield { kind: "row", line, cells: record };
  }
  yield* flushSkipped(Number.POSITIVE_INFINITY);
}
