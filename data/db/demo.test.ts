/**
 * Clearing the demo catalogue over a real SQLite file seeded with it, beside the owner's own data.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { catalogueRevision } from "./catalogue-revision.ts";
import { clearDemoCatalogue, demoCounts, demoOffers, hasDemoOffers, oldestDemoCheck } from "./demo.ts";
import { addOwnerCatalogue, ownerVisitor, type OwnerCatalogue } from "./fixtures/owner-catalogue.ts";
import { tempDb, type TempDb } from "./fixtures/temp-db.ts";
import { recordPriceChecks } from "./price-writer.ts";

let temp: TempDb;
let owner: OwnerCatalogue;
const now = new Date("2026-11-20T10:00:00.000Z");

beforeEach(async () => {
  temp = await tempDb(40);
  const slug = temp.db.$client.prepare("SELECT slug FROM products WHERE best_price_pence IS NOT NULL ORDER BY id LIMIT 1 OFFSET 5").pluck().get() as string;
  owner = addOwnerCatalogue(temp.db, slug, now);
});
afterEach(() => temp.remove());

const count = (sql: string, ...params: unknown[]) => temp.db.$client.prepare(sql).pluck().get(...params) as number;
const digest = () =>
  JSON.stringify(
    (temp.db.$client.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[]).map((table) =>
      temp.db.$client.prepare(`SELECT * FROM "${table}"`).raw().all(),
    ),
  );

describe("demoCounts", () => {
  it("counts the demo's products, offers and vouchers, and the demo products the owner has an offer for", () => {
    expect(demoCounts(temp.db)).toEqual({
      demo: true,
      products: 40,
      keptProducts: 1,
      offers: count("SELECT count(*) FROM product_prices WHERE source = 'demo'"),
      vouchers: 8,
    });
    expect(hasDemoOffers(temp.db)).toBe(true);
  });
});

describe("clearDemoCatalogue", () => {
  it("removes the demo's offers with their history, its products and vouchers; keeps the owner's data and the adopted product", () => {
    const demoOfferCount = count("SELECT count(*) FROM product_prices WHERE source = 'demo'");
    const demoHistory = count(`SELECT count(*) FROM price_history h WHERE EXISTS (SELECT 1 FROM product_prices pp
      WHERE pp.product_id = h.product_id AND pp.retailer_id = h.retailer_id AND pp.source = 'demo')`);
    const adoptedHistory = count("SELECT count(*) FROM price_history WHERE product_id = ? AND retailer_id = ?", owner.adopted.productId, owner.retailerId);
    const ownerOffers = temp.db.$client.prepare("SELECT * FROM product_prices WHERE product_id = ? ORDER BY id").all(owner.productId);
    const ownerHistory = temp.db.$client.prepare("SELECT * FROM price_history WHERE product_id = ? ORDER BY id").all(owner.productId);
    const subscriber = temp.db.$client.prepare("INSERT INTO email_subscribers (email) VALUES ('reader@example.com') RETURNING id").pluck().get();
    const affiliateIds = temp.db.$client.prepare("SELECT key, value FROM affiliate_settings ORDER BY key").all();
    const categories = count("SELECT count(*) FROM categories");
    const retailers = count("SELECT count(*) FROM retailers");
    const revision = catalogueRevision(temp.db);

    const { value, change } = clearDemoCatalogue(temp.db, now);

    expect(value).toEqual({ products: 39, keptProducts: 1, offers: demoOfferCount, historyPoints: demoHistory + adoptedHistory, vouchers: 8 });
    expect(change).toMatchObject({ siteWide: true, productIds: [owner.adopted.productId], revisions: [revision + 1] });
    expect(count("SELECT count(*) FROM product_prices WHERE source = 'demo'")).toBe(0);
    expect(count("SELECT count(*) FROM products")).toBe(2);
    expect(count("SELECT count(*) FROM products WHERE demo = 1")).toBe(0);
    expect(count("SELECT count(*) FROM vouchers")).toBe(1);
    expect(count("SELECT count(*) FROM vouchers WHERE id = ?", owner.voucherId)).toBe(1);
    // No history of a product that is gone, and none of a demo offer.
    expect(count("SELECT count(*) FROM price_history WHERE product_id NOT IN (?, ?)", owner.productId, owner.adopted.productId)).toBe(0);
    // The owner's product as it was, with its favourite.
    expect(temp.db.$client.prepare("SELECT * FROM product_prices WHERE product_id = ? ORDER BY id").all(owner.productId)).toEqual(ownerOffers);
    expect(temp.db.$client.prepare("SELECT * FROM price_history WHERE product_id = ? ORDER BY id").all(owner.productId)).toEqual(ownerHistory);
    expect(count("SELECT count(*) FROM favorites WHERE product_id = ? AND user_id = ?", owner.productId, ownerVisitor)).toBe(1);
    // Retailers, categories, affiliate IDs and subscribers stay.
    expect(count("SELECT count(*) FROM categories")).toBe(categories);
    expect(count("SELECT count(*) FROM retailers")).toBe(retailers);
    expect(temp.db.$client.prepare("SELECT key, value FROM affiliate_settings ORDER BY key").all()).toEqual(affiliateIds);
    expect(count("SELECT count(*) FROM email_subscribers WHERE id = ?", subscriber)).toBe(1);
    // The search index lost the deleted products.
    expect(count("SELECT count(*) FROM product_search")).toBe(2);
    expect(count("SELECT count(*) FROM audit_log WHERE action = 'delete' AND summary LIKE 'Cleared the demo catalogue: 39 products,%'")).toBe(1);
  });

  it("keeps a demo product that has the owner's offer as the owner's: its best price is that offer, its history restarts from it", () => {
    clearDemoCatalogue(temp.db, now);
    const product = temp.db.$client
      .prepare("SELECT demo, best_price_pence AS best, best_retailer_id AS retailer, original_price_pence AS was FROM products WHERE id = ?")
      .get(owner.adopted.productId);
    expect(product).toEqual({ demo: 0, best: owner.adopted.pricePence, retailer: owner.retailerId, was: null });
    expect(temp.db.$client.prepare("SELECT retailer_id AS retailer, price_pence AS price, recorded_at AS at FROM price_history WHERE product_id = ?").all(owner.adopted.productId)).toEqual([
      { retailer: owner.retailerId, price: owner.adopted.pricePence, at: now.toISOString() },
    ]);
    expect(temp.db.$client.prepare("SELECT source FROM product_prices WHERE product_id = ?").pluck().all(owner.adopted.productId)).toEqual(["feed:scales"]);
  });

  it("deletes a removed demo product's favourites, alerts and views with it", () => {
    const gone = temp.db.$client.prepare("SELECT id FROM products WHERE demo = 1 AND id <> ? LIMIT 1").pluck().get(owner.adopted.productId) as number;
    temp.db.$client.prepare("INSERT INTO favorites (user_id, product_id) VALUES (?, ?)").run(ownerVisitor, gone);
    temp.db.$client.prepare("INSERT INTO price_alerts (user_id, product_id, target_price_pence, email) VALUES (?, ?, 999, 'a@example.com')").run(ownerVisitor, gone);
    temp.db.$client.prepare("INSERT INTO recently_viewed (user_id, product_id) VALUES (?, ?)").run(ownerVisitor, gone);
    clearDemoCatalogue(temp.db, now);
    for (const table of ["favorites", "price_alerts", "recently_viewed"]) expect(count(`SELECT count(*) FROM ${table} WHERE product_id = ?`, gone), table).toBe(0);
  });

  it("drops a pending held price of a demo offer", () => {
    const offer = demoOffers(temp.db)[0]!;
    recordPriceChecks(temp.db, [{ productId: offer.productId, retailerId: offer.retailerId, pricePence: offer.pricePence * 10, inStock: true, source: "demo" }], undefined, now);
    expect(count("SELECT count(*) FROM price_holds WHERE status = 'pending'")).toBe(1);
    clearDemoCatalogue(temp.db, now);
    expect(count("SELECT count(*) FROM price_holds")).toBe(0);
  });

  it("finds nothing the second time: zero counts, no change, nothing written", () => {
    clearDemoCatalogue(temp.db, now);
    const before = digest();
    const revision = catalogueRevision(temp.db);
    const second = clearDemoCatalogue(temp.db, now);
    expect(second.value).toEqual({ products: 0, keptProducts: 0, offers: 0, historyPoints: 0, vouchers: 0 });
    expect(second.change).toEqual({ productIds: [], categoryIds: [], siteWide: false });
    expect(catalogueRevision(temp.db)).toBe(revision);
    expect(digest()).toBe(before);
    expect(demoCounts(temp.db)).toEqual({ demo: false, products: 0, keptProducts: 0, offers: 0, vouchers: 0 });
    expect(hasDemoOffers(temp.db)).toBe(false);
    expect(oldestDemoCheck(temp.db)).toBeNull();
  });
});

describe("demoOffers", () => {
  it("gives each demo offer's price, the latest other price it had, its first price and when it was confirmed", () => {
    const offers = demoOffers(temp.db);
    expect(offers).toHaveLength(count("SELECT count(*) FROM product_prices WHERE source = 'demo'"));
    for (const offer of offers.slice(0, 20)) {
      const points = temp.db.$client
        .prepare("SELECT price_pence FROM price_history WHERE product_id = ? AND retailer_id = ? ORDER BY recorded_at, id")
        .pluck()
        .all(offer.productId, offer.retailerId) as number[];
      expect(offer.anchorPence).toBe(points[0]);
      expect(offer.earlierPence).toBe(points.filter((price) => price !== offer.pricePence).at(-1) ?? null);
    }
    expect(oldestDemoCheck(temp.db)).toBe(offers.map((offer) => offer.checkedAt).sort()[0]);
  });
});
