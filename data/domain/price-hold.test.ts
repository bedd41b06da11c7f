import { describe, expect, it } from "vitest";
import { holdsForReview, isPriceJump } from "./price-hold.ts";

describe("isPriceJump", () => {
  const policy = { below: 0.4, above: 2.5 };
  it("holds strictly below 40% or strictly above 250% of the published price; the bounds themselves publish", () => {
    expect(isPriceJump(1000, 400, policy)).toBe(false);
    expect(isPriceJump(1000, 399, policy)).toBe(true);
    expect(isPriceJump(1000, 2500, policy)).toBe(false);
    expect(isPriceJump(1000, 2501, policy)).toBe(true);
    expect(isPriceJump(1000, 1000, policy)).toBe(false);
    expect(isPriceJump(0, 5000, policy)).toBe(false);
  });
});

describe("holdsForReview", () => {
  const policy = { below: 0.4, above: 2.5 };
  it("holds a price marked for review unless it repeats the published one", () => {
    expect(holdsForReview(1000, { pricePence: 999, holdReason: "low confidence" }, policy)).toBe(true);
    expect(holdsForReview(1000, { pricePence: 1000, holdReason: "low confidence" }, policy)).toBe(false);
  });
  it("holds an unmarked price only beyond the hold factor", () => {
    expect(holdsForReview(1000, { pricePence: 999 }, policy)).toBe(false);
    expect(holdsForReview(1000, { pricePence: 399 }, policy)).toBe(true);
    expect(holdsForReview(1000, { pricePence: 2501 }, policy)).toBe(true);
  });
});
