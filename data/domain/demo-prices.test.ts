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

  it("draws each day's move from product id, retailer id and day alone: the same walk on every machine and release", () => {
    const walk = days.slice(120, 132).map((day) => demoPriceMove({ productId: 7, retailerId: 2, day, pricePence: 1999, earlierPence: 2099, anchorPence: 1999 }));
    expect(days[120]).toBe("2026-05-01");
    expect(walk).toEqual([1949, 2049, 1999, 1999, 1999, 2099, 2099, 1949, 1949, 1949, 1949, 1999]);
  });

  it("goes back a sixth of the days, holds a third and moves the rest", () => {
    const results = moves({ retailerId: 7, pricePence: 1999, earlierPence: 2099, anchorPence: 1999 });
    const share = (test: (price: number) => boolean) => results.filter(({ price }) => test(price)).length / results.length;
    expect(share((price) => price === 2099)).toBeCloseTo(1 / 6, 1);
    expect(share((price) => price === 1999)).toBeCloseTo(1 / 3, 1);
    expect(share((price) => price !== 1999 && price !== 2099)).toBeCloseTo(1 / 2, 1);
  });

  it("moves the other way, on every day it moves, when only one way is in reach, even a single price that way", () => {
    // Anchor 43p: the band's top is 49p, so 50p may only go down, and 3% of it (1p) reaches 49p alone.
    // Inside the band (anchor 50p) it moves to 49p or 51p on the same days.
    for (let productId = 1; productId <= 40; productId++) {
      for (const day of days.slice(0, 30)) {
        const outside = demoPriceMove({ productId, retailerId: 1, day, pricePence: 50, earlierPence: null, anchorPence: 43 });
        const inside = demoPriceMove({ productId, retailerId: 1, day, pricePence: 50, earlierPence: null, anchorPence: 50 });
        expect(outside, `${productId} ${day}`).toBe(inside === 50 ? 50 : 49);
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

  it("takes an ending lying exactly on either bound, and the lower of two endings equally near", () => {
    expect(shelfPriceWithin(1960, 1949, 1980)).toBe(1949);
    expect(shelfPriceWithin(1940, 1900, 1949)).toBe(1949);
    // £19.99 and £20.49 are both 25p from £20.24.
    expect(shelfPriceWithin(2024, 1900, 2100)).toBe(1999);
  });

  it("never gives a price under 1p, even when the bounds would allow one", () => {
    // -1p is the nearest 49p ending to 20p; 49p is the nearest one of 1p or more.
    expect(shelfPriceWithin(20, -100, 100)).toBe(49);
  });
});
