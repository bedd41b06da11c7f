import { describe, expect, it } from "vitest";
import { demoAnchorBand, demoPriceMove, shelfPriceWithin, type DemoPriceInput } from "./demo-prices.ts";

const days = Array.from({ length: 400 }, (_, index) => new Date(Date.UTC(2026, 0, 1) + index * 86_400_000).toISOString().slice(0, 10));

/** Every move of many offers over many days from the same start. */
function moves(base: Omit<DemoPriceInput, "day" | "productId">): { input: DemoPriceInput; price: number }[] {
  const out: { input: DemoPriceInput; price: number }[] = [];
  for (let productId = 1; productId <= 40; productId++) {
    for (const day of days.slice(0, 60)) {
      const input = { ...base, productId, day };
      out.push({ input, price: demoPriceMove(input) });
    }
  }
  return out;
}

describe("demoPriceMove", () => {
  it("gives the same price for the same offer, day and prices, and different moves on different days and offers", () => {
    const input = { productId: 7, retailerId: 2, day: "2026-05-01", pricePence: 1299, earlierPence: 1399, anchorPence: 1399 };
    expect(demoPriceMove(input)).toBe(demoPriceMove({ ...input }));
    const byDay = new Set(days.slice(0, 30).map((day) => demoPriceMove({ ...input, day })));
    const byProduct = new Set(Array.from({ length: 30 }, (_, id) => demoPriceMove({ ...input, productId: id + 1 })));
    expect(byDay.size).toBeGreaterThan(5);
    expect(byProduct.size).toBeGreaterThan(5);
  });

  it("holds, goes back to the earlier price, or moves by 1p to 3% of the price, never more", () => {
    for (const pricePence of [35, 99, 149, 999, 1299, 2499, 4999, 12_999]) {
      // Out of a day's reach, so a move never lands on it by chance.
      const earlierPence = Math.round(pricePence * 1.1);
      const results = moves({ retailerId: 3, pricePence, earlierPence, anchorPence: pricePence });
      const kinds = { hold: 0, back: 0, up: 0, down: 0 };
      for (const { input, price } of results) {
        expect(Number.isInteger(price), JSON.stringify(input)).toBe(true);
        if (price === pricePence) kinds.hold++;
        else if (price === earlierPence) kinds.back++;
        else {
          expect(Math.abs(price - pricePence), JSON.stringify(input)).toBeLessThanOrEqual(Math.floor(pricePence * 0.03));
          kinds[price > pricePence ? "up" : "down"]++;
        }
      }
      // Each kind happens (a sixth go back, a third hold, the rest move either way).
      expect(kinds.back, String(pricePence)).toBeGreaterThan(results.length / 12);
      expect(kinds.hold, String(pricePence)).toBeGreaterThan(results.length / 6);
      expect(kinds.up, String(pricePence)).toBeGreaterThan(results.length / 8);
      expect(kinds.down, String(pricePence)).toBeGreaterThan(results.length / 8);
    }
  });

  it("holds a price under 34p (3% is under a penny) unless it goes back, and never goes back without an earlier price", () => {
    for (const { price } of moves({ retailerId: 1, pricePence: 33, earlierPence: null, anchorPence: 33 })) expect(price).toBe(33);
    for (const { price } of moves({ retailerId: 1, pricePence: 1999, earlierPence: null, anchorPence: 1999 })) {
      expect(Math.abs(price - 1999)).toBeLessThanOrEqual(59);
    }
  });

  it("ends a moved price in 49p or 99p when one is in reach, else in 9p", () => {
    const results = moves({ retailerId: 4, pricePence: 4999, earlierPence: null, anchorPence: 4999 });
    const moved = results.filter(({ price }) => price !== 4999);
    expect(moved.length).toBeGreaterThan(0);
    // 3% of £49.99 is £1.49: £48.99 and £50.49 or £50.99... are in reach, so every moved price ends in 49p or 99p.
    for (const { price } of moved) expect([49, 99]).toContain(price % 100);
    // £3.99 moves by 11p at most: only 9p endings are in reach.
    for (const { price } of moves({ retailerId: 4, pricePence: 399, earlierPence: null, anchorPence: 399 })) expect(price % 10).toBe(9);
  });

  it("stays within 15% of the anchor whatever the walk: a price left to move for 400 days", () => {
    for (let productId = 1; productId <= 25; productId++) {
      const anchorPence = 2000 + productId * 37;
      let pricePence = anchorPence;
      let earlierPence: number | null = null;
      for (const day of days) {
        const next = demoPriceMove({ productId, retailerId: 5, day, pricePence, earlierPence, anchorPence });
        if (next !== pricePence) [earlierPence, pricePence] = [pricePence, next];
        expect(Math.abs(pricePence - anchorPence), `${productId} ${day}`).toBeLessThanOrEqual(Math.ceil(anchorPence * demoAnchorBand));
      }
    }
  });

  it("moves a price found outside the anchor's band toward the anchor", () => {
    for (const { price } of moves({ retailerId: 6, pricePence: 3000, earlierPence: null, anchorPence: 2000 })) expect(price).toBeLessThanOrEqual(3000);
    for (const { price } of moves({ retailerId: 6, pricePence: 1000, earlierPence: null, anchorPence: 2000 })) expect(price).toBeGreaterThanOrEqual(1000);
  });
});

describe("shelfPriceWithin", () => {
  it("takes the nearest 49p/99p ending in reach, else the nearest 9p ending, else whole pence within the bounds", () => {
    expect(shelfPriceWithin(2031, 1940, 2060)).toBe(2049);
    expect(shelfPriceWithin(2031, 1940, 2040)).toBe(1999);
    expect(shelfPriceWithin(2031, 2001, 2040)).toBe(2029);
    expect(shelfPriceWithin(103, 100, 106)).toBe(103);
    expect(shelfPriceWithin(102.6, 100, 106)).toBe(103);
    expect(shelfPriceWithin(120, 100, 106)).toBe(106);
    expect(shelfPriceWithin(0.2, 1, 2)).toBe(1);
  });
});
