/**
 * The product details table and what is derived from it for reads, the form and the input.
 */
import { describe, expect, it } from "vitest";
import { detailsFromRow, detailsOf, productDetailList, productDetails, trimmedDetails, type ProductDetailValues } from "./product-details.ts";

describe("product details", () => {
  it("list every detail of the table once, in its order, with its name", () => {
    expect(productDetailList.map((detail) => detail.key)).toEqual(Object.keys(productDetails));
    expect(productDetailList[0]).toEqual({ key: "description", column: "description", label: "Description", maxLength: 10_000, lines: 5 });
  });

  /** Each detail's own value, so one read in another's place is caught. */
  const byKey = (value: (key: string) => string) => Object.fromEntries(productDetailList.map((detail) => [detail.key, value(detail.key)])) as ProductDetailValues;

  it("are read from a row by column and taken from anything that has them by name, nothing else", () => {
    const row = Object.fromEntries(productDetailList.map((detail) => [detail.column, `row ${detail.key}`])) as Parameters<typeof detailsFromRow>[0];
    expect(detailsFromRow(row)).toEqual(byKey((key) => `row ${key}`));
    expect(detailsOf({ ...byKey((key) => `${key} as typed  `), name: "Other field" } as ProductDetailValues)).toEqual(byKey((key) => `${key} as typed  `));
  });

  it("left out of a loaded product are empty fields", () => {
    expect(detailsOf({})).toEqual(byKey(() => ""));
  });

  it("are sent trimmed", () => {
    expect(trimmedDetails(byKey((key) => ` \n ${key} text. \t`))).toEqual(byKey((key) => `${key} text.`));
  });
});
