import { describe, expect, it } from "vitest";
import { productInput } from "./catalogue-input.ts";

describe("productInput rating", () => {
  const base = { name: "Test Kibble 2kg", categoryId: 1 };

  it("keeps a rating only with reviews: without any it is stored as 0 (shown nowhere)", () => {
    expect(productInput.parse(base)).toMatchObject({ rating: 0, reviewCount: 0 });
    expect(productInput.parse({ ...base, rating: null, reviewCount: 0 })).toMatchObject({ rating: 0, reviewCount: 0 });
    expect(productInput.parse({ ...base, rating: 4.5, reviewCount: 0 })).toMatchObject({ rating: 0, reviewCount: 0 });
    expect(productInput.parse({ ...base, rating: 4.2, reviewCount: 12 })).toMatchObject({ rating: 4.2, reviewCount: 12 });
  });

  it("requires a rating with reviews: none is invented", () => {
    const result = productInput.safeParse({ ...base, reviewCount: 3 });
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]).toMatchObject({ path: ["rating"], message: "rating is required when reviewCount is above 0" });
  });
});
