import { describe, expect, it } from "vitest";
import { alertConditionText, alertStatus, alertStatusOf, dropThresholdPence, type AlertCondition } from "./alerts.ts";

describe("alertStatus", () => {
  it("is reached at or below the target, waiting above it or with no price", () => {
    expect(alertStatus(1000, 1000)).toBe("Price reached!");
    expect(alertStatus(999, 1000)).toBe("Price reached!");
    expect(alertStatus(1001, 1000)).toBe("Waiting for drop");
    expect(alertStatus(null, 1000)).toBe("Waiting for drop");
  });
});

describe("alert kinds in words", () => {
  const condition = (over: Partial<AlertCondition>): AlertCondition => ({ kind: "target", targetPricePence: null, dropPercent: null, referencePricePence: null, ...over });

  it("says what each kind waits for", () => {
    expect(alertConditionText(condition({ targetPricePence: 1200 }))).toBe("£12.00 or less");
    expect(alertConditionText(condition({ kind: "drop", dropPercent: 10, referencePricePence: 2999 }))).toBe("a drop of 10% from £29.99, to £26.99 or less");
    expect(alertConditionText(condition({ kind: "drop", dropPercent: 10 }))).toBe("a drop of 10%");
    expect(alertConditionText(condition({ kind: "back-in-stock" }))).toBe("back in stock");
    expect(alertConditionText(condition({ kind: "lowest-90", referencePricePence: 1000 }))).toBe("the lowest price in 90 days");
  });

  it("puts the drop threshold where the alert fires: exactly N % off fires, a penny above does not", () => {
    expect(dropThresholdPence(2000, 10)).toBe(1800);
    const drop = condition({ kind: "drop", dropPercent: 10, referencePricePence: 2000 });
    expect(alertStatusOf(drop, 1800, null)).toBe("Price reached!");
    expect(alertStatusOf(drop, 1801, null)).toBe("Waiting for drop");
    expect(alertStatusOf(drop, null, null)).toBe("Waiting for drop");
  });

  it("gives each kind's status", () => {
    expect(alertStatusOf(condition({ targetPricePence: 1000 }), 1000, null)).toBe("Price reached!");
    expect(alertStatusOf(condition({ targetPricePence: 1000 }), 1001, null)).toBe("Waiting for drop");
    expect(alertStatusOf(condition({ kind: "back-in-stock" }), null, null)).toBe("Waiting for stock");
    expect(alertStatusOf(condition({ kind: "back-in-stock" }), 500, null)).toBe("In stock");
    expect(alertStatusOf(condition({ kind: "lowest-90" }), 999, 1000)).toBe("Lowest in 90 days!");
    expect(alertStatusOf(condition({ kind: "lowest-90" }), 1000, 1000)).toBe("Waiting for a new low");
    expect(alertStatusOf(condition({ kind: "lowest-90" }), 999, null)).toBe("Waiting for a new low");
  });
});
