import { getVisitorId } from "../../lib/browser/visitor.ts";

/**
 * Local-storage key set once this browser has viewed a product: the Recently Viewed strip
 * hydrates early and shows its loading skeleton only then (a new visitor has nothing to show).
 */
export const viewedKey = "recently_viewed";

/**
 * Records a product view for the Recently Viewed strip (on product page load and on View Best
 * Deal). A failure is only logged: it must never get in the shopper's way.
 */
export function recordView(productId: number): void {
  try {
    localStorage.setItem(viewedKey, "1");
  } catch {
    // Storage unavailable: the strip still loads, only later and without its skeleton.
  }
  fetch("/api/recently-viewed", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ userId: getVisitorId(), productId }),
    credentials: "include",
    keepalive: true,
  })
    .then((response) => {
      if (!response.ok) console.error(`Could not record the view: ${response.status}`);
    })
    .catch((error) => console.error("Could not record the view", error));
}
