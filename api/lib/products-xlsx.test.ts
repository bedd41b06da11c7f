import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportColumns, exportFileName, productsXlsxStream, spreadsheetText, writeProductsXlsx, type ProductsXlsxOptions } from "./products-xlsx.ts";
import type { Db } from "../../data/db/client.ts";
import { tempDb, type TempDb } from "../../data/db/fixtures/temp-db.ts";

const headers = [
  "Product ID", "Name", "Slug", "Brand", "Category", "Rating", "Reviews", "Featured", "Legal Category", "Best Price", "Original Price",
  "Best Retailer", "Created", "Last Edited", "Retailer", "Retailer Key", "Price", "Was Price", "Effective Price", "Override",
  "Manual Price", "In Stock", "Free Delivery", "URL", "Offer Updated",
];

/** Names a spreadsheet would take for a formula (or a formula's start) if written as they are. */
const dangerousNames = ['=HYPERLINK("http://evil","x")', "+44 Treats", "-20% Chew", "@SUM(A1:A9)", "\tTabbed Lead", "\rCarriage Return"];

let dir: string;
/** A hand-made catalogue whose every value is known (see seedKnownCatalogue). */
let known: TempDb;
/** A generated catalogue exported over many small pages. */
let generated: TempDb;
let generatedRows: number;
/**
 * A generated catalogue of about 17,000 rows (20 MB of sheet XML), several times what the export
 * may hold back for a stalled reader: its own backlog (1 MB of XML, plus a page) and the zip
 * streams' buffers of compressed output (a few hundred KB, about 2 MB of XML), some 4,000 rows.
 */
let large: TempDb;
let largeRows: number;
const maxRowsHeldBack = 5000;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-xlsx-"));
  known = await tempDb(0);
  seedKnownCatalogue(known.db);
  generated = await tempDb(300);
  generatedRows = expectedRows(generated.db);
  large = await tempDb(5000);
  largeRows = expectedRows(large.db);
});
afterAll(() => {
  known?.remove();
  generated?.remove();
  large?.remove();
  fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * Retailers are inserted out of name order (ids Zooplus 1, eBay 2, Amazon 3, Jollyes 4), so rows
 * in retailer-name order are not rows in id order. Product 1 has four offers; products 3 and 9
 * have one; the rest have none.
 */
function seedKnownCatalogue(db: Db): void {
  const run = (text: string, ...params: unknown[]) => db.$client.prepare(text).run(...params);
  run("INSERT INTO categories (id, name, slug, icon) VALUES (1, 'Dog Food', 'dog-food', 'bowl')");
  for (const [id, key, name] of [[1, "zooplus", "Zooplus"], [2, "ebay", "eBay"], [3, "amazon", "Amazon"], [4, "jollyes", "Jollyes"]] as const) {
    run("INSERT INTO retailers (id, key, name, logo, website) VALUES (?, ?, ?, '', ?)", id, key, name, `https://${key}.example`);
  }
  const product = (id: number, name: string, extra: Record<string, unknown> = {}) => {
    const row = { id, name, slug: `product-${id}`, category_id: 1, created_at: "2027-01-05T12:00:00.000Z", ...extra };
    const columns = Object.keys(row);
    run(`INSERT INTO products (${columns.join(", ")}) VALUES (${columns.map((c) => `@${c}`).join(", ")})`, row);
  };
  const offer = (productId: number, retailerId: number, extra: Record<string, unknown>) => {
    const row = { product_id: productId, retailer_id: retailerId, url: `https://shop.example/${productId}/${retailerId}`, ...extra };
    const columns = Object.keys(row);
    run(`INSERT INTO product_prices (${columns.join(", ")}) VALUES (${columns.map((c) => `@${c}`).join(", ")})`, row);
  };
  product(1, "Royal Canin Mini Adult 2kg", {
    slug: "royal-canin-mini-adult-2kg",
    brand: "Royal Canin",
    rating: 4.3,
    review_count: 1234,
    is_featured: 1,
    best_price_pence: 1199,
    original_price_pence: 1499,
    best_retailer_id: 3,
    created_at: "2026-07-01T09:30:00.000Z",
    last_edited_at: "2027-01-10T08:05:00.000Z",
  });
  offer(1, 1, { price_pence: 1299, in_stock: 1, free_delivery: 1, updated_at: "2027-01-10T08:05:00.000Z" });
  offer(1, 2, { price_pence: 1249, original_price_pence: 1499, in_stock: 0, updated_at: "2026-08-15T22:59:00.000Z" });
  offer(1, 3, { price_pence: 1350, price_override: 1, manual_price_pence: 1199, updated_at: "2026-08-15T23:00:00.000Z" });
  // Override on without a manual price: the listed price still applies.
  offer(1, 4, { price_pence: 1000, price_override: 1, updated_at: "2026-08-16T00:00:00.000Z" });
  product(2, dangerousNames[0]!, { brand: "=1+1" });
  product(3, dangerousNames[1]!);
  offer(3, 1, { price_pence: 35, url: "@SUM(1+1)" });
  product(4, dangerousNames[2]!, { brand: "-Brand" });
  product(5, dangerousNames[3]!);
  product(6, dangerousNames[4]!);
  product(7, dangerousNames[5]!);
  product(8, "Safe - Name = fine +1 @home");
  product(9, "Big Bag", { best_price_pence: 123456, legal_category: "POM-VPS" });
  offer(9, 3, { price_pence: 123456 });
}

/** One row per offer plus one per product without offers. */
function expectedRows(db: Db): number {
  const row = db.$client
    .prepare(
      `SELECT (SELECT count(*) FROM product_prices)
        + (SELECT count(*) FROM products p WHERE NOT EXISTS (SELECT 1 FROM product_prices pp WHERE pp.product_id = p.id)) AS n`,
    )
    .get() as { n: number };
  return row.n;
}

let fileCount = 0;
async function exportAndRead(db: Db, options: Partial<ProductsXlsxOptions> = {}) {
  const file = path.join(dir, `export-${++fileCount}.xlsx`);
  const result = await writeProductsXlsx(db, fs.createWriteStream(file), { siteName: "PawPrice", ...options });
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(file);
  const sheet = workbook.worksheets[0]!;
  const cell = (rowNumber: number, header: string) => sheet.getRow(rowNumber).getCell(headers.indexOf(header) + 1);
  const values = (rowNumber: number) => headers.map((header) => cell(rowNumber, header).value);
  return { result, workbook, sheet, cell, values };
}

/** Every data row's values, in sheet order. */
function allRows(sheet: ExcelJS.Worksheet): unknown[][] {
  const rows: unknown[][] = [];
  for (let number = 2; number <= sheet.rowCount; number++) rows.push(headers.map((_, index) => sheet.getRow(number).getCell(index + 1).value));
  return rows;
}

/** The database with a count of the rows its statements have handed out through iterate(). */
function countingReads(db: Db): { db: Db; rowsRead: () => number } {
  let rowsRead = 0;
  const bind = (target: object, key: string | symbol) => {
    const value: unknown = Reflect.get(target, key);
    return typeof value === "function" ? value.bind(target) : value;
  };
  const client = new Proxy(db.$client, {
    get(target, key) {
      if (key !== "prepare") return bind(target, key);
      return (sql: string) =>
        new Proxy(target.prepare(sql), {
          get(statement, statementKey) {
            if (statementKey !== "iterate") return bind(statement, statementKey);
            return function* (...params: unknown[]) {
              for (const row of statement.iterate(...params)) {
                rowsRead += 1;
                yield row;
              }
            };
          },
        });
    },
  });
  return { db: { $client: client }, rowsRead: () => rowsRead };
}

/** A writable that accepts nothing until released. */
function stalledOutput() {
  const chunks: Buffer[] = [];
  let held: (() => void) | null = null;
  let flowing = false;
  const output = new Writable({
    highWaterMark: 16 * 1024,
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      if (flowing) callback();
      else held = () => callback();
    },
  });
  return {
    output,
    release() {
      flowing = true;
      held?.();
    },
    bytes: () => Buffer.concat(chunks),
  };
}

/** Waits until `read()` has not changed for 300 ms: the export has stopped reading. */
async function whenSettled(read: () => number): Promise<number> {
  let last = -1;
  while (read() !== last) {
    last = read();
    await sleep(300);
  }
  return last;
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
}

describe("writeProductsXlsx", () => {
  it("writes a bold, frozen header row naming every column, with a filter and readable widths", async () => {
    const { sheet } = await exportAndRead(known.db);
    expect(exportColumns.map((column) => column.header)).toEqual(headers);
    expect(sheet.getRow(1).values).toEqual([undefined, ...headers]);
    headers.forEach((header, index) => {
      expect(sheet.getRow(1).getCell(index + 1).font?.bold, header).toBe(true);
      expect(sheet.getColumn(index + 1).width, header).toBeGreaterThanOrEqual(header.length);
    });
    expect(sheet.getRow(2).getCell(1).font?.bold).toBeFalsy();
    expect(sheet.getColumn(headers.indexOf("Name") + 1).width).toBeGreaterThan(sheet.getColumn(headers.indexOf("Rating") + 1).width!);
    expect(sheet.views).toEqual([expect.objectContaining({ state: "frozen", xSplit: 0, ySplit: 1 })]);
    expect(sheet.autoFilter).toBe("A1:Y1");
  });

  it("writes one row per offer plus one per product without offers, by product id then retailer name", async () => {
    const { result, sheet, values } = await exportAndRead(known.db);
    expect(result.rows).toBe(12);
    expect(result.rows).toBe(expectedRows(known.db));
    expect(sheet.rowCount).toBe(13);
    const order = Array.from({ length: 12 }, (_, i) => [values(i + 2)[0], values(i + 2)[headers.indexOf("Retailer")]]);
    expect(order).toEqual([
      [1, "Amazon"],
      [1, "eBay"],
      [1, "Jollyes"],
      [1, "Zooplus"],
      [2, null],
      [3, "Zooplus"],
      [4, null],
      [5, null],
      [6, null],
      [7, null],
      [8, null],
      [9, "Amazon"],
    ]);
  });

  it("writes numbers as numbers, pounds exact to the penny with a £ format, flags as Yes/No", async () => {
    const { cell } = await exportAndRead(known.db);
    // Row 2 is product 1 at Amazon (override on, manual £11.99); row 3 eBay; row 4 Jollyes; row 5 Zooplus.
    const expectNumber = (rowNumber: number, header: string, value: number, numFmt?: string) => {
      const target = cell(rowNumber, header);
      expect(target.type, `${header} of row ${rowNumber}`).toBe(ExcelJS.ValueType.Number);
      expect(target.value, `${header} of row ${rowNumber}`).toBe(value);
      if (numFmt) expect(target.numFmt, header).toBe(numFmt);
    };
    expectNumber(2, "Product ID", 1);
    expectNumber(2, "Rating", 4.3, "0.0");
    expectNumber(2, "Reviews", 1234, "#,##0");
    expectNumber(2, "Best Price", 11.99, "£#,##0.00");
    expectNumber(2, "Original Price", 14.99, "£#,##0.00");
    expectNumber(2, "Price", 13.5, "£#,##0.00");
    expectNumber(2, "Effective Price", 11.99, "£#,##0.00");
    expectNumber(2, "Manual Price", 11.99, "£#,##0.00");
    expectNumber(3, "Price", 12.49);
    expectNumber(3, "Was Price", 14.99, "£#,##0.00");
    expectNumber(3, "Effective Price", 12.49);
    expectNumber(4, "Effective Price", 10);
    expectNumber(5, "Price", 12.99);
    expectNumber(5, "Effective Price", 12.99);
    // 35 * 0.01 would be 0.35000000000000003.
    expectNumber(7, "Price", 0.35);
    expectNumber(13, "Price", 1234.56);
    expectNumber(13, "Best Price", 1234.56);

    expect([cell(2, "Featured").value, cell(2, "Override").value, cell(2, "In Stock").value, cell(2, "Free Delivery").value]).toEqual(["Yes", "Yes", "Yes", "No"]);
    expect([cell(3, "Override").value, cell(3, "In Stock").value]).toEqual(["No", "No"]);
    expect([cell(5, "Override").value, cell(5, "In Stock").value, cell(5, "Free Delivery").value]).toEqual(["No", "Yes", "Yes"]);
    expect(cell(6, "Featured").value).toBe("No");
    // The legal category's code, on every row of the product; "None" for a product that is not a medicine.
    expect([cell(2, "Legal Category").value, cell(5, "Legal Category").value, cell(12, "Legal Category").value]).toEqual(["None", "None", "None"]);
    expect(cell(13, "Legal Category").value).toBe("POM-VPS");
    expect([cell(2, "Best Retailer").value, cell(2, "Retailer Key").value, cell(3, "Retailer Key").value]).toEqual(["Amazon", "amazon", "ebay"]);
    expect([cell(2, "Name").value, cell(2, "Slug").value, cell(2, "Brand").value, cell(2, "Category").value]).toEqual([
      "Royal Canin Mini Adult 2kg",
      "royal-canin-mini-adult-2kg",
      "Royal Canin",
      "Dog Food",
    ]);
    expect(cell(5, "URL").value).toBe("https://shop.example/1/1");
  });

  it("writes timestamps as dates showing UK time (BST in summer, GMT in winter) with a date format", async () => {
    const { cell } = await exportAndRead(known.db);
    const expectDate = (rowNumber: number, header: string, shown: string) => {
      const target = cell(rowNumber, header);
      expect(target.type, header).toBe(ExcelJS.ValueType.Date);
      expect(target.value, header).toBeInstanceOf(Date);
      // A spreadsheet date has no zone: its UTC fields are what the sheet shows.
      expect((target.value as Date).toISOString(), header).toBe(shown);
      expect(target.numFmt, header).toBe("dd/mm/yyyy hh:mm");
    };
    expectDate(2, "Created", "2026-07-01T10:30:00.000Z");
    expectDate(2, "Last Edited", "2027-01-10T08:05:00.000Z");
    expectDate(5, "Offer Updated", "2027-01-10T08:05:00.000Z");
    expectDate(3, "Offer Updated", "2026-08-15T23:59:00.000Z");
    expectDate(2, "Offer Updated", "2026-08-16T00:00:00.000Z");
    expect(cell(6, "Last Edited").value).toBeNull();
  });

  it("leaves a product's offer cells empty when it has no offers, and fills its product cells", async () => {
    const { cell, values } = await exportAndRead(known.db);
    const offerHeaders = headers.slice(headers.indexOf("Retailer"));
    for (const header of offerHeaders) expect(cell(6, header).value, header).toBeNull();
    expect(values(6).slice(0, 8)).toEqual([2, `'${dangerousNames[0]}`, "product-2", "'=1+1", "Dog Food", 4.5, 0, "No"]);
    expect(cell(6, "Best Price").value).toBeNull();
    expect(cell(6, "Created").value).toEqual(new Date("2027-01-05T12:00:00.000Z"));
  });

  it("keeps text that starts like a formula as text, prefixed with an apostrophe, in every text column", async () => {
    const { cell } = await exportAndRead(known.db);
    const nameRows = [6, 7, 8, 9, 10, 11];
    dangerousNames.forEach((name, index) => {
      const target = cell(nameRows[index]!, "Name");
      expect(target.type, JSON.stringify(name)).toBe(ExcelJS.ValueType.String);
      expect(target.formula, JSON.stringify(name)).toBeUndefined();
      // An XML reader turns a bare carriage return into a line feed; what matters is the apostrophe in front.
      expect(target.value, JSON.stringify(name)).toBe(`'${name}`.replace("\r", "\n"));
    });
    expect([cell(6, "Brand").value, cell(8, "Brand").value, cell(7, "URL").value]).toEqual(["'=1+1", "'-Brand", "'@SUM(1+1)"]);
    for (const rowNumber of [6, 7, 8]) expect(cell(rowNumber, "Brand").type === ExcelJS.ValueType.Formula).toBe(false);
    // Only the first character counts.
    expect(cell(12, "Name").value).toBe("Safe - Name = fine +1 @home");
  });

  it("writes only the header for an empty catalogue", async () => {
    const empty = await tempDb(0);
    try {
      const { result, sheet } = await exportAndRead(empty.db);
      expect(result.rows).toBe(0);
      expect(sheet.rowCount).toBe(1);
      expect(sheet.getRow(1).values).toEqual([undefined, ...headers]);
    } finally {
      empty.remove();
    }
  });

  it("writes the same rows whatever the page size, with no product lost or repeated at a page boundary", async () => {
    const onePage = await exportAndRead(known.db);
    for (const pageSize of [1, 2, 5]) {
      const paged = await exportAndRead(known.db, { pageSize });
      expect(allRows(paged.sheet), `page size ${pageSize}`).toEqual(allRows(onePage.sheet));
    }
  });

  it("exports a generated catalogue over many pages: every offer once, by product id then retailer name", async () => {
    const { result, sheet } = await exportAndRead(generated.db, { pageSize: 7 });
    expect(result.rows).toBe(generatedRows);
    expect(sheet.rowCount).toBe(generatedRows + 1);
    const idColumn = headers.indexOf("Product ID") + 1;
    const retailerColumn = headers.indexOf("Retailer") + 1;
    const pairs: string[] = [];
    let previous: [number, string] = [0, ""];
    for (let number = 2; number <= sheet.rowCount; number++) {
      const id = sheet.getRow(number).getCell(idColumn).value as number;
      const retailer = (sheet.getRow(number).getCell(retailerColumn).value as string | null) ?? "";
      const inOrder = id > previous[0] || (id === previous[0] && retailer.toLowerCase() > previous[1].toLowerCase());
      expect(inOrder, `row ${number}: ${id} ${retailer} after ${previous.join(" ")}`).toBe(true);
      previous = [id, retailer];
      if (retailer) pairs.push(`${id}:${retailer}`);
    }
    const offers = generated.db.$client
      .prepare("SELECT pp.product_id || ':' || r.name AS pair FROM product_prices pp JOIN retailers r ON r.id = pp.retailer_id")
      .all() as { pair: string }[];
    expect(pairs.sort()).toEqual(offers.map((offer) => offer.pair).sort());
  });

  it("stops reading the database while the output does not keep up, and finishes once it does", async () => {
    const counted = countingReads(large.db);
    const { output, release, bytes } = stalledOutput();
    const writing = writeProductsXlsx(counted.db, output, { siteName: "PawPrice", pageSize: 20 });
    const readWhileStalled = await whenSettled(counted.rowsRead);
    expect(largeRows).toBeGreaterThan(3 * maxRowsHeldBack);
    expect(readWhileStalled).toBeGreaterThan(0);
    expect(readWhileStalled).toBeLessThan(maxRowsHeldBack);
    // The connection is free while the export waits.
    expect(large.db.$client.prepare("SELECT count(*) AS n FROM products").get()).toEqual({ n: 5000 });
    release();
    await expect(writing).resolves.toEqual({ rows: largeRows });
    expect(counted.rowsRead()).toBe(largeRows);
    // A finished zip: it ends with the end-of-central-directory record (no comment).
    const file = bytes();
    expect(file.subarray(0, 2).toString("latin1")).toBe("PK");
    expect(file.readUInt32LE(file.length - 22)).toBe(0x06054b50);
  });

  it("fails, and stops reading, when the output closes before the export is done", async () => {
    const counted = countingReads(large.db);
    const { output } = stalledOutput();
    const writing = writeProductsXlsx(counted.db, output, { siteName: "PawPrice", pageSize: 20 });
    await whenSettled(counted.rowsRead);
    output.destroy();
    await expect(writing).rejects.toThrow(/output closed/);
    const readBeforeClose = counted.rowsRead();
    await sleep(300);
    expect(counted.rowsRead()).toBe(readBeforeClose);
    expect(readBeforeClose).toBeLessThan(maxRowsHeldBack);
  });
});

describe("productsXlsxStream", () => {
  it("streams the whole workbook as a web stream", async () => {
    const buffer = await readAll(productsXlsxStream(known.db, { siteName: "PawPrice" }));
    expect(buffer.subarray(0, 2).toString("latin1")).toBe("PK");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(buffer as unknown as ExcelJS.Buffer);
    expect(workbook.creator).toBe("PawPrice");
    expect(workbook.title).toBe("PawPrice products");
    const sheet = workbook.worksheets[0]!;
    expect(sheet.rowCount).toBe(13);
    expect(sheet.getRow(2).getCell(headers.indexOf("Retailer") + 1).value).toBe("Amazon");
  });

  it("stops the export when the reader cancels, as a client that disconnects does", async () => {
    const counted = countingReads(large.db);
    const logged: string[] = [];
    const reader = productsXlsxStream(counted.db, { siteName: "PawPrice", pageSize: 20, log: (message) => logged.push(message) }).getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    await reader.cancel();
    const read = await whenSettled(counted.rowsRead);
    expect(read).toBeLessThan(maxRowsHeldBack);
    expect(large.db.$client.prepare("SELECT 1 AS one").get()).toEqual({ one: 1 });
    // A client going away is not a failure.
    expect(logged).toEqual([]);
  });
  it("errors the stream and logs when the export fails", async () => {
    const broken: Db = {
      $client: {
        prepare() {
          throw new Error("disk I/O error");
        },
      } as unknown as Db["$client"],
    };
    const logged: string[] = [];
    const stream = productsXlsxStream(broken, { siteName: "PawPrice", log: (message) => logged.push(message) });
    await expect(readAll(stream)).rejects.toThrow("disk I/O error");
    expect(logged).toEqual(["product export failed: disk I/O error"]);
  });
});

describe("spreadsheetText", () => {
  it("prefixes an apostrophe to text starting with = + - @, a tab or a carriage return, and leaves other text alone", () => {
    for (const value of ["=1+1", "+1", "-1", "@A1", "\tx", "\rx"]) expect(spreadsheetText(value)).toBe(`'${value}`);
    for (const value of ["", "Royal Canin", " =1+1", "1-2", "a=b", "\nx", "'quoted"]) expect(spreadsheetText(value)).toBe(value);
  });
});

describe("exportFileName", () => {
  it("is the site name as a slug, then products, then the UK date", () => {
    expect(exportFileName("PawPrice", new Date("2027-01-15T12:00:00Z"))).toBe("pawprice-products-2027-01-15.xlsx");
    expect(exportFileName("Paw & Claw Deals!", new Date("2027-01-15T12:00:00Z"))).toBe("paw-and-claw-deals-products-2027-01-15.xlsx");
    expect(exportFileName("!!!", new Date("2027-01-15T12:00:00Z"))).toBe("site-products-2027-01-15.xlsx");
  });

  it("takes the date in London: BST from the last Sunday of March to the last Sunday of October", () => {
    const name = (iso: string) => exportFileName("PawPrice", new Date(iso));
    // 2027: clocks go forward on 28 March at 01:00 UTC and back on 31 October at 01:00 UTC.
    expect(name("2027-01-31T23:30:00Z")).toBe("pawprice-products-2027-01-31.xlsx");
    expect(name("2027-03-27T23:30:00Z")).toBe("pawprice-products-2027-03-27.xlsx");
    expect(name("2027-03-31T22:59:59Z")).toBe("pawprice-products-2027-03-31.xlsx");
    expect(name("2027-03-31T23:30:00Z")).toBe("pawprice-products-2027-04-01.xlsx");
    expect(name("2027-10-30T23:30:00Z")).toBe("pawprice-products-2027-10-31.xlsx");
    expect(name("2027-10-31T23:30:00Z")).toBe("pawprice-products-2027-10-31.xlsx");
    expect(name("2027-11-01T00:00:00Z")).toBe("pawprice-products-2027-11-01.xlsx");
  });
});
