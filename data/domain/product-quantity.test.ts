import { describe, expect, it } from "vitest";
import { packSizeOf, pricePerKgOf, unitPriceOf } from "./product-quantity.ts";

describe("packSizeOf", () => {
  it("reads the net quantity of a product name", () => {
    expect(packSizeOf("Royal Canin Medium Adult Dry Dog Food 15kg")).toEqual({ amount: 15000, unit: "kg", label: "15kg" });
    expect(packSizeOf("Lily's Kitchen Adult Wet Dog Food Tins Multipack 6 x 400g")).toEqual({ amount: 2400, unit: "kg", label: "6 x 400g" });
    expect(packSizeOf("Tetra TetraMin Tropical Flake Fish Food 250ml")).toEqual({ amount: 250, unit: "l", label: "250ml" });
    expect(packSizeOf("Catsan Hygiene Plus Cat Litter 20L")).toEqual({ amount: 20000, unit: "l", label: "20L" });
    expect(packSizeOf("Frontline Plus Spot On Large Dog 3 Pipettes")).toMatchObject({ amount: 3, unit: "item" });
  });
  it("has none for a size word or a tank's capacity", () => {
    expect(packSizeOf("KONG Classic Dog Toy Large")).toBeNull();
    expect(packSizeOf("Fluval Flex Aquarium Kit Black 57L")).toBeNull();
    expect(packSizeOf("Exo Terra Glass Terrarium 45L")).toBeNull();
    expect(packSizeOf("API Tap Water Conditioner 500ml")).toEqual({ amount: 500, unit: "l", label: "500ml" });
    // Only a volume is a capacity: the weight of gravel for a tank is its pack size.
    expect(packSizeOf("JBL Aquarium Tank Gravel 5kg")).toEqual({ amount: 5000, unit: "kg", label: "5kg" });
  });
});

describe("unitPriceOf", () => {
  it("prices the pack per kg, litre or item, and nothing without a pack", () => {
    expect(unitPriceOf(6499, { amount: 12000, unit: "kg", label: "12kg" })).toEqual({ pence: 542, unit: "kg" });
    expect(unitPriceOf(999, { amount: 1500, unit: "l", label: "1.5L" })).toEqual({ pence: 666, unit: "l" });
    expect(unitPriceOf(999, null)).toBeNull();
  });
});

describe("pricePerKgOf", () => {
  it("is the best price per kg, rounded half up, for packs sold by weight", () => {
    // 4599 / 12 = 383.25
    expect(pricePerKgOf(4599, packSizeOf("Royal Canin Maxi Adult 12kg"))).toBe(383);
    // 1799 / 2.4 = 749.58; 1 / 0.002 = 500 exactly on the pack
    expect(pricePerKgOf(1799, packSizeOf("Wet Dog Food 6 x 400g"))).toBe(750);
    // 750 / 2 = 375 exactly; 751 / 2 = 375.5 rounds up
    expect(pricePerKgOf(750, packSizeOf("Treats 2kg"))).toBe(375);
    expect(pricePerKgOf(751, packSizeOf("Treats 2kg"))).toBe(376);
    expect(pricePerKgOf(0, packSizeOf("Treats 2kg"))).toBe(0);
  });
  it("is null for litres, items, no pack size, or no best price", () => {
    expect(pricePerKgOf(999, packSizeOf("Catsan Hygiene Plus Cat Litter 20L"))).toBeNull();
    expect(pricePerKgOf(2499, packSizeOf("Frontline Plus Spot On Large Dog 3 Pipettes"))).toBeNull();
    expect(pricePerKgOf(999, packSizeOf("KONG Classic Dog Toy Large"))).toBeNull();
    expect(pricePerKgOf(null, packSizeOf("Royal Canin Maxi Adult 12kg"))).toBeNull();
    // A price too large for exact integer arithmetic has no price per kg rather than a wrong one.
    expect(pricePerKgOf(2 ** 50, packSizeOf("Royal Canin Maxi Adult 12kg"))).toBeNull();
  });
});
