/**
 * The anonymous visitor id: one local-storage key, `userId`, holding
 * `user_` plus 24 crypto-random characters, used by every feature. The analytics session id
 * lives for the tab's session only.
 */
import { randomIdAlphabet, randomIdLength, sessionIdPattern, visitorIdPattern } from "../../../data/domain/visitor-id.ts";

/** The storage keys of the visitor id (local storage) and the analytics session id (session storage). */
export const userKey = "userId";
export const sessionKey = "sessionId";
export { visitorIdPattern };

function randomId(length: number): string {
  const alphabet = randomIdAlphabet;
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (byte) => alphabet[byte % alphabet.length]).join("");
}

export function getVisitorId(): string {
  try {
    const stored = localStorage.getItem(userKey);
    if (stored && visitorIdPattern.test(stored)) return stored;
    const created = `user_${randomId(randomIdLength)}`;
    localStorage.setItem(userKey, created);
    return created;
  } catch {
    return `user_${randomId(randomIdLength)}`;
  }
}

export function getSessionId(): string {
  try {
    const stored = sessionStorage.getItem(sessionKey);
    if (stored && sessionIdPattern.test(stored)) return stored;
    const created = `session_${randomId(randomIdLength)}`;
    sessionStorage.setItem(sessionKey, created);
    return created;
  } catch {
    return `session_${randomId(randomIdLength)}`;
  }
}

/** This browser's visitor id when it has one, without making one (a fresh visitor has none). */
export function storedVisitorId(): string | null {
  try {
    const stored = localStorage.getItem(userKey);
    return stored && visitorIdPattern.test(stored) ? stored : null;
  } catch {
    return null;
  }
}
