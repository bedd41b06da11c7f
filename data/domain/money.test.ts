import { describe, expect, it } from "vitest";
import { formatPence, fromPounds, toPence, toPounds } from "./money.ts";

describe("toPence", () => {
  it("parses pounds text exactly", () => {
    expect(toPence("12.99")).toBe(1299);
    expect(toPence("12.9")).toBe(1290);
    expect(toPence("12")).toBe(1200);
    expect(toPence("£0.01")).toBe(1);
    expect(toPence(" 3.50 ")).toBe(350);
  });
  it("converts numbers without float error", () => {
    expect(toPence(0.1 + 0.2)).toBe(30);
    expect(toPence(19.99)).toBe(1999);
    expect(toPence(1.005 * 100 / 100)).toBe(null); // 1.005 has three decimals
  });
  it("takes zero, and large amounts exactly, refusing a third decimal however large the amount", () => {
    expect(toPence(0)).toBe(0);
    expect(toPence("0")).toBe(0);
    expect(toPence(1234567.89)).toBe(123456789);
    expect(toPence(9999999.99)).toBe(999999999);
    expect(toPence(99999.991)).toBeNull();
    expect(toPence(1000000.001)).toBeNull();
    expect(toPence(0.001)).toBeNull();
    // A millionth of a penny off a whole penny, exactly (1e-8 * 100 === 1e-6): still not pence.
    expect(toPence(1e-8)).toBeNull();
  });
  it("reads only numbers and text, not values that merely turn into text", () => {
    expect(toPence(["12"])).toBeNull();
    expect(toPence({ toString: () => "5" })).toBeNull();
    expect(toPence(true)).toBeNull();
  });
  it("rejects what is not an amount", () => {
    for (const bad of ["abc", "", "-1", "1.234", "1e3", "1,50", null, undefined, NaN, Infinity, -0.5, {}]) {
      expect(toPence(bad)).toBeNull();
    }
  });
});

describe("toPounds and formatPence", () => {
  it("round-trips pence to two-decimal numbers", () => {
    expect(toPounds(1299)).toBe(12.99);
    expect(toPounds(30)).toBe(0.3);
    expect(toPounds(null)).toBeNull();
    expect(toPounds(undefined)).toBeNull();
  });
  it("formats as pounds sterling with two decimals", () => {
    expect(formatPence(1299)).toBe("£12.99");
    expect(formatPence(5)).toBe("£0.05");
    expect(formatPence(123456)).toBe("£1,234.56");
    expect(formatPence(toPence(0.1 + 0.2)!)).toBe("£0.30");
  });
  it("writes exactly what Intl's en-GB pounds format writes, around every digit-group boundary and for negatives", () => {
    const intl = new Intl.NumberFormat("en-GB", { style: "currency", currency: "GBP", minimumFractionDigits: 2, maximumFractionDigits: 2 });
    const values = [0, 1, 9, 10, 99, 100, 101, 999, 1000];
    for (let power = 3; power <= 12; power++) for (const delta of [-1, 0, 1]) values.push(10 ** power * 100 + delta, 10 ** power * 100 - 100 + delta);
    for (const pence of [...values, ...values.filter((value) => value > 0).map((value) => -value), 1299.4, 1299.5, -1299.5]) {
      expect(formatPence(pence), String(pence)).toBe(intl.format(pence / 100));
    }
    // Where Intl writes "-£0.00", nothing is owed either way.
    expect([formatPence(-0), formatPence(-0.4)]).toEqual(["£0.00", "£0.00"]);
  });
});

describe("fromPounds", () => {
  it("turns the application's own pounds back into pence, float noise removed", () => {
    expect(fromPounds(12.99)).toBe(1299);
    expect(fromPounds(0.1 + 11.9)).toBe(1200);
    expect(fromPounds(0)).toBe(0);
    expect(fromPounds(null)).toBeNull();
    expect(fromPounds(undefined)).toBeNull();
  });
});
