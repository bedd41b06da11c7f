import { describe, expect, it } from "vitest";
import { fromPounds } from "./money.ts";
import { bestOffer as bestOfferAt, bestOfferOf, defaultFreshForMs, isComparable, lastSeenOffer, effectivePence, freshnessText, offerListOrder, offerTotalAt, offerTotalPence, type ListedOffer, type OfferPricing } from "./offers.ts";

const offer = (over: Partial<OfferPricing> = {}): OfferPricing => ({
  retailerId: 1,
  pricePence: 1000,
  inStock: true,
  priceOverride: false,
  manualPricePence: null,
  ...over,
});

const now = new Date("2026-03-31T12:00:00.000Z");
const bestOffer = (offers: readonly OfferPricing[]) => bestOfferAt(offers, now);

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
    expect(best).toEqual({ bestPricePence: 1100, bestRetailerId: 3, bestDeliveryPence: null });
  });
  it("breaks a tie on price by the lower retailer id, whichever comes first", () => {
    expect(bestOffer([offer({ retailerId: 5 }), offer({ retailerId: 2 })]).bestRetailerId).toBe(2);
    expect(bestOffer([offer({ retailerId: 2 }), offer({ retailerId: 5 })]).bestRetailerId).toBe(2);
    // A tie between a manual price and a listed one is still a tie.
    const manual = offer({ retailerId: 7, pricePence: 1500, priceOverride: true, manualPricePence: 1000 });
    expect(bestOffer([manual, offer({ retailerId: 9 })]).bestRetailerId).toBe(7);
    expect(bestOffer([offer({ retailerId: 9 }), manual]).bestRetailerId).toBe(7);
  });
  it("takes a cheaper offer over one of a lower retailer id", () => {
    expect(bestOffer([offer({ retailerId: 1, pricePence: 1001 }), offer({ retailerId: 8, pricePence: 1000 })])).toMatchObject({ bestRetailerId: 8, bestPricePence: 1000 });
    expect(bestOffer([offer({ retailerId: 8, pricePence: 1000 }), offer({ retailerId: 1, pricePence: 1001 })])).toMatchObject({ bestRetailerId: 8, bestPricePence: 1000 });
  });
  it("has no best price when nothing is in stock", () => {
    expect(bestOffer([offer({ inStock: false })])).toEqual({ bestPricePence: null, bestRetailerId: null, bestDeliveryPence: null });
    // An out-of-stock offer never wins, however cheap, wherever it stands.
    expect(bestOffer([offer({ retailerId: 1, pricePence: 1, inStock: false }), offer({ retailerId: 2 })]).bestRetailerId).toBe(2);
    expect(bestOffer([offer({ retailerId: 2 }), offer({ retailerId: 1, pricePence: 1, inStock: false })]).bestRetailerId).toBe(2);
    expect(bestOffer([])).toEqual({ bestPricePence: null, bestRetailerId: null, bestDeliveryPence: null });
  });
  it("never chooses a stale offer, however cheap, and has no best price when only stale offers are in stock", () => {
    expect(bestOffer([offer({ retailerId: 1, pricePence: 1, stale: true }), offer({ retailerId: 2, pricePence: 1000 })])).toMatchObject({ bestRetailerId: 2, bestPricePence: 1000 });
    expect(bestOffer([offer({ retailerId: 2, pricePence: 1000 }), offer({ retailerId: 1, pricePence: 1, stale: true })])).toMatchObject({ bestRetailerId: 2, bestPricePence: 1000 });
    expect(bestOffer([offer({ stale: true })])).toEqual({ bestPricePence: null, bestRetailerId: null, bestDeliveryPence: null });
    expect(bestOffer([offer({ stale: false, retailerId: 4 })]).bestRetailerId).toBe(4);
  });
  it("counts a price as current for 24 hours by default", () => {
    expect(defaultFreshForMs).toBe(24 * 3600 * 1000);
  });
  it("words the window in hours, whole days past one day", () => {
    expect(freshnessText(24 * 3600_000)).toBe("24 hours");
    expect(freshnessText(3600_000)).toBe("1 hour");
    expect(freshnessText(36 * 3600_000)).toBe("36 hours");
    expect(freshnessText(72 * 3600_000)).toBe("3 days");
  });
});

describe("best price to the door", () => {
  const rule = { standardPence: 399, freeFromPence: 3900 };
  it("ranks by item plus delivery, so a dearer item with free delivery can win", () => {
    const offers = [offer({ retailerId: 1, pricePence: 3800, deliveryRule: rule }), offer({ retailerId: 2, pricePence: 3900, deliveryRule: rule })];
    // 3800 + 399 = 4199 against 3900 + 0 (exactly on the free threshold).
    expect(bestOffer(offers)).toEqual({ bestPricePence: 3900, bestRetailerId: 2, bestDeliveryPence: 0 });
    expect(bestOffer([...offers].reverse()).bestRetailerId).toBe(2);
  });
  it("breaks a tie on the total by the lower retailer id", () => {
    const offers = [offer({ retailerId: 5, pricePence: 3601, deliveryRule: rule }), offer({ retailerId: 3, pricePence: 4000, deliveryPence: 0 })];
    // 3601 + 399 = 4000 = 4000 + 0.
    expect(bestOffer(offers)).toMatchObject({ bestPricePence: 4000, bestRetailerId: 3, bestDeliveryPence: 0 });
  });
  it("uses the offer's stated delivery over its retailer's rule, and an offer marked free over the rule", () => {
    expect(offerTotalPence(offer({ pricePence: 1000, deliveryPence: 250, deliveryRule: rule }))).toBe(1250);
    expect(offerTotalPence(offer({ pricePence: 1000, freeDelivery: true, deliveryRule: rule }))).toBe(1000);
    expect(offerTotalPence(offer({ pricePence: 1000, deliveryRule: rule }))).toBe(1399);
    // The threshold applies to the effective (manual) price.
    expect(offerTotalPence(offer({ pricePence: 1000, priceOverride: true, manualPricePence: 3900, deliveryRule: rule }))).toBe(3900);
  });
  it("reports the best offer's delivery, null when not known", () => {
    expect(bestOffer([offer({ pricePence: 1000, deliveryRule: rule })]).bestDeliveryPence).toBe(399);
    expect(bestOffer([offer({ pricePence: 1000 })])).toMatchObject({ bestPricePence: 1000, bestDeliveryPence: null });
  });
  it("prices a recorded item price to the door as the offer stands today: across the free-delivery threshold, stated delivery, marked free", () => {
    expect(offerTotalAt(offer({ deliveryRule: rule }), 3899)).toBe(4298);
    expect(offerTotalAt(offer({ deliveryRule: rule }), 3900)).toBe(3900);
    expect(offerTotalAt(offer({ deliveryPence: 250, deliveryRule: rule }), 5000)).toBe(5250);
    expect(offerTotalAt(offer({ freeDelivery: true, deliveryRule: rule }), 1000)).toBe(1000);
    // Delivery not known: the item alone.
    expect(offerTotalAt(offer(), 1000)).toBe(1000);
  });
});

describe("offerListOrder", () => {
  const listed = (name: string, total: number, more: Partial<ListedOffer> = {}): ListedOffer => ({ inStock: true, stale: false, totalPence: fromPounds(total), retailer: { name }, ...more });

  it("lists in stock before out of stock, current before stale, then the cheapest total, then the retailer's name", () => {
    const offers = [
      listed("Amazon", 5.0, { inStock: false, stale: true }),
      listed("Pets at Home", 6.0, { inStock: false }),
      listed("eBay", 1.0, { stale: true }),
      listed("Zooplus", 12.0),
      // 0.1 + 11.9 is 11.999999999999998 in floating point: the same £12.00 as Zooplus's.
      listed("Jollyes", 0.1 + 11.9),
      listed("Pets Corner", 10.5),
    ];
    const expected = ["Pets Corner 10.5", "Jollyes 12", "Zooplus 12", "eBay 1 stale", "Pets at Home 6 out", "Amazon 5 stale out"];
    const names = (list: ListedOffer[]) =>
      list.map((o) => `${o.retailer.name} ${o.totalPence / 100}${o.stale ? " stale" : ""}${o.inStock ? "" : " out"}`);
    expect(names(offers.toSorted(offerListOrder))).toEqual(expected);
    expect(names(offers.toReversed().toSorted(offerListOrder))).toEqual(expected);
    expect(offerListOrder(listed("Amazon", 12), listed("Amazon", 12))).toBe(0);
    expect(offerListOrder(listed("Zooplus", 12), listed("Jollyes", 12))).toBeGreaterThan(0);
    expect(offerListOrder(listed("Jollyes", 12), listed("Zooplus", 12))).toBeLessThan(0);
  });
});

describe("isComparable", () => {
  const at = new Date("2026-03-31T12:00:00.000Z");
  const hoursBefore = (hours: number, extraMs = 0) => new Date(at.getTime() - hours * 3_600_000 - extraMs).toISOString();

  it("takes an in-stock offer that is not marked stale, and never an out-of-stock or stale one", () => {
    expect(isComparable({ inStock: true }, at)).toBe(true);
    expect(isComparable({ inStock: true, stale: false }, at)).toBe(true);
    expect(isComparable({ inStock: false }, at)).toBe(false);
    expect(isComparable({ inStock: true, stale: true }, at)).toBe(false);
    expect(isComparable({ inStock: false, stale: true }, at)).toBe(false);
    // A stale mark counts even with a recent check time (the sweep's mark is never overruled).
    expect(isComparable({ inStock: true, stale: true, lastCheckedAt: hoursBefore(1) }, at)).toBe(false);
  });

  it("counts a price confirmed exactly the freshness window ago as current, and one a millisecond older as not", () => {
    expect(isComparable({ inStock: true, lastCheckedAt: hoursBefore(24) }, at)).toBe(true);
    expect(isComparable({ inStock: true, lastCheckedAt: hoursBefore(24, 1) }, at)).toBe(false);
    expect(isComparable({ inStock: true, lastCheckedAt: hoursBefore(0) }, at)).toBe(true);
  });

  it("uses the freshness window it is given", () => {
    expect(isComparable({ inStock: true, lastCheckedAt: hoursBefore(48) }, at, 48 * 3_600_000)).toBe(true);
    expect(isComparable({ inStock: true, lastCheckedAt: hoursBefore(48, 1) }, at, 48 * 3_600_000)).toBe(false);
    expect(isComparable({ inStock: true, lastCheckedAt: hoursBefore(2) }, at, 3_600_000)).toBe(false);
  });

  it("never lets an admin's price go stale by time, nor an offer without a check time", () => {
    expect(isComparable({ inStock: true, priceOverride: true, lastCheckedAt: hoursBefore(24 * 30) }, at)).toBe(true);
    expect(isComparable({ inStock: true, priceOverride: false, lastCheckedAt: hoursBefore(24 * 30) }, at)).toBe(false);
    expect(isComparable({ inStock: true, lastCheckedAt: null }, at)).toBe(true);
    // An admin's price out of stock is still out of stock.
    expect(isComparable({ inStock: false, priceOverride: true, lastCheckedAt: hoursBefore(1) }, at)).toBe(false);
  });
});

describe("bestOfferOf", () => {
  const at = new Date("2026-03-31T12:00:00.000Z");
  const checked = (hoursAgo: number) => new Date(at.getTime() - hoursAgo * 3_600_000).toISOString();

  it("is the offer with the lowest total to the door among those that may be compared", () => {
    const cheap = offer({ retailerId: 4, pricePence: 900 });
    const offers = [offer({ retailerId: 1, pricePence: 1000 }), cheap, offer({ retailerId: 2, pricePence: 800, inStock: false })];
    expect(bestOfferOf(offers, at)).toBe(cheap);
    expect(bestOfferOf(offers.toReversed(), at)).toBe(cheap);
  });

  it("breaks a tie on the total by the lower retailer id, whatever the order", () => {
    const low = offer({ retailerId: 3 });
    const high = offer({ retailerId: 6 });
    expect(bestOfferOf([high, low], at)).toBe(low);
    expect(bestOfferOf([low, high], at)).toBe(low);
  });

  it("is null when every offer is out of stock or stale, however cheap, and with no offers", () => {
    expect(bestOfferOf([offer({ retailerId: 1, inStock: false }), offer({ retailerId: 2, pricePence: 1, stale: true })], at)).toBeNull();
    expect(bestOfferOf([], at)).toBeNull();
  });

  it("passes over an offer not confirmed within the window, exactly on the window still counting", () => {
    const onLimit = offer({ retailerId: 2, pricePence: 1000, lastCheckedAt: checked(24) });
    const pastLimit = offer({ retailerId: 1, pricePence: 500, lastCheckedAt: new Date(at.getTime() - 24 * 3_600_000 - 1).toISOString() });
    expect(bestOfferOf([pastLimit, onLimit], at)).toBe(onLimit);
    expect(bestOfferOf([pastLimit], at)).toBeNull();
    expect(bestOfferOf([pastLimit], at, { freshForMs: 48 * 3_600_000 })).toBe(pastLimit);
  });

  it("ranks on the one-off total, never on a repeat-delivery price", () => {
    const repeatCheap = { ...offer({ retailerId: 1, pricePence: 2000 }), repeatPricePence: 1000 };
    const oneOff = offer({ retailerId: 2, pricePence: 1900 });
    expect(bestOfferOf([repeatCheap, oneOff], at)).toBe(oneOff);
  });

  it("ranks other offer shapes by the total it is told, on the same rule", () => {
    const listed = [
      { retailerId: 5, inStock: true, stale: false, total: 12.0 },
      { retailerId: 2, inStock: true, stale: false, total: 0.1 + 11.9 },
      { retailerId: 1, inStock: true, stale: true, total: 3 },
    ];
    expect(bestOfferOf(listed, at, { totalOf: (o) => fromPounds(o.total) })).toBe(listed[1]);
  });
});

describe("lastSeenOffer", () => {
  it("is the lowest total of all the offers, out of stock and stale included; of tied offers the first", () => {
    const a = { name: "a", totalPence: 1200 };
    const b = { name: "b", totalPence: 900 };
    const c = { name: "c", totalPence: 900 };
    expect(lastSeenOffer([a, b, c], (o) => o.totalPence)).toBe(b);
    expect(lastSeenOffer([c, b, a], (o) => o.totalPence)).toBe(c);
    expect(lastSeenOffer([], (o: typeof a) => o.totalPence)).toBeNull();
  });
});
