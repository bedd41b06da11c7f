/**
 * The header's badges: how many favourites and active price alerts this visitor has. The header
 * is the same static HTML on every page, so the counts are filled in here, in the browser: read
 * only when this browser already has a visitor id (a fresh visitor sends nothing), and read again
 * whenever the page announces a save, a removal, a new or a deleted alert. A badge at 0 is hidden;
 * a badge's number is drawn over the icon's corner, so showing it moves nothing. The basket is kept
 * in this browser: its badge counts the products stored there, read again when the basket changes
 * on this page or in another tab.
 */
import { apiPath } from "../../data/domain/paths.ts";
import { storedVisitorId } from "../lib/browser/visitor.ts";
import { visitorCountsChangedEvent } from "../lib/browser/visitor-counts.ts";

type CountName = "favorites" | "alerts" | "basket";

/**
 * The basket's storage key and change event, written out as site/features/basket/basket.store.ts
 * writes them (not imported: this script loads on every page); header-counts.test.ts checks they match.
 */
export const headerBasket = { key: "basket", changed: "pawprice:basket-changed" } as const;

/** Screen-reader words for a count: "1 favourite", "3 price alerts". */
const words: Record<CountName, (count: number) => string> = {
  favorites: (count) => `${count} ${count === 1 ? "favourite" : "favourites"}`,
  alerts: (count) => `${count} ${count === 1 ? "price alert" : "price alerts"}`,
  basket: (count) => `${count} ${count === 1 ? "product" : "products"} in your basket`,
};

/** Counts above this show as "99+". */
const maxShown = 99;

function show(name: CountName, count: number): void {
  for (const badge of document.querySelectorAll<HTMLElement>(`[data-header-count="${name}"]`)) {
    const link = badge.closest("a");
    const label = link?.querySelector<HTMLElement>("[data-header-label]");
    const number = badge.querySelector<HTMLElement>("[data-count-number]");
    const text = badge.querySelector<HTMLElement>("[data-count-words]");
    const visible = count > 0;
    badge.hidden = !visible;
    // With a count the link is named by it ("3 favourites"); without one, by its plain label.
    label?.toggleAttribute("hidden", visible);
    if (number) number.textContent = count > maxShown ? `${maxShown}+` : String(count);
    if (text) text.textContent = words[name](count);
  }
}

let latest = 0;

async function refresh(): Promise<void> {
  const userId = storedVisitorId();
  // No visitor id (a fresh visitor, or one who cleared this browser's data): nothing saved, no badges.
  if (userId === null) {
    latest++;
    show("favorites", 0);
    show("alerts", 0);
    return;
  }
  const ask = ++latest;
  try {
    const response = await fetch(apiPath("/visitor-counts", { userId }), { headers: { accept: "application/json" } });
    if (!response.ok) return;
    const counts = (await response.json()) as Record<CountName, number>;
    // An older answer arriving after a newer one is dropped.
    if (ask !== latest) return;
    show("favorites", counts.favorites);
    show("alerts", counts.alerts);
  } catch {
    // Offline or the server is away: the badges stay as they are.
  }
}

/** How many products the stored basket holds (0 when there is none or it cannot be read). */
function basketCount(): number {
  try {
    const stored = JSON.parse(localStorage.getItem(headerBasket.key) ?? "[]") as unknown;
    return Array.isArray(stored) ? stored.length : 0;
  } catch {
    return 0;
  }
}

export function initHeaderCounts(): void {
  void refresh();
  const showBasket = () => show("basket", basketCount());
  showBasket();
  window.addEventListener(headerBasket.changed, showBasket);
  window.addEventListener("storage", (event) => {
    if (event.key === headerBasket.key || event.key === null) showBasket();
  });
  window.addEventListener(visitorCountsChangedEvent, () => void refresh());
  // Back to a page kept in the back/forward cache: the counts may have moved meanwhile.
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) {
      void refresh();
      showBasket();
    }
  });
}
