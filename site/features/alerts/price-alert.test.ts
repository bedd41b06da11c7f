import { describe, expect, it } from "vitest";
import { createdMessage, isEmail, parseTarget, pendingMessage, validateAlert } from "./price-alert.ts";

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
