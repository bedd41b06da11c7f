/**
 * Prices from sources through the catalogue writer, over a real SQLite file: publish, confirm,
 * hold on a jump (exactly on the bounds too), accept / reject, and the 72-hour stale rule.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WriteRefused } from "./catalogue-writer/transaction.ts";
import { createProduct, updateProduct } from "./catalogue-writer/products.ts";
import { catalogueRevision } from "./catalogue-revision.ts";
import { offerUrl, tempDb, withoutDelivery, type TempDb } from "./fixtures/temp-db.ts";
import {
  acceptHeldPrice,
  addOffer,
  markStaleOffers,
  recordPriceChecks,
  rederiveDailyPrices,
  rejectHeldPrice,
  type NewOffer,
  type PriceCheck,
} from "./price-writer.ts";
import { recomputeBestPrices } from "./offers.ts";
import { pendingHolds } from "./price-review.ts";
import { productInput } from "../domain/catalogue-input.ts";

let temp: TempDb;
let retailers: number[];
let category: number;

beforeAll(async () => {
  temp = await tempDb(5);
  // Item prices are set and read back as best prices here: no delivery on top (totals to the door are tested in data/db/offers.test.ts).
  withoutDelivery(temp.db);
  retailers = (temp.db.$client.prepare("SELECT id FROM retailers WHERE compares_prices = 1 ORDER BY id").all() as { id: number }[]).map((r) => r.id);
  category = (temp.db.$client.prepare("SELECT id FROM categories ORDER BY id").get() as { id: number }).id;
});
afterAll(() => temp.remove());

const row = <T>(sql: string, ...params: unknown[]) => temp.db.$client.prepare(sql).get(...params) as T;
const rows = <T>(sql: string, ...params: unknown[]) => temp.db.$client.prepare(sql).all(...params) as T[];

const t0 = new Date("2026-11-01T02:00:00.000Z");
const hours = (h: number) => new Date(t0.getTime() + h * 3600_000);

/** A product with offers at retailers[0] (£10.00) and retailers[1] (£12.00), created at t0. */
function product(name: string, override: number | null = null): number {
  return createProduct(
    temp.db,
    productInput.parse({
      name,
      categoryId: category,
      retailerLinks: [
        { retailerId: retailers[0], affiliateUrl: offerUrl(temp.db, retailers[0], "a"), price: 10, priceOverride: override !== null, manualPrice: override },
        { retailerId: retailers[1], affiliateUrl: offerUrl(temp.db, retailers[1], "b"), price: 12 },
      ],
    }),
    t0,
  ).value.id;
}

const check = (productId: number, pricePence: number, over: Partial<PriceCheck> = {}): PriceCheck => ({
  productId,
  retailerId: retailers[0]!,
  pricePence,
  inStock: true,
  source: "page",
  ...over,
});

const offer = (productId: number, retailer = retailers[0]) =>
  row<{ price: number; checked: string; stale: number; source: string; inStock: number; delivery: number | null }>(
    "SELECT price_pence AS price, last_checked_at AS checked, stale, source, in_stock AS inStock, delivery_pence AS delivery FROM product_prices WHERE product_id = ? AND retailer_id = ?",
    productId,
    retailer,
  );
const best = (id: number) => row<{ price: number | null; retailer: number | null }>("SELECT best_price_pence AS price, best_retailer_id AS retailer FROM products WHERE id = ?", id);
const history = (id: number) => rows<{ price: number; at: string }>("SELECT price_pence AS price, recorded_at AS at FROM price_history WHERE product_id = ? ORDER BY id", id);

describe("recordPriceChecks", () => {
  it("publishes a new price: the offer, history, best price and the change signal", () => {
    const id = product("Check Biscuits 2kg");
    const revision = catalogueRevision(temp.db);
    const { value, change } = recordPriceChecks(temp.db, [check(id, 899, { deliveryPence: 399, originalPricePence: 1299 })], undefined, hours(5));
    expect(value).toEqual({ checked: 1, changed: 1, held: 0, missing: 0 });
    expect(change.productIds).toEqual([id]);
    expect(change.categoryIds).toEqual([category]);
    expect(change.siteWide).toBe(false);
    expect(offer(id)).toMatchObject({ price: 899, checked: hours(5).toISOString(), stale: 0, source: "page", delivery: 399 });
    expect(history(id).map((point) => point.price)).toEqual([1000, 1200, 899]);
    // The check states £3.99 delivery: 899 + 399 = 1298 to the door, dearer than the other offer's 1200.
    expect(best(id)).toEqual({ price: 1200, retailer: retailers[1] });
    expect(catalogueRevision(temp.db)).toBe(revision + 1);
  });

  it("confirms an unchanged price (no history) and skips a re-confirmation within the hour entirely", () => {
    const id = product("Check Chews");
    const confirmed = recordPriceChecks(temp.db, [check(id, 1000)], undefined, hours(2));
    expect(confirmed.value).toEqual({ checked: 1, changed: 0, held: 0, missing: 0 });
    // The check time is shown on the page, so a confirmation is a page change.
    expect(confirmed.change.productIds).toEqual([id]);
    expect(offer(id).checked).toBe(hours(2).toISOString());
    expect(history(id)).toHaveLength(2);

    const revision = catalogueRevision(temp.db);
    const again = recordPriceChecks(temp.db, [check(id, 1000)], undefined, new Date(hours(2).getTime() + 59 * 60_000));
    expect(again.change.productIds).toEqual([]);
    expect(offer(id).checked).toBe(hours(2).toISOString());
    expect(catalogueRevision(temp.db)).toBe(revision);
    // An hour later it is written again.
    recordPriceChecks(temp.db, [check(id, 1000)], undefined, hours(3));
    expect(offer(id).checked).toBe(hours(3).toISOString());
  });

  it("keeps the stored stock flag when the source does not say, and takes it when it does", () => {
    const id = product("Check Stock");
    recordPriceChecks(temp.db, [check(id, 1000, { inStock: null })], undefined, hours(2));
    expect(offer(id).inStock).toBe(1);
    recordPriceChecks(temp.db, [check(id, 1000, { inStock: false })], undefined, hours(4));
    expect(offer(id).inStock).toBe(0);
    // Out of stock at retailer 0: the best price moves to retailer 1.
    expect(best(id)).toEqual({ price: 1200, retailer: retailers[1] });
  });

  it("holds a jump beyond the factor (not published, not confirmed); a second hold replaces the first", () => {
    const id = product("Check Jump");
    const { value, change } = recordPriceChecks(temp.db, [check(id, 399)], undefined, hours(1));
    expect(value).toEqual({ checked: 1, changed: 0, held: 1, missing: 0 });
    expect(change.productIds).toEqual([]);
    expect(offer(id)).toMatchObject({ price: 1000, checked: t0.toISOString() });
    expect(history(id)).toHaveLength(2);
    recordPriceChecks(temp.db, [check(id, 2501)], undefined, hours(2));
    const holds = pendingHolds(temp.db).filter((hold) => hold.product.id === id);
    expect(holds.map((hold) => [hold.publishedPricePence, hold.heldPricePence])).toEqual([[1000, 2501]]);
    // Exactly on the bounds: published.
    recordPriceChecks(temp.db, [check(id, 400)], undefined, hours(3));
    expect(offer(id).price).toBe(400);
    // ...which also settles the pending hold.
    expect(pendingHolds(temp.db).filter((hold) => hold.product.id === id)).toEqual([]);
  });

  it("counts checks of offers that no longer exist as missing and changes nothing", () => {
    const id = product("Check Missing");
    const { value, change } = recordPriceChecks(temp.db, [check(id, 900, { retailerId: retailers[2]! })], undefined, hours(1));
    expect(value).toEqual({ checked: 0, changed: 0, held: 0, missing: 1 });
    expect(change.productIds).toEqual([]);
  });
});

describe("held prices", () => {
  it("accept publishes the held price with its history, and a second decision is refused (409)", () => {
    const id = product("Hold Accept");
    recordPriceChecks(temp.db, [check(id, 300)], undefined, hours(1));
    const hold = pendingHolds(temp.db).find((h) => h.product.id === id)!;
    const { value, change } = acceptHeldPrice(temp.db, hold.id, hours(2));
    expect(value).toEqual({ id: hold.id, status: "accepted" });
    expect(change.productIds).toEqual([id]);
    expect(offer(id)).toMatchObject({ price: 300, checked: hours(1).toISOString(), stale: 0 });
    expect(history(id).map((point) => point.price)).toEqual([1000, 1200, 300]);
    expect(best(id)).toEqual({ price: 300, retailer: retailers[0] });
    expect(() => acceptHeldPrice(temp.db, hold.id)).toThrow(new WriteRefused(409, "This price was already reviewed"));
    expect(() => rejectHeldPrice(temp.db, hold.id)).toThrow(WriteRefused);
  });

  it("reject keeps the published price and changes no page", () => {
    const id = product("Hold Reject");
    recordPriceChecks(temp.db, [check(id, 5000)], undefined, hours(1));
    const hold = pendingHolds(temp.db).find((h) => h.product.id === id)!;
    const { value, change } = rejectHeldPrice(temp.db, hold.id, hours(2));
    expect(value.status).toBe("rejected");
    expect(change.productIds).toEqual([]);
    expect(offer(id).price).toBe(1000);
    expect(row<{ status: string }>("SELECT status FROM price_holds WHERE id = ?", hold.id).status).toBe("rejected");
  });

  it("refuses an unknown hold with 404", () => {
    expect(() => acceptHeldPrice(temp.db, 999_999)).toThrow(new WriteRefused(404, "Held price not found"));
  });
});

describe("markStaleOffers", () => {
  it("marks offers not confirmed within 24 hours (not exactly 24), drops them from the best price, and a check revives them", () => {
    const id = product("Stale Kibble");
    recordPriceChecks(temp.db, [check(id, 1000, { retailerId: retailers[1]!, pricePence: 1200 })], undefined, hours(10));
    // Retailer 0 last confirmed at t0; at t0 + 24 h exactly it is not yet stale.
    markStaleOffers(temp.db, hours(24));
    expect(offer(id).stale).toBe(0);
    const { value, change } = markStaleOffers(temp.db, new Date(hours(24).getTime() + 1));
    expect(value.marked).toBeGreaterThanOrEqual(1);
    expect(change.productIds).toContain(id);
    expect(offer(id).stale).toBe(1);
    expect(offer(id, retailers[1]).stale).toBe(0);
    expect(best(id)).toEqual({ price: 1200, retailer: retailers[1] });
    // A check confirms it again.
    recordPriceChecks(temp.db, [check(id, 1000)], undefined, hours(73));
    expect(offer(id).stale).toBe(0);
    expect(best(id)).toEqual({ price: 1000, retailer: retailers[0] });
  });

  it("takes the window it is given: with 72 hours a price stays current for exactly 72 hours", () => {
    const id = product("Window Kibble");
    markStaleOffers(temp.db, hours(72), 72 * 3600_000);
    expect(offer(id).stale).toBe(0);
    const { value } = markStaleOffers(temp.db, new Date(hours(72).getTime() + 1), 72 * 3600_000);
    expect(value.marked).toBeGreaterThanOrEqual(1);
    expect(offer(id).stale).toBe(1);
    expect(temp.db.$client.prepare("SELECT summary FROM audit_log ORDER BY id DESC LIMIT 1").pluck().get()).toMatch(/not confirmed for 3 days\)$/);
  });

  it("never marks an offer under a manual override", () => {
    const id = product("Stale Override", 9);
    markStaleOffers(temp.db, hours(1000));
    expect(offer(id).stale).toBe(0);
    expect(offer(id, retailers[1]).stale).toBe(1);
    expect(best(id)).toEqual({ price: 900, retailer: retailers[0] });
  });
});

describe("the admin's own price edits", () => {
  it("confirm the offer they change (now, not stale, source manual) and leave the others' check times alone", () => {
    const id = product("Admin Confirmed Kibble");
    recordPriceChecks(temp.db, [check(id, 1000, { retailerId: retailers[1]!, pricePence: 1200 }), check(id, 1000)], undefined, hours(5));
    markStaleOffers(temp.db, hours(100));
    expect(offer(id).stale).toBe(1);
    expect(offer(id, retailers[1]).stale).toBe(1);
    updateProduct(
      temp.db,
      id,
      productInput.parse({
        name: "Admin Confirmed Kibble",
        categoryId: category,
        retailerLinks: [
          { retailerId: retailers[0], affiliateUrl: offerUrl(temp.db, retailers[0], "a"), price: 9.5 },
          { retailerId: retailers[1], affiliateUrl: offerUrl(temp.db, retailers[1], "b"), price: 12 },
        ],
      }),
      hours(101),
    );
    expect(offer(id)).toMatchObject({ price: 950, checked: hours(101).toISOString(), stale: 0, source: "manual" });
    // The unchanged offer keeps its check time and stays stale.
    expect(offer(id, retailers[1])).toMatchObject({ checked: hours(5).toISOString(), stale: 1, source: "page" });
    expect(best(id)).toEqual({ price: 950, retailer: retailers[0] });
  });
});

const audits = (since: number) =>
  rows<{ action: string; entity: string; entity_id: number | null; summary: string }>("SELECT action, entity, entity_id, summary FROM audit_log WHERE id > ? ORDER BY id", since);
const lastAuditId = () => (row<{ id: number | null }>("SELECT max(id) AS id FROM audit_log").id ?? 0);

describe("recordPriceChecks: what a check changes", () => {
  it("takes a was-price only above the price (equal is none), keeps the stored one when the source gives none", () => {
    const id = product("Was Price Chews");
    recordPriceChecks(temp.db, [check(id, 900, { originalPricePence: 1200 })], undefined, hours(2));
    expect(row<{ o: number | null }>("SELECT original_price_pence AS o FROM product_prices WHERE product_id = ? AND retailer_id = ?", id, retailers[0]).o).toBe(1200);
    recordPriceChecks(temp.db, [check(id, 900)], undefined, hours(4));
    expect(row<{ o: number | null }>("SELECT original_price_pence AS o FROM product_prices WHERE product_id = ? AND retailer_id = ?", id, retailers[0]).o).toBe(1200);
    recordPriceChecks(temp.db, [check(id, 900, { originalPricePence: 900 })], undefined, hours(6));
    expect(row<{ o: number | null }>("SELECT original_price_pence AS o FROM product_prices WHERE product_id = ? AND retailer_id = ?", id, retailers[0]).o).toBeNull();
  });

  it("counts a change of stock or delivery alone as a change (no history point), and a new source within the hour is written", () => {
    const id = product("Delivery Only Mix");
    const before = history(id).length;
    const delivery = recordPriceChecks(temp.db, [check(id, 1000, { deliveryPence: 299 })], undefined, new Date(t0.getTime() + 60_000));
    expect(delivery.value.changed).toBe(1);
    expect(offer(id).delivery).toBe(299);
    const stock = recordPriceChecks(temp.db, [check(id, 1000, { inStock: false, deliveryPence: 299 })], undefined, new Date(t0.getTime() + 120_000));
    expect(stock.value.changed).toBe(1);
    expect(history(id)).toHaveLength(before);
    const feed = recordPriceChecks(temp.db, [check(id, 1000, { inStock: false, deliveryPence: 299, source: "feed:awin" })], undefined, new Date(t0.getTime() + 180_000));
    expect(feed.value.changed).toBe(0);
    expect(feed.change.productIds).toEqual([id]);
    expect(offer(id).source).toBe("feed:awin");
  });

  it("stores a source's repeat-delivery price and terms, keeps them when a check says nothing, and drops one above the new one-off price", () => {
    const id = product("Repeat Kibble");
    const repeat = () => row<{ price: number | null; terms: string | null }>(
      "SELECT repeat_price_pence AS price, repeat_terms AS terms FROM product_prices WHERE product_id = ? AND retailer_id = ?",
      id,
      retailers[0],
    );
    const before = history(id).length;
    // A repeat price alone is a change (no history point: the one-off price did not move).
    const stated = recordPriceChecks(temp.db, [check(id, 1000, { repeatPricePence: 950, repeatTerms: "5% off" })], undefined, hours(1));
    expect(stated.value.changed).toBe(1);
    expect(repeat()).toEqual({ price: 950, terms: "5% off" });
    expect(history(id)).toHaveLength(before);
    // A page check says nothing about repeat delivery: kept, also at a one-off price exactly equal to it.
    recordPriceChecks(temp.db, [check(id, 950)], undefined, hours(3));
    expect(repeat()).toEqual({ price: 950, terms: "5% off" });
    // One penny below it: the repeat price is no discount any more and goes, with its terms.
    const below = recordPriceChecks(temp.db, [check(id, 949)], undefined, hours(5));
    expect(below.value.changed).toBe(1);
    expect(repeat()).toEqual({ price: null, terms: null });
    // A source that states none clears it; terms without a price are not kept.
    recordPriceChecks(temp.db, [check(id, 1000, { repeatPricePence: 900, repeatTerms: "Repeat" })], undefined, hours(7));
    expect(repeat()).toEqual({ price: 900, terms: "Repeat" });
    recordPriceChecks(temp.db, [check(id, 1000, { repeatPricePence: null, repeatTerms: "Repeat" })], undefined, hours(9));
    expect(repeat()).toEqual({ price: null, terms: null });
    // Under an override the one-off price is the manual one: a repeat price above it is not stored.
    const overridden = product("Repeat Override Kibble", 8);
    recordPriceChecks(temp.db, [check(overridden, 1000, { repeatPricePence: 850 })], undefined, hours(2));
    expect(row("SELECT repeat_price_pence AS price FROM product_prices WHERE product_id = ? AND retailer_id = ?", overridden, retailers[0])).toEqual({ price: null });
    recordPriceChecks(temp.db, [check(overridden, 1000, { repeatPricePence: 800 })], undefined, hours(4));
    expect(row("SELECT repeat_price_pence AS price FROM product_prices WHERE product_id = ? AND retailer_id = ?", overridden, retailers[0])).toEqual({ price: 800 });
  });

  it("stores a source's multi-buy, keeps it when a check says nothing, and clears it when the source says none", () => {
    const id = product("Multi-buy Pouches");
    const multiBuy = () =>
      row<{ multi_buy: string | null }>("SELECT multi_buy FROM product_prices WHERE product_id = ? AND retailer_id = ?", id, retailers[0]).multi_buy;
    const before = history(id).length;
    // A multi-buy alone is a change, with no history point (the price did not move).
    expect(recordPriceChecks(temp.db, [check(id, 1000, { multiBuy: "3 for 2" })], undefined, hours(1)).value.changed).toBe(1);
    expect(multiBuy()).toBe("3 for 2");
    expect(history(id)).toHaveLength(before);
    // A page check says nothing about multi-buys: kept, and no change.
    expect(recordPriceChecks(temp.db, [check(id, 1000)], undefined, hours(3)).value.changed).toBe(0);
    expect(multiBuy()).toBe("3 for 2");
    // A source that states none clears it.
    expect(recordPriceChecks(temp.db, [check(id, 1000, { multiBuy: null })], undefined, hours(5)).value.changed).toBe(1);
    expect(multiBuy()).toBeNull();
  });

  it("stores a source's member price and scheme, keeps them when a check says nothing, and drops a member price no longer below the price", () => {
    const id = product("Member Kibble");
    const member = () =>
      row<{ price: number | null; scheme: string | null }>(
        "SELECT member_price_pence AS price, member_scheme AS scheme FROM product_prices WHERE product_id = ? AND retailer_id = ?",
        id,
        retailers[0],
      );
    expect(recordPriceChecks(temp.db, [check(id, 1000, { memberPricePence: 900, memberScheme: "Pets Club" })], undefined, hours(1)).value.changed).toBe(1);
    expect(member()).toEqual({ price: 900, scheme: "Pets Club" });
    // A page check says nothing about member prices: kept while still below the price (901 > 900).
    recordPriceChecks(temp.db, [check(id, 901)], undefined, hours(3));
    expect(member()).toEqual({ price: 900, scheme: "Pets Club" });
    // At the member price, it is no member price any more and goes, with its scheme.
    expect(recordPriceChecks(temp.db, [check(id, 900)], undefined, hours(5)).value.changed).toBe(1);
    expect(member()).toEqual({ price: null, scheme: null });
    // A source that states none clears it.
    recordPriceChecks(temp.db, [check(id, 1000, { memberPricePence: 950, memberScheme: "Pets Club" })], undefined, hours(7));
    recordPriceChecks(temp.db, [check(id, 1000, { memberPricePence: null, memberScheme: null })], undefined, hours(9));
    expect(member()).toEqual({ price: null, scheme: null });
  });

  it("under an override, a new listed price is stored but the shopper's price (and its history) stays the manual one", () => {
    const id = product("Override Kibble", 9);
    const before = history(id).length;
    recordPriceChecks(temp.db, [check(id, 950)], undefined, hours(2));
    expect(offer(id).price).toBe(950);
    expect(history(id)).toHaveLength(before);
    expect(best(id)).toEqual({ price: 900, retailer: retailers[0] });
  });

  it("reports the products and categories of a batch in id order, and audits only what it published or held", () => {
    const a = product("Batch A");
    const b = product("Batch B");
    const since = lastAuditId();
    const quiet = recordPriceChecks(temp.db, [check(b, 1000), check(a, 1000)], undefined, hours(2));
    expect(quiet.change).toMatchObject({ productIds: [a, b], categoryIds: [category], siteWide: false });
    expect(audits(since)).toEqual([]);
    const moved = recordPriceChecks(temp.db, [check(b, 990), check(a, 300)], undefined, hours(4));
    expect(moved.value).toEqual({ checked: 2, changed: 1, held: 1, missing: 0 });
    expect(moved.change.productIds).toEqual([b]);
    expect(audits(since)).toEqual([{ action: "update", entity: "product", entity_id: null, summary: "Price check (page): 2 checked, 1 changed, 1 held for review" }]);
    const single = lastAuditId();
    recordPriceChecks(temp.db, [check(b, 980)], undefined, hours(6));
    expect(audits(single)).toEqual([{ action: "update", entity: "product", entity_id: b, summary: "Price check (page): 1 checked, 1 changed, 0 held for review" }]);
  });
});

describe("held prices: what a decision stores", () => {
  it("accepting a held out-of-stock price publishes the stock too, audited", () => {
    const id = product("Hold Stock Treats");
    recordPriceChecks(temp.db, [check(id, 3000, { inStock: false })], undefined, hours(1));
    const hold = pendingHolds(temp.db).find((h) => h.product.id === id)!;
    expect(hold.inStock).toBe(false);
    const since = lastAuditId();
    acceptHeldPrice(temp.db, hold.id, hours(2));
    expect(offer(id)).toMatchObject({ price: 3000, inStock: 0 });
    expect(best(id)).toEqual({ price: 1200, retailer: retailers[1] });
    expect(audits(since)).toEqual([
      { action: "update", entity: "product", entity_id: id, summary: `Accepted held price at ${retailerName(retailers[0]!)} for "Hold Stock Treats": £10.00 -> £30.00` },
    ]);
  });

  it("rejecting is audited with the price kept", () => {
    const id = product("Hold Audit Treats");
    recordPriceChecks(temp.db, [check(id, 100)], undefined, hours(1));
    const hold = pendingHolds(temp.db).find((h) => h.product.id === id)!;
    const since = lastAuditId();
    rejectHeldPrice(temp.db, hold.id, hours(2));
    expect(audits(since)).toEqual([
      { action: "update", entity: "product", entity_id: id, summary: `Rejected held price £1.00 at ${retailerName(retailers[0]!)} for "Hold Audit Treats" (kept £10.00)` },
    ]);
  });

  it("accepting is refused (404) when the offer went meanwhile, and the hold stays pending", () => {
    const id = product("Hold Gone Treats");
    recordPriceChecks(temp.db, [check(id, 100)], undefined, hours(1));
    const hold = pendingHolds(temp.db).find((h) => h.product.id === id)!;
    temp.db.$client.prepare("DELETE FROM product_prices WHERE product_id = ? AND retailer_id = ?").run(id, retailers[0]);
    expect(() => acceptHeldPrice(temp.db, hold.id)).toThrow(new WriteRefused(404, "The offer of this held price no longer exists"));
    expect(row<{ status: string }>("SELECT status FROM price_holds WHERE id = ?", hold.id).status).toBe("pending");
  });
});

describe("markStaleOffers: nothing to mark", () => {
  it("changes nothing and audits nothing; one offer reads in the singular", () => {
    markStaleOffers(temp.db, hours(10_000));
    const since = lastAuditId();
    const none = markStaleOffers(temp.db, hours(10_000));
    expect(none.value.marked).toBe(0);
    expect(none.change).toEqual({ productIds: [], categoryIds: [], siteWide: false });
    expect(audits(since)).toEqual([]);
    const id = product("Single Stale");
    recordPriceChecks(temp.db, [check(id, 1200, { retailerId: retailers[1]! })], undefined, hours(20_000));
    markStaleOffers(temp.db, hours(20_010));
    expect(audits(since).at(-1)?.summary).toBe("Marked 1 offer stale (not confirmed for 24 hours)");
  });
});

describe("rederiveDailyPrices", () => {
  const days = (d: number) => hours(d * 24);
  const was = (id: number) => row<{ was: number | null }>("SELECT original_price_pence AS was FROM products WHERE id = ?", id).was;
  /** £20.00 at one retailer from t0 (1 November 2026), cut to £15.00 on day 40 (11 December): 2 November to 10 December are 39 whole days at £20.00. */
  function cutOnDay40(name: string): number {
    const links = (price: number) => [{ retailerId: retailers[0], affiliateUrl: offerUrl(temp.db, retailers[0], "w"), price }];
    const id = createProduct(temp.db, productInput.parse({ name, categoryId: category, retailerLinks: links(20) }), t0).value.id;
    updateProduct(temp.db, id, productInput.parse({ name, categoryId: category, retailerLinks: links(15) }), days(40));
    return id;
  }

  it("drops a was-price on the first day its run ended more than six calendar months before, as one change", () => {
    const id = cutOnDay40("Lapsing Was Kibble");
    expect(was(id)).toBe(2000);
    // Day 221 is 10 June 2027: the run's last day, 10 December, is exactly six months before.
    rederiveDailyPrices(temp.db, days(221));
    expect(was(id)).toBe(2000);
    const revision = catalogueRevision(temp.db);
    const since = lastAuditId();
    // Day 222, 11 June 2027: six months and a day; the was-price goes, the best price stays.
    const { value, change } = rederiveDailyPrices(temp.db, days(222));
    expect(was(id)).toBeNull();
    expect(best(id)).toEqual({ price: 1500, retailer: retailers[0] });
    expect(change.productIds).toContain(id);
    expect(change.categoryIds).toContain(category);
    expect(value.changed).toBe(change.productIds.length);
    expect(catalogueRevision(temp.db)).toBe(revision + 1);
    expect(audits(since).map((audit) => audit.summary)).toEqual([
      `Was-prices re-checked for a new day: ${value.changed === 1 ? "1 product" : `${value.changed} products`} changed (a was-price needs a run of 28 days at that price that ended no more than 6 months ago)`,
    ]);
  });

  it("writes nothing, audits nothing and signals nothing when no product changed", () => {
    cutOnDay40("Steady Was Kibble");
    rederiveDailyPrices(temp.db, days(60));
    const revision = catalogueRevision(temp.db);
    const since = lastAuditId();
    const again = rederiveDailyPrices(temp.db, days(60));
    expect(again).toEqual({ value: { changed: 0 }, change: { productIds: [], categoryIds: [], siteWide: false } });
    expect(catalogueRevision(temp.db)).toBe(revision);
    expect(audits(since)).toEqual([]);
  });
});

describe("addOffer", () => {
  const add = (productId: number, over: Partial<NewOffer> = {}) =>
    addOffer(
      temp.db,
      { productId, retailerId: retailers[2]!, url: offerUrl(temp.db, over.retailerId ?? retailers[2], "c"), pricePence: 1100, originalPricePence: null, inStock: true, deliveryPence: null, source: "feed:awin", ...over },
      hours(3),
    );

  it("adds a source's offer: first price point, was-price only above, free delivery at £0, best price, audit", () => {
    const id = product("Added Offer Bites");
    const since = lastAuditId();
    const { value, change } = add(id, { pricePence: 950, originalPricePence: 950, deliveryPence: 0 });
    expect(value).toEqual({ productId: id, retailerId: retailers[2], held: false });
    expect(change).toMatchObject({ productIds: [id], categoryIds: [category], siteWide: false });
    expect(row("SELECT price_pence AS p, original_price_pence AS o, free_delivery AS f, delivery_pence AS d, source, stale FROM product_prices WHERE product_id = ? AND retailer_id = ?", id, retailers[2])).toEqual({
      p: 950, o: null, f: 1, d: 0, source: "feed:awin", stale: 0,
    });
    expect(history(id).at(-1)!.price).toBe(950);
    expect(best(id)).toEqual({ price: 950, retailer: retailers[2] });
    expect(audits(since)).toEqual([
      { action: "update", entity: "product", entity_id: id, summary: `Added offer at ${retailerName(retailers[2]!)} for "Added Offer Bites" at £9.50 (from feed:awin)` },
    ]);
    const other = product("Added Offer Bites Two");
    add(other, { originalPricePence: 1500, deliveryPence: 399 });
    expect(row("SELECT original_price_pence AS o, free_delivery AS f FROM product_prices WHERE product_id = ? AND retailer_id = ?", other, retailers[2])).toEqual({ o: 1500, f: 0 });
  });

  it("refuses an unknown product (404), a retailer not compared (400) and a second offer at one retailer (409)", () => {
    const id = product("Refused Offer Bites");
    expect(() => add(999_999)).toThrow(new WriteRefused(404, "Product not found"));
    const voucherOnly = row<{ id: number }>("SELECT id FROM retailers WHERE compares_prices = 0 ORDER BY id LIMIT 1").id;
    expect(() => add(id, { retailerId: voucherOnly })).toThrow(new WriteRefused(400, "Prices are not compared at this retailer"));
    expect(() => add(id, { retailerId: retailers[0]! })).toThrow(new WriteRefused(409, `"Refused Offer Bites" already has an offer at ${retailerName(retailers[0]!)}`));
  });
});

/** A feed's new offer at retailers[2], its page named by `label`; `over` changes any field. */
const newOfferAt =
  (label: string) =>
  (productId: number, pricePence: number, over: Partial<NewOffer> = {}): NewOffer => ({
    productId,
    retailerId: retailers[2]!,
    url: offerUrl(temp.db, retailers[2], label),
    pricePence,
    originalPricePence: null,
    inStock: true,
    deliveryPence: null,
    source: "feed:awin",
    ...over,
  });

describe("addOffer: the URL and the review hold", () => {
  const newOffer = newOfferAt("held");
  const pendingNew = (id: number) =>
    rows<{ held: number; published: number; status: string; new_offer: number }>(
      "SELECT held_price_pence AS held, published_price_pence AS published, status, new_offer FROM price_holds WHERE product_id = ? ORDER BY id",
      id,
    );

  it("refuses a URL that is not on the retailer's hosts, naming the host, and stores nothing", () => {
    const id = product("Foreign Host Bites");
    const before = lastAuditId();
    for (const url of ["http://169.254.169.254/latest/meta-data", "https://www.amazon.co.uk.evil.example/dp/B0", "ftp://www.jollyes.co.uk/x"]) {
      expect(() => addOffer(temp.db, newOffer(id, 1000, { url }), hours(3))).toThrow(WriteRefused);
    }
    expect(() => addOffer(temp.db, newOffer(id, 1000, { url: "http://169.254.169.254/latest/meta-data" }), hours(3))).toThrow(
      /the URL's host 169\.254\.169\.254 is not /,
    );
    expect(row("SELECT count(*) AS n FROM product_prices WHERE product_id = ? AND retailer_id = ?", id, retailers[2])).toEqual({ n: 0 });
    expect(audits(before)).toEqual([]);
  });

  it("holds a new offer priced beyond the hold factor of the best listed price (not on the bounds), and only accepting adds it", () => {
    // Best listed price: £10.00 at retailers[0]; 40% of it is £4.00.
    const id = product("Held New Offer Bites");
    const onBound = addOffer(temp.db, newOffer(id, 400, { retailerId: retailers[3]!, url: offerUrl(temp.db, retailers[3], "bound") }), hours(3));
    expect(onBound.value.held).toBe(false);
    const { value, change } = addOffer(temp.db, newOffer(id, 50), hours(3));
    expect(value).toEqual({ productId: id, retailerId: retailers[2], held: true });
    expect(change.productIds).toEqual([]);
    expect(row("SELECT count(*) AS n FROM product_prices WHERE product_id = ? AND retailer_id = ?", id, retailers[2])).toEqual({ n: 0 });
    // The best price is the £4.00 offer on the bound, never the held £0.50.
    expect(best(id)).toEqual({ price: 400, retailer: retailers[3] });
    expect(pendingNew(id)).toEqual([{ held: 50, published: 400, status: "pending", new_offer: 1 }]);
    // Seen again at the same price: nothing written.
    const revision = catalogueRevision(temp.db);
    expect(addOffer(temp.db, newOffer(id, 50), hours(4)).value.held).toBe(true);
    expect(catalogueRevision(temp.db)).toBe(revision);
    expect(pendingNew(id)).toHaveLength(1);
    const hold = pendingHolds(temp.db).find((h) => h.product.id === id)!;
    const accepted = acceptHeldPrice(temp.db, hold.id, hours(5));
    expect(accepted.change.productIds).toEqual([id]);
    expect(row("SELECT price_pence AS p, url, source FROM product_prices WHERE product_id = ? AND retailer_id = ?", id, retailers[2])).toEqual({
      p: 50,
      url: offerUrl(temp.db, retailers[2], "held"),
      source: "feed:awin",
    });
    expect(best(id)).toEqual({ price: 50, retailer: retailers[2] });
    expect(pendingNew(id).map((h) => h.status)).toEqual(["accepted"]);
  });

  it("holds one far above the best price too; rejecting leaves the product without it", () => {
    const id = product("Dear New Offer Bites");
    expect(addOffer(temp.db, newOffer(id, 2501), hours(3)).value.held).toBe(true);
    const hold = pendingHolds(temp.db).find((h) => h.product.id === id)!;
    rejectHeldPrice(temp.db, hold.id, hours(4));
    expect(row("SELECT count(*) AS n FROM product_prices WHERE product_id = ? AND retailer_id = ?", id, retailers[2])).toEqual({ n: 0 });
    // Exactly 250% is on the bound: added.
    expect(addOffer(temp.db, newOffer(id, 2500), hours(5)).value.held).toBe(false);
  });
});

describe("addOffer: repeat delivery, the best price it is held against, and accepting a held new offer", () => {
  const newOffer = newOfferAt("more");
  const stored = (id: number) =>
    row<{ price: number; original: number | null; delivery: number | null; inStock: number; repeat: number | null; terms: string | null }>(
      `SELECT price_pence AS price, original_price_pence AS original, delivery_pence AS delivery, in_stock AS inStock, repeat_price_pence AS repeat, repeat_terms AS terms
       FROM product_prices WHERE product_id = ? AND retailer_id = ?`,
      id,
      retailers[2],
    );
  const holdOf = (id: number) => pendingHolds(temp.db).find((h) => h.product.id === id)!;

  it("keeps a repeat-delivery price at most the price, with its terms, and drops one above it with its terms", () => {
    for (const [repeat, expected] of [
      [1000, { repeat: 1000, terms: "Save 10%" }],
      [1100, { repeat: 1100, terms: "Save 10%" }],
      [1200, { repeat: null, terms: null }],
    ] as const) {
      const id = product(`Repeat Offer Bites ${repeat}`);
      expect(addOffer(temp.db, newOffer(id, 1100, { repeatPricePence: repeat, repeatTerms: "Save 10%" }), hours(3)).value.held).toBe(false);
      expect(stored(id)).toMatchObject(expected);
    }
  });

  it("holds against the shopper's price of the best offer (the manual one under an override), and holds nothing for a product with no best offer", () => {
    // The best offer: £10.00 listed, £5.00 by the override; 40% of £5.00 is £2.00.
    const id = product("Override Best Bites", 5);
    expect(best(id)).toEqual({ price: 500, retailer: retailers[0] });
    expect(addOffer(temp.db, newOffer(id, 300), hours(3)).value.held).toBe(false);
    // A manual price kept with the override off is not the shopper's price: held against £10.00.
    const kept = createProduct(
      temp.db,
      productInput.parse({
        name: "Kept Manual Price Bites",
        categoryId: category,
        retailerLinks: [{ retailerId: retailers[0], affiliateUrl: offerUrl(temp.db, retailers[0], "k"), price: 10, priceOverride: false, manualPrice: 5 }],
      }),
      t0,
    ).value.id;
    expect(best(kept)).toEqual({ price: 1000, retailer: retailers[0] });
    expect(addOffer(temp.db, newOffer(kept, 300), hours(3)).value.held).toBe(true);
    const bare = product("No Best Offer Bites");
    // Every offer out of stock: no best offer.
    temp.db.$client.prepare("UPDATE product_prices SET in_stock = 0 WHERE product_id = ?").run(bare);
    recomputeBestPrices(temp.db, [bare], hours(3));
    expect(best(bare)).toEqual({ price: null, retailer: null });
    expect(addOffer(temp.db, newOffer(bare, 1), hours(3)).value.held).toBe(false);
    expect(stored(bare)).toMatchObject({ price: 1 });
  });

  it("audits a held new offer once; the same price again writes nothing, a new price replaces the hold", () => {
    const id = product("Replaced Hold Bites");
    const since = lastAuditId();
    expect(addOffer(temp.db, newOffer(id, 50), hours(3)).value.held).toBe(true);
    const first = holdOf(id).id;
    expect(addOffer(temp.db, newOffer(id, 50), hours(4)).value.held).toBe(true);
    expect(holdOf(id).id).toBe(first);
    expect(audits(since)).toEqual([
      {
        action: "update",
        entity: "product",
        entity_id: id,
        summary: `Held a new offer at ${retailerName(retailers[2]!)} for "Replaced Hold Bites" at £0.50 for review (best price £10.00; from feed:awin)`,
      },
    ]);
    expect(addOffer(temp.db, newOffer(id, 60), hours(5)).value.held).toBe(true);
    expect(rows("SELECT held_price_pence AS held, status FROM price_holds WHERE product_id = ? ORDER BY id", id)).toEqual([{ held: 60, status: "pending" }]);
  });

  it("accepting one adds it as held (stock, was-price, delivery), audited, and answers the decision", () => {
    const id = product("Accepted New Offer Bites");
    addOffer(temp.db, newOffer(id, 50, { inStock: false, originalPricePence: 99, deliveryPence: 0 }), hours(3));
    const hold = holdOf(id);
    const since = lastAuditId();
    expect(acceptHeldPrice(temp.db, hold.id, hours(4)).value).toEqual({ id: hold.id, status: "accepted" });
    expect(stored(id)).toEqual({ price: 50, original: 99, delivery: 0, inStock: 0, repeat: null, terms: null });
    expect(audits(since)).toEqual([
      { action: "update", entity: "product", entity_id: id, summary: `Accepted held new offer at ${retailerName(retailers[2]!)} for "Accepted New Offer Bites" at £0.50` },
    ]);
  });

  it("accepting one is refused (409) when prices are no longer compared at the retailer, or its URL no longer fits the retailer's hosts", () => {
    const id = product("Refused New Offer Bites");
    const name = retailerName(retailers[2]!);
    const refusal = (holdId: number) => {
      try {
        acceptHeldPrice(temp.db, holdId, hours(4));
      } catch (error) {
        return { status: (error as WriteRefused).status, message: (error as Error).message };
      }
      return null;
    };
    addOffer(temp.db, newOffer(id, 50), hours(3));
    temp.db.$client.prepare("UPDATE retailers SET compares_prices = 0 WHERE id = ?").run(retailers[2]);
    try {
      expect(refusal(holdOf(id).id)).toEqual({ status: 409, message: `Prices are no longer compared at ${name}` });
    } finally {
      temp.db.$client.prepare("UPDATE retailers SET compares_prices = 1 WHERE id = ?").run(retailers[2]);
    }
    const hosts = row<{ hosts: string }>("SELECT hosts FROM retailers WHERE id = ?", retailers[2]).hosts;
    temp.db.$client.prepare("UPDATE retailers SET hosts = ? WHERE id = ?").run(JSON.stringify(["gone-shop.example"]), retailers[2]);
    addOffer(temp.db, newOffer(id, 40, { url: "https://gone-shop.example/p/1" }), hours(3));
    temp.db.$client.prepare("UPDATE retailers SET hosts = ? WHERE id = ?").run(hosts, retailers[2]);
    expect(refusal(holdOf(id).id)).toMatchObject({ status: 409, message: expect.stringMatching(new RegExp(`^This offer cannot be added: the URL's host gone-shop\\.example is not ${name}'s \\(`)) });
    expect(rows("SELECT held_price_pence AS held, status FROM price_holds WHERE product_id = ? ORDER BY id", id)).toEqual([{ held: 40, status: "pending" }]);
  });
});

describe("recordPriceChecks: checks their source marks for review", () => {
  it("holds a new price whatever its size and confirms a repeated one; the audit names at most three reasons", () => {
    const ids = [product("Reason Bites One"), product("Reason Bites Two")];
    const checks = ids.flatMap((id, i) => [
      check(id, 1001, { holdReason: `reason ${2 * i + 1}` }),
      check(id, 1201, { retailerId: retailers[1]!, holdReason: `reason ${2 * i + 2}` }),
    ]);
    const since = lastAuditId();
    expect(recordPriceChecks(temp.db, checks.slice(0, 3), undefined, hours(1)).value).toEqual({ checked: 3, changed: 0, held: 3, missing: 0 });
    expect(recordPriceChecks(temp.db, checks, undefined, hours(2)).value).toEqual({ checked: 4, changed: 0, held: 4, missing: 0 });
    expect(audits(since).map((audit) => audit.summary)).toEqual([
      "Price check (page): 3 checked, 0 changed, 3 held for review (reason 1; reason 2; reason 3)",
      "Price check (page): 4 checked, 0 changed, 4 held for review (reason 1; reason 2; reason 3; …)",
    ]);
    expect(rows("SELECT reason FROM price_holds WHERE product_id = ? AND status = 'pending' ORDER BY retailer_id", ids[1]).map((h) => (h as { reason: string }).reason)).toEqual(["reason 3", "reason 4"]);
    // The published price again, marked for review: it confirms the offer.
    expect(recordPriceChecks(temp.db, [check(ids[0]!, 1000, { holdReason: "reason 1" })], undefined, hours(3)).value).toMatchObject({ held: 0 });
  });
});

function retailerName(id: number): string {
  return row<{ name: string }>("SELECT name FROM retailers WHERE id = ?", id).name;
}
