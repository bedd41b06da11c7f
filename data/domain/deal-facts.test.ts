import { describe, expect, it } from "vitest";
import { dailyLowestTotals, dealFactsOf, historyTotals } from "./deal-facts.ts";
import type { OfferPricing } from "./offers.ts";

const now = new Date("2026-03-31T12:00:00.000Z");
const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();
const offer = (over: Partial<OfferPricing> = {}): OfferPricing => ({
  retailerId: 1,
  pricePence: 1000,
  originalPricePence: null,
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

describe("dealFactsOf", () => {
  it("reads every fact off the same days", () => {
    // 100 days at 20.00 (the whole window covered), today 18.00 at a second retailer.
    const days = dailyLowestTotals(
      [{ retailerId: 1, pricePence: 2000, recordedAt: daysAgo(100) }],
      [offer({ pricePence: 2000 }), offer({ retailerId: 2, pricePence: 1800 })],
      now,
    );
    expect(dealFactsOf(days)).toEqual({ todayPence: 1800, lowestPence: 1800, isLowestIn90Days: true, typicalPence: 2000, isDeal: true, wasPence: 2000, lowestBeforeTodayPence: 2000 });
    expect(dealFactsOf([])).toEqual({ todayPence: null, lowestPence: null, isLowestIn90Days: false, typicalPence: null, isDeal: false, wasPence: null, lowestBeforeTodayPence: null });
  });
});
