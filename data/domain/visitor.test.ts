import { describe, expect, it } from "vitest";
import { emailSchema, maxTargetPounds, sessionIdSchema, targetPriceSchema, visitorIdSchema } from "./visitor.ts";

describe("targetPriceSchema", () => {
  it("takes a price above 0 up to the maximum, in whole pence", () => {
    for (const ok of [0.01, 12.99, 0.1 + 0.2, maxTargetPounds]) expect(targetPriceSchema.safeParse(ok).success, String(ok)).toBe(true);
    for (const bad of [0, -1, maxTargetPounds + 0.01, 9.999, 12.345, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(targetPriceSchema.safeParse(bad).success, String(bad)).toBe(false);
    }
  });
});

describe("visitorIdSchema and emailSchema", () => {
  it("takes exactly what the browser makes: user_ and 24 characters from a-z and 0-9", () => {
    for (const ok of ["user_abcdefghijklmnopqrstu0123", "user_000000000000000000000000", "user_zzzzzzzzzzzzzzzzzzzzzzzz"].map((id) => id.slice(0, 29))) {
      expect(visitorIdSchema.safeParse(ok).success, ok).toBe(true);
    }
    const bad = [
      "user_aaaaaaaa",
      "user_--------",
      `user_${"a".repeat(23)}`,
      `user_${"a".repeat(25)}`,
      `user_${"A".repeat(24)}`,
      `user_${"a".repeat(23)}-`,
      `user_${"a".repeat(23)}_`,
      `visitor_${"a".repeat(24)}`,
      ` user_${"a".repeat(24)}`,
      `user_${"a".repeat(24)}\n`,
    ];
    for (const id of bad) expect(visitorIdSchema.safeParse(id).success, id).toBe(false);
  });
  it("takes session ids in the browser's format only", () => {
    expect(sessionIdSchema.safeParse(`session_${"a1".repeat(12)}`).success).toBe(true);
    for (const id of [`session_${"a".repeat(23)}`, `session_${"a".repeat(25)}`, "session_--------", `session_${"a".repeat(23)}-`]) {
      expect(sessionIdSchema.safeParse(id).success, id).toBe(false);
    }
  });
  it("normalises an address to trimmed lower case and refuses one over 254 characters", () => {
    expect(emailSchema.parse("  Pet.Owner@Example.CO.UK ")).toBe("pet.owner@example.co.uk");
    expect(emailSchema.safeParse(`${"a".repeat(64)}@${"b".repeat(180)}.example.com`).success).toBe(false);
  });
});
