/**
 * Every feed layout through the real importer into a real temporary SQLite file, run twice: the
 * first run stores what each layout's rows say (pence, delivery, original price, stock, barcode),
 * the second changes nothing. Lives beside the readers because it tests what they hand the
 * importer; the importer's own rules are tested in api/jobs/product-import.test.ts.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importFeed } from "./product-import.ts";
import { catalogueRevision } from "../../data/db/catalogue-revision.ts";
import { tempDb, type TempDb } from "../../data/db/fixtures/temp-db.ts";
import { cjStyleMapping } from "../../data/feeds/fixtures/cj-style-mapping.ts";
import { readFeed, type FeedReadOptions } from "../../data/feeds/read-feed.ts";

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../data/feeds/fixtures");
const at = new Date("2026-11-20T03:00:00.000Z");
let temp: TempDb;

beforeAll(async () => {
  temp = await tempDb(40, at);
  // The fixture feeds link to their shops' example hosts; the retailers they are imported as are
  // given those hosts, as the site owner would (offer URLs must be on their retailer's hosts).
  temp.db.$client.prepare("UPDATE retailers SET hosts = ? WHERE key = 'zooplus'").run(JSON.stringify(["barkwell.example.co.uk"]));
  temp.db.$client.prepare("UPDATE retailers SET hosts = ? WHERE key = 'pets-at-home'").run(JSON.stringify(["pawprint.example.co.uk"]));
});
afterAll(() => temp.remove());

const count = (sql: string) => (temp.db.$client.prepare(sql).get() as { n: number }).n;

async function importTwice(file: string, source: string, options: FeedReadOptions) {
  const run = (minutes: number) =>
    importFeed(temp.db, readFeed(path.join(fixtures, file), { now: at, ...options }), {
      source: { name: source, createProducts: true },
      now: () => new Date(at.getTime() + minutes * 60_000),
    });
  const first = await run(0);
  const state = { products: count("SELECT count(*) AS n FROM products"), history: count("SELECT count(*) AS n FROM price_history"), revision: catalogueRevision(temp.db) };
  const second = await run(5);
  return { first, second, state };
}


/** A stored offer as [name, retailer, price, original, delivery, in stock, gtin]. */
const offer = (name: string, retailer: string, price: number, original: number | null, delivery: number | null, inStock: 0 | 1, gtin: string | null) => ({
  name,
  retailer,
  price,
  original,
  delivery,
  inStock,
  gtin,
});

describe("every layout through the importer, twice", () => {
  it.each([
    [
      "google-rss-gbp.xml",
      "google-rss",
      { retailerKey: "zooplus" },
      { rows: 6, created: 2, existing: 1, rejected: 3 },
      [
        'Skipped "Barkwell Salmon & Rice Kibble 2kg": it already exists',
        "line 50: no price (price empty)",
        "line 57: priced in EUR, not GBP (not imported)",
        'line 82: condition "refurbished": only new items are compared (not imported)',
      ],
      [
        offer("Barkwell Salmon & Rice Kibble 2kg", "zooplus", 1999, 2499, 399, 1, "5012345670010"),
        offer("Barkwell Turkey & Veg Senior Food", "zooplus", 3250, null, null, 0, "5012345670027"),
      ],
    ],
    [
      "google-atom-gbp.xml",
      "google-atom",
      { retailerKey: "zooplus" },
      { rows: 2, created: 1, existing: 0, rejected: 1 },
      ['line 23: "Barkwell Cat Litter 10L" is in the feed category "", which matches no catalogue category (not imported)'],
      [offer("Barkwell Chicken Dental Sticks 28 Sticks", "zooplus", 649, null, 0, 1, "5012345670034")],
    ],
    [
      "google-merchant.tsv",
      "google-tsv",
      { retailerKey: "zooplus" },
      { rows: 5, created: 2, existing: 1, rejected: 2 },
      ['Skipped "Barkwell Puppy Food": it already exists', 'line 4: price "(5.00)" is an accounting negative (in brackets), not a price', "line 5: priced in EUR, not GBP (not imported)"],
      [offer("Barkwell Cat Pouches 40 x 85g", "zooplus", 1700, null, null, 0, "5012345670072"), offer("Barkwell Puppy Food", "zooplus", 1349, 1599, 299, 1, "5012345670041")],
    ],
    [
      "awin-merchant.csv",
      "awin-merchant",
      { retailerKey: "pets-at-home" },
      { rows: 5, created: 2, existing: 1, rejected: 2 },
      ['Skipped "Pawprint Chicken Dinner 12 x 400g": it already exists', 'line 4: price "1/2" is a fraction, not a price', "line 5: priced in EUR, not GBP (not imported)"],
      [offer("Pawprint Chicken Dinner 12 x 400g", "pets-at-home", 1899, null, null, 1, "5012345670089"), offer("Pawprint Lead Red", "pets-at-home", 999, null, null, 0, null)],
    ],
    [
      "cj-style.csv",
      "cj",
      { layout: "mapped", mapping: cjStyleMapping },
      { rows: 2, created: 1, existing: 0, rejected: 1 },
      ['line 3: "Tailwag Grain Free Turkey 2kg" is sold by Random Pet Shop, a retailer whose prices we do not compare (not imported)'],
      [offer("Tailwag Grain Free Turkey 12kg", "zooplus", 4999, 5499, null, 1, "5012345670096")],
    ],
  ] as const)("%s", async (file, source, options, counts, messages, stored) => {
    const products = count("SELECT count(*) AS n FROM products");
    const { first, second, state } = await importTwice(file, source, options as FeedReadOptions);
    expect(first).toMatchObject({ ...counts, offersAdded: 0, pricesChanged: 0, held: 0, unmatched: 0 });
    expect(first.errors).toEqual(messages);
    expect(state.products).toBe(products + counts.created);
    expect(
      temp.db.$client
        .prepare(
          `SELECT p.name, r.key AS retailer, pp.price_pence AS price, pp.original_price_pence AS original, pp.delivery_pence AS delivery, pp.in_stock AS inStock, p.gtin
           FROM product_prices pp JOIN products p ON p.id = pp.product_id JOIN retailers r ON r.id = pp.retailer_id
           WHERE pp.source = ? ORDER BY p.name`,
        )
        .all(`feed:${source}`),
    ).toEqual(stored);

    // The second run finds every good row as existing and changes nothing.
    expect(second).toMatchObject({ rows: counts.rows, created: 0, existing: counts.created + counts.existing, offersAdded: 0, pricesChanged: 0, held: 0, rejected: counts.rejected });
    expect(second.change.productIds).toEqual([]);
    expect(count("SELECT count(*) AS n FROM products")).toBe(state.products);
    expect(count("SELECT count(*) AS n FROM price_history")).toBe(state.history);
    expect(catalogueRevision(temp.db)).toBe(state.revision);
  });
});
