import { describe, expect, it } from "vitest";
import { lastEditedText, relativeTime, truncate } from "./admin-display.ts";
import { discountPercent, formatPrice, formatRating, ratingStars, shownRating } from "./display.ts";
import { percentOff } from "./percent-off.ts";

describe("formatPrice", () => {
  it("formats numbers and numeric strings as pounds with two decimals", () => {
    expect(formatPrice(12.99)).toBe("£12.99");
    expect(formatPrice("12.99")).toBe("£12.99");
    expect(formatPrice("12.9")).toBe("£12.90");
    expect(formatPrice(7)).toBe("£7.00");
    expect(formatPrice(0)).toBe("£0.00");
    expect(formatPrice("£3.50")).toBe("£3.50");
  });
  it("adds thousands separators", () => {
    expect(formatPrice(1234.56)).toBe("£1,234.56");
    expect(formatPrice("1234567.8")).toBe("£1,234,567.80");
  });
  it("rounds float noise and extra decimals to the penny", () => {
    expect(formatPrice(0.1 + 0.2)).toBe("£0.30");
    expect(formatPrice(12.345)).toBe("£12.35");
    expect(formatPrice("12.994")).toBe("£12.99");
    expect(formatPrice("1e3")).toBe("£1,000.00");
  });
  it("shows £0.00 for a missing or non-numeric value by default", () => {
    for (const missing of [null, undefined, "", "  ", "abc", Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(formatPrice(missing)).toBe("£0.00");
    }
  });
  it("shows N/A where the card and compare contexts ask for it", () => {
    expect(formatPrice(null, "N/A")).toBe("N/A");
    expect(formatPrice("n/a", "N/A")).toBe("N/A");
    expect(formatPrice(4.5, "N/A")).toBe("£4.50");
  });
  it("never shows a negative zero", () => {
    expect(formatPrice(-0.001)).toBe("£0.00");
  });
});

describe("discountPercent", () => {
  it("is the percentage drop in whole percent, rounded down by the one percent-off rule", () => {
    expect(discountPercent(20, 15)).toBe(25);
    expect(discountPercent("19.99", "14.99")).toBe(25);
    expect(discountPercent(30, 20)).toBe(33);
    expect(discountPercent(8, 7)).toBe(12); // 12.5%: never shown as 13
    expect(discountPercent(10, 8.75)).toBe(12); // 12.5%
    expect(discountPercent(8, 7)).toBe(percentOff(800, 700));
  });
  it("is null (no badge) when either price is missing, not a number or not above zero", () => {
    expect(discountPercent(null, 15)).toBeNull();
    expect(discountPercent(20, undefined)).toBeNull();
    expect(discountPercent("abc", 15)).toBeNull();
    expect(discountPercent(0, 15)).toBeNull();
    expect(discountPercent(20, 0)).toBeNull();
    expect(discountPercent(-5, 2)).toBeNull();
  });
  it("is null for a rise, the same price, or a saving under 1% (no \"Save 0%\")", () => {
    expect(discountPercent(10, 12)).toBeNull();
    expect(discountPercent(10, 10)).toBeNull();
    expect(discountPercent(2, 1.99)).toBeNull(); // 0.5%
  });
});

describe("shownRating", () => {
  it("is the rating when reviews stand behind it", () => {
    expect(shownRating(4.5, 12)).toBe(4.5);
    expect(shownRating("4.2", "3")).toBe(4.2);
    expect(shownRating(0, 1)).toBe(0);
    expect(shownRating(7, 1)).toBe(5);
  });
  it("is null with no reviews, whatever rating is stored (the old 4.5 default, an import's 0)", () => {
    expect(shownRating(4.5, 0)).toBeNull();
    expect(shownRating(0, 0)).toBeNull();
    expect(shownRating(4.5, null)).toBeNull();
    expect(shownRating(4.5, "")).toBeNull();
    expect(shownRating(null, 5)).toBeNull();
  });
});

describe("formatRating and ratingStars", () => {
  it("shows one decimal, from numbers or strings", () => {
    expect(formatRating(4.5)).toBe("4.5");
    expect(formatRating("4")).toBe("4.0");
    expect(formatRating(4.25)).toBe("4.3");
    expect(formatRating(null)).toBe("0.0");
    expect(formatRating("bad")).toBe("0.0");
  });
  it("fills stars by the floor of the rating, within 0 to 5", () => {
    expect(ratingStars(4.9)).toBe(4);
    expect(ratingStars("3.5")).toBe(3);
    expect(ratingStars(5)).toBe(5);
    expect(ratingStars(7)).toBe(5);
    expect(ratingStars(-1)).toBe(0);
    expect(ratingStars(undefined)).toBe(0);
  });
});

describe("relativeTime", () => {
  const now = new Date("2026-03-10T12:00:00Z");
  const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3_600_000);

  it("says Never without a valid date", () => {
    expect(relativeTime(null, now)).toBe("Never");
    expect(relativeTime(undefined, now)).toBe("Never");
    expect(relativeTime("", now)).toBe("Never");
    expect(relativeTime("not a date", now)).toBe("Never");
  });
  it("says Just now under an hour, including a clock slightly ahead", () => {
    expect(relativeTime(now, now)).toBe("Just now");
    expect(relativeTime(hoursAgo(0.99), now)).toBe("Just now");
    expect(relativeTime(hoursAgo(-0.1), now)).toBe("Just now");
  });
  it("counts whole hours under a day and whole days under a week", () => {
    expect(relativeTime(hoursAgo(1), now)).toBe("1h ago");
    expect(relativeTime(hoursAgo(23.9), now)).toBe("23h ago");
    expect(relativeTime(hoursAgo(24), now)).toBe("1d ago");
    expect(relativeTime(hoursAgo(167.9).toISOString(), now)).toBe("6d ago");
  });
  it("shows the UK date as dd/mm/yy from a week on", () => {
    expect(relativeTime(hoursAgo(168), now)).toBe("03/03/26");
    expect(relativeTime("2025-12-31T23:30:00Z", now)).toBe("31/12/25");
    expect(relativeTime("2025-06-30T23:30:00Z", now)).toBe("01/07/25"); // British Summer Time
  });
});

describe("lastEditedText", () => {
  const now = new Date("2026-03-10T12:00:00Z");
  const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3_600_000).toISOString();

  it("shows the last edit when there was one, whenever the product was created", () => {
    expect(lastEditedText({ lastEditedAt: hoursAgo(3), createdAt: hoursAgo(500) }, now)).toBe("3h ago");
    expect(lastEditedText({ lastEditedAt: hoursAgo(0.5), createdAt: hoursAgo(0.9) }, now)).toBe("Just now");
  });
  it("shows when a product never edited was created, not Never", () => {
    expect(lastEditedText({ lastEditedAt: null, createdAt: hoursAgo(0.99) }, now)).toBe("Created just now");
    expect(lastEditedText({ lastEditedAt: null, createdAt: hoursAgo(1) }, now)).toBe("Created 1h ago");
    expect(lastEditedText({ lastEditedAt: null, createdAt: hoursAgo(48) }, now)).toBe("Created 2d ago");
    expect(lastEditedText({ lastEditedAt: null, createdAt: hoursAgo(168) }, now)).toBe("Created 03/03/26");
  });
  it("says Never only without either date", () => {
    expect(lastEditedText({ lastEditedAt: null, createdAt: null }, now)).toBe("Never");
    expect(lastEditedText({ lastEditedAt: "", createdAt: "not a date" }, now)).toBe("Never");
  });
});

describe("truncate", () => {
  it("keeps text within the limit as it is", () => {
    expect(truncate("Short name", 40)).toBe("Short name");
    expect(truncate("x".repeat(40), 40)).toBe("x".repeat(40));
  });
  it("cuts longer text and appends ...", () => {
    expect(truncate("x".repeat(41), 40)).toBe(`${"x".repeat(40)}...`);
    expect(truncate("https://www.petsathome.com/product/long", 30)).toBe("https://www.petsathome.com/pro...");
  });
  it("does not leave a space before the dots or split a character", () => {
    expect(truncate("Royal Canin Maxi", 12)).toBe("Royal Canin...");
    expect(truncate("🐶🐱🐰", 2)).toBe("🐶🐱...");
  });
});
