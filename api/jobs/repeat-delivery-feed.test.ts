/**
 * Repeat-delivery prices from an affiliate feed, over a real SQLite file and a real CSV fixture
 * (data/feeds/fixtures/repeat-delivery.csv): the import creates products and adds offers with
 * their repeat price and terms; a later import's price checks change or clear them; a feed with
 * no repeat column keeps them; the refresh's feed path maps them the same way.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importFeed } from "./product-import.ts";
import { refreshPrices } from "./price-refresh.ts";
import { tempDb, type TempDb } from "../../data/db/fixtures/temp-db.ts";
import { getProductBySlug } from "../../data/db/products.ts";
import { readFeed } from "../../data/feeds/awin-feed.ts";

const fixture = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../data/feeds/fixtures/repeat-delivery.csv");

let temp: TempDb;
let dir: string;
const at = new Date("2026-11-20T03:00:00.000Z");
const hoursLater = (hours: number) => new Date(at.getTime() + hours * 3_600_000);

beforeAll(async () => {
  temp = await tempDb(10, at);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-repeat-feed-"));
});
afterAll(() => {
  temp.remove();
  fs.rmSync(dir, { recursive: true, force: true });
});

interface RepeatRow {
  retailer: string;
  price: number;
  repeat: number | null;
  terms: string | null;
}

/** Every offer of the product with this GTIN, by retailer key. */
const offersOf = (gtin: string) =>
  temp.db.$client
    .prepare(
      `SELECT r.key AS retailer, pp.price_pence AS price, pp.repeat_price_pence AS repeat, pp.repeat_terms AS terms
       FROM product_prices pp JOIN retailers r ON r.id = pp.retailer_id JOIN products p ON p.id = pp.product_id
       WHERE p.gtin = ? ORDER BY r.key`,
    )
    .all(gtin) as RepeatRow[];

const kibble = "5012345600017";
const puppy = "5012345600024";
const senior = "5012345600031";
const amazonTerms = "Subscribe & Save: 5% off, up to 15% with 5 or more subscriptions; skip or cancel any time";
const zooplusTerms = "zooplus Repeat: up to 5% off every repeat order; change or cancel any time";

function writeVariant(name: string, change: (text: string) => string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, change(fs.readFileSync(fixture, "utf8")));
  return file;
}

describe("repeat-delivery prices from a feed", () => {
  it("the import creates products and adds offers with their repeat price and terms; a repeat price above the price is none", async () => {
    const summary = await importFeed(temp.db, readFeed(fixture), { source: { name: "awin", createProducts: true }, now: () => at });
    expect(summary).toMatchObject({ rows: 4, created: 3, offersAdded: 1, rejected: 0 });
    // Row 1 created the product at Amazon (createProduct); row 2 matched it by GTIN and added Zooplus (addOffer).
    expect(offersOf(kibble)).toEqual([
      { retailer: "amazon", price: 4000, repeat: 3800, terms: amazonTerms },
      { retailer: "zooplus", price: 4150, repeat: 3943, terms: zooplusTerms },
    ]);
    // £10.50 "repeat" against a £10.00 price is no repeat discount: none, and its terms go with it.
    expect(offersOf(puppy)).toEqual([{ retailer: "pets-at-home", price: 1000, repeat: null, terms: null }]);
    expect(offersOf(senior)).toEqual([{ retailer: "jollyes", price: 1500, repeat: null, terms: null }]);

    const product = getProductBySlug(temp.db, (temp.db.$client.prepare("SELECT slug FROM products WHERE gtin = ?").get(kibble) as { slug: string }).slug)!;
    expect(product.prices.map((offer) => [offer.retailer.key, offer.totalPence, offer.repeatPricePence, offer.repeatTotalPence])).toEqual([
      // Amazon: £40.00 and £38.00 are both at or above its £35 free-delivery threshold.
      ["amazon", 4000, 3800, 3800],
      // Zooplus states £3.99 delivery in the feed: the repeat order pays it too.
      ["zooplus", 4549, 3943, 4342],
    ]);
    // Best price: the lowest one-off total (Amazon £40.00), not the repeat total.
    expect(product.bestPricePence).toBe(4000);
  });

  it("a later import's price checks change and clear repeat prices; the same feed again changes nothing", async () => {
    const file = writeVariant("changed.csv", (text) => text.replace(",38.00,,,", ",36.10,,,").replace(",£39.43,,", ",,,"));
    const summary = await importFeed(temp.db, readFeed(file), { source: { name: "awin", createProducts: true }, now: () => hoursLater(2) });
    expect(summary).toMatchObject({ created: 0, existing: 4, pricesChanged: 2, held: 0 });
    expect(offersOf(kibble)).toEqual([
      { retailer: "amazon", price: 4000, repeat: 3610, terms: amazonTerms },
      // The row states no repeat price any more: cleared, with its terms.
      { retailer: "zooplus", price: 4150, repeat: null, terms: null },
    ]);
    const again = await importFeed(temp.db, readFeed(file), { source: { name: "awin", createProducts: true }, now: () => hoursLater(2.5) });
    expect(again).toMatchObject({ pricesChanged: 0 });
    expect(again.change.productIds).toEqual([]);
  });

  it("a feed without a repeat price column keeps the stored repeat prices", async () => {
    const file = path.join(dir, "plain.csv");
    const header =
      "aw_deep_link,product_name,aw_product_id,merchant_product_id,merchant_image_url,description,merchant_category,search_price,merchant_name,merchant_id,category_name,category_id,aw_image_url,currency,store_price,delivery_cost,merchant_deep_link,language,last_updated,display_price,data_feed_id,brand_name,ean,repeat_delivery_terms";
    const row = `https://www.awin1.com/pclick.php?p=9001&a=1&m=11,Acme Repeat Kibble Adult 12kg,9001,B0REPEAT01,,,Pets,39.00,Amazon UK,11,Dog Food,586,,GBP,39.00,,https://www.amazon.co.uk/dp/B0REPEAT01,en,,GBP39.00,41234,Acme,${kibble},Other terms`;
    fs.writeFileSync(file, `${header}\n${row}\n`);
    const summary = await importFeed(temp.db, readFeed(file), { source: { name: "awin", createProducts: false }, now: () => hoursLater(4) });
    expect(summary).toMatchObject({ pricesChanged: 1 });
    expect(offersOf(kibble)[0]).toEqual({ retailer: "amazon", price: 3900, repeat: 3610, terms: amazonTerms });
  });

  it("the refresh reads the feed's repeat prices through the same price checks", async () => {
    const file = writeVariant("refresh.csv", (text) => text.replace(",36.10,,,", ",35.15,,,").replace(",38.00,,,", ",35.15,,,"));
    const summary = await refreshPrices({
      db: temp.db,
      feeds: [{ name: "awin", open: async () => readFeed(file) }],
      // The seeded catalogue's eBay offers, which no feed covers, fail to read: no network here.
      reader: {
        readPage: async () => {
          throw new Error("no retailer page is read in this test");
        },
        readRobots: async () => ({ state: "allow" }),
      },
      hostDelayMs: 0,
      now: () => hoursLater(6),
    });
    // The feed's four rows checked four offers; nothing held.
    expect(summary).toMatchObject({ checked: 4, held: 0 });
    expect(offersOf(kibble)).toEqual([
      { retailer: "amazon", price: 4000, repeat: 3515, terms: amazonTerms },
      { retailer: "zooplus", price: 4150, repeat: 3943, terms: zooplusTerms },
    ]);
  });
});
