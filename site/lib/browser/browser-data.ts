/**
 * "This browser's data": what the visitor's Clear button (/your-data) removes from the browser,
 * besides the rows of its visitor id on the server. The visitor id itself goes, so nothing left on
 * the server can be linked to the browser again; a new one is made at the next save. The saved pet,
 * the basket, the loyalty schemes the visitor belongs to, the compare tray, the click log's copy and the markers that this browser saved or viewed
 * products go with it. The cookie choice and the price view stay: they are settings, not data
 * about the visitor. The keys are written out (not imported from each store) so this page loads
 * none of the stores' code; site/lib/browser/browser-data.test.ts checks they match.
 */
import { sessionKey, userKey } from "./visitor.ts";

export const browserDataKeys = {
  /** The visitor id, favourites marker, recently viewed marker, click log copy, saved pet, basket, loyalty schemes. */
  local: [userKey, "favorites_saved", "recently_viewed", "affiliate_clicks", "pet_profile", "basket", "member_schemes"],
  /** The analytics session id, the compare tray. */
  session: [sessionKey, "compare_tray"],
} as const;

/** Removes this browser's data from local and session storage (storage that is blocked holds nothing to remove). */
export function clearBrowserData(): void {
  for (const [storage, keys] of [
    [() => localStorage, browserDataKeys.local],
    [() => sessionStorage, browserDataKeys.session],
  ] as const) {
    try {
      for (const key of keys) storage().removeItem(key);
    } catch {
      // Storage blocked: nothing was kept there.
    }
  }
}
