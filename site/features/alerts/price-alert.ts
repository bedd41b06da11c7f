/**
 * The price-drop alert form's rules, without the page: what counts as an e-mail address and a
 * target price, the validation messages, the texts shown once an alert is created, and when a
 * target is met already.
 */
import { formatPrice } from "../../../data/domain/display.ts";

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

/**
 * Whether an alert for this target would be met at once: the current best price (pounds, null
 * when out of stock everywhere) is at or below it. Compared in pence, free of float noise.
 * @example alreadyReached(15, 12.99) // true
 * @example alreadyReached(12.99, 12.99) // true
 * @example alreadyReached(12.98, 12.99) // false
 */
export function alreadyReached(targetPrice: number, currentPrice: number | null): boolean {
  return currentPrice !== null && Math.round(targetPrice * 100) >= Math.round(currentPrice * 100);
}

/**
 * What the form says instead of creating an alert that would be met at once.
 * @example reachedMessage(15, 12.99) // "The price is already £12.99 — below your target."
 * @example reachedMessage(12.99, 12.99) // "The price is already £12.99 — your target price."
 */
export function reachedMessage(targetPrice: number, currentPrice: number): string {
  const relation = Math.round(targetPrice * 100) === Math.round(currentPrice * 100) ? "your target price" : "below your target";
  return `The price is already ${formatPrice(currentPrice)} — ${relation}.`;
}

/** The text under "Check your inbox" once an alert waits for its address to be confirmed. */
export function pendingMessage(email: string, confirmationSent: boolean): string {
  const address = email.trim();
  const sent = confirmationSent
    ? `We've sent a link to ${address} to confirm your price alert.`
    : `We've already sent a confirmation link to ${address}: please use the link in that e-mail.`;
  return `${sent} We won't e-mail you about prices until you confirm.`;
}

/** The text under "Price Alert Created!" for an alert that is on at once. */
export function createdMessage(email: string, targetPrice: number): string {
  return `We'll e-mail ${email.trim()} when the price drops to £${targetPrice.toFixed(2)} or less.`;
}
