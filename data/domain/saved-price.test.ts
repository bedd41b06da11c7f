import { describe, expect, it } from "vitest";
import { priceMoveSinceSaved } from "./saved-price.ts";

describe("priceMoveSinceSaved", () => {
  it("says how far the price to the door fell or rose since saving, to the penny", () => {
    expect(priceMoveSinceSaved(25.99, 24.49)).toEqual({ direction: "down", pence: 150, text: "Down £1.50 since you saved it" });
    expect(priceMoveSinceSaved(25.99, 27)).toEqual({ direction: "up", pence: 101, text: "Up £1.01 since you saved it" });
    // One penny either way is a move; float noise in pounds is not.
    expect(priceMoveSinceSaved(0.3, 0.31)?.text).toBe("Up £0.01 since you saved it");
    expect(priceMoveSinceSaved(0.31, 0.3)?.text).toBe("Down £0.01 since you saved it");
    expect(priceMoveSinceSaved(0.1 + 0.2, 0.3)).toEqual({ direction: "same", pence: 0, text: "Same price as when you saved it" });
    expect(priceMoveSinceSaved(1000, 2234.56)?.text).toBe("Up £1,234.56 since you saved it");
  });
  it("says nothing when either price is unknown", () => {
    expect(priceMoveSinceSaved(null, 10)).toBeNull();
    expect(priceMoveSinceSaved(undefined, 10)).toBeNull();
    expect(priceMoveSinceSaved(10, null)).toBeNull();
    expect(priceMoveSinceSaved(Number.NaN, 10)).toBeNull();
  });
});
