import { describe, expect, it } from "vitest";
import { memberPriceOf, memberTotalPence } from "./member-price.ts";

describe("memberPriceOf", () => {
  it("is a price below what anyone pays, with its scheme named", () => {
    expect(memberPriceOf(1499, 1299, "Pets Club")).toEqual({ pricePence: 1299, scheme: "Pets Club" });
    expect(memberPriceOf(1499, 1498, "  PetCLUB ")).toEqual({ pricePence: 1498, scheme: "PetCLUB" });
    expect(memberPriceOf(1499, 0, "zooPoints")).toEqual({ pricePence: 0, scheme: "zooPoints" });
  });

  it("is none at or above the standard price, without a price, without a scheme, or below nothing", () => {
    expect(memberPriceOf(1499, 1499, "Pets Club")).toBeNull();
    expect(memberPriceOf(1499, 1500, "Pets Club")).toBeNull();
    expect(memberPriceOf(1499, null, "Pets Club")).toBeNull();
    expect(memberPriceOf(1499, 1299, null)).toBeNull();
    expect(memberPriceOf(1499, 1299, "   ")).toBeNull();
    expect(memberPriceOf(1499, -1, "Pets Club")).toBeNull();
  });
});

describe("memberTotalPence", () => {
  const rule = { standardPence: 399, freeFromPence: 3900 };
  it("adds the delivery a one-off order at the member price carries", () => {
    // £40.00 is delivered free, but the member price £38.00 is under the £39 threshold: £38.00 + £3.99.
    expect(memberTotalPence(3800, { deliveryPence: null, freeDelivery: false }, rule)).toBe(4199);
    expect(memberTotalPence(3900, { deliveryPence: null, freeDelivery: false }, rule)).toBe(3900);
    expect(memberTotalPence(1000, { deliveryPence: 250, freeDelivery: false }, rule)).toBe(1250);
    expect(memberTotalPence(1000, { deliveryPence: null, freeDelivery: true }, rule)).toBe(1000);
    expect(memberTotalPence(1000, { deliveryPence: null, freeDelivery: false }, { standardPence: null, freeFromPence: null })).toBe(1000);
  });
});
