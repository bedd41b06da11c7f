/** Re-words every offer's price age on the page for the reader's clock (the build wrote its own). */
import { priceAgeText } from "../../../data/domain/price-age.ts";

export function refreshPriceAges(root: ParentNode = document, now = new Date()): void {
  for (const element of root.querySelectorAll<HTMLElement>("[data-price-age]")) {
    element.textContent = priceAgeText(element.dataset.priceAge || null, element.dataset.stale === "true", now);
  }
}
