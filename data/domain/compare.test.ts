import { describe, expect, it } from "vitest";
import {
  addToCompare,
  bestPricedId,
  canExpand,
  collapsedWindow,
  compareBarLabel,
  compareLimit,
  compareUnitPrice,
  removeFromCompare,
  type CompareItem,
} from "./compare.ts";

const item = (id: number, bestPrice: number | null = 10): CompareItem => ({
  id,
  slug: `product-${id}`,
  name: `Product ${id}`,
  image: `/img/${id}.jpg`,
  bestPrice,
  bestRetailer: bestPrice === null ? null : "Amazon",
});
const items = (...ids: number[]) => ids.map((id) => item(id));

describe("addToCompare", () => {
  it("adds a new product and leaves the input list alone", () => {
    const before = items(1);
    const result = addToCompare(before, item(2));
    expect(result).toEqual({ items: items(1, 2), added: true });
    expect(before).toEqual(items(1));
  });
  it("refuses a product already in the tray", () => {
    expect(addToCompare(items(1, 2), item(2))).toEqual({ items: items(1, 2), added: false, reason: "duplicate" });
  });
  it("refuses a fifth product", () => {
    expect(compareLimit).toBe(4);
    expect(addToCompare(items(1, 2, 3, 4), item(5))).toEqual({ items: items(1, 2, 3, 4), added: false, reason: "full" });
  });
  it("reports a duplicate rather than full when both apply", () => {
    expect(addToCompare(items(1, 2, 3, 4), item(3)).reason).toBe("duplicate");
  });
});

describe("removeFromCompare", () => {
  it("takes out the product with that id", () => {
    expect(removeFromCompare(items(1, 2, 3), 2)).toEqual(items(1, 3));
    expect(removeFromCompare(items(1), 9)).toEqual(items(1));
  });
});

describe("collapsedWindow", () => {
  it("shows two products from the position, stepping by one", () => {
    const four = items(1, 2, 3, 4);
    expect(collapsedWindow(four, 0)).toEqual({ visible: items(1, 2), position: 0, canStepBack: false, canStepForward: true });
    expect(collapsedWindow(four, 1)).toEqual({ visible: items(2, 3), position: 1, canStepBack: true, canStepForward: true });
    expect(collapsedWindow(four, 2)).toEqual({ visible: items(3, 4), position: 2, canStepBack: true, canStepForward: false });
  });
  it("clamps a position out of range", () => {
    expect(collapsedWindow(items(1, 2, 3, 4), 3).position).toBe(2);
    expect(collapsedWindow(items(1, 2, 3), -1).position).toBe(0);
    expect(collapsedWindow(items(1, 2, 3), Number.NaN).position).toBe(0);
  });
  it("keeps the position in range after a removal", () => {
    const afterRemoval = removeFromCompare(items(1, 2, 3, 4), 4);
    expect(collapsedWindow(afterRemoval, 2)).toEqual({ visible: items(2, 3), position: 1, canStepBack: true, canStepForward: false });
    expect(collapsedWindow(items(1), 1)).toEqual({ visible: items(1), position: 0, canStepBack: false, canStepForward: false });
    expect(collapsedWindow([], 1)).toEqual({ visible: [], position: 0, canStepBack: false, canStepForward: false });
  });
  it("honours another window size", () => {
    expect(collapsedWindow(items(1, 2, 3, 4), 5, 3).visible).toEqual(items(2, 3, 4));
  });
});

describe("canExpand", () => {
  it("is true only with more than 2 products", () => {
    expect(canExpand(items(1, 2))).toBe(false);
    expect(canExpand(items(1, 2, 3))).toBe(true);
  });
});

describe("bestPricedId", () => {
  it("picks the lowest known price, the first on a tie", () => {
    expect(bestPricedId([item(1, 12.5), item(2, 9.99), item(3, null), item(4, 9.99)])).toBe(2);
    // A price that is not a number never wins, even when it comes first.
    expect(bestPricedId([item(1, Number.NaN), item(2, 20)])).toBe(2);
    expect(bestPricedId([item(1, Number.NaN), item(2, null)])).toBeNull();
  });
  it("is null when no product has a price", () => {
    expect(bestPricedId([item(1, null)])).toBeNull();
    expect(bestPricedId([])).toBeNull();
  });
  it("counts a free product as the best price", () => {
    expect(bestPricedId([item(1, 3), item(2, 0)])).toBe(2);
  });
});

describe("compareBarLabel", () => {
  it("lists up to three names", () => {
    expect(compareBarLabel([])).toBe("");
    expect(compareBarLabel(["A"])).toBe("A");
    expect(compareBarLabel(["A", "B", "C"])).toBe("A, B, C");
  });
  it("counts the rest as +N more", () => {
    expect(compareBarLabel(["A", "B", "C", "D"])).toBe("A, B, C +1 more");
    expect(compareBarLabel(["A", "B", "C", "D", "E"])).toBe("A, B, C +2 more");
  });
});

describe("compareUnitPrice", () => {
  const bag = { amount: 12000, unit: "kg" as const, label: "12kg" };
  it("prices the best price per kg, litre or item of the pack", () => {
    // 4599 / 12 = 383.25
    expect(compareUnitPrice({ ...item(1, 45.99), packSize: bag })).toEqual({ pence: 383, unit: "kg" });
    expect(compareUnitPrice({ ...item(2, 9.99), packSize: { amount: 1500, unit: "l", label: "1.5L" } })).toEqual({ pence: 666, unit: "l" });
  });
  it("has none without a pack size (or a tray saved before it), or without a best price", () => {
    expect(compareUnitPrice({ ...item(1, 45.99), packSize: null })).toBeNull();
    expect(compareUnitPrice(item(1, 45.99))).toBeNull();
    expect(compareUnitPrice({ ...item(1, null), packSize: bag })).toBeNull();
  });
});
