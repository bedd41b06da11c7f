import { describe, expect, it } from "vitest";
import { brandLabel, brandOptions, sameBrand } from "./facets.ts";

describe("brandOptions", () => {
  const counts = [
    { brand: "Applaws", count: 2 },
    { brand: "Royal Canin", count: 12 },
  ];
  it("lists the view's brands as they are, with nothing chosen or a listed brand chosen", () => {
    expect(brandOptions(counts, undefined)).toEqual(counts);
    expect(brandOptions(counts, "Royal Canin")).toEqual(counts);
    // The address may spell the brand in another case: the API's filter ignores case, so does this.
    expect(brandOptions(counts, "royal canin")).toEqual(counts);
  });
  it("keeps the chosen brand listed, with 0, when the other filters leave none of its products", () => {
    expect(brandOptions(counts, "Lily's Kitchen")).toEqual([
      { brand: "Applaws", count: 2 },
      { brand: "Lily's Kitchen", count: 0 },
      { brand: "Royal Canin", count: 12 },
    ]);
    expect(brandOptions([], "Whiskas")).toEqual([{ brand: "Whiskas", count: 0 }]);
  });
  it("does not change the list it is given", () => {
    const list = [...counts];
    brandOptions(list, "Zeta");
    expect(list).toEqual(counts);
  });
});

describe("brandLabel and sameBrand", () => {
  it("writes the brand with its count", () => {
    expect(brandLabel({ brand: "Royal Canin", count: 12 })).toBe("Royal Canin (12)");
    expect(brandLabel({ brand: "Whiskas", count: 0 })).toBe("Whiskas (0)");
    expect(brandLabel({ brand: "Big", count: 1234 })).toBe("Big (1,234)");
  });
  it("compares brands ignoring case", () => {
    expect(sameBrand("Hill's", "HILL'S")).toBe(true);
    expect(sameBrand("Hill's", "Hills")).toBe(false);
  });
});
