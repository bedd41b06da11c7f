import { describe, expect, it } from "vitest";
import { bestValueLabel, productSizes, type FamilyMember } from "./families.ts";

const member = (id: number, name: string, bestPricePence: number | null): FamilyMember => ({ id, slug: `p-${id}`, name, bestPricePence });

describe("productSizes", () => {
  it("carries each size's best retailer (none without a best price) and grams for sizes sold by weight only", () => {
    const sizes = productSizes([
      { ...member(1, "Kibble 2 x 6kg", 4599), bestRetailer: "Zooplus" },
      { ...member(2, "Kibble 2kg", null), bestRetailer: "Amazon" },
      { ...member(3, "Spot-on 6 Pipettes", 1999), bestRetailer: "Jollyes" },
      member(4, "Kibble 400g", 299),
    ]);
    expect(sizes.map((s) => [s.id, s.bestRetailer, s.packGrams]).sort((a, b) => Number(a[0]) - Number(b[0]))).toEqual([
      [1, "Zooplus", 12000],
      [2, null, 2000],
      [3, "Jollyes", null],
      [4, null, 400],
    ]);
  });

  it("lists sizes by pack amount, smallest first, with label, best price and unit price", () => {
    const sizes = productSizes([
      member(1, "Pro Plan Chicken 14kg", 5999),
      member(2, "Pro Plan Chicken 2 x 7kg", 6199),
      member(3, "Pro Plan Chicken 3kg", 1599),
      member(4, "Pro Plan Chicken 7kg", 3499),
    ]);
    expect(sizes.map((s) => [s.id, s.slug, s.label])).toEqual([
      [3, "p-3", "3kg"],
      [4, "p-4", "7kg"],
      // 14kg in one bag before 2 x 7kg? Both 14kg: the cheaper first.
      [1, "p-1", "14kg"],
      [2, "p-2", "2 x 7kg"],
    ]);
    expect(sizes.map((s) => s.bestPricePence)).toEqual([1599, 3499, 5999, 6199]);
    // 1599 / 3 = 533; 3499 / 7 = 499.86; 5999 / 14 = 428.5 (up); 6199 / 14 = 442.79
    expect(sizes.map((s) => s.unitPrice)).toEqual([
      { pence: 533, unit: "kg" },
      { pence: 500, unit: "kg" },
      { pence: 429, unit: "kg" },
      { pence: 443, unit: "kg" },
    ]);
    expect(sizes.map((s) => s.bestValue)).toEqual([false, false, true, false]);
  });

  it("orders whatever order the sizes come in: amount within a unit, then price, then id; sizes with no quantity last, unpriced last of all", () => {
    const sizes = productSizes([
      member(9, "Kibble Tray Large", null),
      member(8, "Kibble Tray Small", 899),
      member(10, "Kibble Trial 40 pouches", 9999),
      member(7, "Kibble 2 x 7kg", 6199),
      member(6, "Kibble 14kg", 5999),
      member(5, "Kibble 14kg", 5999),
      member(4, "Kibble 3kg", 1599),
      member(3, "Kibble 1kg", 1699),
    ]);
    // A dear 1kg bag still comes before the 3kg; 40 pouches (counted, not weighed) goes by price.
    expect(sizes.map((s) => [s.id, s.label])).toEqual([
      [3, "1kg"],
      [4, "3kg"],
      [5, "14kg"],
      [6, "14kg"],
      [7, "2 x 7kg"],
      [10, "40 pouches"],
      [8, "Tray Small"],
      [9, "Tray Large"],
    ]);
  });

  it("marks best value between exactly two priced sizes", () => {
    expect(productSizes([member(1, "Kibble 2kg", 1000), member(2, "Kibble 4kg", 1900), member(3, "Kibble 8kg", null)]).map((s) => s.bestValue)).toEqual([false, true, false]);
  });

  it("marks every size tied on the lowest unit price, and none when fewer than two have one", () => {
    // 1000 / 2 = 2000 / 4 = 500 per kg
    expect(productSizes([member(1, "Kibble 2kg", 1000), member(2, "Kibble 4kg", 2000), member(3, "Kibble 1kg", 501)]).map((s) => [s.label, s.bestValue])).toEqual([
      ["1kg", false],
      ["2kg", true],
      ["4kg", true],
    ]);
    expect(productSizes([member(1, "Kibble 2kg", 1000), member(2, "Kibble 4kg", null)]).map((s) => s.bestValue)).toEqual([false, false]);
    expect(productSizes([member(1, "Kibble 2kg", 1000), member(2, "Kibble 4kg", null)])[1]).toMatchObject({ bestPricePence: null, unitPrice: null });
  });

  it("labels sizes without a stated quantity by what follows the family's common words, after the measured ones", () => {
    const sizes = productSizes([member(7, "KONG Classic Dog Toy X-Large", 1599), member(5, "KONG Classic Dog Toy Medium", 899), member(6, "KONG Classic Dog Toy Large", 1299)]);
    expect(sizes.map((s) => s.label)).toEqual(["Medium", "Large", "X-Large"]);
    expect(sizes.every((s) => s.unitPrice === null && !s.bestValue)).toBe(true);
    expect(productSizes([member(1, "Litter 10L", 799), member(2, "Litter Tray Large", 1899)]).map((s) => s.label)).toEqual(["10L", "Tray Large"]);
    // Only words every name has in the same place are the family's; a shorter name keeps its last word.
    expect(productSizes([member(1, "Cat Tree Small", 1999), member(2, "Cat Scratcher Large", 2999)]).map((s) => s.label)).toEqual(["Tree Small", "Scratcher Large"]);
    expect(productSizes([member(1, "Cat Tree Large", 999), member(2, "Cat Tree", 1999)]).map((s) => s.label)).toEqual(["Tree Large", "Tree"]);
  });

  it("takes a pack size already read from the name instead of reading it again", () => {
    const given = { amount: 2000, unit: "kg" as const, label: "2kg" };
    const sizes = productSizes([{ ...member(1, "Kibble Large", 1000), packSize: given }, { ...member(2, "Kibble 4kg", 4000), packSize: null }]);
    expect(sizes.map((s) => [s.id, s.label, s.unitPrice])).toEqual([
      [1, "2kg", { pence: 500, unit: "kg" }],
      [2, "4kg", null],
    ]);
  });

  it("gives each size the item price of its best offer (the total less the delivery in it) and that price's unit price", () => {
    const sizes = productSizes([
      { ...member(1, "Kibble 2kg", 1399), bestDeliveryPence: 399 },
      { ...member(2, "Kibble 12kg", 4599), bestDeliveryPence: 0 },
      { ...member(3, "Kibble 6kg", 2999), bestDeliveryPence: null },
      { ...member(4, "Kibble 1kg", null), bestDeliveryPence: 299 },
    ]);
    expect(sizes.map((size) => [size.label, size.bestPricePence, size.bestItemPricePence, size.unitPrice?.pence ?? null, size.itemUnitPrice?.pence ?? null])).toEqual([
      ["1kg", null, null, null, null],
      ["2kg", 1399, 1000, 700, 500],
      ["6kg", 2999, 2999, 500, 500],
      ["12kg", 4599, 4599, 383, 383],
    ]);
    expect(sizes[1]!.itemUnitPrice).toEqual({ pence: 500, unit: "kg" });
    // Sizes without a stated quantity (cheapest first) have an item price but no unit price.
    expect(productSizes([{ ...member(1, "Toy Large", 1299), bestDeliveryPence: 299 }, member(2, "Toy Small", 799)]).map((size) => [size.bestItemPricePence, size.itemUnitPrice])).toEqual([
      [799, null],
      [1000, null],
    ]);
  });

  it("has nothing to choose for a family of one", () => {
    expect(productSizes([member(1, "Kibble 2kg", 1000)])).toEqual([]);
    expect(productSizes([])).toEqual([]);
  });

  it("names the mark by its unit", () => {
    expect(bestValueLabel("kg")).toBe("Best value per kg");
    expect(bestValueLabel("l")).toBe("Best value per litre");
    expect(bestValueLabel("item")).toBe("Best value per item");
  });
});
