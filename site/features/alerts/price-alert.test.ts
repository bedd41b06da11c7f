import { describe, expect, it } from "vitest";
import {
  alreadyLowest,
  alreadyReached,
  createdMessage,
  createdMessageOf,
  defaultTargetText,
  dropPercentError,
  isEmail,
  lowestMessage,
  offeredKinds,
  parseDropPercent,
  parseTarget,
  pendingMessage,
  reachedMessage,
  validateAlert,
  validateAlertOf,
} from "./price-alert.ts";

describe("parseTarget", () => {
  it("reads pounds with up to two decimals and an optional £", () => {
    expect(parseTarget("12")).toBe(12);
    expect(parseTarget(" £12.5 ")).toBe(12.5);
    expect(parseTarget("0.01")).toBe(0.01);
    expect(parseTarget("999999.99")).toBe(999999.99);
  });

  it("refuses zero, negatives, three decimals, words and empty text", () => {
    for (const text of ["0", "0.00", "-1", "1.234", "abc", "", "£", "1e3", "1,000", "1000000"]) expect(parseTarget(text), text).toBeNull();
  });
});

describe("validateAlert", () => {
  it("names each field that is wrong", () => {
    expect(validateAlert("not-an-email", "abc")).toEqual({
      errors: { email: "Please enter a valid email address", target: "Please enter a valid price" },
      targetPrice: null,
    });
    expect(validateAlert("a@b.co", "0").errors).toEqual({ target: "Please enter a valid price" });
    expect(validateAlert("a@b", "5").errors).toEqual({ email: "Please enter a valid email address" });
  });

  it("gives the target price when both fields are right", () => {
    expect(validateAlert(" shopper@example.co.uk ", "£4.99")).toEqual({ errors: {}, targetPrice: 4.99 });
    expect(isEmail("with space@example.com")).toBe(false);
  });
});

describe("messages", () => {
  it("says whether a confirmation link went out now or earlier", () => {
    expect(pendingMessage(" a@b.co ", true)).toBe("We've sent a link to a@b.co to confirm your price alert. We won't e-mail you about prices until you confirm.");
    expect(pendingMessage("a@b.co", false)).toBe(
      "We've already sent a confirmation link to a@b.co: please use the link in that e-mail. We won't e-mail you about prices until you confirm.",
    );
  });

  it("shows the target to two decimals", () => {
    expect(createdMessage("a@b.co", 4.5)).toBe("We'll e-mail a@b.co when the price drops to £4.50 or less.");
  });
});

describe("a target the price has reached already", () => {
  it("counts a target at or above the current price, in whole pence", () => {
    expect(alreadyReached(15, 12.99)).toBe(true);
    expect(alreadyReached(12.99, 12.99)).toBe(true);
    expect(alreadyReached(0.1 + 0.2, 0.3)).toBe(true);
    expect(alreadyReached(12.98, 12.99)).toBe(false);
    // Out of stock everywhere: there is no price to have reached.
    expect(alreadyReached(1000, null)).toBe(false);
  });

  it("says the price and how it stands against the target", () => {
    expect(reachedMessage(15, 12.99)).toBe("The price is already £12.99 — below your target.");
    expect(reachedMessage(12.99, 12.99)).toBe("The price is already £12.99 — your target price.");
    expect(reachedMessage(2000, 1234.5)).toBe("The price is already £1,234.50 — below your target.");
  });
});

describe("alert kinds in the form", () => {
  it("offers a drop only with a price in stock, and back in stock only without one", () => {
    expect(offeredKinds(12.99)).toEqual(["target", "drop", "lowest-90"]);
    expect(offeredKinds(null)).toEqual(["target", "back-in-stock", "lowest-90"]);
  });

  it("reads a whole percent from 1 to 99", () => {
    expect(parseDropPercent("1")).toBe(1);
    expect(parseDropPercent(" 99 % ")).toBe(99);
    for (const text of ["0", "100", "12.5", "-5", "abc", "", "%"]) expect(parseDropPercent(text), text).toBeNull();
  });

  it("checks only the fields the kind uses and builds its request", () => {
    const base = { email: "a@b.co", target: "abc", percent: "x" };
    expect(validateAlertOf({ ...base, kind: "drop", percent: "15" })).toEqual({ errors: {}, request: { kind: "drop", dropPercent: 15 } });
    expect(validateAlertOf({ ...base, kind: "drop" })).toEqual({ errors: { percent: dropPercentError }, request: null });
    expect(validateAlertOf({ ...base, kind: "lowest-90" })).toEqual({ errors: {}, request: { kind: "lowest-90" } });
    expect(validateAlertOf({ ...base, kind: "back-in-stock", email: "nope" }).errors).toEqual({ email: "Please enter a valid email address" });
    expect(validateAlertOf({ ...base, kind: "target", target: "12" })).toEqual({ errors: {}, request: { kind: "target", targetPrice: 12 } });
  });

  it("says what each created alert waits for", () => {
    expect(createdMessageOf(" a@b.co ", { kind: "drop", dropPercent: 10 }, 29.99)).toBe("We'll e-mail a@b.co when the price drops by 10% or more, to £26.99 or less.");
    expect(createdMessageOf("a@b.co", { kind: "back-in-stock" }, null)).toBe("We'll e-mail a@b.co when it's back in stock.");
    expect(createdMessageOf("a@b.co", { kind: "lowest-90" }, 5)).toBe("We'll e-mail a@b.co when the price is the lowest in 90 days.");
    expect(createdMessageOf("a@b.co", { kind: "target", targetPrice: 12 }, 20)).toBe(createdMessage("a@b.co", 12));
  });
});

describe("the target the form starts with", () => {
  it("is 5% below the price, down to a whole 10p, as the field shows it", () => {
    expect(defaultTargetText(12.99)).toBe("12.30");
    expect(defaultTargetText(1)).toBe("0.90");
    expect(defaultTargetText(0.5)).toBe("0.40");
    expect(defaultTargetText(0.1)).toBe("0.01");
    // At 1p every target would be met already; out of stock there is no price to start from.
    expect(defaultTargetText(0.01)).toBe("");
    expect(defaultTargetText(null)).toBe("");
  });

  it("is a target the form accepts and does not call reached, at every price from 1p to £2,000.00 but 1p", () => {
    for (let pence = 2; pence <= 200_000; pence++) {
      const price = pence / 100;
      const text = defaultTargetText(price);
      const { request } = validateAlertOf({ kind: "target", email: "a@b.co", target: text, percent: "" });
      if (request?.kind !== "target" || alreadyReached(request.targetPrice, price)) expect.fail(`price ${price}: starts at "${text}"`);
    }
  });
});

describe("a lowest-in-90-days alert the price meets already", () => {
  it("counts a price below every day before today, not one equal to their lowest", () => {
    expect(alreadyLowest(19.99, 2000)).toBe(true);
    expect(alreadyLowest(20, 2000)).toBe(false);
    expect(alreadyLowest(20.01, 2000)).toBe(false);
    expect(alreadyLowest(19.99, null)).toBe(false);
    expect(alreadyLowest(null, 2000)).toBe(false);
  });

  it("says the price is the lowest in 90 days", () => {
    expect(lowestMessage(19.99)).toBe("The price is already £19.99 — the lowest in 90 days.");
  });
});
