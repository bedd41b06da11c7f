/**
 * The refresh publishes only prices it is sure of: a price read from visible text alone (low
 * confidence) is held for review, a page listing several prices it cannot choose between or
 * naming no currency fails for that offer, and a structured price is published.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refreshPrices } from "./price-refresh.ts";
import { createProduct } from "../../data/db/catalogue-writer/products.ts";
import { tempDb, type TempDb } from "../../data/db/fixtures/temp-db.ts";
import { productInput } from "../../data/domain/catalogue-input.ts";
import { readOffer } from "../../data/domain/offer-extract.ts";
import type { PageReader } from "../lib/page-price.ts";

let temp: TempDb;
let retailerId: number;

/** Pages by URL: the refresh reads them through the real extractor, with no network. */
const pages: Record<string, string> = {
  "https://shop.example.co.uk/structured": `<script type="application/ld+json">{"@type":"Product","offers":{"@type":"Offer","price":"11.00","priceCurrency":"GBP"}}</script>`,
  "https://shop.example.co.uk/visible": `<div class="buy"><span>£12.00</span><button>Add to basket</button></div>`,
  "https://shop.example.co.uk/visible-same": `<div class="buy"><span>£10.00</span><button>Add to basket</button></div>`,
  "https://shop.example.co.uk/sizes": `<script type="application/ld+json">{"@type":"Product","offers":[{"price":"5","priceCurrency":"GBP"},{"price":"9","priceCurrency":"GBP"}]}</script>`,
  "https://shop.example.com/no-currency": `<meta property="product:price:amount" content="10.50">`,
};

beforeAll(async () => {
  temp = await tempDb();
  const category = (temp.db.$client.prepare("INSERT INTO categories (name, slug, icon) VALUES ('Dog Food', 'dog-food', 'bone') RETURNING id").get() as { id: number }).id;
  retailerId = (temp.db.$client.prepare(`INSERT INTO retailers (key, name, logo, website, compares_prices, hosts) VALUES ('shop', 'Shop', '', 'https://shop.example.co.uk', 1, '["shop.example.com"]') RETURNING id`).get() as { id: number }).id;
  for (const [index, url] of Object.keys(pages).entries()) {
    createProduct(temp.db, productInput.parse({ name: `Checked Kibble ${index + 1}`, categoryId: category, retailerLinks: [{ retailerId, affiliateUrl: url, price: 10 }] }));
  }
});

afterAll(() => temp.remove());

describe("page prices by confidence", () => {
  it("publishes the structured price, holds the visible one, and fails the undecided and currency-less pages", async () => {
    const reader: PageReader = {
      readPage: async (url: string) => ({ notModified: false, reading: readOffer(pages[url] ?? "", url), validators: { etag: null, lastModified: null } }),
      readRobots: async () => ({ state: "allow" }),
    };
    const summary = await refreshPrices({ db: temp.db, reader, hostDelayMs: 0 });
    // The visible price that repeats the published £10.00 confirms it; the new £12.00 is held.
    expect(summary).toMatchObject({ checked: 3, changed: 1, held: 1, failed: 2 });
    expect([...summary.failures].sort()).toEqual([
      expect.stringMatching(/^Shop: https:\/\/shop\.example\.co\.uk\/sizes: Product json-ld\[0\]: 2 offers at 2 different prices/),
      "Shop: https://shop.example.com/no-currency: the page names no currency",
    ]);
    const prices = temp.db.$client.prepare("SELECT url, price_pence AS price FROM product_prices ORDER BY url").all();
    expect(prices).toEqual([
      { url: "https://shop.example.co.uk/sizes", price: 1000 },
      { url: "https://shop.example.co.uk/structured", price: 1100 },
      { url: "https://shop.example.co.uk/visible", price: 1000 },
      { url: "https://shop.example.co.uk/visible-same", price: 1000 },
      { url: "https://shop.example.com/no-currency", price: 1000 },
    ]);
    const holds = temp.db.$client.prepare("SELECT url, held_price_pence AS held, status, reason FROM price_holds").all();
    expect(holds).toEqual([{ url: "https://shop.example.co.uk/visible", held: 1200, status: "pending", reason: expect.stringMatching(/^low confidence: the price printed beside the buy button/) }]);
    const confirmed = temp.db.$client.prepare("SELECT last_checked_at AS checked, source FROM product_prices WHERE url = ?").get("https://shop.example.co.uk/visible-same");
    expect(confirmed).toEqual({ checked: expect.any(String), source: "page" });
    const audit = temp.db.$client.prepare("SELECT summary FROM audit_log WHERE summary LIKE 'Price check%' ORDER BY id DESC LIMIT 1").get() as { summary: string };
    expect(audit.summary).toContain("low confidence: the price printed beside the buy button");
  });
});
