import { describe, expect, it } from "vitest";
import { bestOffer, effectivePence, type OfferPricing } from "./offers.ts";

const offer = (over: Partial<OfferPricing>): OfferPricing => ({
  retailerId: 1,
  pricePence: 1000,
  originalPricePence: null,
  inStock: true,
  priceOverride: false,
  manualPricePence: null,
  ...over,
});

describe("effectivePence", () => {
  it("uses the manual price only while the override is on", () => {
    expect(effectivePence(offer({ manualPricePence: 500 }))).toBe(1000);
    expect(effectivePence(offer({ manualPricePence: 500, priceOverride: true }))).toBe(500);
    expect(effectivePence(offer({ priceOverride: true }))).toBe(1000);
  });
});

describe("bestOffer", () => {
  it("picks the lowest in-stock effective price", () => {
    const best = bestOffer([
      offer({ retailerId: 1, pricePence: 1200 }),
      offer({ retailerId: 2, pricePence: 900, inStock: false }),
      offer({ retailerId: 3, pricePence: 1500, priceOverride: true, manualPricePence: 1100 }),
    ]);
    expect(best).toEqual({ bestPricePence: 1100, bestRetailerId: 3, originalPricePence: null });
  });
  it("breaks ties by retailer id", () => {
    expect(bestOffer([offer({ retailerId: 5 }), offer({ retailerId: 2 })]).bestRetailerId).toBe(2);
  });
  it("keeps the best offer's was-price only when it is above the price", () => {
    expect(bestOffer([offer({ originalPricePence: 1500 })]).originalPricePence).toBe(1500);
    expect(bestOffer([offer({ originalPricePence: 900 })]).originalPricePence).toBeNull();
  });
  it("has no best price when nothing is in stock", () => {
    expect(bestOffer([offer({ inStock: false })])).toEqual({ bestPricePence: null, bestRetailerId: null, originalPricePence: null });
    expect(bestOffer([])).toEqual({ bestPricePence: null, bestRetailerId: null, originalPricePence: null });
  });
});
