import { describe, expect, it } from "vitest";
import { monthsBeforeDay, ukToday } from "./dates.ts";

describe("ukToday", () => {
  it("uses the UK calendar day, summer time included", () => {
    expect(ukToday(new Date("2026-06-30T23:30:00Z"))).toBe("2026-07-01");
    expect(ukToday(new Date("2026-12-31T23:30:00Z"))).toBe("2026-12-31");
  });
});

describe("monthsBeforeDay", () => {
  it("goes back whole calendar months, across a year end", () => {
    expect(monthsBeforeDay("2026-11-27", 6)).toBe("2026-05-27");
    expect(monthsBeforeDay("2026-03-15", 6)).toBe("2025-09-15");
    expect(monthsBeforeDay("2026-01-01", 1)).toBe("2025-12-01");
    expect(monthsBeforeDay("2026-06-30", 0)).toBe("2026-06-30");
  });

  it("lands on the earlier month's last day when it has no such day, leap years included", () => {
    expect(monthsBeforeDay("2026-08-31", 6)).toBe("2026-02-28");
    expect(monthsBeforeDay("2028-08-31", 6)).toBe("2028-02-29");
    expect(monthsBeforeDay("2026-05-31", 1)).toBe("2026-04-30");
    expect(monthsBeforeDay("2026-12-31", 6)).toBe("2026-06-30");
  });
});
