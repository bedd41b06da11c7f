import { describe, expect, it } from "vitest";
import { affiliateIdsInput, categoryInput, productInput, retailerInput, voucherInput } from "./catalogue-input.ts";
import { catalogueTextLimits } from "./limits.ts";

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

describe("productInput slug", () => {
  const base = { name: "Test Kibble 2kg", categoryId: 1 };

  it("derives a missing slug with the shared rule: & as and, accents dropped", () => {
    expect(productInput.parse({ ...base, name: "Pets & Co Café Treats" }).slug).toBe("pets-and-co-cafe-treats");
    expect(productInput.parse({ ...base, name: "Hill's 2.5kg", slug: "" }).slug).toBe("hills-2-5kg");
  });

  it("takes a typed slug of up to 200 characters, not 201", () => {
    expect(productInput.safeParse({ ...base, slug: "a".repeat(200) }).success).toBe(true);
    const result = productInput.safeParse({ ...base, slug: "a".repeat(201) });
    expect(result.error?.issues[0]).toMatchObject({ path: ["slug"], message: "slug must be at most 200 characters" });
  });

  it("takes a brand of up to 100 characters, not 101", () => {
    expect(productInput.parse({ ...base, brand: "b".repeat(100) }).brand).toBe("b".repeat(100));
    expect(productInput.safeParse({ ...base, brand: "b".repeat(101) }).error?.issues[0]).toMatchObject({ path: ["brand"], message: "brand must be at most 100 characters" });
  });
});

describe("productInput kcalPerKg", () => {
  const base = { name: "Test Kibble 2kg", categoryId: 1 };
  const message = "kcalPerKg must be a whole number from 100 to 9,000";

  it("takes whole kcal per kg from 100 to 9,000", () => {
    for (const kcal of [100, 3800, 9000]) expect(productInput.parse({ ...base, kcalPerKg: kcal }).kcalPerKg, String(kcal)).toBe(kcal);
  });

  it("refuses 99, 9,001 and fractions", () => {
    for (const kcal of [99, 9001, 3800.5]) expect(productInput.safeParse({ ...base, kcalPerKg: kcal }).error?.issues[0]?.message, String(kcal)).toBe(message);
  });
});

describe("affiliateIdsInput", () => {
  const ids = { AMAZON: "tag-21", PETS_AT_HOME: "12345", JOLLYES: "ref.1", ZOOPLUS: "p_1", EBAY: "5338~1" };

  it("takes URL-safe IDs of up to 100 characters", () => {
    expect(affiliateIdsInput.parse({ ...ids, AMAZON: "a".repeat(100) }).AMAZON).toBe("a".repeat(100));
  });

  it("refuses an ID of 101 characters or with a character a link cannot carry", () => {
    expect(affiliateIdsInput.safeParse({ ...ids, AMAZON: "a".repeat(101) }).error?.issues[0]?.message).toBe("AMAZON must be at most 100 characters");
    expect(affiliateIdsInput.safeParse({ ...ids, EBAY: "a b" }).error?.issues[0]?.message).toBe("EBAY may use only letters, digits and . _ ~ -");
    expect(affiliateIdsInput.safeParse({ ...ids, ZOOPLUS: "a&b" }).error?.issues[0]?.message).toBe("ZOOPLUS may use only letters, digits and . _ ~ -");
  });
});

describe("text limits shared with the admin forms", () => {
  const valid = {
    product: { name: "Kibble", categoryId: 1 },
    category: { name: "Dog Food", slug: "dog-food", icon: "bone" },
    retailer: { name: "Pet Shop", logo: "/retailers/pet-shop.svg", website: "https://www.petshop.co.uk" },
    voucher: { code: "SAVE10", description: "10% off", retailer: "Pet Shop", url: "https://www.petshop.co.uk", discount: "10%", expiryDate: "2027-01-31" },
  };
  const cases: [keyof typeof valid, { safeParse(input: unknown): { success: boolean; error?: { issues: { message: string }[] } } }, string, number][] = [
    ["product", productInput, "name", catalogueTextLimits.productName],
    ["category", categoryInput, "name", catalogueTextLimits.categoryName],
    ["category", categoryInput, "description", catalogueTextLimits.categoryDescription],
    ["retailer", retailerInput, "name", catalogueTextLimits.retailerName],
    ["retailer", retailerInput, "description", catalogueTextLimits.retailerDescription],
    ["voucher", voucherInput, "code", catalogueTextLimits.voucherCode],
    ["voucher", voucherInput, "description", catalogueTextLimits.voucherDescription],
    ["voucher", voucherInput, "retailer", catalogueTextLimits.voucherRetailer],
    ["voucher", voucherInput, "discount", catalogueTextLimits.voucherDiscount],
  ];

  it.each(cases)("%s %s: exactly the limit is taken, one more refused with the limit named", (kind, schema, field, limit) => {
    expect(schema.safeParse({ ...valid[kind], [field]: "x".repeat(limit) }).success).toBe(true);
    const over = schema.safeParse({ ...valid[kind], [field]: "x".repeat(limit + 1) });
    expect(over.success).toBe(false);
    expect(over.error!.issues[0]!.message).toBe(`${field} must be at most ${limit} characters`);
  });
});
