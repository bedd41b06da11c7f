/**
 * A synthetic product feed of about a given size (Awin's CSV layout, or a Google Merchant Center
 * XML feed: see GeneratedFeedOptions.format), for benchmarks and streaming tests:
 * the seed catalogue's real UK brands and product lines sold by many merchants, the same product
 * carrying the same valid GTIN at every merchant, and a few percent of the messy rows real feeds
 * have (quoted commas, quotes and line breaks, decimal commas, prices with "£" or its mojibake
 * "Â£", delivery as words, Excel-mangled barcodes, blank lines) plus rows that must be refused (euro prices,
 * no name, a price that is not a number, a wrong cell count). Written as a stream: the file is
 * never built in memory. Deterministic for a given seed.
 */
import { createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { gtinCheckDigit, standardFeedColumns } from "../domain/feed-row.ts";
import { categorySeeds, productLineSeeds } from "../seed/catalogue-data.ts";
import { registryEntryByName } from "../domain/retailers.ts";
import { mulberry32 } from "../domain/seeded-random.ts";

export interface GeneratedFeedOptions {
  /** Uncompressed size to reach; the feed stops at the first row that reaches it. */
  bytes: number;
  /**
   * awin-csv (default): Awin's publisher layout, many merchants. google-xml: one shop's Google
   * Merchant Center RSS 2.0 feed (g: namespace, CDATA and entities, sale prices with dates, GB
   * shipping), its merchant given by the reader's retailerKey.
   */
  format?: "awin-csv" | "google-xml";
  /** Gzip the file (the name is not changed; readers detect gzip by its bytes). */
  gzip?: boolean;
  seed?: number;
}

export interface GeneratedFeedStats {
  /** Data records written (blank lines are not records). */
  rows: number;
  /** Of those, the ones a reader must refuse: each is one error item. */
  refusedRows: number;
  /** Uncompressed bytes written. */
  bytes: number;
}

export const generatedFeedColumns = [...standardFeedColumns, "brand_name", "rrp_price", "in_stock", "ean", "product_GTIN", "mpn", "base_price_text"] as const;

/** Merchants: the compared retailers under the names feeds use for them, then many others. */
const namedMerchants = [
  "Amazon UK",
  "Pets at Home",
  "Jollyes - The Pet People",
  "Zooplus UK",
  "eBay UK",
  "Viovet",
  "Fetch",
  "Pet Planet",
  "VetUK",
  "Pet Supermarket",
  "Monster Pet Supplies",
  "Purely Pets",
  "Bitiba UK",
  "Animed Direct",
  "Medicanimal",
];
const merchantWords = ["Paws", "Whiskers", "Tails", "Barking", "Purrfect", "Country", "Valley", "Northern", "Coastal", "Happy"];
const merchantKinds = ["Pet Supplies", "Pet Store", "Pets", "Pet Shop", "Feeds", "Aquatics & Pets"];
const merchants = [
  ...namedMerchants,
  ...merchantWords.flatMap((word, i) => merchantKinds.map((kind, j) => `${word} ${kind}${(i + j) % 4 === 0 ? " Ltd" : ""}`)),
].map((name, index) => ({ name, id: String(1000 + index * 37) }));

function pounds(pence: number, separator = "."): string {
  return `${Math.floor(pence / 100)}${separator}${String(pence % 100).padStart(2, "0")}`;
}

function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

interface Product {
  name: string;
  brand: string;
  category: string;
  description: string;
  pricePence: number;
  gtin: string;
  mpn: string;
}

/** Every natural product of the seed catalogue (line x flavour x pack), each with its own GTIN. */
function products(): Product[] {
  const categoryName = new Map(categorySeeds.map((category) => [category.slug, category.name]));
  const list: Product[] = [];
  for (const line of productLineSeeds) {
    for (const flavour of line.flavours ?? [""]) {
      for (const variant of line.variants) {
        const body = `50${String(list.length * 7919 + 1_000_003).padStart(10, "0")}`;
        list.push({
          name: [line.brand, line.line, flavour, variant.pack].filter((part) => part !== "").join(" "),
          brand: line.brand,
          category: categoryName.get(line.categorySlug) ?? line.categorySlug,
          description: line.about.replaceAll("{pack}", variant.pack).replaceAll("{flavour}", flavour.toLowerCase()),
          pricePence: variant.pricePence,
          gtin: body + gtinCheckDigit(body),
          mpn: `${line.brand.slice(0, 3).toUpperCase()}-${list.length}`,
        });
      }
    }
  }
  return list;
}

/** The feed's lines, in chunks of about 64 KB, and the stats once the generator is done. */
function* feedChunks(options: GeneratedFeedOptions, stats: GeneratedFeedStats): Generator<string> {
  const random = mulberry32(options.seed ?? 20_240_601);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const catalogue = products();
  let chunk = `${generatedFeedColumns.join(",")}\n`;
  stats.bytes = Buffer.byteLength(chunk);

  for (let row = 0; stats.bytes < options.bytes; row++) {
    const product = pick(catalogue);
    const merchant = pick(merchants);
    const pricePence = Math.max(99, Math.round((product.pricePence * (0.88 + random() * 0.27)) / 10) * 10 - 1);
    const awProductId = String(30_000_000_000 + row * 13);
    const slug = product.name.toLowerCase().replace(/[^a-z0-9]+/g, "-");
    const cells: Record<(typeof generatedFeedColumns)[number], string> = {
      aw_deep_link: `https://www.awin1.com/pclick.php?p=${awProductId}&a=1234567&m=${merchant.id}`,
      product_name: product.name,
      aw_product_id: awProductId,
      merchant_product_id: `${merchant.id}-${row}`,
      merchant_image_url: `https://images.example-merchant.co.uk/${merchant.id}/${slug}.jpg`,
      description: product.description,
      merchant_category: `Pet Supplies > ${product.category}`,
      search_price: pounds(pricePence),
      merchant_name: merchant.name,
      merchant_id: merchant.id,
      category_name: product.category,
      category_id: "586",
      aw_image_url: `https://images2.productserve.com/?w=200&h=200&url=${encodeURIComponent(`https://images.example-merchant.co.uk/${slug}.jpg`)}`,
      currency: "GBP",
      store_price: pounds(pricePence),
      delivery_cost: pricePence >= 2900 ? "0.00" : "3.99",
      // A registry retailer's rows link to its own website, so they pass the offer URL check.
      merchant_deep_link: `${registryEntryByName(merchant.name)?.website ?? `https://www.${merchant.name.toLowerCase().replace(/[^a-z0-9]+/g, "")}.co.uk`}/p/${slug}`,
      language: "en",
      last_updated: "2025-06-01 04:12:09",
      display_price: `GBP${pounds(pricePence)}`,
      data_feed_id: String(20_000 + Number(merchant.id)),
      brand_name: product.brand,
      rrp_price: random() < 0.3 ? pounds(pricePence + 100 + Math.floor(random() * 5) * 100) : "",
      in_stock: random() < 0.93 ? "1" : "0",
      ean: product.gtin,
      product_GTIN: "",
      mpn: product.mpn,
      base_price_text: "",
    };

    let refused = false;
    let extraCell = false;
    let blankLineAfter = false;
    const mess = random();
    if (mess < 0.1) cells.description = `${product.description} Feeding guide: "see pack", serve at room temperature,\nstore in a cool, dry place.`;
    else if (mess < 0.12) cells.search_price = `£${pounds(pricePence)}`;
    else if (mess < 0.14) cells.search_price = pounds(pricePence, ",");
    else if (mess < 0.16) [cells.ean, cells.product_GTIN] = ["", product.gtin];
    else if (mess < 0.17) cells.ean = `${product.gtin.slice(0, 1)}.${product.gtin.slice(1, 3)}E+12`;
    else if (mess < 0.19) cells.delivery_cost = pick(["Free", "free delivery", "£3.99", "Free over £29", ""]);
    else if (mess < 0.2) cells.in_stock = pick(["yes", "no", "In Stock", "out of stock", "true", "false"]);
    else if (mess < 0.202) cells.search_price = `Â£${pounds(pricePence)}`;
    else if (mess < 0.205) cells.product_name = `${product.name}  `;
    else if (mess < 0.21) blankLineAfter = true;
    else if (mess < 0.215) [cells.currency, cells.search_price, refused] = ["EUR", pounds(pricePence, ","), true];
    else if (mess < 0.218) [cells.search_price, cells.store_price, cells.display_price, refused] = ["abc", "", "", true];
    else if (mess < 0.221) [cells.product_name, refused] = ["", true];
    else if (mess < 0.223) [extraCell, refused] = [true, true];

    let line = generatedFeedColumns.map((column) => csvCell(cells[column])).join(",");
    if (extraCell) line += ",unexpected";
    line += blankLineAfter ? "\n\n" : "\n";
    chunk += line;
    stats.bytes += Buffer.byteLength(line);
    stats.rows += 1;
    if (refused) stats.refusedRows += 1;
    if (chunk.length >= 65_536) {
      yield chunk;
      chunk = "";
    }
  }
  if (chunk !== "") yield chunk;
}

function xmlText(value: string): string {
  return value.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

/**
 * A Google Merchant Center RSS 2.0 feed's text, in chunks of about 64 KB, and the stats once done.
 * It is one shop's catalogue, as a real shop's feed is: every product of the seed catalogue once,
 * at a price of its own that is the same in every feed generated, then the shop's other products
 * (the catalogue's lines under other names and barcodes), which the site does not list.
 */
function* googleXmlChunks(options: GeneratedFeedOptions, stats: GeneratedFeedStats): Generator<string> {
  const random = mulberry32(options.seed ?? 20_240_601);
  const catalogue = products();
  const listed = (row: number): Product => {
    const product = catalogue[row % catalogue.length]!;
    if (row < catalogue.length) return product;
    const edition = Math.floor(row / catalogue.length);
    const body = `51${String(row * 7919 + 2_000_003).padStart(10, "0")}`;
    return { ...product, name: `${product.name} Shop Edition ${edition}`, gtin: body + gtinCheckDigit(body), mpn: `${product.mpn}-E${edition}` };
  };
  const close = "  </channel>\n</rss>\n";
  let chunk = '<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:g="http://base.google.com/ns/1.0">\n  <channel>\n    <title>Generated pet shop</title>\n    <link>https://www.zooplus.co.uk</link>\n    <description>Pet food &amp; supplies</description>\n';
  stats.bytes = Buffer.byteLength(chunk) + close.length;

  for (let row = 0; stats.bytes < options.bytes; row++) {
    const product = listed(row);
    // The shop's own price: below the catalogue's on every third product, the same otherwise.
    const pricePence = row % 3 === 0 ? Math.max(99, product.pricePence - 50) : product.pricePence;
    const slug = product.name.toLowerCase().replace(/[^a-z0-9]+/g, "-");
    let price = `<g:price>${pounds(pricePence)} GBP</g:price>`;
    let refused = false;
    const mess = random();
    if (mess < 0.003) [price, refused] = [`<g:price>${pounds(pricePence)} EUR</g:price>`, true];
    else if (mess < 0.006) [price, refused] = ["", true];
    else if (mess < 0.2) {
      const sale = Math.max(99, pricePence - 100 - Math.floor(random() * 4) * 50);
      price += `\n      <g:sale_price>${pounds(sale)} GBP</g:sale_price>\n      <g:sale_price_effective_date>2026-01-01T00:00+0000/2030-12-31T23:59+0000</g:sale_price_effective_date>`;
    }
    const description = random() < 0.5 ? `<![CDATA[<p>${product.description}</p>]]>` : xmlText(product.description);
    const item = `    <item>
      <g:id>ZP-${row}</g:id>
      <g:title>${xmlText(product.name)}</g:title>
      <g:description>${description}</g:description>
      <g:link>https://www.zooplus.co.uk/shop/p/${slug}?id=${row}&amp;ref=feed</g:link>
      <g:image_link>https://media.zooplus.example/bilder/${slug}.jpg</g:image_link>
      <g:availability>${random() < 0.93 ? "in stock" : "out of stock"}</g:availability>
      ${price}
      <g:brand>${xmlText(product.brand)}</g:brand>
      <g:gtin>${product.gtin}</g:gtin>
      <g:mpn>${product.mpn}</g:mpn>
      <g:condition>new</g:condition>
      <g:google_product_category>Animals &amp; Pet Supplies &gt; Pet Supplies</g:google_product_category>
      <g:product_type>Pet Supplies &gt; ${xmlText(product.category)}</g:product_type>
      <g:shipping>
        <g:country>GB</g:country>
        <g:service>Standard</g:service>
        <g:price>${pricePence >= 2900 ? "0.00" : "3.99"} GBP</g:price>
      </g:shipping>
    </item>
`;
    chunk += item;
    stats.bytes += Buffer.byteLength(item);
    stats.rows += 1;
    if (refused) stats.refusedRows += 1;
    if (chunk.length >= 65_536) {
      yield chunk;
      chunk = "";
    }
  }
  yield chunk + close;
}

/**
 * Writes a generated feed to `path`, streaming, and resolves with what it wrote once the file
 * is complete.
 * @example await writeGeneratedFeed("/tmp/feed.csv.gz", { bytes: 200 * 1024 * 1024, gzip: true })
 */
export async function writeGeneratedFeed(path: string, options: GeneratedFeedOptions): Promise<GeneratedFeedStats> {
  const stats: GeneratedFeedStats = { rows: 0, refusedRows: 0, bytes: 0 };
  const source = Readable.from(options.format === "google-xml" ? googleXmlChunks(options, stats) : feedChunks(options, stats));
  const target = createWriteStream(path);
  if (options.gzip === true) await pipeline(source, createGzip(), target);
  else await pipeline(source, target);
  return stats;
}
