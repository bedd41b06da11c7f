/**
 * The admin's product export: every product and each of its offers as one row of a real .xlsx
 * file, streamed. Rows come from the database a page of products at a time and go out through
 * exceljs's streaming writer as they are made, so a 50,000-product catalogue never sits in memory
 * as rows or as a workbook, and the database connection is free between pages (a better-sqlite3
 * connection can run nothing else while a statement is being iterated).
 *
 * The pages are not one snapshot: a product edited while the export runs appears as it was when
 * its page was read.
 */
import { PassThrough, Readable, type Writable } from "node:stream";
import { setImmediate as nextTurn } from "node:timers/promises";
import ExcelJS from "exceljs";
import type { Db } from "../../data/db/client.ts";
import { statement } from "../../data/db/statements.ts";
import { ukToday } from "../../data/domain/dates.ts";
import { toPounds } from "../../data/domain/money.ts";
import { effectivePence } from "../../data/domain/offers.ts";
import type { CategoryRow, ProductPriceRow, ProductRow, RetailerRow } from "../../data/db/rows.ts";
import { slugify } from "../../data/domain/slug.ts";
import { productDetailList, type ProductDetailColumn } from "../../data/domain/product-details.ts";

export const xlsxContentType = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

export interface ProductsXlsxOptions {
  /** Named as the workbook's author and in its title. */
  siteName: string;
  /** Products read per query; the connection is released and backpressure honoured between pages. */
  pageSize?: number;
}

const defaultPageSize = 500;

/**
 * Uncompressed sheet XML allowed to wait for the zip compressor before the next page is read.
 * A page of 500 products is about 2 MB of XML, so at most a few MB are ever buffered.
 */
const maxBufferedBytes = 1024 * 1024;

/**
 * The zip archiver buffers compressed output for a slow reader up to its stream high-water mark,
 * 1 MB by default (about 8 MB of sheet XML); 64 KB is plenty to keep the output busy.
 * (`highWaterMark` is archiver's Transform option; exceljs's type for the zip options omits it.)
 */
const zipOptions = { highWaterMark: 64 * 1024 } as Partial<ExcelJS.stream.xlsx.ArchiverZipOptions>;

/**
 * The download's file name: the site name as a slug and the UK date of `date`.
 * @example exportFileName("PawPrice", new Date("2027-03-31T23:30:00Z")) // "pawprice-products-2027-04-01.xlsx" (BST)
 * @example exportFileName("Paw & Claw Deals!", new Date("2027-01-15T12:00:00Z")) // "paw-and-claw-deals-products-2027-01-15.xlsx"
 */
export function exportFileName(siteName: string, date: Date): string {
  return `${slugify(siteName) || "site"}-products-${ukToday(date)}.xlsx`;
}

/**
 * Text a spreadsheet will show as typed, never evaluate: values starting with = + - @, a tab or
 * a carriage return get a leading apostrophe (OWASP, "CSV Injection"). exceljs writes every
 * string as a plain string cell; only an object with a `formula` becomes a formula.
 * @example spreadsheetText('=HYPERLINK("http://evil","x")') // `'=HYPERLINK("http://evil","x")`
 * @example spreadsheetText("Royal Canin") // "Royal Canin"
 */
export function spreadsheetText(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** A product's columns of the export. */
type ProductColumns = Pick<
  ProductRow,
  "name" | "slug" | "brand" | "rating" | "review_count" | "is_featured" | "legal_category" | "best_price_pence" | "original_price_pence" | "created_at" | "last_edited_at"
> & { product_id: ProductRow["id"]; category: CategoryRow["name"]; best_retailer: RetailerRow["name"] | null } & {
  [C in ProductDetailColumn]?: string;
};

/** An offer's columns of the export, with its retailer's name and key. */
type Offer = ProductColumns &
  Pick<ProductPriceRow, "retailer_id" | "price_pence" | "price_override" | "manual_price_pence" | "in_stock" | "free_delivery" | "url"> & {
    offer_id: ProductPriceRow["id"];
    retailer: RetailerRow["name"];
    retailer_key: RetailerRow["key"];
    was_price_pence: ProductPriceRow["original_price_pence"];
    offer_updated_at: ProductPriceRow["updated_at"];
  };

/** The product details the export has a column for. */
const exportedDetails = productDetailList.flatMap((detail) => (detail.exportWidth === undefined ? [] : [{ ...detail, exportWidth: detail.exportWidth }]));

/** One product joined with one of its offers (every offer column null when it has none: a LEFT JOIN). */
type ExportRow = ProductColumns & { [K in Exclude<keyof Offer, keyof ProductColumns>]: Offer[K] | null };

/**
 * A page of products after `after` (by id) with their offers, by product id then retailer name
 * (case-insensitive, so eBay sits between Amazon and Jollyes). A product without offers is one
 * row whose offer columns are null.
 */
const pageSql = `SELECT p.id AS product_id, p.name, p.slug, p.brand, c.name AS category, p.rating, p.review_count,
    p.is_featured, p.legal_category,${exportedDetails.map((detail) => ` p.${detail.column},`).join("")} p.best_price_pence, p.original_price_pence, br.name AS best_retailer, p.created_at, p.last_edited_at,
    pp.id AS offer_id, pp.retailer_id, r.name AS retailer, r.key AS retailer_key, pp.price_pence,
    pp.original_price_pence AS was_price_pence, pp.price_override, pp.manual_price_pence, pp.in_stock, pp.free_delivery,
    pp.url, pp.updated_at AS offer_updated_at
  FROM (SELECT * FROM products WHERE id > @after ORDER BY id LIMIT @limit) p
  JOIN categories c ON c.id = p.category_id
  LEFT JOIN retailers br ON br.id = p.best_retailer_id
  LEFT JOIN product_prices pp ON pp.product_id = p.id
  LEFT JOIN retailers r ON r.id = pp.retailer_id
  ORDER BY p.id, r.name COLLATE NOCASE, pp.id`;

const londonParts = new Intl.DateTimeFormat("en-GB", {
  timeZone: "Europe/London",
  hourCycle: "h23",
  year: "numeric",
  month: "numeric",
  day: "numeric",
  hour: "numeric",
  minute: "numeric",
  second: "numeric",
});
const hourMs = 60 * 60 * 1000;
/** London's offset from UTC per UTC hour (the clocks change on the hour); exports touch few hours. */
const londonOffsets = new Map<number, number>();

function londonOffsetMs(utcMs: number): number {
  const hour = Math.floor(utcMs / hourMs);
  let offset = londonOffsets.get(hour);
  if (offset === undefined) {
    const part = Object.fromEntries(londonParts.formatToParts(hour * hourMs).map(({ type, value }) => [type, Number(value)]));
    offset = Date.UTC(part.year!, part.month! - 1, part.day!, part.hour!, part.minute!, part.second!) - hour * hourMs;
    if (londonOffsets.size > 10_000) londonOffsets.clear();
    londonOffsets.set(hour, offset);
  }
  return offset;
}

/**
 * A stored UTC timestamp as a spreadsheet date showing UK time. Spreadsheet dates carry no time
 * zone and exceljs writes a Date's UTC fields, so the Date returned has London's wall-clock time
 * in its UTC fields: 2026-07-01T09:30Z (10:30 BST) becomes a Date whose UTC time is 10:30.
 */
function ukDateCell(iso: string | null): Date | null {
  if (iso === null) return null;
  const utcMs = Date.parse(iso);
  return Number.isNaN(utcMs) ? null : new Date(utcMs + londonOffsetMs(utcMs));
}

const yesNo = (flag: number | null) => (flag === null ? null : flag ? "Yes" : "No");
const text = (value: string | null) => (value === null ? null : spreadsheetText(value));
/** A column that is empty on the row of a product without offers. */
const ofOffer =
  (cell: (offer: Offer) => ExcelJS.CellValue) =>
  (row: ExportRow): ExcelJS.CellValue =>
    row.offer_id === null ? null : cell(row as Offer);

const poundsFormat = "£#,##0.00";
const dateFormat = "dd/mm/yyyy hh:mm";

interface ExportColumn {
  header: string;
  width: number;
  numFmt?: string;
  cell(row: ExportRow): ExcelJS.CellValue;
}

/** The sheet's columns in order; yes/no flags are "Yes"/"No" text. */
export const exportColumns: readonly ExportColumn[] = [
  { header: "Product ID", width: 11, numFmt: "0", cell: (row) => row.product_id },
  { header: "Name", width: 48, cell: (row) => text(row.name) },
  { header: "Slug", width: 40, cell: (row) => text(row.slug) },
  { header: "Brand", width: 18, cell: (row) => text(row.brand) },
  { header: "Category", width: 18, cell: (row) => text(row.category) },
  { header: "Rating", width: 8, numFmt: "0.0", cell: (row) => row.rating },
  { header: "Reviews", width: 10, numFmt: "#,##0", cell: (row) => row.review_count },
  { header: "Featured", width: 10, cell: (row) => yesNo(row.is_featured) },
  // The veterinary medicine category's code (POM-V, POM-VPS, NFA-VPS, AVM-GSL), or "None".
  { header: "Legal Category", width: 15, cell: (row) => (row.legal_category === "none" ? "None" : row.legal_category) },
  // The product details that have an export column, in their table's order.
  ...exportedDetails.map((detail): ExportColumn => ({ header: detail.label, width: detail.exportWidth, cell: (row) => text(row[detail.column as ProductDetailColumn] ?? null) })),
  { header: "Best Price", width: 12, numFmt: poundsFormat, cell: (row) => toPounds(row.best_price_pence) },
  { header: "Original Price", width: 14, numFmt: poundsFormat, cell: (row) => toPounds(row.original_price_pence) },
  { header: "Best Retailer", width: 15, cell: (row) => text(row.best_retailer) },
  { header: "Created", width: 17, numFmt: dateFormat, cell: (row) => ukDateCell(row.created_at) },
  { header: "Last Edited", width: 17, numFmt: dateFormat, cell: (row) => ukDateCell(row.last_edited_at) },
  { header: "Retailer", width: 15, cell: ofOffer((offer) => text(offer.retailer)) },
  { header: "Retailer Key", width: 14, cell: ofOffer((offer) => text(offer.retailer_key)) },
  { header: "Price", width: 11, numFmt: poundsFormat, cell: ofOffer((offer) => toPounds(offer.price_pence)) },
  { header: "Was Price", width: 11, numFmt: poundsFormat, cell: ofOffer((offer) => toPounds(offer.was_price_pence)) },
  {
    header: "Effective Price",
    width: 15,
    numFmt: poundsFormat,
    cell: ofOffer((offer) =>
      toPounds(
        effectivePence({
          retailerId: offer.retailer_id,
          pricePence: offer.price_pence,
          inStock: offer.in_stock === 1,
          priceOverride: offer.price_override === 1,
          manualPricePence: offer.manual_price_pence,
        }),
      ),
    ),
  },
  { header: "Override", width: 10, cell: ofOffer((offer) => yesNo(offer.price_override)) },
  { header: "Manual Price", width: 13, numFmt: poundsFormat, cell: ofOffer((offer) => toPounds(offer.manual_price_pence)) },
  { header: "In Stock", width: 10, cell: ofOffer((offer) => yesNo(offer.in_stock)) },
  { header: "Free Delivery", width: 13, cell: ofOffer((offer) => yesNo(offer.free_delivery)) },
  { header: "URL", width: 60, cell: ofOffer((offer) => text(offer.url)) },
  { header: "Offer Updated", width: 17, numFmt: dateFormat, cell: ofOffer((offer) => ukDateCell(offer.offer_updated_at)) },
];


/**
 * The sheet XML waiting for the compressor. exceljs hands each worksheet's XML to the zip archiver
 * without asking whether it keeps up (4.4.0: the sheet's buffer writes to a PassThrough the
 * archiver reads and ignores write()'s return). A slow client makes the archiver stop reading, so
 * that PassThrough is where a stalled download would pile up rows; between pages the export waits
 * for it to drain. Null if exceljs is built differently (the backpressure tests would then fail).
 */
function sheetBacklog(worksheet: ExcelJS.Worksheet): { bytes(): number; drained(): Promise<void> } | null {
  const sheetStream = (worksheet as unknown as { stream?: { pipes?: unknown[] } }).stream;
  const pipe = sheetStream?.pipes?.[0] as (NodeJS.EventEmitter & { _writableState?: { length: number } }) | undefined;
  if (!pipe?._writableState || typeof pipe.once !== "function") return null;
  const state = pipe._writableState;
  return {
    bytes: () => state.length,
    drained: () => new Promise((resolve) => pipe.once("drain", () => resolve())),
  };
}

/**
 * Streams the catalogue as an .xlsx workbook into `output` (a file, an HTTP response, a
 * PassThrough) and resolves once the workbook is complete, with the number of data rows: one per
 * offer plus one per product without offers. Rejects if `output` fails or closes first.
 */
export async function writeProductsXlsx(db: Db, output: Writable, options: ProductsXlsxOptions): Promise<{ rows: number }> {
  const pageSize = options.pageSize ?? defaultPageSize;
  let failure: Error | null = null;
  let fail!: (error: Error) => void;
  // Settles only by rejecting: raced against every wait so a closed output ends the export.
  const outputFailed = new Promise<never>((_, reject) => {
    fail = (error) => {
      failure ??= error;
      reject(failure);
    };
  });
  outputFailed.catch(() => {});
  const onError = (error: Error) => fail(error);
  // A stream that closes once everything is written (autoDestroy) may do so before the commit's
  // promise settles: that close is the normal end.
  const onClose = () => {
    if (!output.writableFinished) fail(new Error("the output closed before the export finished"));
  };
  output.on("error", onError);
  output.on("close", onClose);

  try {
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream: output,
      useStyles: true,
      useSharedStrings: false,
      zip: zipOptions,
    });
    workbook.creator = options.siteName;
    workbook.title = `${options.siteName} products`;
    const worksheet = workbook.addWorksheet("Products", {
      // The header stays in view while scrolling, with a filter on every column.
      views: [{ state: "frozen", xSplit: 0, ySplit: 1, topLeftCell: "A2", activeCell: "A2" }],
    });
    // exceljs names the columns (A to Z, then AA...) from their numbers.
    worksheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: exportColumns.length } };
    worksheet.columns = exportColumns.map((column) => ({ width: column.width }));
    // One style object per column, shared by its cells: exceljs looks a style up by object
    // identity before serialising it, which made per-cell styles a third of the export's time.
    const columnStyles: Partial<ExcelJS.Style>[] = exportColumns.map((column) => (column.numFmt ? { numFmt: column.numFmt } : {}));
    const header = worksheet.addRow(exportColumns.map((column) => column.header));
    header.font = { bold: true };
    header.commit();

    const backlog = sheetBacklog(worksheet);
    const page = statement<ExportRow>(db, pageSql);
    let rows = 0;
    let after = 0;
    for (;;) {
      if (failure) throw failure;
      let lastProductId: number | null = null;
      // The whole page is read and written without a pause: the connection is busy until the
      // iteration ends.
      for (const row of page.iterate({ after, limit: pageSize })) {
        // Empty cells are left out (undefined), not written as styled blanks.
        const values = exportColumns.map((column) => column.cell(row) ?? undefined);
        const sheetRow = worksheet.addRow(values);
        for (let index = 0; index < values.length; index++) {
          if (values[index] !== undefined) sheetRow.getCell(index + 1).style = columnStyles[index]!;
        }
        sheetRow.commit();
        lastProductId = row.product_id;
        rows += 1;
      }
      if (lastProductId === null) break;
      after = lastProductId;
      // Let the compressor, the output and other requests run before the next page.
      await Promise.race([nextTurn(), outputFailed]);
      while (backlog && backlog.bytes() > maxBufferedBytes) await Promise.race([backlog.drained(), outputFailed]);
    }
    worksheet.commit();
    await Promise.race([workbook.commit(), outputFailed]);
    return { rows };
  } finally {
    output.off("error", onError);
    output.off("close", onClose);
  }
}

/**
 * The export as a web stream (an h3 handler can return it as the response body). Cancelling the
 * stream, as a client that disconnects does, stops the export after the current page. Any other
 * failure (the database) errors the stream, which aborts the download, and is logged.
 */
export function productsXlsxStream(
  db: Db,
  { log = console.error, ...options }: ProductsXlsxOptions & { log?: (message: string) => void },
): ReadableStream<Uint8Array> {
  const body = new PassThrough();
  writeProductsXlsx(db, body, options).catch((error: unknown) => {
    // Destroyed already: the reader cancelled, nothing went wrong here.
    if (body.destroyed) return;
    const failure = error instanceof Error ? error : new Error(String(error));
    log(`product export failed: ${failure.message}`);
    body.destroy(failure);
  });
  return Readable.toWeb(body) as ReadableStream<Uint8Array>;
}
