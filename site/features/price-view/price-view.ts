/**
 * The visitor's price view on product pages: prices to the door (item plus delivery, the default
 * and the order everything is ranked in) or item prices only. Kept per browser in local storage;
 * the head script (CookieConsentCheck.astro) marks <html data-price-view="item"> before the first
 * paint and CSS shows the matching `.price-total-view` / `.price-item-view` text, inside a
 * product page's own prices ([data-price-view-scope]) only: product cards, grids, favourites and
 * every other list always show prices to the door. The toggle is on the product page alone. A
 * display preference the visitor sets, so it needs no cookie consent.
 */
export const priceViewKey = "price_view";
export type PriceView = "total" | "item";

export function readPriceView(): PriceView {
  try {
    return localStorage.getItem(priceViewKey) === "item" ? "item" : "total";
  } catch {
    return "total";
  }
}

export function setPriceView(view: PriceView): void {
  try {
    if (view === "item") localStorage.setItem(priceViewKey, "item");
    else localStorage.removeItem(priceViewKey);
  } catch {
    // Storage blocked: the choice holds for this page only.
  }
  if (view === "item") document.documentElement.setAttribute("data-price-view", "item");
  else document.documentElement.removeAttribute("data-price-view");
  for (const toggle of document.querySelectorAll<HTMLInputElement>("input[data-price-view-toggle]")) toggle.checked = view === "item";
}

/** Wires every "Show item prices only" checkbox on the page. */
export function enhancePriceViewToggles(): void {
  const view = readPriceView();
  for (const toggle of document.querySelectorAll<HTMLInputElement>("input[data-price-view-toggle]")) {
    toggle.checked = view === "item";
    toggle.addEventListener("change", () => setPriceView(toggle.checked ? "item" : "total"));
  }
}
