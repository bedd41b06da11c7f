/**
 * Feed import over a real SQLite file and real feed files: the sample best-seller feed (its
 * import rules), a messy feed (duplicates, malformed rows, unknown merchants, GTIN matching,
 * another currency), run twice; a file that is not a feed; a price jump held for review.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importFeed } from "./product-import.ts";
import { catalogueRevision } from "../../data/db/catalogue-revision.ts";
import { tempDb, type TempDb } from "../../data/db/fixtures/temp-db.ts";
import { pendingHolds } from "../../data/db/price-review.ts";
import { FeedRefused, readFeed } from "../../data/feeds/awin-feed.ts";
import { sampleFeedFile } from "../product-sources.ts";
import { registryEntryByName } from "../../data/domain/retailers.ts";

let temp: TempDb;
let dir: string;
const at = new Date("2026-11-20T03:00:00.000Z");

beforeAll(async () => {
  temp = await tempDb(40, at);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-import-"));
});
afterAll(() => {
  temp.remove();
  fs.rmSync(dir, { recursive: true, force: true });
});

const count = (sql: string, ...params: unknown[]) => (temp.db.$client.prepare(sql).get(...params) as { n: number }).n;
const retailerId = (key: string) => (temp.db.$client.prepare("SELECT id FROM retailers WHERE key = ?").get(key) as { id: number }).id;

const header =
  "aw_deep_link,product_name,aw_product_id,merchant_product_id,merchant_image_url,description,merchant_category,search_price,merchant_name,merchant_id,category_name,category_id,aw_image_url,currency,store_price,delivery_cost,merchant_deep_link,language,last_updated,display_price,data_feed_id,brand_name,ean,product_GTIN,mpn";

interface Row {
  name: string;
  price: string;
  merchant?: string;
  currency?: string;
  category?: string;
  brand?: string;
  ean?: string;
  gtin?: string;
  delivery?: string;
  id?: string;
  /** merchant_image_url (default a shop's https image) and aw_image_url (default none). */
  image?: string;
  awImage?: string;
  /** merchant_deep_link (default a page on the merchant's own site). */
  link?: string;
}

const csvField = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

function feedRow(row: Row): string {
  const id = row.id ?? String(Math.abs(hash(row.name + (row.merchant ?? ""))));
  // The merchant's own page: an offer's URL must be on its retailer's hosts.
  const page = row.link ?? `${registryEntryByName(row.merchant ?? "Zooplus UK")?.website ?? "https://www.example-shop.co.uk"}/p/${id}`;
  return [
    `https://www.awin1.com/pclick.php?p=${id}&a=1&m=2`,
    row.name,
    id,
    `M-${id}`,
    row.image ?? "https://images.example-shop.co.uk/p.jpg",
    `About ${row.name}, with "quotes", commas\nand a second line`,
    "Pets > Things",
    row.price,
    row.merchant ?? "Zooplus UK",
    "2",
    row.category ?? "Dog Food",
    "586",
    row.awImage ?? "",
    row.currency ?? "GBP",
    row.price,
    row.delivery ?? "3.99",
    page,
    "en",
    "2026-11-19 02:00:00",
    `GBP${row.price}`,
    "41234",
    row.brand ?? "Acme",
    row.ean ?? "",
    row.gtin ?? "",
    "",
  ]
    .map(csvField)
    .join(",");
}

function hash(text: string): number {
  let h = 7;
  for (const char of text) h = (h * 31 + char.charCodeAt(0)) | 0;
  return h;
}

function writeFeed(name: string, rows: readonly (Row | string)[]): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, [header, ...rows.map((row) => (typeof row === "string" ? row : feedRow(row)))].join("\n") + "\n");
  return file;
}

describe("the sample best-seller feed", () => {
  it("imports 20+ products, the first 6 featured, at the marketplace; skips what exists; a second run changes nothing", async () => {
    const before = count("SELECT count(*) AS n FROM products");
    const amazon = retailerId("amazon");
    const summary = await importFeed(temp.db, readFeed(sampleFeedFile), { source: { name: "sample", createProducts: true }, now: () => at });
    expect(summary.success).toBeGreaterThanOrEqual(20);
    expect(summary.success).toBe(summary.created);
    expect(count("SELECT count(*) AS n FROM products")).toBe(before + summary.success);
    expect(summary.rejected).toBe(0);

    const imported = temp.db.$client
      .prepare("SELECT id, is_featured AS featured, best_retailer_id AS best, gtin, rating FROM products WHERE id > (SELECT max(id) - ? FROM products) ORDER BY id")
      .all(summary.success) as { id: number; featured: number; best: number | null; gtin: string | null; rating: number }[];
    // Exactly the first 6 created are featured, in feed order.
    expect(imported.map((product) => product.featured)).toEqual(imported.map((_, index) => (index < 6 ? 1 : 0)));
    // The marketplace is every imported product's first retailer; in stock, it holds the best price.
    for (const product of imported) {
      const offers = temp.db.$client.prepare("SELECT retailer_id AS retailer, source FROM product_prices WHERE product_id = ?").all(product.id);
      expect(offers).toEqual([{ retailer: amazon, source: "feed:sample" }]);
      expect(product.gtin).toMatch(/^\d{13,14}$/);
      // No invented ratings.
      expect(product.rating).toBe(0);
    }
    expect(imported.filter((product) => product.best === amazon).length).toBeGreaterThanOrEqual(imported.length - 3);

    // Rows for products already in the catalogue were skipped with a message each.
    expect(summary.existing).toBeGreaterThan(0);
    expect(summary.errors.filter((message) => message.endsWith("already exists"))).toHaveLength(summary.existing);

    const revision = catalogueRevision(temp.db);
    const history = count("SELECT count(*) AS n FROM price_history");
    const again = await importFeed(temp.db, readFeed(sampleFeedFile), { source: { name: "sample", createProducts: true }, now: () => new Date(at.getTime() + 60_000) });
    expect(again.success).toBe(0);
    expect(again.existing).toBe(summary.existing + summary.created);
    expect(again.change.productIds).toEqual([]);
    expect(count("SELECT count(*) AS n FROM products")).toBe(before + summary.success);
    expect(count("SELECT count(*) AS n FROM price_history")).toBe(history);
    expect(catalogueRevision(temp.db)).toBe(revision);
  });
});

describe("a messy affiliate feed", () => {
  it("imports good rows, reports duplicates, malformed rows (by line), unknown merchants and other currencies, matches by GTIN, and changes nothing the second time", async () => {
    const zooplus = retailerId("zooplus");
    const jollyes = retailerId("jollyes");
    const file = writeFeed("messy.csv", [
      { name: "Acme Salmon Kibble 2kg", price: "12.99", ean: "5012345678900", id: "1001" }, // lines 2-3 (the description has a line break)
      { name: "Acme Salmon Kibble 2kg", price: "12.99", ean: "5012345678900", id: "1001" }, // duplicate
      { name: "Acme Duck Bites 100g", price: "not a price", id: "1002" }, // malformed
      { name: "Acme Lamb Mix 1kg", price: "5.49", merchant: "Some Other Shop", id: "1003" }, // unknown merchant
      { name: "Acme Beef Mix 1kg", price: "5,95", currency: "EUR", id: "1004" }, // another currency
      // The same barcode (in product_GTIN, ean empty) at another retailer: an offer on the product above.
      { name: "ACME salmon kibble (2 kg)", price: "11.49", merchant: "Jollyes", gtin: "5012345678900", id: "1005", delivery: "Free" },
      { name: "Acme Garden Gnome", price: "9.99", category: "Garden Furniture", id: "1006" }, // no catalogue category
    ]);
    const products = count("SELECT count(*) AS n FROM products");
    const summary = await importFeed(temp.db, readFeed(file), { source: { name: "awin", createProducts: true }, now: () => at });
    expect(summary.rows).toBe(7);
    expect(summary.created).toBe(1);
    expect(summary.existing).toBe(2);
    expect(summary.offersAdded).toBe(1);
    expect(summary.rejected).toBe(4);
    expect(count("SELECT count(*) AS n FROM products")).toBe(products + 1);

    const product = temp.db.$client.prepare("SELECT id, gtin, best_price_pence AS best, best_retailer_id AS retailer FROM products WHERE gtin = ?").get("5012345678900") as {
      id: number;
      best: number;
      retailer: number;
    };
    const offers = temp.db.$client
      .prepare("SELECT retailer_id AS retailer, price_pence AS price, delivery_pence AS delivery, source FROM product_prices WHERE product_id = ? ORDER BY retailer_id")
      .all(product.id);
    expect(offers).toEqual(
      [
        { retailer: zooplus, price: 1299, delivery: 399, source: "feed:awin" },
        { retailer: jollyes, price: 1149, delivery: 0, source: "feed:awin" },
      ].sort((a, b) => a.retailer - b.retailer),
    );
    expect(product).toMatchObject({ best: 1149, retailer: jollyes });

    const messages = summary.errors.join("\n");
    expect(messages).toMatch(/line 6: .*price/i);
    expect(messages).toMatch(/"Acme Lamb Mix 1kg" is sold by Some Other Shop, a retailer whose prices we do not compare/);
    expect(messages).toMatch(/line 10: .*EUR/);
    expect(messages).toMatch(/line 14: "Acme Garden Gnome" is in the feed category "Garden Furniture"/);
    expect(summary.totalErrors).toBe(summary.errors.length);
    // No product was stored for a rejected row, and nothing was stored as pounds from euros.
    expect(count("SELECT count(*) AS n FROM products WHERE name IN ('Acme Duck Bites 100g', 'Acme Lamb Mix 1kg', 'Acme Beef Mix 1kg', 'Acme Garden Gnome')")).toBe(0);

    const history = count("SELECT count(*) AS n FROM price_history");
    const again = await importFeed(temp.db, readFeed(file), { source: { name: "awin", createProducts: true }, now: () => new Date(at.getTime() + 120_000) });
    expect(again.created).toBe(0);
    expect(again.offersAdded).toBe(0);
    expect(again.change.productIds).toEqual([]);
    expect(count("SELECT count(*) AS n FROM products")).toBe(products + 1);
    expect(count("SELECT count(*) AS n FROM price_history")).toBe(history);
  });

  it("creates no products from a source not configured to, but still updates matched offers; a jump is held", async () => {
    const file = writeFeed("prices.csv", [
      { name: "Acme Salmon Kibble 2kg", price: "3.99", ean: "5012345678900", id: "1001" }, // 1299 -> 399: below 40%, held
      { name: "Acme Unknown Thing 5kg", price: "20.00", id: "2001" },
    ]);
    const products = count("SELECT count(*) AS n FROM products");
    const summary = await importFeed(temp.db, readFeed(file), { source: { name: "awin", createProducts: false }, now: () => new Date(at.getTime() + 7200_000) });
    expect(summary).toMatchObject({ created: 0, unmatched: 1, held: 1, pricesChanged: 0 });
    expect(count("SELECT count(*) AS n FROM products")).toBe(products);
    const hold = pendingHolds(temp.db).find((h) => h.heldPricePence === 399);
    expect(hold).toMatchObject({ publishedPricePence: 1299, source: "feed:awin", retailer: { id: retailerId("zooplus") } });
  });

  it("refuses a file that is not a feed (an HTML error page, an empty file) before importing anything", async () => {
    const products = count("SELECT count(*) AS n FROM products");
    const html = path.join(dir, "error.csv");
    fs.writeFileSync(html, "<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>502</h1></body></html>\n");
    await expect(importFeed(temp.db, readFeed(html), { source: { name: "awin", createProducts: true } })).rejects.toThrow(FeedRefused);
    const empty = path.join(dir, "empty.csv");
    fs.writeFileSync(empty, "");
    await expect(importFeed(temp.db, readFeed(empty), { source: { name: "awin", createProducts: true } })).rejects.toThrow(FeedRefused);
    expect(count("SELECT count(*) AS n FROM products")).toBe(products);
  });
});

describe("matching by MPN and brand, and page addresses that are taken", () => {
  const mpnHeader = header.replace(",mpn", ",mpn");
  it("matches a row without a barcode by MPN + brand; a same-named product of another brand gets its own address", async () => {
    const file = path.join(dir, "mpn.csv");
    const line = (name: string, brand: string, mpn: string, ean: string, merchant: string, id: string) =>
      [`https://www.awin1.com/pclick.php?p=${id}&a=1&m=2`, name, id, `M-${id}`, "https://images.example-shop.co.uk/p.jpg", "Tasty", "Pets", "8.49", merchant, "2", "Dog Treats", "1", "", "GBP", "8.49", "0", `${registryEntryByName(merchant)?.website ?? "https://www.example-shop.co.uk"}/p/${id}`, "en", "", "GBP8.49", "1", brand, ean, "", mpn].join(",");
    fs.writeFileSync(
      file,
      [
        mpnHeader,
        line("Barkers Liver Training Treats 200g", "Barkers", "BRK-LIV-200", "5012345678917", "Zooplus UK", "3001"),
        // Another retailer's name for the same product, no barcode: matched by MPN + brand.
        line("Barkers Training Treats (Liver) 200 g", "Barkers", "brk liv 200", "", "Jollyes", "3002"),
        // The same name from another brand: a different product, at another address.
        line("Barkers Liver Training Treats 200g", "Woofco", "WF-1", "5012345678924", "Zooplus UK", "3003"),
        line("Barkers Liver Training Treats 200g", "Tailco", "TC-1", "", "Zooplus UK", "3004"),
      ].join("\n") + "\n",
    );
    const summary = await importFeed(temp.db, readFeed(file), { source: { name: "awin", createProducts: true }, now: () => at });
    expect(summary).toMatchObject({ created: 3, existing: 1, offersAdded: 1, rejected: 0 });
    const slugs = temp.db.$client.prepare("SELECT slug, brand FROM products WHERE name = 'Barkers Liver Training Treats 200g' ORDER BY id").all();
    expect(slugs).toEqual([
      { slug: "barkers-liver-training-treats-200g", brand: "Barkers" },
      { slug: "barkers-liver-training-treats-200g-678924", brand: "Woofco" },
      { slug: "barkers-liver-training-treats-200g-2", brand: "Tailco" },
    ]);
    const first = temp.db.$client.prepare("SELECT id, mpn FROM products WHERE slug = 'barkers-liver-training-treats-200g'").get() as { id: number; mpn: string };
    expect(first.mpn).toBe("BRK-LIV-200");
    expect(temp.db.$client.prepare("SELECT count(*) AS n FROM product_prices WHERE product_id = ?").get(first.id)).toEqual({ n: 2 });
  });
});


describe("feed images", () => {
  it("stores a row's http(s) image as the product's, over its drawn packshot but never over an image set by hand", async () => {
    const image = (id: number) => (temp.db.$client.prepare("SELECT image FROM products WHERE id = ?").get(id) as { image: string }).image;
    const seeded = temp.db.$client
      .prepare("SELECT p.id, p.name, p.brand, p.slug FROM products p JOIN categories c ON c.id = p.category_id WHERE c.slug = 'dog-food' AND p.gtin IS NULL ORDER BY p.id LIMIT 3")
      .all() as { id: number; name: string; brand: string; slug: string }[];
    const [drawn, ownImage, blank] = seeded as [(typeof seeded)[0], (typeof seeded)[0], (typeof seeded)[0]];
    expect(image(drawn.id)).toBe(`/api/packshot/${drawn.slug}.svg`);
    // Test set-up only: one product with a photo chosen by the admin, one with no image at all.
    temp.db.$client.prepare("UPDATE products SET image = ? WHERE id = ?").run("https://cdn.example.co.uk/own.jpg", ownImage.id);
    temp.db.$client.prepare("UPDATE products SET image = '' WHERE id = ?").run(blank.id);

    const file = writeFeed("images.csv", [
      { name: "Imagetest Chicken Kibble 2kg", price: "9.99", brand: "Imagetest", image: "https://images.example-shop.co.uk/kibble.jpg" },
      // Not http(s): the aw_image_url is taken instead; with neither, no image is stored (the packshot shows).
      { name: "Imagetest Lamb Kibble 2kg", price: "9.99", brand: "Imagetest", image: "javascript:alert(1)", awImage: "https://images2.productserve.com/?url=lamb" },
      { name: "Imagetest Duck Kibble 2kg", price: "9.99", brand: "Imagetest", image: "ftp://images.example-shop.co.uk/duck.jpg" },
      { name: drawn.name, price: "29.99", brand: drawn.brand, image: "https://images.example-shop.co.uk/drawn.jpg" },
      { name: ownImage.name, price: "29.99", brand: ownImage.brand, image: "https://images.example-shop.co.uk/replaced.jpg" },
      { name: blank.name, price: "29.99", brand: blank.brand, image: "https://images.example-shop.co.uk/blank.jpg" },
    ]);
    const summary = await importFeed(temp.db, readFeed(file), { source: { name: "awin", createProducts: true }, now: () => at });
    expect(summary.created).toBe(3);
    expect(summary.existing).toBe(3);
    const created = (name: string) => (temp.db.$client.prepare("SELECT image FROM products WHERE name = ?").get(name) as { image: string }).image;
    expect(created("Imagetest Chicken Kibble 2kg")).toBe("https://images.example-shop.co.uk/kibble.jpg");
    expect(created("Imagetest Lamb Kibble 2kg")).toBe("https://images2.productserve.com/?url=lamb");
    expect(created("Imagetest Duck Kibble 2kg")).toBe("");
    expect(image(drawn.id)).toBe("https://images.example-shop.co.uk/drawn.jpg");
    expect(image(blank.id)).toBe("https://images.example-shop.co.uk/blank.jpg");
    expect(image(ownImage.id)).toBe("https://cdn.example.co.uk/own.jpg");
    // The pages of the products whose image changed are rebuilt; the audit log says what happened.
    expect(summary.change.productIds).toEqual(expect.arrayContaining([drawn.id, blank.id]));
    const audit = temp.db.$client.prepare("SELECT summary FROM audit_log WHERE summary LIKE 'Took the feed%' ORDER BY id DESC LIMIT 1").all();
    expect(audit).toEqual([{ summary: "Took the feed's image for 2 products without one" }]);

    // Again: nothing left to take.
    const again = await importFeed(temp.db, readFeed(file), { source: { name: "awin", createProducts: true }, now: () => at });
    expect(again.change.productIds).toEqual([]);
  });
});

describe("offer URLs and new offers from a feed", () => {
  it("refuses a row whose link is not on its merchant's hosts, naming the host, for new and for matched products; nothing stored", async () => {
    const existing = temp.db.$client.prepare("SELECT p.id, p.name, p.brand FROM products p WHERE NOT EXISTS (SELECT 1 FROM product_prices pp WHERE pp.product_id = p.id AND pp.retailer_id = ?) ORDER BY p.id LIMIT 1").get(retailerId("jollyes")) as { id: number; name: string; brand: string };
    const file = writeFeed("foreign-hosts.csv", [
      { name: "Hostcheck Salmon Kibble 2kg", price: "9.99", brand: "Hostcheck", merchant: "Amazon UK", link: "http://169.254.169.254/latest/meta-data" },
      { name: existing.name, brand: existing.brand, price: "9.99", merchant: "Jollyes - The Pet People", link: "https://www.jollyes.co.uk.evil.example/p/1" },
    ]);
    const revision = catalogueRevision(temp.db);
    const summary = await importFeed(temp.db, readFeed(file), { source: { name: "hosts", createProducts: true }, now: () => at });
    expect(summary.created).toBe(0);
    expect(summary.offersAdded).toBe(0);
    expect(summary.errors).toContainEqual(expect.stringMatching(/^line 2: "Hostcheck Salmon Kibble 2kg" not imported: retailerLinks\.0\.affiliateUrl: the URL's host 169\.254\.169\.254 is not Amazon's \(amazon\.co\.uk\)$/));
    expect(summary.errors).toContainEqual(expect.stringContaining("the URL's host www.jollyes.co.uk.evil.example is not Jollyes's (jollyes.co.uk)"));
    expect(count("SELECT count(*) AS n FROM products WHERE name = 'Hostcheck Salmon Kibble 2kg'")).toBe(0);
    expect(count("SELECT count(*) AS n FROM product_prices WHERE product_id = ? AND retailer_id = ?", existing.id, retailerId("jollyes"))).toBe(0);
    expect(catalogueRevision(temp.db)).toBe(revision);
  });

  it("finds a retailer the site owner added by a feed name stored for it, and takes links on the hosts stored for it", async () => {
    const { createRetailer } = await import("../../data/db/catalogue-writer/retailers.ts");
    const { retailerInput } = await import("../../data/domain/catalogue-input.ts");
    const paws = createRetailer(
      temp.db,
      retailerInput.parse({ name: "Paws Direct", logo: "/retailers/paws.svg", website: "https://www.pawsdirect.example", comparesPrices: true, hosts: ["shop.pawsdirect.co.uk"], feedNames: ["PD Pet Supplies Ltd"] }),
      at,
    ).value;
    const file = writeFeed("added-retailer.csv", [
      { name: "Feedname Duck Kibble 2kg", price: "11.49", brand: "Feedname", merchant: "PD Pet Supplies Ltd", link: "https://shop.pawsdirect.co.uk/duck-2kg" },
      { name: "Feedname Lamb Kibble 2kg", price: "11.49", brand: "Feedname", merchant: "PD Pet Supplies Ltd", link: "https://www.pawsdirect.example/lamb-2kg" },
      { name: "Feedname Beef Kibble 2kg", price: "11.49", brand: "Feedname", merchant: "PD Pet Supplies Ltd", link: "https://pawsdirect.evil.example/beef-2kg" },
    ]);
    // By the network's merchant id stored as a feed name, whatever the row calls the merchant.
    const byId = writeFeed("added-retailer-id.csv", [
      "https://www.awin1.com/pclick.php?p=9&a=1&m=2,Feedname Goat Kibble 2kg,9,M-9,https://images.example-shop.co.uk/p.jpg,Tasty,Pets,11.49,Paws Direct Online Shop,77123,Dog Food,1,,GBP,11.49,0,https://shop.pawsdirect.co.uk/goat-2kg,en,,GBP11.49,1,Feedname,,,",
    ]);
    temp.db.$client.prepare("UPDATE retailers SET feed_names = ? WHERE id = ?").run(JSON.stringify(["PD Pet Supplies Ltd", "77123"]), paws.id);
    expect(await importFeed(temp.db, readFeed(byId), { source: { name: "paws", createProducts: true }, now: () => at })).toMatchObject({ created: 1, rejected: 0 });
    const summary = await importFeed(temp.db, readFeed(file), { source: { name: "paws", createProducts: true }, now: () => at });
    expect(summary).toMatchObject({ created: 2, rejected: 1 });
    const urls = temp.db.$client.prepare("SELECT url FROM product_prices WHERE retailer_id = ? ORDER BY url").all(paws.id);
    expect(urls).toEqual([{ url: "https://shop.pawsdirect.co.uk/duck-2kg" }, { url: "https://shop.pawsdirect.co.uk/goat-2kg" }, { url: "https://www.pawsdirect.example/lamb-2kg" }]);
    expect(summary.errors).toContainEqual(expect.stringContaining("the URL's host pawsdirect.evil.example is not Paws Direct's (pawsdirect.example, shop.pawsdirect.co.uk)"));
  });

  it("holds a matched product's new offer priced far below its best price, like a price check; the second run changes nothing", async () => {
    const target = temp.db.$client
      .prepare(
        `SELECT p.id, p.name, p.brand, pp.price_pence AS best FROM products p JOIN product_prices pp ON pp.product_id = p.id AND pp.retailer_id = p.best_retailer_id
         WHERE NOT EXISTS (SELECT 1 FROM product_prices x WHERE x.product_id = p.id AND x.retailer_id = ?) AND pp.price_pence > 500 ORDER BY p.id LIMIT 1`,
      )
      .get(retailerId("jollyes")) as { id: number; name: string; brand: string; best: number };
    const file = writeFeed("cheap-new-offer.csv", [{ name: target.name, brand: target.brand, price: "0.50", merchant: "Jollyes - The Pet People", delivery: "0" }]);
    const summary = await importFeed(temp.db, readFeed(file), { source: { name: "cheap", createProducts: false }, now: () => at });
    expect(summary).toMatchObject({ held: 1, offersAdded: 0 });
    expect(count("SELECT count(*) AS n FROM product_prices WHERE product_id = ? AND retailer_id = ?", target.id, retailerId("jollyes"))).toBe(0);
    const hold = pendingHolds(temp.db).find((h) => h.product.id === target.id)!;
    expect(hold).toMatchObject({ heldPricePence: 50, publishedPricePence: target.best, newOffer: true, source: "feed:cheap" });
    const revision = catalogueRevision(temp.db);
    const again = await importFeed(temp.db, readFeed(file), { source: { name: "cheap", createProducts: false }, now: () => new Date(at.getTime() + 60_000) });
    expect(again).toMatchObject({ held: 1, offersAdded: 0 });
    expect(catalogueRevision(temp.db)).toBe(revision);
  });
});
