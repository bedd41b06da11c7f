/**
 * Signed tokens for links the server must trust when they come back (one-click unsubscribe).
 * A token is `<purpose>.<id>.<signature>`: the signature is HMAC-SHA256 over purpose and id with
 * the app secret, base64url, so nobody can switch off someone else's alert by changing the id,
 * and a newsletter token cannot stand in for an alert token. Tokens do not expire: an
 * unsubscribe link must keep working in a mail read months later.
 */
import crypto from "node:crypto";
import { appSecret } from "../../data/config.ts";

export type TokenPurpose = "alert-unsubscribe" | "newsletter-unsubscribe";

/** Longest token verifyToken looks at (purpose, a 16-digit id and a 43-character signature fit well inside). */
export const maxTokenLength = 120;

const tokenPattern = /^(alert-unsubscribe|newsletter-unsubscribe)\.([1-9][0-9]{0,15})\.([A-Za-z0-9_-]{43})$/;

function signature(purpose: TokenPurpose, id: number, secret: string): string {
  return crypto.createHmac("sha256", secret).update(`${purpose}.${id}`).digest("base64url");
}

/**
 * @example signToken("alert-unsubscribe", 42) // "alert-unsubscribe.42.3q2-…" (43-character signature)
 */
export function signToken(purpose: TokenPurpose, id: number, secret: string = appSecret()): string {
  if (!Number.isSafeInteger(id) || id < 1) throw new Error(`token id must be a positive integer, got ${id}`);
  return `${purpose}.${id}.${signature(purpose, id, secret)}`;
}

/**
 * The id a token was signed for, or null when it is malformed, was signed for another purpose or
 * has been changed. The signature is compared as canonical text in constant time, so a
 * re-encoding of the same bytes does not pass and timing reveals nothing about it.
 */
export function verifyToken(purpose: TokenPurpose, token: string, secret: string = appSecret()): number | null {
  if (token.length > maxTokenLength) return null;
  const match = tokenPattern.exec(token);
  if (!match || match[1] !== purpose) return null;
  const id = Number(match[2]);
  if (!Number.isSafeInteger(id)) return null;
  const expected = Buffer.from(signature(purpose, id, secret));
  const given = Buffer.from(match[3]!);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected) ? id : null;
}
