import { describe, expect, it } from "vitest";
import { ApiError } from "../../lib/api.ts";
import { decisionFailedToast, decisionToast, holdRule, holdSettled, priceChange, refreshSummary, sourceLabel } from "./price-pipeline.ts";

describe("price change", () => {
  it("is a whole percentage with a plus or a true minus sign", () => {
    expect(priceChange(10, 2.8)).toBe("\u221272%");
    expect(priceChange(10, 41)).toBe("+310%");
    expect(priceChange(12.99, 12.99)).toBe("0%");
    expect(priceChange(0.3, 0.1 + 0.2)).toBe("0%");
    expect(priceChange(3, 1)).toBe("\u221267%");
  });

  it("is a dash without a published price", () => {
    expect(priceChange(null, 5)).toBe("—");
    expect(priceChange(0, 5)).toBe("—");
  });
});

describe("hold rule", () => {
  it("states the factors as percentages of the published price", () => {
    expect(holdRule({ below: 0.4, above: 2.5 })).toBe("A new price below 40% or above 250% of the published price is held here for review instead of being published.");
    expect(holdRule({ below: 0.5, above: 3 })).toContain("below 50% or above 300%");
  });

  it("names where a price was read", () => {
    expect(sourceLabel("page")).toBe("Retailer page");
    expect(sourceLabel("feed:sample")).toBe("Feed: sample");
    expect(sourceLabel("manual")).toBe("manual");
  });
});

describe("decision toasts", () => {
  const hold = { product: { id: 3, name: "Dog Bed", slug: "dog-bed" }, retailer: { id: 1, name: "Zooplus" }, publishedPrice: 24.5, heldPrice: 6.99 };

  it("say what was published or kept", () => {
    expect(decisionToast("accept", hold)).toEqual({ title: "Price accepted", description: "Published £6.99 at Zooplus for Dog Bed" });
    expect(decisionToast("reject", hold)).toEqual({ title: "Price rejected", description: "Kept £24.50 at Zooplus" });
    expect(decisionToast("reject", { ...hold, publishedPrice: null }).description).toBe("Nothing new published at Zooplus");
  });

  it("carry the server's message on failure, and know when the hold is gone", () => {
    const reviewed = new ApiError(409, JSON.stringify({ error: "This price was already reviewed" }), "Conflict");
    expect(decisionFailedToast("accept", reviewed)).toEqual({ title: "Could not accept the price", description: "This price was already reviewed", variant: "destructive" });
    expect(decisionFailedToast("reject", new TypeError("Failed to fetch"))).toEqual({
      title: "Could not reject the price",
      description: "Please try again.",
      variant: "destructive",
    });
    expect(holdSettled(reviewed)).toBe(true);
    expect(holdSettled(new ApiError(404, JSON.stringify({ error: "Not found" }), "Not Found"))).toBe(true);
    expect(holdSettled(new ApiError(500, "", "Internal Server Error"))).toBe(false);
    expect(holdSettled(new TypeError("Failed to fetch"))).toBe(false);
  });
});

describe("price refresh summary", () => {
  it("counts the run and, once finished, its time", () => {
    expect(refreshSummary({ checked: 1200, changed: 14, held: 2, failed: 1, durationMs: 72_000 })).toBe("checked 1,200 · changed 14 · held 2 · failed 1 · took 1 min 12 s");
    expect(refreshSummary({ checked: 40, changed: 0, held: 0, failed: 0, durationMs: null })).toBe("checked 40 · changed 0 · held 0 · failed 0");
  });
});
