import { describe, expect, it } from "vitest";
import { priceAgeText } from "./price-age.ts";

const now = new Date("2026-11-22T12:00:00.000Z");
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();

describe("priceAgeText", () => {
  it.each([
    [0, "Checked just now"],
    [59_999, "Checked just now"],
    [60_000, "Checked 1 minute ago"],
    [119_999, "Checked 1 minute ago"],
    [120_000, "Checked 2 minutes ago"],
    [3_599_999, "Checked 59 minutes ago"],
    [3_600_000, "Checked 1 hour ago"],
    [7_200_000, "Checked 2 hours ago"],
    [86_399_999, "Checked 23 hours ago"],
    [86_400_000, "Checked 1 day ago"],
    [3 * 86_400_000, "Checked 3 days ago"],
  ])("%i ms old: %s", (age, text) => {
    expect(priceAgeText(ago(age), false, now)).toBe(text);
  });
  it("says a stale price is not confirmed, and for how long", () => {
    expect(priceAgeText(ago(4 * 86_400_000), true, now)).toBe("Price not confirmed for 4 days");
    expect(priceAgeText(ago(73 * 3_600_000), true, now)).toBe("Price not confirmed for 3 days");
    expect(priceAgeText(null, true, now)).toBe("Price not confirmed");
  });
  it("a time in the future (clock skew) reads as just now; no time at all as not checked", () => {
    expect(priceAgeText(new Date(now.getTime() + 60_000).toISOString(), false, now)).toBe("Checked just now");
    expect(priceAgeText(null, false, now)).toBe("Not checked yet");
    expect(priceAgeText("not a date", false, now)).toBe("Not checked yet");
  });
});
