import { describe, expect, it } from "vitest";
import { alertConditionText, alertStatusOf, dropThresholdPence, metAtOnce, suggestedTargetPence, type AlertCondition } from "./alerts.ts";

/** A target alert's status (alertStatusOf), as the deleted target-only alertStatus took it. */
const alertStatus = (bestPricePence: number | null, targetPricePence: number) =>
  alertStatusOf({ kind: "target", targetPricePence, dropPercent: null, referencePricePence: null }, bestPricePence, null);

describe("a target alert's status", () => {
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

describe("an alert met the moment it is set", () => {
  const at = (currentPence: number | null, lowestBeforeTodayPence: number | null = null) => ({ currentPence, lowestBeforeTodayPence });

  it("a target: met at or above today's price, not a penny below it, never while out of stock", () => {
    expect(metAtOnce({ kind: "target", targetPence: 1300 }, at(1299))).toBe(true);
    expect(metAtOnce({ kind: "target", targetPence: 1299 }, at(1299))).toBe(true);
    expect(metAtOnce({ kind: "target", targetPence: 1298 }, at(1299))).toBe(false);
    expect(metAtOnce({ kind: "target", targetPence: 1299 }, at(null))).toBe(false);
  });

  it("lowest in 90 days: met below every day of the 89 before, not when equal to their lowest or above it", () => {
    expect(metAtOnce({ kind: "lowest-90" }, at(1999, 2000))).toBe(true);
    expect(metAtOnce({ kind: "lowest-90" }, at(2000, 2000))).toBe(false);
    expect(metAtOnce({ kind: "lowest-90" }, at(2001, 2000))).toBe(false);
    // No price before today, or none today: nothing to be the lowest of, or nothing to buy.
    expect(metAtOnce({ kind: "lowest-90" }, at(1999, null))).toBe(false);
    expect(metAtOnce({ kind: "lowest-90" }, at(null, 2000))).toBe(false);
  });

  it("a drop (from today's price) and back in stock (from today's stock) are never met at the start", () => {
    for (const percent of [1, 50, 99]) expect(metAtOnce({ kind: "drop", percent }, at(2000, 2500))).toBe(false);
    expect(metAtOnce({ kind: "back-in-stock" }, at(2000))).toBe(false);
    expect(metAtOnce({ kind: "back-in-stock" }, at(null))).toBe(false);
  });
});

describe("the suggested target", () => {
  it("is 5% below today's price rounded down to a whole 10p", () => {
    expect(suggestedTargetPence(1299)).toBe(1230);
    expect(suggestedTargetPence(2000)).toBe(1900);
    // 5% below £10.53 is £10.0035: down to £10.00.
    expect(suggestedTargetPence(1053)).toBe(1000);
    expect(suggestedTargetPence(1052)).toBe(990);
  });

  it("at very low prices: £1.00 gives 90p, 50p gives 40p, 11p gives 10p, and below that 1p", () => {
    expect(suggestedTargetPence(100)).toBe(90);
    expect(suggestedTargetPence(50)).toBe(40);
    expect(suggestedTargetPence(11)).toBe(10);
    expect(suggestedTargetPence(10)).toBe(1);
    expect(suggestedTargetPence(2)).toBe(1);
  });

  it("is left empty at 1p (even 1p would be met at once) and when nothing is in stock", () => {
    expect(suggestedTargetPence(1)).toBeNull();
    expect(suggestedTargetPence(null)).toBeNull();
  });

  it("is never a target the refusal rule refuses, and never below 1p: every price from 1p to £2,000.00", () => {
    for (let pence = 1; pence <= 200_000; pence++) {
      const target = suggestedTargetPence(pence);
      if (target === null) {
        expect(pence, "left empty only at 1p").toBe(1);
        continue;
      }
      if (target < 1 || target >= pence || metAtOnce({ kind: "target", targetPence: target }, { currentPence: pence, lowestBeforeTodayPence: null })) {
        expect.fail(`price ${pence}p: suggested ${target}p`);
      }
    }
  });
});
