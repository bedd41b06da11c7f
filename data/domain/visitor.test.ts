import { describe, expect, it } from "vitest";
import { emailSchema, maxTargetPounds, targetPriceSchema, visitorIdSchema } from "./visitor.ts";

describe("targetPriceSchema", () => {
  it("takes a price above 0 up to the maximum, in whole pence", () => {
    for (const ok of [0.01, 12.99, 0.1 + 0.2, maxTargetPounds]) expect(targetPriceSchema.safeParse(ok).success, String(ok)).toBe(true);
    for (const bad of [0, -1, maxTargetPounds + 0.01, 9.999, 12.345, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(targetPriceSchema.safeParse(bad).success, String(bad)).toBe(false);
    }
  });
});

describe("visitorIdSchema and emailSchema", () => {
  it("takes user_ and 8 to 64 letters, digits, _ or -", () => {
    for (const ok of ["user_abcdefgh", `user_${"a".repeat(64)}`, "user_AB-cd_12"]) expect(visitorIdSchema.safeParse(ok).success, ok).toBe(true);
    for (const bad of ["user_abcdefg", `user_${"a".repeat(65)}`, "user_abc def gh", "visitor_abcdefgh", " user_abcdefgh"]) {
      expect(visitorIdSchema.safeParse(bad).success, bad).toBe(false);
    }
  });
  it("normalises an address to trimmed lower case and refuses one over 254 characters", () => {
    expect(emailSchema.parse("  Pet.Owner@Example.CO.UK ")).toBe("pet.owner@example.co.uk");
    expect(emailSchema.safeParse(`${"a".repeat(64)}@${"b".repeat(180)}.example.com`).success).toBe(false);
  });
});
