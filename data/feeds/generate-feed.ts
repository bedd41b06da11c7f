/**
 * A synthetic Awin product feed of about a given size, for benchmarks and streaming tests:
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

export interface GeneratedFeedOptions {
  /** Uncompressed size to reach; the feed stops at the first row that reaches it. */
  bytes: number;
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
const websites: Readonly<Record<string, string>> = {
  "Amazon UK": "www.amazon.co.uk",
  "Pets at Home": "www.petsathome.com",
  "Jollyes - The Pet People": "www.jollyes.co.uk",
  "Zooplus UK": "www.zooplus.co.uk",
  "eBay UK": "www.ebay.co.uk",
};
const merchantWords = ["Paws", "Whiskers", "Tails", "Barking", "Purrfect", "Country", "Valley", "Northern", "Coastal", "Happy"];
const merchantKinds = ["Pet Supplies", "Pet Store", "Pets", "Pet Shop", "Feeds", "Aquatics & Pets"];
const merchants = [
  ...namedMerchants,
  ...merchantWords.flatMap((word, i) => merchantKinds.map((kind, j) => `${word} ${kind}${(i + j) % 4 === 0 ? " Ltd" : ""}`)),
].map((name, index) => ({ name, id: String(1000 + index * 37) }));

/** mulberry32: small, fast and good enough for test data. */
function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
  const random = createRandom(options.seed ?? 20_240_601);
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
      merchant_deep_link: `https://${websites[merchant.name] ?? `www.${merchant.name.toLowerCase().replace(/[^a-z0-9]+/g, "")}.co.uk`}/p/${slug}`,
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

/**
 * Writes a generated feed to `path`, streaming, and resolves with what it wrote once the file
 * is complete.
 * @example await writeGeneratedFeed("/tmp/feed.csv.gz", { bytes: 200 * 1024 * 1024, gzip: true })
 */
export async function writeGeneratedFeed(path: string, options: GeneratedFeedOptions): Promise<GeneratedFeedStats> {
  const stats: GeneratedFeedStats = { rows: 0, refusedRows: 0, bytes: 0 };
  const source = Readable.from(feedChunks(options, stats));
  const target = createWriteStream(path);
  if (options.gzip === true) await pipeline(source, createGzip(), target);
  else await pipeline(source, target);
  return stats;
}
