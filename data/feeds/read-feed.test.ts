/**
 * readFeed and sniffFeed over every layout: the fixtures (our own edge cases and excerpts of real
 * public feeds, see fixtures/README.md), files that are not feeds, XML entities and CDATA, and
 * bounds (gzip bombs generated on the fly, oversized items, tokens that never end).
 */
import path from "node:path";
import { PassThrough, Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { createGzip, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { cjStyleMapping } from "./fixtures/cj-style-mapping.ts";
import { FeedRefused, FeedTooLarge, readFeed, sniffFeed, type FeedItem, type FeedReadOptions } from "./read-feed.ts";

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");
const fixture = (name: string) => path.join(fixtures, name);
const now = new Date("2026-11-20T03:00:00.000Z");

async function collect(input: NodeJS.ReadableStream | string, options: FeedReadOptions = {}): Promise<FeedItem[]> {
  const items: FeedItem[] = [];
  for await (const item of readFeed(input, { now, ...options })) items.push(item);
  return items;
}
const streamOf = (content: string | Buffer) => Readable.from([Buffer.isBuffer(content) ? content : Buffer.from(content)]);

/** Each item as one line: an offer's facts in a fixed order, or its error. */
function summarise(items: FeedItem[]): (string | number | boolean | null)[][] {
  return items.map((item) =>
    item.kind === "error"
      ? [item.error]
      : [
          item.offer.line,
          item.offer.merchantKey,
          item.offer.name,
          item.offer.pricePence,
          item.offer.originalPricePence,
          item.offer.deliveryPence,
          item.offer.inStock,
          item.offer.gtin,
          item.offer.packSize,
          item.offer.externalId,
        ],
  );
}

describe("readFeed: Google Merchant Center", () => {
  it("reads RSS 2.0 with the g: namespace: sale price in its dates, GB shipping, CDATA and entities, duplicates, bad rows", async () => {
    const items = await collect(fixture("google-rss-gbp.xml"), { retailerKey: "zooplus" });
    expect(summarise(items)).toEqual([
      [8, "zooplus", "Barkwell Salmon & Rice Kibble 2kg", 1999, 2499, 399, true, "5012345670010", "2kg", "BW-1001"],
      [37, "zooplus", "Barkwell Salmon & Rice Kibble 2kg", 1999, 2499, 399, true, "5012345670010", "2kg", "BW-1001"],
      ["line 50: no price (price empty)"],
      ["line 57: priced in EUR, not GBP (not imported)"],
      // The sale ended in October; the US-only shipping says nothing of UK delivery; the measure gives the pack.
      [64, "zooplus", "Barkwell Turkey & Veg Senior Food", 3250, null, null, false, "5012345670027", "1.5kg", "BW-1004"],
      ['line 82: condition "refurbished": only new items are compared (not imported)'],
    ]);
    const first = items[0]!.kind === "offer" ? items[0]!.offer : null;
    expect(first).toMatchObject({
      description: "Grain-free salmon & rice for adult dogs. Made in the UK.",
      brand: "Barkwell",
      mpn: "BW-SAL-2",
      image: "https://www.barkwell.example.co.uk/img/bw-1001.jpg",
      categoryName: "Dogs > Dog Food",
      url: "https://www.barkwell.example.co.uk/p/bw-1001",
      merchantName: "",
      currency: "GBP",
    });
    const turkey = items[4]!.kind === "offer" ? items[4]!.offer : null;
    expect([turkey?.description, turkey?.url]).toEqual([
      "Gentle on older dogs — £1 from every bag goes to rescue.",
      "https://www.barkwell.example.co.uk/p/bw-1004?ref=feed&size=large",
    ]);
  });

  it("applies a sale price only inside its effective dates", async () => {
    const before = await collect(fixture("google-rss-gbp.xml"), { retailerKey: "zooplus", now: new Date("2026-10-15T12:00:00Z") });
    const prices = (items: FeedItem[]) => items.flatMap((item) => (item.kind === "offer" ? [[item.offer.externalId, item.offer.pricePence, item.offer.originalPricePence]] : []));
    expect(prices(before)).toEqual([
      ["BW-1001", 2499, null],
      ["BW-1001", 2499, null],
      ["BW-1004", 2900, 3250],
    ]);
  });

  it("reads Atom entries: <link href>, unprefixed elements, g: over plain, free GB shipping, a regional rate as unknown", async () => {
    const items = await collect(fixture("google-atom-gbp.xml"), { retailerKey: "zooplus" });
    expect(summarise(items)).toEqual([
      [6, "zooplus", "Barkwell Chicken Dental Sticks 28 Sticks", 649, null, 0, true, "5012345670034", "28 sticks", "BW-2001"],
      // g:title wins over Atom's title; a barcode with a wrong check digit is dropped; preorder is unknown stock.
      [23, "zooplus", "Barkwell Cat Litter 10L", 899, null, null, null, null, "10l", "BW-2002"],
    ]);
    expect(items[0]!.kind === "offer" && items[0]!.offer.url).toBe("https://www.barkwell.example.co.uk/p/bw-2001");
  });

  it("reads the TSV layout: shipping entries per country and region, sale price without dates, unit_pricing_measure", async () => {
    const items = await collect(fixture("google-merchant.tsv"), { retailerKey: "zooplus" });
    expect(summarise(items)).toEqual([
      [2, "zooplus", "Barkwell Puppy Food", 1349, 1599, 299, true, "5012345670041", "2kg", "BW-3001"],
      [3, "zooplus", "Barkwell Puppy Food", 1349, 1599, 299, true, "5012345670041", "2kg", "BW-3001"],
      ['line 4: price "(5.00)" is an accounting negative (in brackets), not a price'],
      ["line 5: priced in EUR, not GBP (not imported)"],
      // The December sale has not started; Irish shipping only: delivery unknown.
      [6, "zooplus", "Barkwell Cat Pouches 40 x 85g", 1700, null, null, false, "5012345670072", "40x85g", "BW-3004"],
    ]);
  });

  it("refuses a Google feed when the source names no retailer, before reading any row", async () => {
    await expect(collect(fixture("google-merchant.tsv"))).rejects.toThrow("This feed (a Google Merchant Center feed) names no merchant: set the retailer its source belongs to");
    await expect(collect(fixture("google-rss-gbp.xml"))).rejects.toThrow(/names no merchant/);
  });

  it("refuses every row of the real public feeds priced in USD, EUR and INR, naming the currency", async () => {
    for (const [file, lines, currency] of [
      ["real-google-rss-usd-apparix.xml", [8, 32, 56, 82], "USD"],
      ["real-google-rss-eur-waxcelerate.xml", [7, 21, 35, 49], "EUR"],
      ["real-google-tsv-inr-rosary.tsv", [2, 3, 4, 5], "INR"],
    ] as const) {
      expect(summarise(await collect(fixture(file), { retailerKey: "zooplus" }))).toEqual(lines.map((line) => [`line ${line}: priced in ${currency}, not GBP (not imported)`]));
    }
  });
});

describe("readFeed: Awin merchant upload and mapped CSVs", () => {
  it("reads the Awin merchant upload layout (once refused whole for 'no price column')", async () => {
    const items = await collect(fixture("awin-merchant.csv"), { retailerKey: "pets-at-home" });
    expect(summarise(items)).toEqual([
      [2, "pets-at-home", "Pawprint Chicken Dinner 12 x 400g", 1899, null, null, true, "5012345670089", "12x400g", "PP-501"],
      [3, "pets-at-home", "Pawprint Chicken Dinner 12 x 400g", 1899, null, null, true, "5012345670089", "12x400g", "PP-501"],
      ['line 4: price "1/2" is a fraction, not a price'],
      ["line 5: priced in EUR, not GBP (not imported)"],
      [6, "pets-at-home", "Pawprint Lead Red", 999, null, null, false, null, null, "PP-504"],
    ]);
  });


  it("reads any CSV through the owner's column mapping; a named merchant is kept over the source's retailer", async () => {
    const items = await collect(fixture("cj-style.csv"), { layout: "mapped", mapping: cjStyleMapping, retailerKey: "amazon" });
    expect(summarise(items)).toEqual([
      [2, "zooplus", "Tailwag Grain Free Turkey 12kg", 4999, 5499, null, true, "5012345670096", "12kg", "TW-1"],
      [3, "random-pet-shop", "Tailwag Grain Free Turkey 2kg", 1299, null, null, true, null, "2kg", "TW-2"],
    ]);
    // With layout auto, a mapping is used when no built-in layout fits.
    expect(summarise(await collect(fixture("cj-style.csv"), { mapping: cjStyleMapping }))).toEqual(summarise(items));
  });

  it.each([
    [{ ...cjStyleMapping, price: "COST" }, 'The column mapping reads price from "COST", but the feed has no such column (its columns are PROGRAMNAME, NAME, SKU, DESCRIPTION, MANUFACTURER, UPC, CURRENCY, PRICE, SALEPRICE, BUYURL, IMAGEURL, ADVERTISERCATEGORY, ... (13 columns))'],
    [{ name: "NAME", price: "PRICE" }, "The column mapping sets no column for link (required)"],
    [{ name: "NAME", price: "PRICE", link: "BUYURL" }, "This feed (a feed read through its column mapping) names no merchant: set the retailer its source belongs to"],
  ])("refuses a mapping that cannot be read: %j", async (mapping, message) => {
    await expect(collect(fixture("cj-style.csv"), { layout: "mapped", mapping })).rejects.toThrow(message);
  });

  it("refuses a CSV no layout fits without a mapping, naming its columns and what it lacks", async () => {
    await expect(collect(fixture("cj-style.csv"))).rejects.toThrow(
      "This file is not a product feed this site can read: it is a CSV whose columns are PROGRAMNAME, NAME, SKU, DESCRIPTION, MANUFACTURER, UPC, CURRENCY, PRICE, SALEPRICE, BUYURL, IMAGEURL, ADVERTISERCATEGORY, ... (13 columns): it lacks a link column (link, product_url, deep_link, purl, merchant_deep_link, aw_deep_link). If it is a product feed, set a column mapping for it.",
    );
  });
});

describe("readFeed: files that are not feeds", () => {
  it.each([
    ["an HTML page with an XML declaration", '<?xml version="1.0"?>\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "x">\n<html><body/></html>', /^This file is not a product feed: it looks like an HTML page/],
    ["an HTML page after a comment", "<!-- cache miss -->\n<html><head><title>Sign in</title></head></html>", /^This file is not a product feed: it looks like an HTML page/],
    ["a sitemap", '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.co.uk/</loc></url></urlset>', /it is an XML document whose root is <urlset>/],
    ["a news feed", '<rss version="2.0"><channel><item><title>Our news</title><link>https://a.co.uk/n/1</link></item></channel></rss>', /^This file is not a product feed: it is an RSS or Atom feed whose items have no price/],
    ["a JSON document", '{"products":[]}', /^This file is not a product feed: it looks like a JSON document \(\{"products":\[\]\}\)$/],
    ["a ZIP archive", Buffer.from("PK\x03\x04\x14\x00\x08\x00", "latin1"), /it looks like a ZIP archive/],
    ["a gzipped HTML page", gzipSync('<?xml version="1.0"?><html></html>'), /it looks like an HTML page/],
  ])("refuses %s before yielding anything", async (_, content, message) => {
    const yielded: FeedItem[] = [];
    const reading = (async () => {
      for await (const item of readFeed(streamOf(content), { retailerKey: "zooplus" })) yielded.push(item);
    })();
    await expect(reading).rejects.toThrow(FeedRefused);
    await expect(reading).rejects.toThrow(message);
    expect(yielded).toEqual([]);
  });

  it("sniffs the same refusals", async () => {
    await expect(sniffFeed(streamOf("<!-- x --><html></html>"))).rejects.toThrow(/an HTML page/);
    await expect(sniffFeed(streamOf("<urlset></urlset>"))).rejects.toThrow(/whose root is <urlset>/);
    await expect(sniffFeed(streamOf("[1,2]"))).rejects.toThrow(/a JSON document/);
  });
});

describe("readFeed: other encodings and layouts", () => {
  it("decodes an XML feed in the encoding its declaration names", async () => {
    const feed = Buffer.from(
      '<?xml version="1.0" encoding="ISO-8859-1"?>\n<rss xmlns:g="http://base.google.com/ns/1.0"><channel>\n<item><g:title>P\u00e2t\u00e9 for Cats 400g</g:title><g:link>https://a.co.uk/1</g:link><g:price>\u00a33.49</g:price></item>\n</channel></rss>',
      "latin1",
    );
    expect(summarise(await collect(streamOf(feed), { retailerKey: "zooplus" }))).toEqual([[3, "zooplus", "Pâté for Cats 400g", 349, null, null, null, null, "400g", ""]]);
  });

  it("reads an XML feed's items through a column mapping of element names", async () => {
    const feed = '<rss><channel>\n<item><title>Kong Classic Large</title><cost>12.99</cost><url>https://a.co.uk/k</url><shop>Zooplus UK</shop></item>\n</channel></rss>';
    expect(summarise(await collect(streamOf(feed), { layout: "mapped", mapping: { name: "title", price: "cost", link: "url", merchantName: "shop" } }))).toEqual([
      [2, "zooplus", "Kong Classic Large", 1299, null, null, null, null, null, ""],
    ]);
  });

  it("gives the rows of an Awin publisher feed that name no merchant the source's retailer", async () => {
    const feed = "product_name,search_price,merchant_deep_link,merchant_name\nKong Classic Large,12.99,https://a.co.uk/k,\nKong Wubba,8.99,https://a.co.uk/w,Amazon UK\n";
    expect(summarise(await collect(streamOf(feed), { retailerKey: "jollyes" })).map((row) => row.slice(0, 3))).toEqual([
      [2, "jollyes", "Kong Classic Large"],
      [3, "amazon", "Kong Wubba"],
    ]);
  });
});

describe("readFeed: XML is read safely", () => {
  it("never expands a DTD's entities (billion laughs, external entities): they stay as written", async () => {
    const items = await collect(fixture("billion-laughs.xml"), { retailerKey: "zooplus" });
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ kind: "offer", offer: { line: 12, name: "Laughing Dog Toy &lol9;", description: "&xxe;", pricePence: 300 } });
  });

  it("reports an item with more than 1 MiB of text and reads on", async () => {
    const big = "x".repeat(1100 * 1024);
    const feed = `<rss xmlns:g="http://base.google.com/ns/1.0"><channel>
<item><g:title>Huge</g:title><g:description>${big}</g:description><g:link>https://a.co.uk/1</g:link><g:price>1.00 GBP</g:price></item>
<item><g:title>Small Toy</g:title><g:link>https://a.co.uk/2</g:link><g:price>2.00 GBP</g:price></item>
</channel></rss>`;
    expect(summarise(await collect(streamOf(feed), { retailerKey: "zooplus" }))).toEqual([
      ["line 2: an item with more than 1 MiB of text (not imported)"],
      [3, "zooplus", "Small Toy", 200, null, null, null, null, null, ""],
    ]);
  });

  it("refuses a CDATA section that never ends before it fills the memory", async () => {
    async function* endless() {
      yield Buffer.from('<rss xmlns:g="http://base.google.com/ns/1.0"><channel><item><g:description><![CDATA[');
      for (let i = 0; i < 200; i++) yield Buffer.alloc(64 * 1024, "a");
    }
    await expect(collect(Readable.from(endless()), { retailerKey: "zooplus" })).rejects.toThrow(/a tag, comment or CDATA section longer than 8 MiB that does not end \(line 1\)/);
  });

  it("numbers items by the line their tag starts on, however the bytes are split, and yields while the input arrives", async () => {
    const content = await import("node:fs").then((fs) => fs.readFileSync(fixture("google-rss-gbp.xml")));
    const whole = summarise(await collect(fixture("google-rss-gbp.xml"), { retailerKey: "zooplus" }));
    const pieces: Buffer[] = [];
    for (let at = 0; at < content.length; at += 7) pieces.push(content.subarray(at, at + 7));
    expect(summarise(await collect(Readable.from(pieces), { retailerKey: "zooplus" }))).toEqual(whole);

    const input = new PassThrough();
    const items = readFeed(input, { retailerKey: "zooplus", now })[Symbol.asyncIterator]();
    input.write('<rss xmlns:g="http://base.google.com/ns/1.0"><channel>\n<item><g:title>First Toy</g:title><g:link>https://a.co.uk/1</g:link><g:price>1.00 GBP</g:price></item>\n');
    const first = await items.next();
    expect(first.value).toMatchObject({ kind: "offer", offer: { name: "First Toy", line: 2 } });
    expect(input.writableEnded).toBe(false);
    input.end("</channel></rss>");
    expect((await items.next()).done).toBe(true);
  });
});

/** `total` bytes made of `unit` repeated after `head`, produced only as they are read, gzipped on the fly. */
function gzipBomb(head: string, unit: string, total: number): NodeJS.ReadableStream {
  const block = Buffer.from(unit.repeat(Math.max(1, Math.floor((64 * 1024) / unit.length))));
  async function* bytes() {
    yield Buffer.from(head);
    for (let sent = head.length; sent < total; sent += block.length) yield block;
  }
  const gzip = createGzip({ level: 1 });
  Readable.from(bytes()).pipe(gzip);
  return gzip;
}

const gib = 1024 ** 3;

describe("readFeed: gzip bombs", () => {
  it("refuses 1 GiB of spaces after reading 1 MiB of it", async () => {
    const started = process.memoryUsage().rss;
    await expect(collect(gzipBomb("", " ", gib))).rejects.toThrow("This file is not a product feed: it starts with over 1 MiB of blank space");
    expect(process.memoryUsage().rss - started).toBeLessThan(100 * 1024 * 1024);
  });

  it("stops 1 GiB of repeated CSV rows at the byte cap, with every row before it read and memory flat", async () => {
    const header = "product_name,search_price,merchant_name,merchant_deep_link\n";
    const row = "Kong Classic Large,12.99,Amazon UK,https://www.amazon.co.uk/dp/B0001\n";
    let rows = 0;
    let peak = 0;
    const started = process.memoryUsage().rss;
    const reading = (async () => {
      for await (const item of readFeed(gzipBomb(header, row, gib), { maxBytes: 32 * 1024 * 1024 })) {
        if (item.kind === "offer") rows++;
        if (rows % 50_000 === 0) peak = Math.max(peak, process.memoryUsage().rss - started);
      }
    })();
    await expect(reading).rejects.toThrow(FeedTooLarge);
    await expect(reading).rejects.toThrow("The feed is larger than 32 MiB once decompressed; reading stopped there (a gzip bomb, or a feed to split)");
    // 32 MiB of 71-byte rows: all rows that came before the cap, less the one cut by it.
    expect(rows).toBeGreaterThan(Math.floor((32 * 1024 * 1024 - header.length) / row.length) - 1200);
    expect(rows).toBeLessThanOrEqual(Math.floor((32 * 1024 * 1024 - header.length) / row.length));
    expect(peak).toBeLessThan(150 * 1024 * 1024);
  }, 60_000);

  it("stops 1 GiB of XML (repeated items, then blank space inside the channel) at the byte cap", async () => {
    const head = '<rss xmlns:g="http://base.google.com/ns/1.0"><channel>\n';
    const item = "<item><g:title>Kong Classic Large</g:title><g:link>https://a.co.uk/k</g:link><g:price>12.99 GBP</g:price></item>\n";
    let items = 0;
    const reading = (async () => {
      for await (const _ of readFeed(gzipBomb(head, item, gib), { retailerKey: "zooplus", maxBytes: 16 * 1024 * 1024 })) items++;
    })();
    await expect(reading).rejects.toThrow(FeedTooLarge);
    expect(items).toBeGreaterThan(100_000);
    await expect(collect(gzipBomb(head, " ", gib), { retailerKey: "zooplus", maxBytes: 16 * 1024 * 1024 })).rejects.toThrow(FeedTooLarge);
  }, 60_000);
});

describe("sniffFeed", () => {
  it.each([
    ["google-rss-gbp.xml", "xml", "google-merchant", "Google Merchant Center XML (RSS 2.0)", { id: "BW-1001", price: "24.99 GBP", shipping: "IE::Standard:9.99 EUR,GB::Standard:3.99 GBP" }],
    ["google-atom-gbp.xml", "xml", "google-merchant", "Google Merchant Center XML (Atom)", { id: "BW-2001", link: "https://www.barkwell.example.co.uk/p/bw-2001", shipping: "GB:::0.00 GBP" }],
    ["google-merchant.tsv", "tsv", "google-merchant", "Google Merchant Center TSV", { id: "BW-3001", price: "15.99 GBP", unit_pricing_measure: "2kg" }],
    ["awin-merchant.csv", "csv", "awin-merchant", "Awin merchant upload CSV", { product_id: "PP-501", price: "18.99" }],
    ["cj-style.csv", "csv", null, "CSV whose columns fit no known layout: set a column mapping", { NAME: "Tailwag Grain Free Turkey 12kg", PRICE: "54.99" }],
    ["../amazon-best-sellers.csv", "csv", "awin-publisher", "Awin publisher feed CSV", {}],
  ])("%s: %s, %s", async (file, format, layout, description, firstRow) => {
    const sniffed = await sniffFeed(fixture(file));
    expect([sniffed.format, sniffed.layout, sniffed.description]).toEqual([format, layout, description]);
    expect(sniffed.sample.length).toBe(file.includes("atom") || file.includes("cj") ? 2 : 3);
    expect(sniffed.sample[0]).toMatchObject(firstRow);
  });

  it("gives the columns as written, and stops reading after the first rows", async () => {
    const input = new PassThrough();
    input.write("id\ttitle\tlink\tprice\n1\tA\thttps://a.co.uk/1\t1.00 GBP\n2\tB\thttps://a.co.uk/2\t2.00 GBP\n3\tC\thttps://a.co.uk/3\t3.00 GBP\n4\tD");
    const sniffed = await sniffFeed(input);
    expect(sniffed.columns).toEqual(["id", "title", "link", "price"]);
    expect(sniffed.sample.map((row) => row.title)).toEqual(["A", "B", "C"]);
    expect(input.destroyed).toBe(true);
  });
});
