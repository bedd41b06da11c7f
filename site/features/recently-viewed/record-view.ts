import { getVisitorId } from "../../lib/browser/visitor.ts";

/**
 * Records a product view for the Recently Viewed strip (on product page load and on View Best
 * Deal, SPEC.md section 7). A failure is only logged: it must never get in the shopper's way.
 */
export function recordView(productId: number): void {
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
