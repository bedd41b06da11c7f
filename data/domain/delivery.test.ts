import { describe, expect, it } from "vitest";
import { deliveryFor, deliveryText, noDeliveryRule, ruleText, totalPence } from "./delivery.ts";

const notStated = { deliveryPence: null, freeDelivery: false };
const rule = { standardPence: 399, freeFromPence: 3900 };

describe("deliveryFor", () => {
  it("is free from the threshold on, and the standard charge a penny below it", () => {
    expect(deliveryFor(3900, notStated, rule)).toBe(0);
    expect(deliveryFor(3899, notStated, rule)).toBe(399);
    expect(deliveryFor(0, notStated, rule)).toBe(399);
  });
  it("takes the offer's stated delivery over the rule, even above the threshold", () => {
    expect(deliveryFor(5000, { deliveryPence: 295, freeDelivery: false }, rule)).toBe(295);
    expect(deliveryFor(100, { deliveryPence: 0, freeDelivery: false }, rule)).toBe(0);
  });
  it("treats an offer marked free as free", () => {
    expect(deliveryFor(100, { deliveryPence: null, freeDelivery: true }, rule)).toBe(0);
  });
  it("does not know the delivery when nothing states it", () => {
    expect(deliveryFor(100, notStated, noDeliveryRule)).toBeNull();
    expect(deliveryFor(100, notStated, { standardPence: null, freeFromPence: 3900 })).toBeNull();
    expect(deliveryFor(3900, notStated, { standardPence: null, freeFromPence: 3900 })).toBe(0);
    expect(deliveryFor(100, notStated, { standardPence: 499, freeFromPence: null })).toBe(499);
    expect(deliveryFor(99_999, notStated, { standardPence: 499, freeFromPence: null })).toBe(499);
  });
});

describe("texts", () => {
  it("adds delivery to the item price, nothing when unknown", () => {
    expect(totalPence(3899, 399)).toBe(4298);
    expect(totalPence(1299, null)).toBe(1299);
    expect(totalPence(1299, 0)).toBe(1299);
  });
  it("words the delivery beside a price", () => {
    expect(deliveryText(0)).toBe("Free delivery");
    expect(deliveryText(399)).toBe("+ £3.99 delivery");
    expect(deliveryText(null)).toBe("Delivery not stated");
  });
  it("words a retailer's rule", () => {
    expect(ruleText(rule)).toBe("£3.99, free on orders of £39.00 or more");
    expect(ruleText({ standardPence: 499, freeFromPence: null })).toBe("£4.99");
    expect(ruleText({ standardPence: 0, freeFromPence: null })).toBe("Free delivery");
    expect(ruleText({ standardPence: null, freeFromPence: 2500 })).toBe("Free on orders of £25.00 or more");
    expect(ruleText(noDeliveryRule)).toBe("Not known");
  });
});
