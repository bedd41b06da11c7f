import { describe, expect, it } from "vitest";
import { formatPriceRange, parsePriceRange, priceRangeOptions } from "./price-range.ts";

describe("parsePriceRange", () => {
  it("parses every option of the filter", () => {
    expect(priceRangeOptions.map((o) => parsePriceRange(o.value))).toEqual([
      {},
      { minPrice: 0, maxPrice: 10 },
      { minPrice: 10, maxPrice: 25 },
      { minPrice: 25, maxPrice: 50 },
      { minPrice: 50, maxPrice: 100 },
      { minPrice: 100 },
    ]);
  });
  it("allows an open lower side and rejects other text", () => {
    expect(parsePriceRange("-20")).toEqual({ maxPrice: 20 });
    expect(parsePriceRange("")).toEqual({});
    expect(parsePriceRange("abc")).toBeNull();
    expect(parsePriceRange("10")).toBeNull();
    expect(parsePriceRange("1-2-3")).toBeNull();
  });
  it("takes pence on either side, up to two decimals", () => {
    expect(parsePriceRange("10.55-20.99")).toEqual({ minPrice: 10.55, maxPrice: 20.99 });
    expect(parsePriceRange("0.5-")).toEqual({ minPrice: 0.5 });
    expect(parsePriceRange("10.555-20")).toBeNull();
    expect(parsePriceRange("10-20.999")).toBeNull();
    expect(parsePriceRange("10.x-20")).toBeNull();
    expect(parsePriceRange("10-20.xy")).toBeNull();
  });
  it("formats back to the option values", () => {
    for (const option of priceRangeOptions) expect(formatPriceRange(parsePriceRange(option.value)!)).toBe(option.value);
  });
});
