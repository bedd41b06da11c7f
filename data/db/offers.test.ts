import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recomputeBestPrices } from "./offers.ts";
import { dealFactsFor, readWasHistory } from "./deal-facts.ts";
import { tempDb, withoutDelivery, type TempDb } from "./fixtures/temp-db.ts";

let temp: TempDb;
let productIds: number[];
beforeAll(async () => {
  temp = await tempDb(10);
  // Item prices are set and read back as best prices here: no delivery on top (totals to the door are tested in data/db/offers.test.ts).
  withoutDelivery(temp.db);
  productIds = (temp.db.$client.prepare("SELECT id FROM products ORDER BY id").all() as { id: number }[]).map((row) => row.id);
});
afterAll(() => temp.remove());

const run = (text: string, ...params: unknown[]) => temp.db.$client.prepare(text).run(...params);
const best = (id: number) =>
  temp.db.$client.prepare("SELECT best_price_pence AS price, best_retailer_id AS retailer, original_price_pence AS original FROM products WHERE id = ?").get(id);
const offers = (id: number) => temp.db.$client.prepare("SELECT id, retailer_id FROM product_prices WHERE product_id = ? ORDER BY retailer_id").all(id) as { id: number; retailer_id: number }[];

/** Gives the product's offers these prices (in retailer order), all in stock, no override, no was-price. */
function setPrices(productId: number, prices: number[]): { id: number; retailer_id: number }[] {
  const list = offers(productId);
  list.forEach((offer, i) => run("UPDATE product_prices SET price_pence = ?, in_stock = 1, price_override = 0, manual_price_pence = NULL, original_price_pence = NULL WHERE id = ?", prices[i] ?? 9999, offer.id));
  return list;
}

describe("recomputeBestPrices", () => {
  it("takes an admin's manual price while the override is on", () => {
    const id = productIds[0]!;
    const [first, second] = setPrices(id, [1000, 1200]);
    run("DELETE FROM price_history WHERE product_id = ?", id);
    run("UPDATE product_prices SET price_override = 1, manual_price_pence = 900, original_price_pence = 1500 WHERE id = ?", second!.id);
    recomputeBestPrices(temp.db, [id]);
    // The offer's claimed was-price (15.00) has no history behind it: no original price.
    expect(best(id)).toEqual({ price: 900, retailer: second!.retailer_id, original: null });
    run("UPDATE product_prices SET price_override = 0 WHERE id = ?", second!.id);
    recomputeBestPrices(temp.db, [id]);
    expect(best(id)).toEqual({ price: 1000, retailer: first!.retailer_id, original: null });
  });

  it("touches only the products named, and every product when none are named", () => {
    const [a, b] = [productIds[1]!, productIds[2]!];
    const [aFirst] = setPrices(a, [500]);
    const [bFirst] = setPrices(b, [600]);
    recomputeBestPrices(temp.db, [a]);
    expect(best(a)).toMatchObject({ price: 500, retailer: aFirst!.retailer_id });
    expect((best(b) as { price: number }).price).not.toBe(600);
    recomputeBestPrices(temp.db);
    expect(best(b)).toMatchObject({ price: 600, retailer: bFirst!.retailer_id });
  });

  it("clears the best price of a product whose offers are all gone or out of stock", () => {
    const [gone, outOfStock] = [productIds[3]!, productIds[4]!];
    run("DELETE FROM product_prices WHERE product_id = ?", gone);
    run("UPDATE product_prices SET in_stock = 0 WHERE product_id = ?", outOfStock);
    recomputeBestPrices(temp.db, [gone, outOfStock]);
    expect(best(gone)).toEqual({ price: null, retailer: null, original: null });
    expect(best(outOfStock)).toEqual({ price: null, retailer: null, original: null });
    // The same through the whole-catalogue pass.
    run("UPDATE products SET best_price_pence = 1, best_retailer_id = NULL WHERE id IN (?, ?)", gone, outOfStock);
    recomputeBestPrices(temp.db);
    expect(best(gone)).toEqual({ price: null, retailer: null, original: null });
    expect(best(outOfStock)).toEqual({ price: null, retailer: null, original: null });
  });

  it("runs inside the caller's transaction, undone with it", () => {
    const id = productIds[5]!;
    setPrices(id, [700]);
    recomputeBestPrices(temp.db, [id]);
    expect(() =>
      temp.db.$client.transaction(() => {
        run("UPDATE product_prices SET price_pence = 100 WHERE product_id = ?", id);
        recomputeBestPrices(temp.db, [id]);
        expect((best(id) as { price: number }).price).toBe(100);
        throw new Error("roll back");
      })(),
    ).toThrow("roll back");
    expect((best(id) as { price: number }).price).toBe(700);
  });

  it("compares totals to the door: the offer's own delivery, else its retailer's rule at the effective price", () => {
    const id = productIds[6]!;
    const [first, second] = setPrices(id, [1000, 1200]);
    run("UPDATE product_prices SET free_delivery = 0, delivery_pence = NULL WHERE product_id = ?", id);
    const rule = (retailerId: number, standard: number | null, freeFrom: number | null) =>
      run("UPDATE retailers SET delivery_pence = ?, free_delivery_from_pence = ? WHERE id = ?", standard, freeFrom, retailerId);
    const withDelivery = (productId: number) =>
      temp.db.$client.prepare("SELECT best_price_pence AS price, best_retailer_id AS retailer, best_delivery_pence AS delivery FROM products WHERE id = ?").get(productId);
    try {
      // 1000 + 399 against 1200 delivered free from 1200 on (exactly on the threshold).
      rule(first!.retailer_id, 399, 3900);
      rule(second!.retailer_id, 299, 1200);
      recomputeBestPrices(temp.db, [id]);
      expect(withDelivery(id)).toEqual({ price: 1200, retailer: second!.retailer_id, delivery: 0 });
      // A penny below the threshold, the charge applies: 1199 + 299 = 1498, and 1399 wins.
      run("UPDATE product_prices SET price_pence = 1199 WHERE id = ?", second!.id);
      recomputeBestPrices(temp.db, [id]);
      expect(withDelivery(id)).toEqual({ price: 1399, retailer: first!.retailer_id, delivery: 399 });
      // The offer's own stated delivery beats its retailer's rule.
      run("UPDATE product_prices SET delivery_pence = 0 WHERE id = ?", second!.id);
      recomputeBestPrices(temp.db);
      expect(withDelivery(id)).toEqual({ price: 1199, retailer: second!.retailer_id, delivery: 0 });
      // Unknown delivery everywhere: the item prices decide, and the delivery is null, not 0.
      run("UPDATE product_prices SET delivery_pence = NULL WHERE id = ?", second!.id);
      rule(first!.retailer_id, null, null);
      rule(second!.retailer_id, null, null);
      recomputeBestPrices(temp.db, [id]);
      expect(withDelivery(id)).toEqual({ price: 1000, retailer: first!.retailer_id, delivery: null });
    } finally {
      withoutDelivery(temp.db);
    }
  });

  it("derives the best price per kg to the door from the pack size in the name; none for other packs or nothing in stock", () => {
    const [bag, pipettes, gone] = [productIds[7]!, productIds[8]!, productIds[9]!];
    const perKg = (id: number) => (temp.db.$client.prepare("SELECT best_price_per_kg_pence AS perKg FROM products WHERE id = ?").get(id) as { perKg: number | null }).perKg;
    run("UPDATE products SET name = 'Per Kg Adult Dry Dog Food 12kg' WHERE id = ?", bag);
    run("UPDATE products SET name = 'Per Kg Spot On 3 Pipettes' WHERE id = ?", pipettes);
    run("UPDATE products SET name = 'Per Kg Puppy Food 2kg' WHERE id = ?", gone);
    const [first] = setPrices(bag, [4300, 9000]);
    setPrices(pipettes, [1500]);
    setPrices(gone, [1000]);
    run("UPDATE product_prices SET in_stock = 0 WHERE product_id = ?", gone);
    run("UPDATE product_prices SET free_delivery = 0, delivery_pence = NULL WHERE product_id = ?", bag);
    try {
      // £43.00 + £2.99 delivery = £45.99 to the door; 4599 / 12 = 383.25 -> 383p per kg.
      run("UPDATE retailers SET delivery_pence = 299, free_delivery_from_pence = NULL WHERE id = ?", first!.retailer_id);
      recomputeBestPrices(temp.db, [bag, pipettes, gone]);
      expect(perKg(bag)).toBe(383);
      expect(perKg(pipettes)).toBeNull();
      expect(perKg(gone)).toBeNull();
      // The whole-catalogue pass derives the same.
      run("UPDATE products SET best_price_per_kg_pence = 1 WHERE id IN (?, ?, ?)", bag, pipettes, gone);
      recomputeBestPrices(temp.db);
      expect([perKg(bag), perKg(pipettes), perKg(gone)]).toEqual([383, null, null]);
    } finally {
      withoutDelivery(temp.db);
    }
    // Without the delivery: 4300 / 12 = 358.33 -> 358.
    expect(perKg(bag)).toBe(358);
  });
});

describe("recomputeBestPrices: the was-price is the one the price history supports", () => {
  // Today is 2026-06-30; six calendar months before it is 2025-12-30.
  const now = new Date("2026-06-30T12:00:00.000Z");
  /** The product's offers at these current prices (in retailer order, the rest removed), each with item price history `points` ([retailer index, time, pence]). */
  function history(productId: number, current: number[], points: [number, string, number][], claimedWas: number | null = null): number[] {
    const kept = offers(productId).slice(0, current.length);
    for (const other of offers(productId).slice(current.length)) run("DELETE FROM product_prices WHERE id = ?", other.id);
    kept.forEach((offer, i) =>
      run("UPDATE product_prices SET price_pence = ?, in_stock = 1, stale = 0, price_override = 0, free_delivery = 0, delivery_pence = NULL, original_price_pence = ? WHERE id = ?", current[i]!, claimedWas, offer.id),
    );
    run("DELETE FROM price_history WHERE product_id = ?", productId);
    for (const [index, at, pence] of points) {
      run("INSERT INTO price_history (product_id, retailer_id, price_pence, recorded_at) VALUES (?, ?, ?, ?)", productId, kept[index]!.retailer_id, pence, at);
    }
    return kept.map((offer) => offer.retailer_id);
  }

  it("stores a price the best offer's retailer charged for 28 whole days, not 27; a retailer's claimed was-price alone is nothing", () => {
    const id = productIds[6]!;
    // 12.00 from midnight on 1 May to midnight on 29 May: 28 whole days; 10.00 since.
    history(id, [1000], [[0, "2026-05-01T00:00:00.000Z", 1200], [0, "2026-05-29T00:00:00.000Z", 1000]], 1500);
    recomputeBestPrices(temp.db, [id], now);
    expect(best(id)).toMatchObject({ price: 1000, original: 1200 });
    // Changed at 09:00 on 28 May: 27 whole days.
    history(id, [1000], [[0, "2026-05-01T00:00:00.000Z", 1200], [0, "2026-05-28T09:00:00.000Z", 1000]], 1500);
    recomputeBestPrices(temp.db, [id], now);
    expect(best(id)).toMatchObject({ price: 1000, original: null });
  });

  it("reads back far enough: a run that ended six calendar months ago stands, one that ended a day earlier does not", () => {
    const id = productIds[8]!;
    // 12.00 from November 2025; 10.00 from midnight on 31 December: the run's last day is 30 December.
    history(id, [1000], [[0, "2025-11-01T08:00:00.000Z", 1200], [0, "2025-12-31T00:00:00.000Z", 1000]]);
    recomputeBestPrices(temp.db, [id], now);
    expect(best(id)).toMatchObject({ price: 1000, original: 1200 });
    // The deal facts read the 90 days first: these do not settle it, so the longer history is read for it too.
    expect(dealFactsFor(temp.db, [id], now).get(id)?.wasPence).toBe(1200);
    // 10.00 from midnight on 30 December: the last day at 12.00 was 29 December.
    history(id, [1000], [[0, "2025-11-01T08:00:00.000Z", 1200], [0, "2025-12-30T00:00:00.000Z", 1000]]);
    recomputeBestPrices(temp.db, [id], now);
    expect(best(id)).toMatchObject({ price: 1000, original: null });
    expect(dealFactsFor(temp.db, [id], now).get(id)?.wasPence).toBeNull();
  });

  it("never takes another retailer's run, and drops the was-price once a higher step follows the run", () => {
    const id = productIds[9]!;
    // The second retailer held 13.00 for months; the first, today's best at 10.00, never charged more.
    const [first] = history(id, [1000, 1100], [[1, "2026-01-01T00:00:00.000Z", 1300], [1, "2026-06-01T00:00:00.000Z", 1100], [0, "2026-01-01T00:00:00.000Z", 1000]]);
    recomputeBestPrices(temp.db, [id], now);
    expect(best(id)).toMatchObject({ price: 1000, retailer: first, original: null });
    // The first retailer at 12.00 through March, 10.00 since: supported...
    history(id, [1000, 1100], [[1, "2026-01-01T00:00:00.000Z", 1300], [0, "2026-03-01T00:00:00.000Z", 1200], [0, "2026-04-01T00:00:00.000Z", 1000]]);
    recomputeBestPrices(temp.db, [id], now);
    expect(best(id)).toMatchObject({ price: 1000, retailer: first, original: 1200 });
    // ...until a step up to 12.50 for a week in May.
    history(id, [1000, 1100], [[0, "2026-03-01T00:00:00.000Z", 1200], [0, "2026-04-01T00:00:00.000Z", 1000], [0, "2026-05-10T00:00:00.000Z", 1250], [0, "2026-05-17T00:00:00.000Z", 1000]]);
    recomputeBestPrices(temp.db, [id], now);
    expect(best(id)).toMatchObject({ price: 1000, retailer: first, original: null });
  });

  it("counts history as totals to the door: an item price below the free-delivery threshold carries the delivery", () => {
    const id = productIds[7]!;
    history(id, [4000], [[0, "2026-04-01T10:00:00.000Z", 3800], [0, "2026-06-25T10:00:00.000Z", 4000]]);
    const [offer] = offers(id);
    run("UPDATE retailers SET delivery_pence = 399, free_delivery_from_pence = 3900 WHERE id = ?", offer!.retailer_id);
    try {
      // 38.00 + 3.99 = 41.99 to the door for 84 whole days, above today's 40.00 delivered free.
      recomputeBestPrices(temp.db, [id], now);
      expect(best(id)).toMatchObject({ price: 4000, original: 4199 });
    } finally {
      run("UPDATE retailers SET delivery_pence = NULL, free_delivery_from_pence = NULL WHERE id = ?", offer!.retailer_id);
    }
  });
});

describe("readWasHistory", () => {
  it("reads the asked retailer's points from the rule's first day on, and the one point in force then, for each product in one go", () => {
    const [a, b] = [productIds[4]!, productIds[5]!];
    const [retailerA, otherA] = offers(a).map((offer) => offer.retailer_id);
    const [retailerB] = offers(b).map((offer) => offer.retailer_id);
    run("DELETE FROM price_history WHERE product_id IN (?, ?)", a, b);
    const insert = (product: number, retailer: number, pence: number, at: string) =>
      run("INSERT INTO price_history (product_id, retailer_id, price_pence, recorded_at) VALUES (?, ?, ?, ?)", product, retailer, pence, at);
    // Today 2026-06-30: the rule's first day is 2025-12-03.
    insert(a, retailerA!, 900, "2025-10-01T00:00:00.000Z");
    insert(a, retailerA!, 950, "2025-12-02T23:59:59.999Z");
    insert(a, retailerA!, 960, "2025-12-02T23:59:59.999Z");
    insert(a, retailerA!, 1000, "2025-12-03T00:00:00.000Z");
    insert(a, retailerA!, 1100, "2026-06-30T08:00:00.000Z");
    insert(a, otherA!, 500, "2026-01-01T00:00:00.000Z");
    insert(b, retailerB!, 700, "2025-01-01T00:00:00.000Z");
    const points = readWasHistory(temp.db, new Date("2026-06-30T12:00:00.000Z"), new Map([[a, retailerA!], [b, retailerB!]]));
    expect(points.get(a)).toEqual([
      // Of the two at the last instant before the first day, the later row.
      { retailerId: retailerA, pricePence: 960, recordedAt: "2025-12-02T23:59:59.999Z" },
      { retailerId: retailerA, pricePence: 1000, recordedAt: "2025-12-03T00:00:00.000Z" },
      { retailerId: retailerA, pricePence: 1100, recordedAt: "2026-06-30T08:00:00.000Z" },
    ]);
    expect(points.get(b)).toEqual([{ retailerId: retailerB, pricePence: 700, recordedAt: "2025-01-01T00:00:00.000Z" }]);
    expect(readWasHistory(temp.db, new Date("2026-06-30T12:00:00.000Z"), new Map())).toEqual(new Map());
  });
});
