/**
 * The price-drop alert form's rules, without the page: what counts as an e-mail address and a
 * target price, the validation messages, the texts shown once an alert is created, and when a
 * target is met already.
 */
import {
  alertCreatedText,
  alertFigures,
  alertKindOf,
  maxDropPercent,
  metAtOnce,
  metInFormText,
  minDropPercent,
  offeredAlertKinds,
  ruleOfRequest,
  suggestedTargetPence,
  type AlertFigure,
  type AlertKind,
  type AlertRequest,
} from "../../../data/domain/alerts.ts";
import { fromPounds, type Pence } from "../../../data/domain/money.ts";

export type { AlertRequest } from "../../../data/domain/alerts.ts";

/** What the API answers for a created alert: whether it waits for the address to be confirmed. */
export interface CreatedAlert {
  state: "pending_confirmation" | "active";
  confirmationSent: boolean;
}

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Parses the target field: a number above 0 with at most two decimals (an optional leading £),
 * else null.
 * @example parseTarget("£12.5") // 12.5
 * @example parseTarget("0") // null
 */
export function parseTarget(text: string): number | null {
  const trimmed = text.trim().replace(/^£/, "");
  if (!/^\d{1,6}(\.\d{1,2})?$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return value > 0 ? value : null;
}

export function isEmail(text: string): boolean {
  return emailPattern.test(text.trim());
}

export interface AlertFormErrors {
  email?: string;
  target?: string;
}

/** Checks both fields at once: the messages to show, and the parsed target when all is well. */
export function validateAlert(email: string, target: string): { errors: AlertFormErrors; targetPrice: number | null } {
  const targetPrice = parseTarget(target);
  const errors: AlertFormErrors = {};
  if (!isEmail(email)) errors.email = "Please enter a valid email address";
  if (targetPrice === null) errors.target = "Please enter a valid price";
  return { errors, targetPrice: errors.email || errors.target ? null : targetPrice };
}

/** Pounds (a form's or the page's figure) to whole pence, free of float noise. */
const pence = fromPounds;

/**
 * Whether an alert for this target would be met at once (metAtOnce): the current best price
 * (pounds, null when out of stock everywhere) is at or below it.
 * @example alreadyReached(15, 12.99) // true
 * @example alreadyReached(12.99, 12.99) // true
 * @example alreadyReached(12.98, 12.99) // false
 */
export function alreadyReached(targetPrice: number, currentPrice: number | null): boolean {
  return metAtOnce({ kind: "target", targetPence: pence(targetPrice) }, { currentPence: currentPrice === null ? null : pence(currentPrice), lowestBeforeTodayPence: null });
}

/**
 * Whether a lowest-in-90-days alert would be met at once (metAtOnce): the current best price
 * (pounds) is below every day of the 89 before today (their lowest in pence, null when none).
 * @example alreadyLowest(19.99, 2000) // true
 * @example alreadyLowest(20, 2000) // false
 */
export function alreadyLowest(currentPrice: number | null, lowestBeforeTodayPence: Pence | null): boolean {
  return metAtOnce({ kind: "lowest-90" }, { currentPence: currentPrice === null ? null : pence(currentPrice), lowestBeforeTodayPence });
}

/**
 * The target field's starting text: the suggested target (suggestedTargetPence) in pounds to
 * two decimals, or empty when there is none, so the form never starts with a target it refuses.
 * @example defaultTargetText(12.99) // "12.30"
 * @example defaultTargetText(0.01) // ""
 * @example defaultTargetText(null) // ""
 */
export function defaultTargetText(currentPrice: number | null): string {
  const target = suggestedTargetPence(currentPrice === null ? null : pence(currentPrice));
  return target === null ? "" : (target / 100).toFixed(2);
}

/**
 * What the form says instead of creating a lowest-in-90-days alert that would be met at once
 * (the kind's words, whatever the 89 days before were).
 * @example lowestMessage(19.99) // "The price is already £19.99 — the lowest in 90 days."
 */
export function lowestMessage(currentPrice: number): string {
  return alertKindOf("lowest-90").metInForm!({}, pence(currentPrice));
}

/**
 * What the form says instead of creating an alert that would be met at once.
 * @example reachedMessage(15, 12.99) // "The price is already £12.99 — below your target."
 * @example reachedMessage(12.99, 12.99) // "The price is already £12.99 — your target price."
 */
export function reachedMessage(targetPrice: number, currentPrice: number): string {
  return alertKindOf("target").metInForm!({ targetPence: pence(targetPrice) }, pence(currentPrice));
}

/** The text under "Check your inbox" once an alert waits for its address to be confirmed. */
export function pendingMessage(email: string, confirmationSent: boolean): string {
  const address = email.trim();
  const sent = confirmationSent
    ? `We've sent a link to ${address} to confirm your price alert.`
    : `We've already sent a confirmation link to ${address}: please use the link in that e-mail.`;
  return `${sent} We won't e-mail you about prices until you confirm.`;
}

/** The text under "Price Alert Created!" for a target alert that is on at once. */
export function createdMessage(email: string, targetPrice: number): string {
  return createdMessageOf(email, { kind: "target", targetPrice }, null);
}

/**
 * The kinds the form offers (each kind's `offered`): a target price always and the lowest price
 * in 90 days; a drop of N % only while something is in stock (a drop is measured from today's
 * price); back in stock only while nothing is (in stock, it would have nothing to say until the
 * product sells out).
 * @example offeredKinds(12.99) // ["target", "drop", "lowest-90"]
 * @example offeredKinds(null) // ["target", "back-in-stock", "lowest-90"]
 */
export function offeredKinds(currentPrice: number | null): AlertKind[] {
  return offeredAlertKinds(currentPrice !== null);
}

/**
 * Parses the drop field: a whole percent from 1 to 99 (an optional trailing %), else null.
 * @example parseDropPercent("10") // 10
 * @example parseDropPercent("12.5") // null
 */
export function parseDropPercent(text: string): number | null {
  const trimmed = text.trim().replace(/\s*%$/, "");
  if (!/^\d{1,2}$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return value >= minDropPercent && value <= maxDropPercent ? value : null;
}

export const dropPercentError = `Please enter a whole percent from ${minDropPercent} to ${maxDropPercent}`;

export interface AlertFormInput {
  kind: AlertKind;
  email: string;
  target: string;
  percent: string;
}

/** Each figure's field in the form, how its text is read, and what the form says when it cannot be. */
const figureFields: Record<AlertFigure, { field: "target" | "percent"; parse: (text: string) => number | null; error: string }> = {
  targetPence: { field: "target", parse: parseTarget, error: "Please enter a valid price" },
  percent: { field: "percent", parse: parseDropPercent, error: dropPercentError },
};

/** The request the chosen kind's fields make, or null when its figure's field cannot be read. */
function requestOf(input: Omit<AlertFormInput, "email">): AlertRequest | null {
  const figure = alertKindOf(input.kind).figure;
  if (figure === null) return { kind: input.kind } as AlertRequest;
  const { field, parse } = figureFields[figure];
  const value = parse(input[field]);
  return value === null ? null : ({ kind: input.kind, [alertFigures[figure].requestField]: value } as AlertRequest);
}

/** Checks the fields the chosen kind uses: the messages to show, and what to send when all is well. */
export function validateAlertOf(input: AlertFormInput): { errors: AlertFormErrors & { percent?: string }; request: AlertRequest | null } {
  const errors: AlertFormErrors & { percent?: string } = {};
  if (!isEmail(input.email)) errors.email = "Please enter a valid email address";
  const request = requestOf(input);
  const figure = alertKindOf(input.kind).figure;
  if (figure !== null && request === null) errors[figureFields[figure].field] = figureFields[figure].error;
  return { errors, request: errors.email || request === null ? null : request };
}

/**
 * The text under "Price Alert Created!" for an alert of any kind that is on at once (the kind's
 * words).
 * @example createdMessageOf("a@b.co", { kind: "drop", dropPercent: 10 }, 20) // "We'll e-mail a@b.co when the price drops by 10% or more, to £18.00 or less."
 */
export function createdMessageOf(email: string, request: AlertRequest, currentPrice: number | null): string {
  return alertCreatedText(email, ruleOfRequest(request), currentPrice === null ? null : pence(currentPrice));
}

/**
 * What the form says instead of sending an alert the current price (pounds, null when out of
 * stock everywhere) meets already, for the kinds the form refuses then (a target at or above it;
 * the lowest in 90 days while today's price is below every day before); null otherwise, also
 * while the kind's figure cannot be read yet.
 * @example metMessageOf({ kind: "target", target: "15", percent: "" }, 12.99, null) // "The price is already £12.99 — below your target."
 */
export function metMessageOf(input: Omit<AlertFormInput, "email">, currentPrice: number | null, lowestBeforeTodayPence: Pence | null): string | null {
  const request = requestOf(input);
  if (request === null || currentPrice === null) return null;
  return metInFormText(ruleOfRequest(request), { currentPence: pence(currentPrice), lowestBeforeTodayPence });
}
