/** The offers the price refresh reads, and the checks a 304 confirms, over a real SQLite file. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { productInput } from "../domain/catalogue-input.ts";
import { createProduct } from "./catalogue-writer/products.ts";
import { tempDb, type TempDb } from "./fixtures/temp-db.ts";
import { offersToRead, unchangedPageChecks } from "./refresh-order.ts";

let temp: TempDb;
let retailerId: number;
let categoryId: number;
beforeAll(async () => {
  temp = await tempDb();
  categoryId = (temp.db.$client.prepare("INSERT INTO categories (name, slug, icon) VALUES ('Dog Food', 'dog-food', 'bone') RETURNING id").get() as { id: number }).id;
  retailerId = (
    temp.db.$client
      .prepare(`INSERT INTO retailers (key, name, logo, website, compares_prices, hosts) VALUES ('shop', 'Shop', '', 'https://shop.example', 1, '["shop.example"]') RETURNING id`)
      .get() as { id: number }
  ).id;
});
afterAll(() => temp.remove());

const now = new Date("2026-11-22T03:00:00.000Z");
const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3600_000).toISOString();
const run = (sql: string, ...params: unknown[]) => temp.db.$client.prepare(sql).run(...params);

/** A product with one offer of the shop, listed at £10.00. */
function product(name: string): number {
  return createProduct(temp.db, productInput.parse({ name, categoryId, retailerLinks: [{ retailerId, affiliateUrl: `https://shop.example/${name}`, price: 10 }] }), now).value.id;
}

describe("offersToRead", () => {
  it("leaves out, when not told otherwise, the offers a feed confirmed within the last 12 hours", () => {
    const fresh = product("fresh-feed");
    const stale = product("stale-feed");
    run("UPDATE product_prices SET source = 'feed:awin', last_checked_at = ? WHERE product_id = ?", hoursAgo(11.9), fresh);
    run("UPDATE product_prices SET source = 'feed:awin', last_checked_at = ? WHERE product_id = ?", hoursAgo(12.1), stale);
    const read = offersToRead(temp.db, now).map((offer) => offer.productId);
    expect(read).toContain(stale);
    expect(read).not.toContain(fresh);
  });
});

describe("unchangedPageChecks", () => {
  it("repeats the stored price of an offer whose validators still stand, and gives nothing for one whose validators changed", () => {
    const same = product("same-page");
    const changed = product("changed-page");
    run("UPDATE product_prices SET source = 'page', page_etag = '\"a\"', page_last_modified = NULL, price_pence = 1299 WHERE product_id IN (?, ?)", same, changed);
    run("UPDATE product_prices SET page_etag = '\"b\"' WHERE product_id = ?", changed);
    const validators = { etag: '"a"', lastModified: null };
    expect(
      unchangedPageChecks(temp.db, [
        { productId: same, retailerId, validators },
        { productId: changed, retailerId, validators },
      ]),
    ).toEqual([{ productId: same, retailerId, pricePence: 1299, inStock: null, source: "page" }]);
    expect(unchangedPageChecks(temp.db, [{ productId: changed, retailerId, validators }])).toEqual([]);
  });
});
