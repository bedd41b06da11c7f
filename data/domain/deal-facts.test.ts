import { describe, expect, it } from "vitest";
import { dailyLowestTotals, dealFactsOf, historyTotals, supportedWasPrice, wasPriceSettled } from "./deal-facts.ts";
import type { OfferPricing } from "./offers.ts";

const now = new Date("2026-03-31T12:00:00.000Z");
const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();
const offer = (over: Partial<OfferPricing> = {}): OfferPricing => ({
  retailerId: 1,
  pricePence: 1000,
  inStock: true,
  priceOverride: false,
  manualPricePence: null,
  ...over,
});

describe("historyTotals", () => {
  it("adds the delivery each recorded item price carries under the offer's current rule, and ends with every offer's state now", () => {
    const rule = { standardPence: 399, freeFromPence: 3900 };
    const rows = historyTotals(
      [
        { retailerId: 1, pricePence: 3899, recordedAt: daysAgo(10) },
        { retailerId: 1, pricePence: 3900, recordedAt: daysAgo(5) },
        // A retailer the product is no longer sold at: left out.
        { retailerId: 9, pricePence: 100, recordedAt: daysAgo(5) },
      ],
      [offer({ pricePence: 3900, deliveryRule: rule }), offer({ retailerId: 2, pricePence: 500, deliveryPence: 250, inStock: false })],
      now,
    );
    expect(rows).toEqual([
      { retailerId: 1, totalPence: 4298, recordedAt: daysAgo(10) },
      { retailerId: 1, totalPence: 3900, recordedAt: daysAgo(5) },
      { retailerId: 1, totalPence: 3900, recordedAt: now.toISOString() },
      { retailerId: 2, totalPence: null, recordedAt: now.toISOString() },
    ]);
  });

  it("makes today's lowest the best price: a stale or out-of-stock offer drops out from now on", () => {
    const days = dailyLowestTotals(
      [
        { retailerId: 1, pricePence: 800, recordedAt: daysAgo(3) },
        { retailerId: 2, pricePence: 900, recordedAt: daysAgo(3) },
      ],
      [offer({ pricePence: 800, stale: true }), offer({ retailerId: 2, pricePence: 900 })],
      now,
    );
    expect(days.slice(-2).map((day) => day.lowestTotalPence)).toEqual([800, 900]);
  });
});

describe("supportedWasPrice", () => {
  const rule = { standardPence: 399, freeFromPence: 3900 };

  it("reads the best offer's retailer's history as totals to the door: an item price under the free-delivery threshold carries the delivery", () => {
    // 38.00 from 60 days ago to 20 days ago (39 whole days), 40.00 since, delivered free from 39.00.
    const points = [
      { retailerId: 1, pricePence: 3800, recordedAt: daysAgo(60) },
      { retailerId: 1, pricePence: 4000, recordedAt: daysAgo(20) },
    ];
    // 38.00 + 3.99 = 41.99 to the door, above today's 40.00.
    expect(supportedWasPrice(points, [offer({ pricePence: 4000, deliveryRule: rule })], now)).toBe(4199);
    // As item prices alone 38.00 is below 40.00: no saving at all.
    expect(supportedWasPrice(points, [offer({ pricePence: 4000 })], now)).toBeNull();
  });

  it("looks at the retailer of today's best offer only, whoever has the longer history", () => {
    const points = [
      { retailerId: 1, pricePence: 2500, recordedAt: daysAgo(80) },
      { retailerId: 1, pricePence: 2000, recordedAt: daysAgo(10) },
      { retailerId: 2, pricePence: 1900, recordedAt: daysAgo(80) },
    ];
    // Retailer 2 is cheapest today and never charged more: no was price, whatever retailer 1 did.
    expect(supportedWasPrice(points, [offer({ pricePence: 2000 }), offer({ retailerId: 2, pricePence: 1900 })], now)).toBeNull();
    // With retailer 2 out of stock, retailer 1 is the best offer and its 25.00 stands.
    expect(supportedWasPrice(points, [offer({ pricePence: 2000 }), offer({ retailerId: 2, pricePence: 1900, inStock: false })], now)).toBe(2500);
    // Nothing in stock: no best offer, no was price.
    expect(supportedWasPrice(points, [offer({ pricePence: 2000, inStock: false })], now)).toBeNull();
  });
});

describe("wasPriceSettled", () => {
  // For 2026-03-31 the rule's first day is 2025-09-03 (28 days ending 2025-09-30).
  const point = (recordedAt: string, pricePence = 1000) => ({ retailerId: 1, pricePence, recordedAt });
  it("needs no older points once the points give a was price, reach back to the rule's first day, or there are none", () => {
    expect(wasPriceSettled([point("2026-01-10T00:00:00.000Z")], 1200, "2026-03-31")).toBe(true);
    expect(wasPriceSettled([], null, "2026-03-31")).toBe(true);
    expect(wasPriceSettled([point("2025-09-03T00:00:00.000Z"), point("2026-01-10T00:00:00.000Z")], null, "2026-03-31")).toBe(true);
  });
  it("needs them when the oldest point starts after the rule's first day and no was price was found", () => {
    expect(wasPriceSettled([point("2025-09-03T00:00:00.001Z"), point("2026-01-10T00:00:00.000Z")], null, "2026-03-31")).toBe(false);
    expect(wasPriceSettled([point("2026-01-10T00:00:00.000Z")], null, "2026-03-31")).toBe(false);
  });
});

describe("dealFactsOf", () => {
  it("reads every fact off the same days, the was price as given", () => {
    // 100 days at 20.00 (the whole window covered), today 18.00 at a second retailer.
    const days = dailyLowestTotals(
      [{ retailerId: 1, pricePence: 2000, recordedAt: daysAgo(100) }],
      [offer({ pricePence: 2000 }), offer({ retailerId: 2, pricePence: 1800 })],
      now,
    );
    expect(dealFactsOf(days, null)).toEqual({ todayPence: 1800, lowestPence: 1800, isLowestIn90Days: true, typicalPence: 2000, isDeal: true, wasPence: null, lowestBeforeTodayPence: 2000 });
    expect(dealFactsOf(days, 1999).wasPence).toBe(1999);
    expect(dealFactsOf([], null)).toEqual({ todayPence: null, lowestPence: null, isLowestIn90Days: false, typicalPence: null, isDeal: false, wasPence: null, lowestBeforeTodayPence: null });
  });
});
