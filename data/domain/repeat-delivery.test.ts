import { describe, expect, it } from "vitest";
import type { DeliveryRule } from "./delivery.ts";
import { bestOffer as bestOfferAt, type OfferPricing } from "./offers.ts";
import { cheapestRegularWay as cheapestRegularWayAt, repeatOrder, repeatSavingPence, repeatTotalPence, type RegularWayOption, type RepeatPricing } from "./repeat-delivery.ts";

const now = new Date("2026-03-31T12:00:00.000Z");
const bestOffer = (offers: readonly OfferPricing[]) => bestOfferAt(offers, now);
const cheapestRegularWay = <T extends RegularWayOption>(options: readonly T[]) => cheapestRegularWayAt(options, now);

/** £3.99, free on orders of £39.00 or more. */
const rule: DeliveryRule = { standardPence: 399, freeFromPence: 3900 };

const offer = (over: Partial<RepeatPricing>): RepeatPricing => ({
  retailerId: 1,
  pricePence: 2000,
  inStock: true,
  priceOverride: false,
  manualPricePence: null,
  deliveryRule: rule,
  ...over,
});

describe("repeatOrder", () => {
  it("is null without a repeat price", () => {
    expect(repeatOrder(offer({}))).toBeNull();
    expect(repeatOrder(offer({ repeatPricePence: null }))).toBeNull();
    expect(repeatTotalPence(offer({}))).toBeNull();
    expect(repeatSavingPence(offer({}))).toBeNull();
  });

  it("adds the delivery a one-off order at the repeat price would cost", () => {
    expect(repeatOrder(offer({ pricePence: 2000, repeatPricePence: 1900 }))).toEqual({ itemPence: 1900, deliveryPence: 399, totalPence: 2299 });
    expect(repeatSavingPence(offer({ pricePence: 2000, repeatPricePence: 1900 }))).toBe(100);
  });

  it("a repeat price that drops below the free-delivery threshold pays delivery: repeat costs more to the door", () => {
    // One-off £39.00 is delivered free; repeat £37.05 (5% off) is not: £37.05 + £3.99 = £41.04.
    const crossing = offer({ pricePence: 3900, repeatPricePence: 3705 });
    expect(repeatOrder(crossing)).toEqual({ itemPence: 3705, deliveryPence: 399, totalPence: 4104 });
    expect(repeatSavingPence(crossing)).toBe(-204);
    // Exactly on the threshold the repeat order is free too.
    expect(repeatOrder(offer({ pricePence: 4100, repeatPricePence: 3900 }))).toEqual({ itemPence: 3900, deliveryPence: 0, totalPence: 3900 });
    expect(repeatOrder(offer({ pricePence: 4100, repeatPricePence: 3899 }))?.totalPence).toBe(4298);
  });

  it("follows the offer's own delivery statement and free-delivery mark, as a one-off order does", () => {
    expect(repeatOrder(offer({ repeatPricePence: 1900, deliveryPence: 250 }))).toEqual({ itemPence: 1900, deliveryPence: 250, totalPence: 2150 });
    expect(repeatOrder(offer({ repeatPricePence: 1900, freeDelivery: true }))).toEqual({ itemPence: 1900, deliveryPence: 0, totalPence: 1900 });
    // Delivery not known: the total is the item alone.
    expect(repeatOrder(offer({ repeatPricePence: 1900, deliveryRule: { standardPence: null, freeFromPence: null } }))).toEqual({
      itemPence: 1900,
      deliveryPence: null,
      totalPence: 1900,
    });
  });

  it("saves nothing when the repeat price equals the one-off price", () => {
    expect(repeatSavingPence(offer({ pricePence: 2000, repeatPricePence: 2000 }))).toBe(0);
    // Against the price the shopper pays: the manual price under an override.
    expect(repeatSavingPence(offer({ pricePence: 2500, priceOverride: true, manualPricePence: 2000, repeatPricePence: 2000 }))).toBe(0);
  });

  it("leaves the best price one-off: a cheaper repeat price never moves it", () => {
    const offers = [offer({ retailerId: 1, pricePence: 2000, repeatPricePence: 1500 }), offer({ retailerId: 2, pricePence: 1900 })];
    expect(bestOffer(offers)).toMatchObject({ bestPricePence: 2299, bestRetailerId: 2 });
  });
});

const way = (over: Partial<RegularWayOption>): RegularWayOption => ({ retailerId: 1, inStock: true, stale: false, totalPence: 2000, repeatTotalPence: null, ...over });

describe("cheapestRegularWay", () => {
  it("is the lowest of every in-stock current offer's one-off and repeat totals", () => {
    const a = way({ retailerId: 1, totalPence: 2000, repeatTotalPence: 1900 });
    const b = way({ retailerId: 2, totalPence: 1950 });
    const c = way({ retailerId: 3, totalPence: 2100, repeatTotalPence: 1850, inStock: false });
    const d = way({ retailerId: 4, totalPence: 2100, repeatTotalPence: 1800, stale: true });
    expect(cheapestRegularWay([a, b, c, d])).toEqual({ option: a, repeat: true, totalPence: 1900 });
    expect(cheapestRegularWay([b, c, d])).toEqual({ option: b, repeat: false, totalPence: 1950 });
  });

  it("is null when nothing is in stock and current", () => {
    expect(cheapestRegularWay([])).toBeNull();
    expect(cheapestRegularWay([way({ inStock: false, repeatTotalPence: 1000 }), way({ stale: true })])).toBeNull();
  });

  it("takes a one-off order over repeat delivery at the same total, whatever the order", () => {
    const repeatOnly = way({ retailerId: 1, totalPence: 2100, repeatTotalPence: 2000 });
    const oneOff = way({ retailerId: 2, totalPence: 2000 });
    expect(cheapestRegularWay([repeatOnly, oneOff])).toEqual({ option: oneOff, repeat: false, totalPence: 2000 });
    expect(cheapestRegularWay([oneOff, repeatOnly])).toEqual({ option: oneOff, repeat: false, totalPence: 2000 });
    // Within one offer: a repeat price equal to the one-off total is not a reason to subscribe.
    const same = way({ retailerId: 5, totalPence: 2000, repeatTotalPence: 2000 });
    expect(cheapestRegularWay([same])).toEqual({ option: same, repeat: false, totalPence: 2000 });
  });

  it("then takes the lower retailer id, whatever the order", () => {
    const low = way({ retailerId: 2, totalPence: 2200, repeatTotalPence: 2000 });
    const high = way({ retailerId: 7, totalPence: 2300, repeatTotalPence: 2000 });
    expect(cheapestRegularWay([high, low])).toEqual({ option: low, repeat: true, totalPence: 2000 });
    expect(cheapestRegularWay([low, high])).toEqual({ option: low, repeat: true, totalPence: 2000 });
    const oneOffLow = way({ retailerId: 3, totalPence: 2000 });
    const oneOffHigh = way({ retailerId: 9, totalPence: 2000 });
    expect(cheapestRegularWay([oneOffHigh, oneOffLow])?.option).toBe(oneOffLow);
  });

  it("takes a repeat total one penny below a one-off total", () => {
    const oneOff = way({ retailerId: 1, totalPence: 2000 });
    const repeat = way({ retailerId: 2, totalPence: 2500, repeatTotalPence: 1999 });
    expect(cheapestRegularWay([oneOff, repeat])).toEqual({ option: repeat, repeat: true, totalPence: 1999 });
  });

  it("keeps the one-off order when repeat crosses below the free-delivery threshold", () => {
    const crossing = offer({ pricePence: 3900, repeatPricePence: 3705 });
    const option = way({ totalPence: 3900, repeatTotalPence: repeatTotalPence(crossing) });
    expect(cheapestRegularWay([option])).toEqual({ option, repeat: false, totalPence: 3900 });
  });
});

describe("cheapestRegularWay and the freshness window", () => {
  it("passes over an offer confirmed more than the window before now, exactly on the window still counting", () => {
    const onLimit = way({ retailerId: 2, totalPence: 2000, lastCheckedAt: new Date(now.getTime() - 24 * 3_600_000).toISOString() });
    const past = way({ retailerId: 1, totalPence: 1500, repeatTotalPence: 1000, lastCheckedAt: new Date(now.getTime() - 24 * 3_600_000 - 1).toISOString() });
    expect(cheapestRegularWayAt([past, onLimit], now)).toEqual({ option: onLimit, repeat: false, totalPence: 2000 });
    expect(cheapestRegularWayAt([past], now, 48 * 3_600_000)).toEqual({ option: past, repeat: true, totalPence: 1000 });
  });
});
