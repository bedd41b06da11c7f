import { describe, expect, it } from "vitest";
import { ukToday } from "./dates.ts";

describe("ukToday", () => {
  it("uses the UK calendar day, summer time included", () => {
    expect(ukToday(new Date("2026-06-30T23:30:00Z"))).toBe("2026-07-01");
    expect(ukToday(new Date("2026-12-31T23:30:00Z"))).toBe("2026-12-31");
  });
});
