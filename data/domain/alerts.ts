import { alertFires, windowDays, type AlertRule } from "./deal-truth.ts";
import { formatPence, type Pence } from "./money.ts";

/** What a price alert waits for: a target price, any drop of N %, back in stock, the lowest price in 90 days. */
export const alertKinds = ["target", "drop", "back-in-stock", "lowest-90"] as const;
export type AlertKind = (typeof alertKinds)[number];

/** A drop alert's percent: a whole number from 1 to 99. */
export const minDropPercent = 1;
export const maxDropPercent = 99;

export type AlertStatus =
  | "Waiting for drop"
  | "Price reached!"
  | "Waiting for stock"
  | "In stock"
  | "Waiting for a new low"
  | "Lowest in 90 days!";

/**
 * An alert's status as My Alerts shows it (SPEC.md section 4): reached when the best price is
 * at or below the target; waiting while it is above (or the product is out of stock everywhere).
 * @example alertStatus(999, 1000) // "Price reached!"
 * @example alertStatus(null, 1000) // "Waiting for drop"
 */
export function alertStatus(bestPricePence: Pence | null, targetPricePence: Pence): AlertStatus {
  return bestPricePence !== null && bestPricePence <= targetPricePence ? "Price reached!" : "Waiting for drop";
}

/** An alert's condition as stored: the figure its kind needs (target or percent) and the best price when it was set. */
export interface AlertCondition {
  kind: AlertKind;
  /** Only for target. */
  targetPricePence: Pence | null;
  /** Only for drop. */
  dropPercent: number | null;
  /** The best price (to the door) when the alert was set; null when nothing was in stock. */
  referencePricePence: Pence | null;
}

/** The rule deal-truth.ts's alertFires checks; null when the stored figures do not make one (a target alert without a target). */
export function alertRuleOf(condition: AlertCondition): AlertRule | null {
  switch (condition.kind) {
    case "target":
      return condition.targetPricePence === null ? null : { kind: "target", targetPence: condition.targetPricePence };
    case "drop":
      return condition.dropPercent === null ? null : { kind: "drop", percent: condition.dropPercent };
    case "back-in-stock":
      return { kind: "back-in-stock" };
    case "lowest-90":
      return { kind: "lowest-90" };
  }
}

/**
 * The best price a drop alert fires at (or below): the reference less the percent, rounded down
 * to the penny, since alertFires fires at or below reference × (1 − percent ÷ 100).
 * @example dropThresholdPence(2000, 10) // 1800
 * @example dropThresholdPence(2999, 10) // 2699
 */
export function dropThresholdPence(referencePence: Pence, percent: number): Pence {
  return Math.floor((referencePence * (100 - percent)) / 100);
}

/** What a new alert is judged against when it is set: today's best price and the 89 days before. */
export interface AlertStartFacts {
  /** Today's best price (total to the door); null when nothing is in stock. */
  currentPence: Pence | null;
  /** The least daily lowest of the 89 days before today; null when nothing was in stock then. */
  lowestBeforeTodayPence: Pence | null;
}

/**
 * Whether an alert would be met the moment it is set, so it would only mail at once: the rule
 * alertFires checks holds already. A target at or above today's price is met; a lowest-90 alert
 * is met while today's price is below every day of the 89 before (equal to the lowest is not: it
 * waits for a new low). A drop is measured from today's price and back in stock from today's
 * stock, so neither is ever met at the start. Such an alert is refused, by the form and the API.
 * @example metAtOnce({ kind: "target", targetPence: 1299 }, { currentPence: 1299, lowestBeforeTodayPence: null }) // true
 * @example metAtOnce({ kind: "lowest-90" }, { currentPence: 1999, lowestBeforeTodayPence: 2000 }) // true
 * @example metAtOnce({ kind: "lowest-90" }, { currentPence: 2000, lowestBeforeTodayPence: 2000 }) // false
 */
export function metAtOnce(rule: AlertRule, facts: AlertStartFacts): boolean {
  return alertFires(rule, {
    currentPence: facts.currentPence,
    referencePence: facts.currentPence,
    wasInStock: facts.currentPence !== null,
    lowest90ExcludingTodayPence: facts.lowestBeforeTodayPence,
  });
}

/** The form's suggested target is this many percent below today's price... */
export const suggestedTargetPercentOff = 5;
/** ...rounded down to a whole multiple of this many pence. */
export const suggestedTargetStepPence = 10;

/**
 * The target the alert form fills in: 5% below today's best price, rounded down to a whole 10p,
 * never below 1p. Null (the field is left empty) when nothing is in stock, or when even 1p would
 * be met at once (a price of 1p): the suggestion is never a target metAtOnce refuses.
 * @example suggestedTargetPence(1299) // 1230
 * @example suggestedTargetPence(100) // 90
 * @example suggestedTargetPence(50) // 40
 * @example suggestedTargetPence(10) // 1
 * @example suggestedTargetPence(1) // null
 */
export function suggestedTargetPence(currentPence: Pence | null): Pence | null {
  if (currentPence === null) return null;
  const lowered = Math.floor((currentPence * (100 - suggestedTargetPercentOff)) / (100 * suggestedTargetStepPence)) * suggestedTargetStepPence;
  const target = Math.max(1, lowered);
  return metAtOnce({ kind: "target", targetPence: target }, { currentPence, lowestBeforeTodayPence: null }) ? null : target;
}

/**
 * What an alert waits for, in words (My Alerts, the confirmation mail and page).
 * @example alertConditionText({ kind: "target", targetPricePence: 1200, dropPercent: null, referencePricePence: 1500 }) // "£12.00 or less"
 * @example alertConditionText({ kind: "drop", targetPricePence: null, dropPercent: 10, referencePricePence: 2000 }) // "a drop of 10% from £20.00, to £18.00 or less"
 * @example alertConditionText({ kind: "back-in-stock", targetPricePence: null, dropPercent: null, referencePricePence: null }) // "back in stock"
 * @example alertConditionText({ kind: "lowest-90", targetPricePence: null, dropPercent: null, referencePricePence: 1500 }) // "the lowest price in 90 days"
 */
export function alertConditionText(condition: AlertCondition): string {
  switch (condition.kind) {
    case "target":
      return `${formatPence(condition.targetPricePence ?? 0)} or less`;
    case "drop": {
      const percent = condition.dropPercent ?? 0;
      const reference = condition.referencePricePence;
      return reference === null
        ? `a drop of ${percent}%`
        : `a drop of ${percent}% from ${formatPence(reference)}, to ${formatPence(dropThresholdPence(reference, percent))} or less`;
    }
    case "back-in-stock":
      return "back in stock";
    case "lowest-90":
      return `the lowest price in ${windowDays} days`;
  }
}

/**
 * Where an alert stands now, in words. A target or drop alert: "Price reached!" when its rule
 * holds, else "Waiting for drop"; back in stock: "In stock" or "Waiting for stock"; lowest in 90
 * days: "Lowest in 90 days!" while today's price is below every day of the 90 before, else
 * "Waiting for a new low".
 * @example alertStatusOf({ kind: "drop", targetPricePence: null, dropPercent: 10, referencePricePence: 2000 }, 1800, null) // "Price reached!"
 */
export function alertStatusOf(condition: AlertCondition, bestPricePence: Pence | null, lowest90ExcludingTodayPence: Pence | null): AlertStatus {
  if (condition.kind === "back-in-stock") return bestPricePence === null ? "Waiting for stock" : "In stock";
  const rule = alertRuleOf(condition);
  const fires =
    rule !== null &&
    alertFires(rule, { currentPence: bestPricePence, referencePence: condition.referencePricePence, wasInStock: true, lowest90ExcludingTodayPence });
  if (condition.kind === "lowest-90") return fires ? "Lowest in 90 days!" : "Waiting for a new low";
  return fires ? "Price reached!" : "Waiting for drop";
}
