import { describe, expect, it } from "vitest";
import { canonicalMultiBuy, isValidMultiBuy, multiBuyText, parseMultiBuy } from "./multi-buy.ts";

describe("parseMultiBuy", () => {
  it("reads the ways UK shops word a multi-buy", () => {
    expect(parseMultiBuy("3 for 2")).toEqual({ kind: "n-for-m", buy: 3, payFor: 2 });
    expect(parseMultiBuy("3 FOR 2 on selected treats")).toEqual({ kind: "n-for-m", buy: 3, payFor: 2 });
    expect(parseMultiBuy("Buy 3 for the price of 2")).toEqual({ kind: "n-for-m", buy: 3, payFor: 2 });
    expect(parseMultiBuy("Buy 2 get 1 free on all Felix pouches")).toEqual({ kind: "n-for-m", buy: 3, payFor: 2 });
    expect(parseMultiBuy("buy 1, get 1 free")).toEqual({ kind: "n-for-m", buy: 2, payFor: 1 });
    expect(parseMultiBuy("2 for £20")).toEqual({ kind: "n-for-price", count: 2, pricePence: 2000 });
    expect(parseMultiBuy("Any 2 for £15.50")).toEqual({ kind: "n-for-price", count: 2, pricePence: 1550 });
    expect(parseMultiBuy("3 for £ 10")).toEqual({ kind: "n-for-price", count: 3, pricePence: 1000 });
    expect(parseMultiBuy("Any 2 for £20.")).toEqual({ kind: "n-for-price", count: 2, pricePence: 2000 });
  });

  it("reads no multi-buy from other promotional text, pack sizes or nonsense", () => {
    for (const text of ["Free delivery over £39", "Save 20%", "2 for 2", "1 for £5", "3 for 2kg", "12 for 400g", "4 for 3.5", "2 for £0", "", null, undefined]) {
      expect(parseMultiBuy(text), String(text)).toBeNull();
    }
  });
});

describe("isValidMultiBuy", () => {
  it("needs more bought than paid for, at least one paid for, two or more in a priced group and a price above nothing", () => {
    expect(isValidMultiBuy({ kind: "n-for-m", buy: 2, payFor: 1 })).toBe(true);
    expect(isValidMultiBuy({ kind: "n-for-m", buy: 2, payFor: 2 })).toBe(false);
    expect(isValidMultiBuy({ kind: "n-for-m", buy: 2, payFor: 0 })).toBe(false);
    expect(isValidMultiBuy({ kind: "n-for-m", buy: 2.5, payFor: 1 })).toBe(false);
    expect(isValidMultiBuy({ kind: "n-for-m", buy: 3, payFor: 1.5 })).toBe(false);
    expect(isValidMultiBuy({ kind: "n-for-price", count: 2, pricePence: 1 })).toBe(true);
    expect(isValidMultiBuy({ kind: "n-for-price", count: 1, pricePence: 500 })).toBe(false);
    expect(isValidMultiBuy({ kind: "n-for-price", count: 2, pricePence: 0 })).toBe(false);
    expect(isValidMultiBuy({ kind: "n-for-price", count: 2.5, pricePence: 500 })).toBe(false);
    expect(isValidMultiBuy({ kind: "n-for-price", count: 2, pricePence: 99.5 })).toBe(false);
  });
});

describe("multiBuyText and canonicalMultiBuy", () => {
  it("write a multi-buy the one way the site stores and shows it", () => {
    expect(multiBuyText({ kind: "n-for-m", buy: 3, payFor: 2 })).toBe("3 for 2");
    expect(multiBuyText({ kind: "n-for-price", count: 2, pricePence: 2000 })).toBe("2 for £20.00");
    expect(canonicalMultiBuy("Buy 2 get 1 free")).toBe("3 for 2");
    expect(canonicalMultiBuy("any 2 for £15.5")).toBeNull();
    expect(canonicalMultiBuy("any 2 for £15.50")).toBe("2 for £15.50");
    expect(canonicalMultiBuy("Free delivery")).toBeNull();
    // Stored text reads back as itself.
    for (const stored of ["3 for 2", "2 for £20.00"]) expect(canonicalMultiBuy(stored)).toBe(stored);
  });
});
