/**
 * Cookie consent. Until the visitor accepts, nothing non-essential is
 * stored or sent: the affiliate click log and analytics check `hasConsent()` first.
 */
export type Consent = "accepted" | "declined";

const storageKey = "cookie_consent";
export const consentEvent = "pawprice:consent";

export function getConsent(): Consent | null {
  try {
    const value = localStorage.getItem(storageKey);
    return value === "accepted" || value === "declined" ? value : null;
  } catch {
    return null;
  }
}

export function hasConsent(): boolean {
  return getConsent() === "accepted";
}

export function setConsent(consent: Consent): void {
  try {
    localStorage.setItem(storageKey, consent);
    if (consent === "declined") localStorage.removeItem("affiliate_clicks");
  } catch {
    // Storage blocked: the choice holds for this page only.
  }
  window.dispatchEvent(new CustomEvent(consentEvent, { detail: consent }));
}
