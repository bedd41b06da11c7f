import { describe, expect, it } from "vitest";
import {
  exactLimits,
  heuristicPlan,
  lineCost,
  orderDelivery,
  quoteBasket,
  type BasketInput,
  type BasketLine,
  type BasketOffer,
  type BasketPlan,
  type BasketRetailer,
} from "./basket.ts";
import { multiBuyPence, type MultiBuy } from "./multi-buy.ts";
import { mulberry32 } from "./seeded-random.ts";
import { deliveryFor, type DeliveryRule } from "./delivery.ts";

const line = (productId: number, quantity = 1, repeat = false): BasketLine => ({ productId, quantity, repeat });
const offer = (productId: number, retailerId: number, itemPence: number, over: Partial<BasketOffer> = {}): BasketOffer => ({
  productId,
  retailerId,
  itemPence,
  repeatPence: null,
  deliveryPence: null,
  freeDelivery: false,
  multiBuy: null,
  ...over,
});
const retailer = (id: number, standardPence: number | null, freeFromPence: number | null = null): BasketRetailer => ({ id, rule: { standardPence, freeFromPence } });
/** Where each product goes in a plan: [productId, retailerId] in the plan's order. */
const placed = (plan: BasketPlan | null) => plan?.orders.flatMap((order) => order.lines.map((planned) => [planned.productId, order.retailerId])) ?? null;
const freeEverywhere = (...ids: number[]) => ids.map((id) => retailer(id, 0));

describe("quoteBasket: worked examples", () => {
  it("buys both at the shop whose free-delivery threshold the pair reaches, though each is a pound dearer there once", () => {
    // A is £20 at shop 1 and £21 at shop 2; B the other way round. Shop 1: £3.99, free from £39;
    // shop 2: £3.99 always. Each at its cheapest shop is £20 + £3.99 + £20 + £3.99 = £47.98;
    // both at shop 1 are £41.00, over the threshold, so delivered free.
    const input: BasketInput = {
      lines: [line(1), line(2)],
      offers: [offer(1, 1, 2000), offer(1, 2, 2100), offer(2, 1, 2100), offer(2, 2, 2000)],
      retailers: [retailer(1, 399, 3900), retailer(2, 399)],
    };
    const quote = quoteBasket(input);
    expect(quote.cheapest).toEqual({
      orders: [
        {
          retailerId: 1,
          lines: [
            { productId: 1, quantity: 1, unitPence: 2000, repeat: false, linePence: 2000, multiBuySavingPence: 0 },
            { productId: 2, quantity: 1, unitPence: 2100, repeat: false, linePence: 2100, multiBuySavingPence: 0 },
          ],
          itemsPence: 4100,
          deliveryPence: 0,
          totalPence: 4100,
          toFreeDeliveryPence: null,
        },
      ],
      itemsPence: 4100,
      deliveryPence: 0,
      totalPence: 4100,
      deliveryUnknown: false,
    });
    expect(quote.singleShop).toEqual(quote.cheapest);
    expect(quote.savingPence).toBe(0);
    expect(quote).toMatchObject({ unavailable: [], exact: true, lowerBoundPence: 4100 });
    // The split it beat: each line where it is cheapest, each order paying its £3.99.
    const a = { id: 1, rule: { standardPence: 399, freeFromPence: 3900 } };
    const b = { id: 2, rule: { standardPence: 399, freeFromPence: null } };
    expect(2000 + orderDelivery(a, [offer(1, 1, 2000)], 2000)! + 2000 + orderDelivery(b, [offer(2, 2, 2000)], 2000)!).toBe(4798);
  });

  it("splits the basket when delivery is free everywhere and each product is cheapest at a different shop", () => {
    const quote = quoteBasket({
      lines: [line(1), line(2)],
      offers: [offer(1, 1, 1000), offer(1, 2, 1200), offer(2, 1, 1800), offer(2, 2, 1500)],
      retailers: freeEverywhere(1, 2),
    });
    expect(placed(quote.cheapest)).toEqual([
      [1, 1],
      [2, 2],
    ]);
    expect(quote.cheapest).toMatchObject({ itemsPence: 2500, deliveryPence: 0, totalPence: 2500 });
    // Shop 1 has both for £28.00, shop 2 for £27.00: the single shop is shop 2, £2.00 dearer.
    expect(placed(quote.singleShop)).toEqual([
      [1, 2],
      [2, 2],
    ]);
    expect(quote.singleShop?.totalPence).toBe(2700);
    expect(quote.savingPence).toBe(200);
  });

  it("delivers free exactly on the threshold and charges a penny below it, saying how much more would make it free", () => {
    const rules = [retailer(1, 399, 3900)];
    const onThreshold = quoteBasket({ lines: [line(1, 3)], offers: [offer(1, 1, 1300)], retailers: rules }).cheapest!;
    expect(onThreshold.orders[0]).toMatchObject({ itemsPence: 3900, deliveryPence: 0, totalPence: 3900, toFreeDeliveryPence: null });
    const pennyBelow = quoteBasket({ lines: [line(1), line(2)], offers: [offer(1, 1, 2000), offer(2, 1, 1899)], retailers: rules }).cheapest!;
    expect(pennyBelow.orders[0]).toMatchObject({ itemsPence: 3899, deliveryPence: 399, totalPence: 4298, toFreeDeliveryPence: 1 });
    const wellBelow = quoteBasket({ lines: [line(1, 3)], offers: [offer(1, 1, 1000)], retailers: rules }).cheapest!;
    expect(wellBelow.orders[0]).toMatchObject({ itemsPence: 3000, deliveryPence: 399, toFreeDeliveryPence: 900 });
    // No threshold: nothing to reach.
    const noThreshold = quoteBasket({ lines: [line(1)], offers: [offer(1, 1, 1000)], retailers: [retailer(1, 399)] }).cheapest!;
    expect(noThreshold.orders[0]!.toFreeDeliveryPence).toBeNull();
  });

  it("says nothing is left to reach when delivery is free already, or when reaching the threshold would not make it free", () => {
    const rules = [retailer(1, 399, 3900)];
    // Marked free: £10.00 is delivered free, though £29.00 short of the £39 threshold.
    const markedFree = quoteBasket({ lines: [line(1)], offers: [offer(1, 1, 1000, { freeDelivery: true })], retailers: rules }).cheapest!;
    expect(markedFree.orders[0]).toMatchObject({ itemsPence: 1000, deliveryPence: 0, totalPence: 1000, toFreeDeliveryPence: null });
    // A states its own £2.50 (a bulky item), which no threshold waives. At £10.00 + £20.00 = £30.00
    // the order pays the larger charge, the shop's £3.99; at £39 it would still pay A's £2.50.
    const offers = (priceB: number) => [offer(1, 1, 1000, { deliveryPence: 250 }), offer(2, 1, priceB)];
    const stated = quoteBasket({ lines: [line(1), line(2)], offers: offers(2000), retailers: rules }).cheapest!;
    expect(stated.orders[0]).toMatchObject({ itemsPence: 3000, deliveryPence: 399, totalPence: 3399, toFreeDeliveryPence: null });
    // Over the threshold (£10.00 + £40.00) it pays A's £2.50 alone, and there is nothing to reach.
    const over = quoteBasket({ lines: [line(1), line(2)], offers: offers(4000), retailers: rules }).cheapest!;
    expect(over.orders[0]).toMatchObject({ itemsPence: 5000, deliveryPence: 250, totalPence: 5250, toFreeDeliveryPence: null });
  });

  it("lists a product without offers as unavailable and plans the rest", () => {
    const quote = quoteBasket({
      lines: [line(1), line(2), line(3), line(4)],
      offers: [offer(1, 1, 1000), offer(3, 1, 500), offer(9, 1, 100)],
      retailers: [retailer(1, 299)],
    });
    expect(quote.unavailable).toEqual([2, 4]);
    expect(placed(quote.cheapest)).toEqual([
      [1, 1],
      [3, 1],
    ]);
    expect(quote.cheapest?.totalPence).toBe(1799);
    expect(quote.singleShop?.totalPence).toBe(1799);
    expect(quote.savingPence).toBe(0);
  });

  it("has no plan, no single shop and no saving when nothing in the basket can be bought", () => {
    const quote = quoteBasket({ lines: [line(5), line(6)], offers: [offer(7, 1, 1000)], retailers: [retailer(1, 299)] });
    expect(quote).toEqual({ cheapest: null, singleShop: null, savingPence: null, unavailable: [5, 6], exact: true, lowerBoundPence: 0 });
    expect(quoteBasket({ lines: [], offers: [], retailers: [] }).cheapest).toBeNull();
  });

  it("has no single shop when no retailer has every product", () => {
    const quote = quoteBasket({ lines: [line(1), line(2)], offers: [offer(1, 1, 1000), offer(2, 2, 1000)], retailers: [retailer(1, 299), retailer(2, 399)] });
    expect(quote.singleShop).toBeNull();
    expect(quote.savingPence).toBeNull();
    expect(quote.cheapest?.totalPence).toBe(2698);
    expect(quote.cheapest?.orders.map((order) => order.retailerId)).toEqual([1, 2]);
  });
});

describe("lineCost: repeat delivery", () => {
  const threeForTwo: MultiBuy = { kind: "n-for-m", buy: 3, payFor: 2 };
  const subscribed = offer(1, 1, 1000, { repeatPence: 900, multiBuy: threeForTwo });
  it("uses the repeat price for every unit when the line wants repeat and the offer has one, with no multi-buy", () => {
    expect(lineCost(line(1, 3, true), subscribed)).toEqual({ productId: 1, quantity: 3, unitPence: 900, repeat: true, linePence: 2700, multiBuySavingPence: 0 });
  });
  it("uses the one-off price, multi-buy and all, when the line does not want repeat", () => {
    expect(lineCost(line(1, 3, false), subscribed)).toEqual({ productId: 1, quantity: 3, unitPence: 1000, repeat: false, linePence: 2000, multiBuySavingPence: 1000 });
  });
  it("uses the one-off price when the line wants repeat but the offer has no repeat price", () => {
    expect(lineCost(line(1, 3, true), offer(1, 1, 1000, { multiBuy: threeForTwo }))).toMatchObject({ unitPence: 1000, repeat: false, linePence: 2000 });
  });
  it("plans with the repeat price where it is wanted", () => {
    // One-off, shop 2 is cheaper (£9.50 against £10.00); on repeat shop 1 is (£8.50).
    const offers = [offer(1, 1, 1000, { repeatPence: 850 }), offer(1, 2, 950)];
    const retailers = freeEverywhere(1, 2);
    const repeat = quoteBasket({ lines: [line(1, 2, true)], offers, retailers }).cheapest!;
    expect(repeat.orders).toMatchObject([{ retailerId: 1, lines: [{ unitPence: 850, repeat: true, linePence: 1700 }] }]);
    const oneOff = quoteBasket({ lines: [line(1, 2, false)], offers, retailers }).cheapest!;
    expect(oneOff.orders).toMatchObject([{ retailerId: 2, lines: [{ unitPence: 950, repeat: false, linePence: 1900 }] }]);
  });
});

describe("lineCost: multi-buys", () => {
  const cost = (quantity: number, itemPence: number, multiBuy: MultiBuy | null) => {
    const planned = lineCost(line(1, quantity), offer(1, 1, itemPence, { multiBuy }));
    return [planned.linePence, planned.multiBuySavingPence];
  };
  it("takes every complete group of 3 for the price of 2 and the rest at full price", () => {
    const threeForTwo: MultiBuy = { kind: "n-for-m", buy: 3, payFor: 2 };
    expect(cost(2, 500, threeForTwo)).toEqual([1000, 0]);
    expect(cost(3, 500, threeForTwo)).toEqual([1000, 500]);
    expect(cost(4, 500, threeForTwo)).toEqual([1500, 500]);
    expect(cost(6, 500, threeForTwo)).toEqual([2000, 1000]);
  });
  it("takes every complete pair at 2 for £20 when that is cheaper, and ignores it when it is dearer", () => {
    const twoForTwenty: MultiBuy = { kind: "n-for-price", count: 2, pricePence: 2000 };
    expect(cost(2, 1200, twoForTwenty)).toEqual([2000, 400]);
    expect(cost(3, 1200, twoForTwenty)).toEqual([3200, 400]);
    expect(cost(1, 1200, twoForTwenty)).toEqual([1200, 0]);
    // Two at £9.00 are £18.00: nobody takes "2 for £20".
    expect(cost(2, 900, twoForTwenty)).toEqual([1800, 0]);
    expect(multiBuyPence(2, 900, twoForTwenty)).toBe(2000);
  });
  it("ignores invalid multi-buys", () => {
    const invalid: MultiBuy[] = [
      { kind: "n-for-m", buy: 2, payFor: 2 },
      { kind: "n-for-m", buy: 2, payFor: 3 },
      { kind: "n-for-m", buy: 2, payFor: 0 },
      { kind: "n-for-m", buy: 2.5, payFor: 1 },
      { kind: "n-for-m", buy: 3, payFor: 1.5 },
      { kind: "n-for-price", count: 1, pricePence: 100 },
      { kind: "n-for-price", count: 2.5, pricePence: 100 },
      { kind: "n-for-price", count: 2, pricePence: -100 },
      { kind: "n-for-price", count: 2, pricePence: 150.5 },
      // A free group is a giveaway, not a multi-buy (multi-buy.ts reads none from "2 for £0").
      { kind: "n-for-price", count: 2, pricePence: 0 },
    ];
    for (const multiBuy of invalid) {
      expect(multiBuyPence(6, 500, multiBuy)).toBeNull();
      expect(cost(6, 500, multiBuy)).toEqual([3000, 0]);
    }
  });
  it("takes the least valid multi-buys: 2 for 1 (paying for one) and 2 for a penny", () => {
    // 2 for 1 at £5.00: 5 units are two pairs at £5.00 each and one more at £5.00, £15.00.
    const twoForOne: MultiBuy = { kind: "n-for-m", buy: 2, payFor: 1 };
    expect(multiBuyPence(5, 500, twoForOne)).toBe(1500);
    expect(cost(5, 500, twoForOne)).toEqual([1500, 1000]);
    // 2 for £0.01 at £5.00: 3 units are a pair for a penny and one at £5.00, £5.01 instead of £15.00.
    const pennyPair: MultiBuy = { kind: "n-for-price", count: 2, pricePence: 1 };
    expect(multiBuyPence(3, 500, pennyPair)).toBe(501);
    expect(cost(3, 500, pennyPair)).toEqual([501, 999]);
  });
  it("refuses a quantity that is not a whole number of at least 1, and two lines of one product", () => {
    expect(() => lineCost(line(1, 0), offer(1, 1, 500))).toThrow(new RangeError("quantity of product 1 must be a whole number of at least 1: 0"));
    expect(() => lineCost(line(1, 1.5), offer(1, 1, 500))).toThrow(new RangeError("quantity of product 1 must be a whole number of at least 1: 1.5"));
    expect(() => quoteBasket({ lines: [line(1), line(1, 2)], offers: [], retailers: [] })).toThrow(new RangeError("product 1 appears in two basket lines"));
    // Refused in a line no offer is priced for too.
    expect(() => quoteBasket({ lines: [line(1), line(2, 0)], offers: [offer(1, 1, 500)], retailers: [] })).toThrow(
      new RangeError("quantity of product 2 must be a whole number of at least 1: 0"),
    );
  });
  it("refuses to price a line at an offer for another product, and a retailer listed twice", () => {
    expect(() => lineCost(line(1), offer(2, 1, 500))).toThrow(new RangeError("offer for product 2 priced for line 1"));
    expect(() => quoteBasket({ lines: [line(1)], offers: [offer(1, 1, 500)], retailers: [retailer(1, 299), retailer(1, 399)] })).toThrow(
      new RangeError("retailer 1 is listed twice"),
    );
  });
});

describe("orderDelivery", () => {
  const shop = (rule: DeliveryRule): BasketRetailer => ({ id: 1, rule });
  const withRule = shop({ standardPence: 399, freeFromPence: 3900 });
  const noRule = shop({ standardPence: null, freeFromPence: null });
  it("of a single offer is what its product page says (deliveryFor at its price)", () => {
    const cases: [DeliveryRule, Partial<BasketOffer>, number][] = [
      [withRule.rule, {}, 3899],
      [withRule.rule, {}, 3900],
      [withRule.rule, { deliveryPence: 250 }, 1000],
      [withRule.rule, { deliveryPence: 250 }, 5000],
      [withRule.rule, { freeDelivery: true }, 1000],
      [withRule.rule, { freeDelivery: true, deliveryPence: 199 }, 1000],
      [noRule.rule, {}, 1000],
      [{ standardPence: null, freeFromPence: 3900 }, {}, 500],
    ];
    for (const [rule, fields, price] of cases) {
      const single = offer(1, 1, price, fields);
      expect(orderDelivery(shop(rule), [single], price), JSON.stringify([rule, fields, price])).toBe(deliveryFor(price, single, rule));
    }
  });
  it("is free for offers marked free, but one unmarked offer below the threshold brings the standard charge", () => {
    expect(orderDelivery(withRule, [offer(1, 1, 500, { freeDelivery: true }), offer(2, 1, 500, { freeDelivery: true })], 1000)).toBe(0);
    expect(orderDelivery(withRule, [offer(1, 1, 500, { freeDelivery: true }), offer(2, 1, 500)], 1000)).toBe(399);
  });
  it("counts the order's items together toward the threshold: exactly on it is free, a penny below is not", () => {
    expect(orderDelivery(withRule, [offer(1, 1, 2000), offer(2, 1, 1900)], 3900)).toBe(0);
    expect(orderDelivery(withRule, [offer(1, 1, 2000), offer(2, 1, 1899)], 3899)).toBe(399);
  });
  it("charges a delivery an offer's source states whatever the threshold, and the largest charge once", () => {
    // A stated charge (a marketplace seller's, a bulky item's) is not waived by the shop's threshold.
    expect(orderDelivery(withRule, [offer(1, 1, 3000, { deliveryPence: 250 }), offer(2, 1, 2000)], 5000)).toBe(250);
    // Below the threshold the standard charge is the larger one.
    expect(orderDelivery(withRule, [offer(1, 1, 1000, { deliveryPence: 250 }), offer(2, 1, 500)], 1500)).toBe(399);
    expect(orderDelivery(withRule, [offer(1, 1, 1000, { deliveryPence: 450 }), offer(2, 1, 500)], 1500)).toBe(450);
    expect(orderDelivery(noRule, [offer(1, 1, 500, { deliveryPence: 250 }), offer(2, 1, 500, { deliveryPence: 300 }), offer(3, 1, 500)], 1500)).toBe(300);
  });
  it("is not known when no offer's delivery is known; known charges count though others are not", () => {
    expect(orderDelivery(noRule, [offer(1, 1, 500), offer(2, 1, 500)], 1000)).toBeNull();
    expect(orderDelivery(shop({ standardPence: null, freeFromPence: 3900 }), [offer(1, 1, 500)], 500)).toBeNull();
    expect(orderDelivery(shop({ standardPence: null, freeFromPence: 3900 }), [offer(1, 1, 3900)], 3900)).toBe(0);
    expect(orderDelivery(noRule, [offer(1, 1, 500), offer(2, 1, 500, { freeDelivery: true })], 1000)).toBe(0);
  });
  it("counts unknown delivery as nothing and says so; a retailer missing from the list has no rule", () => {
    const quote = quoteBasket({ lines: [line(1), line(2)], offers: [offer(1, 7, 1000), offer(2, 8, 1500, { deliveryPence: 250 })], retailers: [] });
    expect(quote.cheapest).toMatchObject({ itemsPence: 2500, deliveryPence: 250, totalPence: 2750, deliveryUnknown: true });
    expect(quote.cheapest?.orders).toMatchObject([
      { retailerId: 7, deliveryPence: null, totalPence: 1000, toFreeDeliveryPence: null },
      { retailerId: 8, deliveryPence: 250, totalPence: 1750 },
    ]);
    const unknownBelowThreshold = quoteBasket({ lines: [line(1)], offers: [offer(1, 1, 1000)], retailers: [retailer(1, null, 2500)] }).cheapest!;
    expect(unknownBelowThreshold.orders[0]).toMatchObject({ deliveryPence: null, toFreeDeliveryPence: 1500 });
  });
});

describe("quoteBasket: ties and input order", () => {
  it("prefers fewer orders to a split of the same total, however its retailer ids read", () => {
    // A split (A at 1, B at 2) and both at shop 2 each cost £20.00.
    const quote = quoteBasket({ lines: [line(1), line(2)], offers: [offer(1, 1, 1000), offer(1, 2, 1000), offer(2, 1, 1200), offer(2, 2, 1000)], retailers: freeEverywhere(1, 2) });
    expect(placed(quote.cheapest)).toEqual([
      [1, 2],
      [2, 2],
    ]);
  });
  it("of plans alike in total and orders takes the lower retailer ids in line order", () => {
    const quote = quoteBasket({ lines: [line(1), line(2)], offers: [offer(1, 5, 1000), offer(1, 3, 1000), offer(2, 5, 1000), offer(2, 3, 1000)], retailers: freeEverywhere(5, 3) });
    expect(placed(quote.cheapest)).toEqual([
      [1, 3],
      [2, 3],
    ]);
    expect(placed(quote.singleShop)).toEqual([
      [1, 3],
      [2, 3],
    ]);
    // Two orders either way: A at 3 and B at 5 reads 3, 5, before 5, 3.
    const split = quoteBasket({
      lines: [line(1), line(2)],
      offers: [offer(1, 5, 1000), offer(1, 3, 1000), offer(2, 5, 1000), offer(2, 3, 1000)],
      retailers: [retailer(3, 500, 1500), retailer(5, 500, 1500)],
    });
    expect(split.cheapest?.totalPence).toBe(2000);
    expect(placed(split.cheapest)).toEqual([
      [1, 3],
      [2, 3],
    ]);
  });
  it("prefers one order at the highest retailer id to a split among lower ids", () => {
    // Delivery free everywhere, every price £10.00. A is at shops 1 and 3, B at 2 and 3: A at 1
    // and B at 2 reads 1, 2, but both at 3 is one order, and £20.00 all the same.
    const quote = quoteBasket({ lines: [line(1), line(2)], offers: [offer(1, 1, 1000), offer(1, 3, 1000), offer(2, 2, 1000), offer(2, 3, 1000)], retailers: freeEverywhere(1, 2, 3) });
    expect(quote.cheapest?.totalPence).toBe(2000);
    expect(placed(quote.cheapest)).toEqual([
      [1, 3],
      [2, 3],
    ]);
  });
  it("of two-order plans alike in total, decides by the retailer of a later line when the earlier ones agree", () => {
    // Delivery free everywhere, every price £10.00. A is only at shop 2, B only at 1, C at both:
    // £30.00 in two orders either way. A, B, C at 2, 1, 1 reads before 2, 1, 2, so C goes to 1.
    const quote = quoteBasket({
      lines: [line(1), line(2), line(3)],
      offers: [offer(1, 2, 1000), offer(2, 1, 1000), offer(3, 1, 1000), offer(3, 2, 1000)],
      retailers: freeEverywhere(1, 2),
    });
    expect(quote.cheapest?.totalPence).toBe(3000);
    expect(placed(quote.cheapest)).toEqual([
      [2, 1],
      [3, 1],
      [1, 2],
    ]);
  });
  it("gives the same quote whatever order the offers and retailers come in", () => {
    for (let seed = 1; seed <= 20; seed++) {
      const input = randomBasket(seed, 5, 5);
      const random = mulberry32(seed * 7919);
      const shuffled = { lines: input.lines, offers: shuffle(input.offers, random), retailers: shuffle(input.retailers, random) };
      expect(quoteBasket(shuffled)).toEqual(quoteBasket(input));
    }
  });
  it("of two offers for one product at one retailer uses the cheaper one-off price, and ignores offers for other products", () => {
    const offers = [offer(1, 1, 1200, { repeatPence: 100 }), offer(1, 1, 1000), offer(2, 9, 1)];
    const input = { lines: [line(1, 1, true)], retailers: freeEverywhere(1, 9) };
    for (const order of [offers, [...offers].reverse()]) {
      const quote = quoteBasket({ ...input, offers: order });
      expect(quote.cheapest?.orders).toMatchObject([{ retailerId: 1, lines: [{ unitPence: 1000, repeat: false }], totalPence: 1000 }]);
    }
  });
  it("of two offers for one product at one retailer takes the cheaper one-off price in either order, though its JSON text reads later", () => {
    // £9.99 against £10.00: "[999," reads after "[1000," as text, yet the price decides.
    for (const offers of [[offer(1, 1, 999), offer(1, 1, 1000)], [offer(1, 1, 1000), offer(1, 1, 999)]]) {
      expect(quoteBasket({ lines: [line(1)], offers, retailers: freeEverywhere(1) }).cheapest?.orders).toMatchObject([{ itemsPence: 999, totalPence: 999 }]);
    }
  });
  it("of two offers at one price for one product at one retailer takes the one whose text reads first, in either order", () => {
    // The text is the offer as JSON: [price, repeat price, stated delivery, marked free, multi-buy],
    // the multi-buy's fields sorted by name. Shop 1 charges £3.99 on orders without a stated delivery.
    const quote = (lineWanted: BasketLine, offers: BasketOffer[]) =>
      [offers, [...offers].reverse()].map((order) => quoteBasket({ lines: [lineWanted], offers: order, retailers: [retailer(1, 399)] }).cheapest!.orders[0]!);
    // A stated £1.00 reads before £2.00: £10.00 + £1.00.
    for (const order of quote(line(1), [offer(1, 1, 1000, { deliveryPence: 200 }), offer(1, 1, 1000, { deliveryPence: 100 })])) {
      expect(order).toMatchObject({ itemsPence: 1000, deliveryPence: 100, totalPence: 1100 });
    }
    // A multi-buy (a list) reads before none (null): 3 units at £5.00, 3 for 2, are £10.00 + £3.99.
    const threeForTwo: MultiBuy = { kind: "n-for-m", buy: 3, payFor: 2 };
    for (const order of quote(line(1, 3), [offer(1, 1, 500), offer(1, 1, 500, { multiBuy: threeForTwo })])) {
      expect(order).toMatchObject({ itemsPence: 1000, deliveryPence: 399, totalPence: 1399, lines: [{ multiBuySavingPence: 500 }] });
    }
    // Whatever order a feed writes the multi-buy's fields in, they are read by name, so 2 for 1
    // (buy 2) reads before 3 for 2 (buy 3): 4 units at £5.00 are two pairs, £10.00 + £3.99.
    const twoForOne: MultiBuy = { payFor: 1, buy: 2, kind: "n-for-m" };
    for (const order of quote(line(1, 4), [offer(1, 1, 500, { multiBuy: threeForTwo }), offer(1, 1, 500, { multiBuy: twoForOne })])) {
      expect(order).toMatchObject({ itemsPence: 1000, totalPence: 1399, lines: [{ multiBuySavingPence: 1000 }] });
    }
  });
  it("leaves out retailers whose offers are all for products not in the basket", () => {
    // One line at shop 1, and eight shops offering only product 2: one retailer, so the search is exact.
    const others = [2, 3, 4, 5, 6, 7, 8, 9].map((id) => offer(2, id, 100));
    const quote = quoteBasket({ lines: [line(1)], offers: [offer(1, 1, 1000), ...others], retailers: [retailer(1, 399)] });
    expect(quote).toMatchObject({ exact: true, lowerBoundPence: 1399, unavailable: [] });
    expect(quote.cheapest?.orders).toMatchObject([{ retailerId: 1, itemsPence: 1000, deliveryPence: 399, totalPence: 1399 }]);
  });
});

function shuffle<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * A random basket of `products` lines and up to `retailers` shops: thresholds, standard charges
 * (some not known), offers marked free, stated deliveries, repeat prices and lines that want them,
 * multi-buys (some dearer than the plain price, some invalid), some products missing at some
 * shops and some retailers missing from the list.
 */
function randomBasket(seed: number, products: number, retailers: number, offerChance = 0.7): BasketInput {
  const random = mulberry32(seed);
  const int = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const lines = Array.from({ length: products }, (_, i) => line(100 + i, pick([1, 1, 1, 2, 3, 4]), random() < 0.3));
  const ids = Array.from({ length: retailers }, (_, j) => 1 + j * 3 + int(0, 2));
  const rules = ids.map((id) => retailer(id, pick([null, 0, 299, 399, 399, 499]), pick([null, 1500, 2500, 3900, 3900, 5000, 7500])));
  const offers: BasketOffer[] = [];
  for (const { productId } of lines) {
    const typical = int(200, 3000);
    for (const id of ids) {
      if (random() > offerChance) continue;
      const itemPence = Math.round(typical * (0.8 + random() * 0.4));
      const multiBuy =
        random() < 0.2
          ? pick<MultiBuy>([
              { kind: "n-for-m", buy: 3, payFor: 2 },
              { kind: "n-for-m", buy: 2, payFor: 1 },
              { kind: "n-for-price", count: 2, pricePence: Math.round(itemPence * 1.7) },
              { kind: "n-for-price", count: 2, pricePence: itemPence * 3 },
              { kind: "n-for-m", buy: 2, payFor: 2 },
            ])
          : null;
      offers.push(
        offer(productId, id, itemPence, {
          repeatPence: random() < 0.3 ? Math.round(itemPence * 0.9) : null,
          deliveryPence: random() < 0.3 ? pick([0, 199, 350, 450]) : null,
          freeDelivery: random() < 0.15,
          multiBuy,
        }),
      );
    }
  }
  return { lines, offers, retailers: rules.filter(() => random() > 0.1) };
}

/**
 * The order delivery rule, written again for the brute force with the product page's own rule
 * (deliveryFor) for each offer at the order's items: the largest known charge, else null.
 */
function deliveryByHand(rule: DeliveryRule, offers: readonly BasketOffer[], itemsPence: number): number | null {
  const charges = offers.map((o) => deliveryFor(itemsPence, o, rule)).filter((charge): charge is number => charge !== null);
  return charges.length === 0 ? null : Math.max(...charges);
}

interface Brute {
  totalPence: number;
  orders: number;
  /** [productId, retailerId] for each buyable line, in line order. */
  assignment: number[][];
}

/**
 * Every assignment of the buyable lines to retailers that offer them (one offer per product and
 * retailer, as randomBasket makes them), tried in lexicographic order of retailer ids read in line
 * order, so of the plans tied on total and orders the first one found is the one the tie rule picks.
 */
function bruteForce(input: BasketInput): Brute | null {
  const rules = new Map(input.retailers.map((r) => [r.id, r.rule]));
  const buyable = input.lines.filter((l) => input.offers.some((o) => o.productId === l.productId));
  if (buyable.length === 0) return null;
  const options = buyable.map((l) =>
    input.offers
      .filter((o) => o.productId === l.productId)
      .sort((a, b) => a.retailerId - b.retailerId)
      .map((o) => ({ offer: o, linePence: lineCost(l, o).linePence })),
  );
  let best: Brute | null = null;
  const chosen: (typeof options)[number] = [];
  const visit = (i: number) => {
    if (i === buyable.length) {
      const byRetailer = new Map<number, typeof chosen>();
      for (const pick of chosen) byRetailer.set(pick.offer.retailerId, [...(byRetailer.get(pick.offer.retailerId) ?? []), pick]);
      let totalPence = 0;
      for (const [id, picks] of byRetailer) {
        const items = picks.reduce((sum, pick) => sum + pick.linePence, 0);
        totalPence += items + (deliveryByHand(rules.get(id) ?? { standardPence: null, freeFromPence: null }, picks.map((pick) => pick.offer), items) ?? 0);
      }
      if (best === null || totalPence < best.totalPence || (totalPence === best.totalPence && byRetailer.size < best.orders)) {
        best = { totalPence, orders: byRetailer.size, assignment: chosen.map((pick) => [pick.offer.productId, pick.offer.retailerId]) };
      }
      return;
    }
    for (const option of options[i]!) {
      chosen[i] = option;
      visit(i + 1);
    }
  };
  visit(0);
  return best;
}

/** The cheapest single shop by brute force: every retailer with all the buyable lines, ties to the lower id. */
function bruteSingleShop(input: BasketInput): { retailerId: number; totalPence: number } | null {
  const rules = new Map(input.retailers.map((r) => [r.id, r.rule]));
  const buyable = input.lines.filter((l) => input.offers.some((o) => o.productId === l.productId));
  const ids = [...new Set(input.offers.map((o) => o.retailerId))].sort((a, b) => a - b);
  let best: { retailerId: number; totalPence: number } | null = null;
  for (const id of ids) {
    const offers = buyable.map((l) => input.offers.find((o) => o.productId === l.productId && o.retailerId === id));
    if (buyable.length === 0 || offers.some((o) => o === undefined)) continue;
    const items = buyable.reduce((sum, l, i) => sum + lineCost(l, offers[i]!).linePence, 0);
    const totalPence = items + (deliveryByHand(rules.get(id) ?? { standardPence: null, freeFromPence: null }, offers as BasketOffer[], items) ?? 0);
    if (best === null || totalPence < best.totalPence) best = { retailerId: id, totalPence };
  }
  return best;
}

/** [productId, retailerId] of a plan in line order. */
const inLineOrder = (input: BasketInput, plan: BasketPlan) => {
  const at = new Map(placed(plan)!.map(([productId, retailerId]) => [productId, retailerId]));
  return input.lines.filter((l) => at.has(l.productId)).map((l) => [l.productId, at.get(l.productId)!]);
};

describe("quoteBasket: the exact search against brute force", () => {
  it("finds the brute force's plan, total and single shop on 300 random baskets of up to 5 products at up to 5 shops", () => {
    for (let seed = 1; seed <= 300; seed++) {
      const input = randomBasket(seed, 1 + (seed % 5), 1 + ((seed >> 2) % 5));
      const quote = quoteBasket(input);
      const brute = bruteForce(input);
      expect(quote.exact).toBe(true);
      if (brute === null) {
        expect(quote.cheapest).toBeNull();
        continue;
      }
      expect(quote.cheapest?.totalPence, `seed ${seed}`).toBe(brute.totalPence);
      expect(quote.cheapest?.orders.length, `seed ${seed}`).toBe(brute.orders);
      expect(inLineOrder(input, quote.cheapest!), `seed ${seed}`).toEqual(brute.assignment);
      expect(quote.lowerBoundPence).toBe(brute.totalPence);
      const single = bruteSingleShop(input);
      expect(quote.singleShop?.totalPence ?? null, `seed ${seed}`).toBe(single?.totalPence ?? null);
      expect(quote.singleShop?.orders[0]?.retailerId ?? null, `seed ${seed}`).toBe(single?.retailerId ?? null);
      expect(quote.savingPence).toBe(single === null ? null : single.totalPence - brute.totalPence);
    }
  });

  it("finds the brute force's plan on a basket of 7 products at 6 shops", () => {
    const input = randomBasket(4242, 7, 6, 0.95);
    const quote = quoteBasket(input);
    const brute = bruteForce(input)!;
    expect(quote.exact).toBe(true);
    expect(quote.cheapest?.totalPence).toBe(brute.totalPence);
    expect(inLineOrder(input, quote.cheapest!)).toEqual(brute.assignment);
  });

  it("on 8 products at 8 shops is exact, and no dearer than the heuristic or any single shop", () => {
    for (let seed = 1; seed <= 20; seed++) {
      const input = randomBasket(8800 + seed, 8, 8, 0.9);
      const quote = quoteBasket(input);
      expect(quote.exact).toBe(true);
      expect(quote.lowerBoundPence).toBe(quote.cheapest!.totalPence);
      expect(quote.cheapest!.totalPence).toBeLessThanOrEqual(heuristicPlan(input)!.totalPence);
      for (const id of new Set(input.offers.map((o) => o.retailerId))) {
        const alone = quoteBasket({ ...input, offers: input.offers.filter((o) => o.retailerId === id) });
        if (alone.unavailable.length === quote.unavailable.length) expect(quote.cheapest!.totalPence).toBeLessThanOrEqual(alone.cheapest!.totalPence);
      }
    }
  });
});

describe("the heuristic", () => {
  it("is used beyond the exact limits and stays within 5% of its lower bound on 12 products at 10 shops", () => {
    // Measured on these 40 baskets: the plan is at most 4.0% above the bound (median 0.8%).
    for (let seed = 1; seed <= 40; seed++) {
      const quote = quoteBasket(randomBasket(1200 + seed, 12, 10));
      expect(quote.exact).toBe(false);
      const total = quote.cheapest!.totalPence;
      expect(total).toBeGreaterThanOrEqual(quote.lowerBoundPence);
      expect((total - quote.lowerBoundPence) / quote.lowerBoundPence, `seed ${seed}`).toBeLessThanOrEqual(0.05);
      expect(quote.savingPence === null || quote.savingPence >= 0).toBe(true);
    }
  });

  it("beyond the limits never beats brute force, whose optimum never goes below the lower bound", () => {
    // 10 products at 3 shops (3^10 plans) and 4 products at 9 shops (9^4): beyond the limits, yet
    // small enough to try every plan.
    for (let seed = 1; seed <= 30; seed++) {
      const input = seed % 2 === 0 ? randomBasket(3300 + seed, 10, 3, 0.9) : randomBasket(3300 + seed, 4, 9, 0.8);
      const quote = quoteBasket(input);
      const brute = bruteForce(input)!;
      expect(quote.exact).toBe(false);
      expect(quote.cheapest!.totalPence).toBeGreaterThanOrEqual(brute.totalPence);
      expect(brute.totalPence).toBeGreaterThanOrEqual(quote.lowerBoundPence);
    }
  });

  it("within the limits is never below the exact optimum and finds it in most baskets", () => {
    // Measured on these 500 baskets (2 to 8 products at 2 to 8 shops): the heuristic found the
    // optimum in 488 of them, and its worst plan was 2.58% dearer than the optimum.
    let found = 0;
    for (let seed = 1; seed <= 500; seed++) {
      const input = randomBasket(5000 + seed, 2 + (seed % 7), 2 + ((seed >> 3) % 7));
      const exact = quoteBasket(input).cheapest;
      const heuristic = heuristicPlan(input);
      if (exact === null) {
        expect(heuristic).toBeNull();
        continue;
      }
      expect(heuristic!.totalPence).toBeGreaterThanOrEqual(exact.totalPence);
      if (heuristic!.totalPence === exact.totalPence) found++;
    }
    expect(found).toBeGreaterThanOrEqual(480);
  });

  it("keeps the exact limits at 8 products and 8 retailers", () => {
    expect(exactLimits).toEqual({ products: 8, retailers: 8 });
  });
});

describe("the heuristic: worked examples", () => {
  it("has no plan when no line can be bought", () => {
    expect(heuristicPlan({ lines: [line(1)], offers: [offer(2, 1, 1000)], retailers: [] })).toBeNull();
  });

  it("prefers fewer orders to a split of the same total, though the split's retailer ids read first", () => {
    // Delivery free everywhere. A is £10.00 at shops 1 and 2, B £10.00 at 2 only: A at 1 and B at
    // 2 reads 1, 2, but both at 2 is one order, and £20.00 all the same.
    const plan = heuristicPlan({ lines: [line(1), line(2)], offers: [offer(1, 1, 1000), offer(1, 2, 1000), offer(2, 2, 1000)], retailers: freeEverywhere(1, 2) });
    expect(plan?.totalPence).toBe(2000);
    expect(placed(plan)).toEqual([
      [1, 2],
      [2, 2],
    ]);
  });

  it("of plans alike in total and orders takes the lower retailer ids in line order", () => {
    // A is £10.00 at shop 1, delivered free, or £9.00 + £1.00 at shop 2: its cheapest price is at
    // 2, yet shop 1 reads first at the same £10.00 to the door.
    const one = heuristicPlan({ lines: [line(1)], offers: [offer(1, 1, 1000), offer(1, 2, 900)], retailers: [retailer(1, 0), retailer(2, 100)] });
    expect(one?.orders).toMatchObject([{ retailerId: 1, itemsPence: 1000, deliveryPence: 0, totalPence: 1000 }]);
    // The same choice for B after A (£5.00, only at shop 1, free): £10.00 free at shop 2 or £9.00
    // + £1.00 at shop 3, £15.00 in two orders either way; A, B at 1, 2 reads before 1, 3.
    const two = heuristicPlan({
      lines: [line(1), line(2)],
      offers: [offer(1, 1, 500), offer(2, 2, 1000), offer(2, 3, 900)],
      retailers: [retailer(1, 0), retailer(2, 0), retailer(3, 100)],
    });
    expect(two?.totalPence).toBe(1500);
    expect(placed(two)).toEqual([
      [1, 1],
      [2, 2],
    ]);
  });

  it("starts from every line at its cheapest price, ties to the lower retailer id, which finds the free delivery here", () => {
    // Every price £10.00. Shop 1 charges £3.00, free from £20.00; shop 2 £1.00; shop 3 £2.00. A is
    // at shops 1 and 2, B at 1 and 3, C at 2 only, so no shop has all three.
    // - Cheapest per line, ties to the lower id: A and B at 1 (£20.00, free), C at 2 (£11.00): £31.00.
    // - Greedy, line by line (each £10.00 at its cheapest): A at 2 (£11.00 against £13.00 at 1), B at
    //   3 (£12.00 against £13.00), C with A at 2 (£10.00 more): £21.00 + £12.00 = £33.00. Moving A
    //   to 1 makes £36.00, B to 1 £34.00: no move from there is cheaper.
    const input: BasketInput = {
      lines: [line(1), line(2), line(3)],
      offers: [offer(1, 1, 1000), offer(1, 2, 1000), offer(2, 1, 1000), offer(2, 3, 1000), offer(3, 2, 1000)],
      retailers: [retailer(1, 300, 2000), retailer(2, 100), retailer(3, 200)],
    };
    const plan = heuristicPlan(input);
    expect(plan?.orders).toMatchObject([
      { retailerId: 1, itemsPence: 2000, deliveryPence: 0, totalPence: 2000 },
      { retailerId: 2, itemsPence: 1000, deliveryPence: 100, totalPence: 1100 },
    ]);
    expect(placed(plan)).toEqual([
      [1, 1],
      [2, 1],
      [3, 2],
    ]);
    expect(plan?.totalPence).toBe(3100);
    expect(quoteBasket(input).cheapest).toEqual(plan);
  });

  it("starts from a greedy consolidation: the dearest line first, each where it adds least to the orders so far", () => {
    // Shop 1 charges £2.00, shop 2 £3.00, shop 3 nothing, shop 4 £1.00, free from £20.00.
    // A: £10.00 at 1 and 2, £12.00 at 4. B: £10.00 at 1 and 4. C: £12.00 at 2, £15.00 at 3 and 4.
    // - Cheapest per line (ties to the lower id): A and B at 1 (£20.00 + £2.00), C at 2 (£12.00 + £3.00): £37.00.
    // - The single shop: 4, £37.00 of items, delivered free: £37.00.
    // - Greedy: C first (its cheapest is £12.00, the others' £10.00) at 2 (adds £15.00, as at 3,
    //   the lower id; £16.00 at 4); A joins it at 2 (adds £10.00, the £3.00 already paid; £12.00
    //   at 1, £13.00 at 4); B at 4 (£11.00; £12.00 at 1): £25.00 + £11.00 = £36.00.
    // No move makes either of the first two cheaper than £37.00.
    const input: BasketInput = {
      lines: [line(1), line(2), line(3)],
      offers: [offer(1, 1, 1000), offer(1, 2, 1000), offer(1, 4, 1200), offer(2, 1, 1000), offer(2, 4, 1000), offer(3, 2, 1200), offer(3, 3, 1500), offer(3, 4, 1500)],
      retailers: [retailer(1, 200), retailer(2, 300), retailer(3, 0), retailer(4, 100, 2000)],
    };
    const plan = heuristicPlan(input);
    expect(plan?.orders).toMatchObject([
      { retailerId: 2, itemsPence: 2200, deliveryPence: 300, totalPence: 2500 },
      { retailerId: 4, itemsPence: 1000, deliveryPence: 100, totalPence: 1100 },
    ]);
    expect(placed(plan)).toEqual([
      [1, 2],
      [3, 2],
      [2, 4],
    ]);
    expect(plan?.totalPence).toBe(3600);
    expect(quoteBasket(input).cheapest).toEqual(plan);
  });

  it("places each line, in the greedy start, where it adds least, delivery included", () => {
    // Shop 1 charges £1.00; shops 2 and 3 deliver free. A is £10.00 at 1 and 2, B £10.00 at 1 and 3.
    // - Cheapest per line (ties to the lower id) and the single shop: both at 1, £20.00 + £1.00 =
    //   £21.00; moving one line alone leaves the £1.00 to pay, and no other shop has both.
    // - Greedy: A at 2 (adds £10.00; £11.00 at 1), B at 3 (adds £10.00; £11.00 at 1): £20.00.
    const input: BasketInput = {
      lines: [line(1), line(2)],
      offers: [offer(1, 1, 1000), offer(1, 2, 1000), offer(2, 1, 1000), offer(2, 3, 1000)],
      retailers: [retailer(1, 100), retailer(2, 0), retailer(3, 0)],
    };
    const plan = heuristicPlan(input);
    expect(placed(plan)).toEqual([
      [1, 2],
      [2, 3],
    ]);
    expect(plan).toMatchObject({ itemsPence: 2000, deliveryPence: 0, totalPence: 2000 });
    expect(quoteBasket(input).cheapest).toEqual(plan);
  });

  it("moves a whole order to another retailer when that is cheaper", () => {
    // Every shop charges £3.00; shop 1 delivers free from £20.00. A: £11.00 at 1, £10.00 at 2 and 3.
    // B: £10.00 at 2 only. C: £12.00 at 1, £11.00 at 3.
    // - Cheapest per line: A and B at 2 (£20.00 + £3.00), C at 3 (£11.00 + £3.00): £37.00, and no move is cheaper.
    // - Greedy: C first (£11.00 at its cheapest) at 3 (£14.00 against £15.00 at 1), A joins it at 3
    //   (adds £10.00), B at 2: £24.00 + £13.00 = £37.00. Then the whole order at 3 (A and C) moves to
    //   shop 1, where they come to £11.00 + £12.00 = £23.00, delivered free: £23.00 + £13.00 = £36.00.
    const input: BasketInput = {
      lines: [line(1), line(2), line(3)],
      offers: [offer(1, 1, 1100), offer(1, 2, 1000), offer(1, 3, 1000), offer(2, 2, 1000), offer(3, 1, 1200), offer(3, 3, 1100)],
      retailers: [retailer(1, 300, 2000), retailer(2, 300), retailer(3, 300)],
    };
    const plan = heuristicPlan(input);
    expect(plan?.orders).toMatchObject([
      { retailerId: 1, itemsPence: 2300, deliveryPence: 0, totalPence: 2300 },
      { retailerId: 2, itemsPence: 1000, deliveryPence: 300, totalPence: 1300 },
    ]);
    expect(placed(plan)).toEqual([
      [1, 1],
      [3, 1],
      [2, 2],
    ]);
    expect(plan?.totalPence).toBe(3600);
    expect(quoteBasket(input).cheapest).toEqual(plan);
  });
});

describe("the lower bound beyond the exact limits", () => {
  /** The basket beside eight more shops (ids 11 to 18) with every product at £50.00, delivered free: past the exact limits, and never the cheapest. */
  const beyondLimits = (input: BasketInput) => {
    const shops = [11, 12, 13, 14, 15, 16, 17, 18];
    const quote = quoteBasket({
      lines: input.lines,
      offers: [...input.offers, ...shops.flatMap((id) => input.lines.map((l) => offer(l.productId, id, 5000)))],
      retailers: [...input.retailers, ...freeEverywhere(...shops)],
    });
    expect(quote.exact).toBe(false);
    return quote;
  };

  it("of one line is its cheapest price to the door, the standard charge counted where the threshold is out of reach or there is none", () => {
    // Shop 1: £10.00 + £3.99 (free only from £39.00, out of reach) = £13.99. Shop 2: £12.00 + £2.50 = £14.50.
    const quote = beyondLimits({ lines: [line(1)], offers: [offer(1, 1, 1000), offer(1, 2, 1200)], retailers: [retailer(1, 399, 3900), retailer(2, 250)] });
    expect(quote.lowerBoundPence).toBe(1399);
    expect(quote.cheapest?.totalPence).toBe(1399);
    // Shop 2 alone: £12.00 + £2.50.
    expect(beyondLimits({ lines: [line(1)], offers: [offer(1, 2, 1200)], retailers: [retailer(2, 250)] }).lowerBoundPence).toBe(1450);
  });

  it("counts a threshold reached exactly as free delivery", () => {
    // £39.00 at shop 1, which charges £3.99 below £39.00: £39.00 to the door.
    const quote = beyondLimits({ lines: [line(1)], offers: [offer(1, 1, 3900)], retailers: [retailer(1, 399, 3900)] });
    expect(quote.lowerBoundPence).toBe(3900);
    expect(quote.cheapest?.totalPence).toBe(3900);
  });

  it("adds to the lines' cheapest prices the largest least delivery one of them must pay", () => {
    // Shop 1 (£3.99, free from £39.00): A £20.00 and B £20.00, £40.00 together, so its threshold can
    // be reached and its lines may be delivered free. Shop 2 (£3.00): A £18.00; B £21.00, marked free.
    // A: cheapest £18.00; to the door at least £20.00 (shop 1, free), £2.00 more.
    // B: cheapest £20.00; to the door at least £20.00 (shop 1, free; shop 2 £21.00 free), nothing more.
    // Bound: £18.00 + £20.00 + £2.00 = £40.00, what both at shop 1 cost, delivered free.
    const quote = beyondLimits({
      lines: [line(1), line(2)],
      offers: [offer(1, 1, 2000), offer(2, 1, 2000), offer(1, 2, 1800), offer(2, 2, 2100, { freeDelivery: true })],
      retailers: [retailer(1, 399, 3900), retailer(2, 300)],
    });
    expect(quote.lowerBoundPence).toBe(4000);
    expect(quote.cheapest).toMatchObject({ totalPence: 4000, orders: [{ retailerId: 1, itemsPence: 4000, deliveryPence: 0 }] });
  });
});
