import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PassThrough, Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { detectDelimiter, FeedRefused, readFeed, type FeedItem, type FeedOffer } from "./awin-feed.ts";
import { writeGeneratedFeed } from "./generate-feed.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "awin-feed-"));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

async function collect(input: NodeJS.ReadableStream | string): Promise<FeedItem[]> {
  const items: FeedItem[] = [];
  for await (const item of readFeed(input)) items.push(item);
  return items;
}

const read = (content: string | Buffer) => collect(Readable.from([Buffer.isBuffer(content) ? content : Buffer.from(content)]));
const offers = (items: FeedItem[]): FeedOffer[] => items.flatMap((item) => (item.kind === "offer" ? [item.offer] : []));
const errors = (items: FeedItem[]) => items.flatMap((item) => (item.kind === "error" ? [item] : []));

const header = "product_name,search_price,merchant_name,merchant_deep_link,currency,delivery_cost,in_stock,ean,product_GTIN,description";
const link = "https://www.amazon.co.uk/dp/B07ABCDEF1";
/** One data line in the `header` layout. */
const rowOf = (name: string, price = "12.99", extra: Partial<Record<"currency" | "delivery" | "stock" | "ean" | "gtin" | "description", string>> = {}) =>
  [
    name,
    price,
    "Amazon UK",
    link,
    extra.currency ?? "GBP",
    extra.delivery ?? "",
    extra.stock ?? "",
    extra.ean ?? "",
    extra.gtin ?? "",
    extra.description ?? "",
  ].join(",");

describe("readFeed: messy feeds", () => {
  it("reads quoted cells with delimiters, doubled quotes and line breaks, numbering rows by the line they start on", async () => {
    const feed = [
      header,
      rowOf('"Royal Canin Mini Adult, 2kg"', "15.99"),
      rowOf('"Trixie Bed ""Harvey"" 60cm"', "24.99"),
      rowOf("Kong Classic Large", "12.99", { description: '"Bounces, floats\nand squeaks.\nTough."' }),
      rowOf("Felix Pouches 12 x 100g", "5.50"),
    ].join("\n");
    const items = await read(feed);
    expect(errors(items)).toEqual([]);
    expect(offers(items).map((offer) => [offer.line, offer.name, offer.description])).toEqual([
      [2, "Royal Canin Mini Adult, 2kg", ""],
      [3, 'Trixie Bed "Harvey" 60cm', ""],
      [4, "Kong Classic Large", "Bounces, floats and squeaks. Tough."],
      [7, "Felix Pouches 12 x 100g", ""],
    ]);
  });

  it("counts blank lines and Windows line endings (also inside quoted cells) in the line numbers", async () => {
    const feed = [
      header,
      "",
      rowOf("First 2kg"),
      "",
      "",
      rowOf("Second", "9.99", { description: '"one\r\ntwo\r\nthree"' }),
      rowOf("Third"),
      "   ",
      rowOf("Fourth"),
    ].join("\r\n");
    const items = await read(feed);
    expect(items.map((item) => (item.kind === "offer" ? [item.offer.line, item.offer.name] : item.error))).toEqual([
      [3, "First 2kg"],
      [6, "Second"],
      [9, "Third"],
      [11, "Fourth"],
    ]);
  });

  it("skips a UTF-8 byte-order mark before the header, even when it arrives split across chunks", async () => {
    const content = Buffer.from(`${header}\n${rowOf("Whiskas 1+ 12 x 85g")}\n`);
    const items = await read(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), content]));
    expect(offers(items).map((offer) => offer.name)).toEqual(["Whiskas 1+ 12 x 85g"]);
    const split = await collect(Readable.from([Buffer.from([0xef]), Buffer.from([0xbb, 0xbf, content[0]!]), content.subarray(1)]));
    expect(offers(split).map((offer) => offer.name)).toEqual(["Whiskas 1+ 12 x 85g"]);
  });

  it.each([
    [";", "semicolon"],
    ["\t", "tab"],
    ["|", "pipe"],
  ])("detects a %j (%s) delimiter from the header line", async (delimiter) => {
    const feed = [
      ["product_name", "search_price", "merchant_name", "merchant_deep_link", "currency", "description"].join(delimiter),
      ["Royal Canin Mini Adult 2kg", "15,99", "Amazon UK", link, "GBP", "Small kibble, big taste"].join(delimiter),
      ["Whiskas 1+ 40 x 85g", "£12.49", "Zooplus UK", "https://www.zooplus.co.uk/shop/cats/x/1", "GBP", "Pouches"].join(delimiter),
    ].join("\n");
    const items = await read(feed);
    expect(errors(items)).toEqual([]);
    expect(offers(items).map((offer) => [offer.name, offer.pricePence, offer.merchantKey, offer.description])).toEqual([
      ["Royal Canin Mini Adult 2kg", 1599, "amazon", "Small kibble, big taste"],
      ["Whiskas 1+ 40 x 85g", 1249, "zooplus", "Pouches"],
    ]);
  });

  it("detects the delimiter a header uses most", () => {
    expect(detectDelimiter("a,b,c")).toBe(",");
    expect(detectDelimiter("a;b;c")).toBe(";");
    expect(detectDelimiter("a\tb,c\td")).toBe("\t");
    expect(detectDelimiter("a|b|c")).toBe("|");
    expect(detectDelimiter("product_name")).toBe(",");
  });

  it("reads a Windows-1252 file (a £ as byte 0xA3, é as 0xE9) and a file with both encodings, cell by cell", async () => {
    const latin1 = Buffer.from(`${header}\n${rowOf("Caf\u00e9 Pets Treats 100g", "\u00a34.99")}\n`, "latin1");
    expect(latin1.includes(0xa3)).toBe(true);
    const mixed = Buffer.concat([
      Buffer.from(`${header}\n`),
      Buffer.from(`${rowOf("P\u00e2t\u00e9 for Cats 400g", "\u00a33.49")}\n`, "latin1"),
      Buffer.from(`${rowOf("P\u00e2t\u00e9 for Dogs 400g", "\u00a33.99")}\n`, "utf8"),
    ]);
    expect(offers(await read(latin1)).map((offer) => [offer.name, offer.pricePence])).toEqual([["Café Pets Treats 100g", 499]]);
    expect(offers(await read(mixed)).map((offer) => [offer.name, offer.pricePence])).toEqual([
      ["Pâté for Cats 400g", 349],
      ["Pâté for Dogs 400g", 399],
    ]);
  });

  it("repairs double-encoded UTF-8 (mojibake)", async () => {
    const items = await read(`${header}\n${rowOf("CafÃ© Pets Lilyâ€™s Treats", "Â£4.99")}\n`);
    expect(offers(items).map((offer) => [offer.name, offer.pricePence])).toEqual([["Café Pets Lily’s Treats", 499]]);
  });

  it("reads prices with decimal commas and currency text, and refuses other currencies row by row", async () => {
    const feed = [
      header,
      rowOf("A", '"12,99"'),
      rowOf("B", "£12.99"),
      rowOf("C", "GBP 12.99"),
      rowOf("D", "12.99 GBP"),
      rowOf("E", "EUR130.00"),
      rowOf("F", '"5,95 EUR"', { currency: "" }),
      rowOf("G", '"5,95"', { currency: "EUR" }),
      rowOf("H", "abc"),
      rowOf("I", "0.00"),
    ].join("\n");
    const items = await read(feed);
    expect(offers(items).map((offer) => [offer.name, offer.pricePence])).toEqual([
      ["A", 1299],
      ["B", 1299],
      ["C", 1299],
      ["D", 1299],
    ]);
    expect(errors(items)).toEqual([
      { kind: "error", line: 6, error: "line 6: priced in EUR, not GBP (not imported)" },
      { kind: "error", line: 7, error: "line 7: priced in EUR, not GBP (not imported)" },
      { kind: "error", line: 8, error: "line 8: priced in EUR, not GBP (not imported)" },
      { kind: "error", line: 9, error: 'line 9: price "abc" is not a price' },
      { kind: "error", line: 10, error: 'line 10: price "0.00" is not above zero' },
    ]);
  });

  it("reads delivery text, stock words, barcodes from product_GTIN and drops Excel-mangled barcodes", async () => {
    const feed = [
      header,
      rowOf("Free", "35.00", { delivery: "Free", stock: "yes" }),
      rowOf("Free over", "12.00", { delivery: "Free over £29", stock: "out of stock" }),
      rowOf("Paid", "12.00", { delivery: "£3.99", stock: "0", gtin: "5010394000055" }),
      rowOf("Excel", "12.00", { delivery: "3.99", stock: "In Stock", ean: "5.01E+12" }),
      rowOf("Unknown", "12.00", { stock: "preorder", ean: "5010394000055" }),
    ].join("\n");
    const items = await read(feed);
    expect(errors(items)).toEqual([]);
    expect(offers(items).map((offer) => [offer.name, offer.deliveryPence, offer.inStock, offer.gtin])).toEqual([
      ["Free", 0, true, null],
      ["Free over", null, false, null],
      ["Paid", 399, false, "5010394000055"],
      ["Excel", 399, true, null],
      ["Unknown", null, null, "5010394000055"],
    ]);
  });

  it("ignores unknown columns, any column order and header case, and trims cells", async () => {
    const feed = [
      " Merchant_Deep_Link ,EXTRA_COLUMN,Search_Price,Product_Name  ,merchant_name",
      `${link}  ,whatever,  15.99  ,  Royal Canin Mini Adult 2kg   ,Amazon UK `,
    ].join("\n");
    const items = await read(feed);
    expect(offers(items).map((offer) => [offer.name, offer.pricePence, offer.url, offer.merchantName])).toEqual([
      ["Royal Canin Mini Adult 2kg", 1599, link, "Amazon UK"],
    ]);
  });

  it("reports rows with a different cell count and keeps reading; a trailing empty cell is not a different count", async () => {
    const feed = [header, rowOf("Good"), `${rowOf("Extra")},surplus`, "Short,1.99,Amazon UK", `${rowOf("Trailing delimiter")},`, rowOf("Also good")].join("\n");
    const items = await read(feed);
    expect(items.map((item) => (item.kind === "offer" ? item.offer.name : item.error))).toEqual([
      "Good",
      "line 3: 11 cells where the header has 10 (row not imported)",
      "line 4: 3 cells where the header has 10 (row not imported)",
      "Trailing delimiter",
      "Also good",
    ]);
  });

  it("reports rows without a name, a price or a link, and keeps reading", async () => {
    const feed = [header, rowOf(""), rowOf("No price", ""), "No link,1.99,Amazon UK,,GBP,,,,,", rowOf("Good")].join("\n");
    const items = await read(feed);
    expect(items.map((item) => (item.kind === "offer" ? item.offer.name : item.error))).toEqual([
      "line 2: no product name",
      "line 3: no price (search_price, store_price and display_price are empty)",
      "line 4: no link to the product (merchant_deep_link and aw_deep_link are empty)",
      "Good",
    ]);
  });

  it("keeps a stray quote inside an unquoted cell as text", async () => {
    const items = await read(`${header}\n${rowOf('Trixie Bed 24" Grey')}\n${rowOf("Next")}\n`);
    expect(offers(items).map((offer) => offer.name)).toEqual(['Trixie Bed 24" Grey', "Next"]);
  });

  it("reports a quote that is never closed, after the rows before it", async () => {
    const items = await read(`${header}\n${rowOf("Before")}\n${rowOf('"Unclosed')}\n${rowOf("Swallowed")}\n`);
    expect(items.map((item) => (item.kind === "offer" ? item.offer.name : item.error))).toEqual([
      "Before",
      expect.stringMatching(/^line \d+: malformed CSV: a quote opened in this row is never closed/),
    ]);
  });

  it("reads a header-only feed as no items", async () => {
    expect(await read(`${header}\n`)).toEqual([]);
    expect(await read(header)).toEqual([]);
  });
});

describe("readFeed: files that are not feeds", () => {
  it.each([
    [
      "an HTML page",
      "<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head><body>Error</body></html>",
      /^This file is not a product feed: it looks like an HTML page/,
    ],
    ["an HTML page after blank lines", "\n\n  <html>\n<body>Sign in</body></html>", /it looks like an HTML page/],
    ["an XML document", '<?xml version="1.0"?><products></products>', /^This file is not a product feed this site can read: it is an XML document whose root is <products> /],
    ["an HTML page after an XML declaration", '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html>\n<html><body>Login</body></html>', /^This file is not a product feed: it looks like an HTML page/],
    ["an XHTML page after a comment", '<!-- generated -->\n<html xmlns="http://www.w3.org/1999/xhtml"><body>Error</body></html>', /^This file is not a product feed: it looks like an HTML page/],
    ["an HTML fragment without <html>", "<head><title>Error 500</title></head><body></body>", /^This file is not a product feed: it looks like an HTML page/],
    ["a JSON error body", '{"error":"Invalid API key","code":401}', /^This file is not a product feed: it looks like a JSON document \(\{"error":"Invalid API key"/],
    ["a JSON array", "[]", /it looks like a JSON document/],
    ["an empty file", "", /^The feed is empty$/],
    ["a file of blank lines", "\n\n  \r\n", /^The feed is empty$/],
    ["a byte-order mark alone", Buffer.from([0xef, 0xbb, 0xbf]), /^The feed is empty$/],
    ["a byte-order mark and blank lines", Buffer.from("\uFEFF\n\n", "utf8"), /^The feed is empty$/],
    ["a ZIP archive", "PK\x03\x04\x14\x00\x00\x00", /ZIP archive/],
    ["a binary file", "\x00\x01\x02product_name", /binary file/],
    ["a header without product_name", "search_price,merchant_name,merchant_deep_link\n1.99,A,https://a.co.uk\n", /^The feed has no product_name column$/],
    ["a header without a price", "product_name,merchant_name,merchant_deep_link\n", /^The feed has no price column/],
    ["a Google-like table without a link", "id,title,price\n1,Dog food,1.99\n", /^This file looks like a Google Merchant Center feed but it lacks a link column \(link\); its columns are id, title, price$/],
    [
      "a line of unrelated columns",
      "sku,label,cost\n1,Dog food,1.99\n",
      /^This file is not a product feed this site can read: it is a CSV whose columns are sku, label, cost: it lacks a name column \(title, product_name, name\), a price column \(price, search_price, store_price, display_price\) and a link column \(link, product_url, deep_link, purl, merchant_deep_link, aw_deep_link\)\. If it is a product feed, set a column mapping for it\.$/,
    ],
  ])("refuses %s before yielding anything", async (_, content, message) => {
    const yielded: FeedItem[] = [];
    const reading = (async () => {
      const bytes = Buffer.isBuffer(content) ? content : Buffer.from(content, "latin1");
      for await (const item of readFeed(Readable.from([bytes]))) yielded.push(item);
    })();
    await expect(reading).rejects.toThrow(FeedRefused);
    await expect(reading).rejects.toThrow(message);
    expect(yielded).toEqual([]);
  });

  it("refuses an HTML page saved as .csv from a file path, and closes the file", async () => {
    const file = path.join(dir, "feed.csv");
    fs.writeFileSync(file, "<html><body><h1>Session expired</h1></body></html>\n");
    await expect(collect(file)).rejects.toThrow("This file is not a product feed: it looks like an HTML page");
  });

  it("passes on a file that cannot be read", async () => {
    await expect(collect(path.join(dir, "missing.csv"))).rejects.toThrow(/ENOENT/);
  });
});

describe("readFeed: streaming", () => {
  it("reads a gzip file, detected by its bytes whatever its name", async () => {
    const content = [header, rowOf("Royal Canin Mini Adult 2kg", "15.99"), rowOf("Whiskas 1+ 40 x 85g", "12.49")].join("\n");
    const file = path.join(dir, "feed.csv");
    fs.writeFileSync(file, gzipSync(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(content)])));
    expect(offers(await collect(file)).map((offer) => [offer.line, offer.name, offer.pricePence])).toEqual([
      [2, "Royal Canin Mini Adult 2kg", 1599],
      [3, "Whiskas 1+ 40 x 85g", 1249],
    ]);
  });

  it("refuses a gzip file that holds an HTML page", async () => {
    await expect(read(gzipSync("<!doctype html><html></html>"))).rejects.toThrow(/HTML page/);
  });

  it("yields rows while the input is still arriving", async () => {
    const input = new PassThrough();
    const items = readFeed(input)[Symbol.asyncIterator]();
    input.write(`${header}\n${rowOf("First")}\n`);
    input.write(`${rowOf("Second")}\n`);
    const first = await items.next();
    expect(first.value).toMatchObject({ kind: "offer", offer: { name: "First" } });
    expect(input.writableEnded).toBe(false);
    input.end(`${rowOf("Third")}\n`);
    const rest: string[] = [];
    for (let next = await items.next(); next.done !== true; next = await items.next())
      rest.push(next.value.kind === "offer" ? next.value.offer.name : next.value.error);
    expect(rest).toEqual(["Second", "Third"]);
  });

  it("reads a generated 5,000-row feed, plain and gzipped, with every refused row reported", async () => {
    for (const gzip of [false, true]) {
      const file = path.join(dir, gzip ? "generated.csv.gz" : "generated.csv");
      const written = await writeGeneratedFeed(file, { bytes: 4_000_000, gzip });
      expect(written.rows).toBeGreaterThanOrEqual(5000);
      let offerCount = 0;
      let errorCount = 0;
      let lastLine = 0;
      for await (const item of readFeed(file)) {
        const line = item.kind === "offer" ? item.offer.line : item.line;
        expect(line).toBeGreaterThan(lastLine);
        lastLine = line;
        if (item.kind === "offer") offerCount++;
        else errorCount++;
      }
      expect(errorCount).toBe(written.refusedRows);
      expect(offerCount + errorCount).toBe(written.rows);
    }
  });

  it("destroys the input stream when it refuses it, when the caller stops early and when it is done", async () => {
    const refused = Readable.from([Buffer.from("<html></html>")]);
    await expect(collect(refused)).rejects.toThrow(FeedRefused);
    expect(refused.destroyed).toBe(true);

    const stopped = new PassThrough();
    stopped.end(`${header}\n${rowOf("First")}\n${rowOf("Second")}\n`);
    for await (const item of readFeed(stopped)) {
      expect(item).toMatchObject({ kind: "offer", offer: { name: "First" } });
      break;
    }
    expect(stopped.destroyed).toBe(true);

    const gzipped = Readable.from([gzipSync(`${header}\n${rowOf("Only")}\n`)]);
    expect(offers(await collect(gzipped)).map((offer) => offer.name)).toEqual(["Only"]);
    expect(gzipped.destroyed).toBe(true);
  });

  it("lets the caller stop early", async () => {
    const file = path.join(dir, "early-stop.csv");
    await writeGeneratedFeed(file, { bytes: 300_000 });
    let seen = 0;
    for await (const item of readFeed(file)) {
      expect(item).toBeDefined();
      if (++seen === 3) break;
    }
    expect(seen).toBe(3);
  });
});

describe("the sample Amazon best-seller feed", () => {
  it("parses into 37 offers and no errors", async () => {
    const items = await collect(path.join(here, "amazon-best-sellers.csv"));
    expect(errors(items)).toEqual([]);
    const all = offers(items);
    expect(all).toHaveLength(37);
    for (const offer of all) {
      expect(offer).toMatchObject({ merchantName: "Amazon UK", merchantKey: "amazon", currency: "GBP" });
      expect(offer.url).toMatch(/^https:\/\/www\.amazon\.co\.uk\/dp\/B0[0-9A-Z]{8}$/);
      expect(offer.affiliateUrl).toMatch(/^https:\/\/www\.awin1\.com\/pclick\.php\?p=\d+&a=\d+&m=\d+$/);
      expect(offer.image).toMatch(/^https:\/\/m\.media-amazon\.com\/images\/I\//);
      expect(offer.gtin).toMatch(/^\d{13}$/);
      expect(offer.brand).not.toBeNull();
      expect(offer.description).not.toBe("");
      expect([0, 499]).toContain(offer.deliveryPence);
    }
    expect(all.filter((offer) => offer.inStock === false)).toHaveLength(2);
    expect(new Set(all.map((offer) => offer.categoryName))).toEqual(
      new Set([
        "Dog Food",
        "Dog Treats",
        "Dog Toys",
        "Cat Food",
        "Cat Treats",
        "Cat Toys",
        "Cat Litter",
        "Flea & Tick",
        "Fish & Aquatics",
        "Small Animal",
        "Bird",
        "Dog Collars & Leads",
      ]),
    );
  });
});
