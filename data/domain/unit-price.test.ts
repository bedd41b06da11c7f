import { describe, expect, it } from "vitest";
import { parsePackQuantity, type PackQuantity } from "./pack-size.ts";
import { compareUnitPrices, formatUnitPrice, unitPrice, type UnitPrice } from "./unit-price.ts";

/** A quantity as parsePackQuantity would give it, for amounts no label states. */
function quantity(amount: number, unit: PackQuantity["unit"]): PackQuantity {
  const measure = unit === "kg" ? "weight" : unit === "l" ? "volume" : "count";
  return { amount, measure, unit, count: 1, each: unit === "item" ? null : amount, label: "" };
}

describe("unitPrice", () => {
  it.each([
    // [pence, pack, pence per unit, unit, shelf label]
    [6499, "12kg", 542, "kg", "£5.42 per kg"], // 541.58
    [1799, "6 x 400g", 750, "kg", "£7.50 per kg"], // 749.58
    [999, "1.5 L", 666, "l", "£6.66 per litre"], // exactly 666
    [2499, "6 pipettes", 417, "item", "£4.17 per item"], // 416.5, a half rounded up
    [3299, "Royal Canin Medium Adult Dry Dog Food 15kg (Pack of 2)", 110, "kg", "£1.10 per kg"], // 109.97
    [1599, "Felix As Good As It Looks 40 x 100g", 400, "kg", "£4.00 per kg"], // 399.75
    [2999, "Felix 40 x 100g (Pack of 3)", 250, "kg", "£2.50 per kg"], // 249.92
    [549, "Sheba 12 x 85g", 538, "kg", "£5.38 per kg"], // 538.24
    [249, "Pedigree Dentastix Large 7 Sticks 270g", 922, "kg", "£9.22 per kg"], // 922.22
    [1899, "7 x 10 Sticks", 27, "item", "£0.27 per item"], // 27.13
    [799, "Catsan Hygiene Plus 10L", 80, "l", "£0.80 per litre"], // 79.9
    [5199, "3 x 48ml Refills", 36104, "l", "£361.04 per litre"], // 36104.17
    [1299, "250ml", 5196, "l", "£51.96 per litre"], // exactly 5196
    [399, "Pack of 4", 100, "item", "£1.00 per item"], // 99.75
    [4999, "22lb", 501, "kg", "£5.01 per kg"], // 4999 / 9.97903 kg = 500.95
    [0, "2kg", 0, "kg", "£0.00 per kg"],
    [123456789, "1kg", 123456789, "kg", "£1,234,567.89 per kg"],
  ] as const)("%i pence for %j is %i pence per %s", (pence, pack, perUnit, unit, label) => {
    const price = unitPrice(pence, parsePackQuantity(pack));
    expect(price).toEqual({ pence: perUnit, unit });
    expect(formatUnitPrice(price!)).toBe(label);
  });

  it("rounds a half penny up and anything less down, once", () => {
    expect(unitPrice(1, quantity(2, "item"))).toEqual({ pence: 1, unit: "item" }); // 0.5
    expect(unitPrice(1, quantity(3, "item"))).toEqual({ pence: 0, unit: "item" }); // 0.33
    expect(unitPrice(2, quantity(3, "item"))).toEqual({ pence: 1, unit: "item" }); // 0.67
    expect(unitPrice(3, quantity(2000, "kg"))).toEqual({ pence: 2, unit: "kg" }); // 1.5
    expect(unitPrice(5, quantity(2000, "l"))).toEqual({ pence: 3, unit: "l" }); // 2.5
    expect(unitPrice(1, quantity(1999.99, "kg"))).toEqual({ pence: 1, unit: "kg" }); // 0.500003
    expect(unitPrice(1, quantity(2000.01, "kg"))).toEqual({ pence: 0, unit: "kg" }); // 0.499998
    expect(unitPrice(1001, quantity(2000, "kg"))).toEqual({ pence: 501, unit: "kg" }); // 500.5
    expect(unitPrice(1003, quantity(2000, "kg"))).toEqual({ pence: 502, unit: "kg" }); // 501.5
  });

  it("is per kilogram, litre or item, never per 100 g", () => {
    expect(unitPrice(100, quantity(100, "kg"))).toEqual({ pence: 1000, unit: "kg" });
    expect(unitPrice(100, quantity(100, "l"))).toEqual({ pence: 1000, unit: "l" });
    expect(unitPrice(100, quantity(100, "item"))).toEqual({ pence: 1, unit: "item" });
  });

  it("is null without a quantity, or for a price that is not whole pence", () => {
    expect(unitPrice(1299, null)).toBeNull();
    expect(unitPrice(1299, undefined)).toBeNull();
    expect(unitPrice(1299, parsePackQuantity("Large"))).toBeNull();
    expect(unitPrice(1299, quantity(0, "kg"))).toBeNull();
    expect(unitPrice(1299, quantity(0.004, "kg"))).toBeNull(); // under a hundredth of a gram
    expect(unitPrice(-1, quantity(1000, "kg"))).toBeNull();
    expect(unitPrice(12.5, quantity(1000, "kg"))).toBeNull();
    expect(unitPrice(Number.NaN, quantity(1000, "kg"))).toBeNull();
  });

  it("refuses a price too large to divide exactly rather than rounding it wrong", () => {
    expect(unitPrice(45_035_996_273, quantity(1, "kg"))).toEqual({ pence: 45_035_996_273_000, unit: "kg" });
    expect(unitPrice(45_035_996_274, quantity(1, "kg"))).toBeNull();
  });
});

describe("formatUnitPrice", () => {
  it("writes pounds and pence, then the unit in words", () => {
    expect(formatUnitPrice({ pence: 433, unit: "kg" })).toBe("£4.33 per kg");
    expect(formatUnitPrice({ pence: 120, unit: "l" })).toBe("£1.20 per litre");
    expect(formatUnitPrice({ pence: 83, unit: "item" })).toBe("£0.83 per item");
    expect(formatUnitPrice({ pence: 5, unit: "item" })).toBe("£0.05 per item");
    expect(formatUnitPrice({ pence: 123456, unit: "kg" })).toBe("£1,234.56 per kg");
  });
});

describe("compareUnitPrices", () => {
  it("puts the cheapest first within a unit, per kg before per litre before per item, unknown last", () => {
    const perKg = (pence: number): UnitPrice => ({ pence, unit: "kg" });
    const prices: (UnitPrice | null)[] = [null, { pence: 50, unit: "item" }, perKg(900), { pence: 300, unit: "l" }, perKg(450), null, { pence: 10, unit: "item" }, perKg(451)];
    expect(prices.sort(compareUnitPrices)).toEqual([perKg(450), perKg(451), perKg(900), { pence: 300, unit: "l" }, { pence: 10, unit: "item" }, { pence: 50, unit: "item" }, null, null]);
  });

  it("treats equal prices and two unknowns as equal", () => {
    expect(compareUnitPrices({ pence: 450, unit: "kg" }, { pence: 450, unit: "kg" })).toBe(0);
    expect(compareUnitPrices(null, null)).toBe(0);
    expect(compareUnitPrices(null, { pence: 1, unit: "item" })).toBeGreaterThan(0);
    expect(compareUnitPrices({ pence: 1, unit: "item" }, null)).toBeLessThan(0);
  });
});
