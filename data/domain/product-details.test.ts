/**
 * The product details table and what is derived from it for reads, the form and the input.
 */
import { describe, expect, it } from "vitest";
import { detailsFromRow, detailsOf, productDetailList, productDetails, trimmedDetails } from "./product-details.ts";

describe("product details", () => {
  it("list every detail of the table once, in its order, with its name", () => {
    expect(productDetailList.map((detail) => detail.key)).toEqual(Object.keys(productDetails));
    expect(productDetailList[0]).toEqual({ key: "description", column: "description", label: "Description", maxLength: 10_000, lines: 5 });
  });

  it("are read from a row by column and taken from anything that has them by name, nothing else", () => {
    expect(detailsFromRow({ description: "From the row" })).toEqual({ description: "From the row" });
    expect(detailsOf({ description: "Kept as typed  ", name: "Other field" } as never)).toEqual({ description: "Kept as typed  " });
  });

  it("left out of a loaded product are empty fields", () => {
    expect(detailsOf({})).toEqual({ description: "" });
  });

  it("are sent trimmed", () => {
    expect(trimmedDetails({ description: " \n Grain free. \t" })).toEqual({ description: "Grain free." });
  });
});
