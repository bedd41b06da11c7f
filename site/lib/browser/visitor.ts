/**
 * The anonymous visitor id (DECISIONS.md item 5): one local-storage key, `userId`, holding
 * `user_` plus 24 crypto-random characters, used by every feature. The analytics session id
 * lives for the tab's session only.
 */
const userKey = "userId";
const sessionKey = "sessionId";
export const visitorIdPattern = /^user_[a-z0-9]{24}$/;

function randomId(length: number): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (byte) => alphabet[byte % alphabet.length]).join("");
}

export function getVisitorId(): string {
  try {
    const stored = localStorage.getItem(userKey);
    if (stored && visitorIdPattern.test(stored)) return stored;
    const created = `user_${randomId(24)}`;
    localStorage.setItem(userKey, created);
    return created;
  } catch {
    return `user_${randomId(24)}`;
  }
}

export function getSessionId(): string {
  try {
    const stored = sessionStorage.getItem(sessionKey);
    if (stored) return stored;
    const created = `session_${randomId(24)}`;
    sessionStorage.setItem(sessionKey, created);
    return created;
  } catch {
    return `session_${randomId(24)}`;
  }
}
