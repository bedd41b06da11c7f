/**
 * The price-drop alert form's rules, without the page: what counts as an e-mail address and a
 * target price, the validation messages, and the texts shown once an alert is created.
 */

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
