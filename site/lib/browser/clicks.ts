/**
 * The affiliate click log: events wait in memory and are saved to local
 * storage (the last 100 kept) on page unload, every 60 seconds and whenever 5 are pending.
 * Saving also posts them to the API (stored as user behaviour). Both happen only with the
 * visitor's consent to non-essential storage; without it, clicks are not recorded at all.
 */
import { hasConsent } from "./consent.ts";
import { getSessionId, getVisitorId } from "./visitor.ts";

export interface ClickEvent {
  retailer: string;
  productName: string;
  productId?: number;
  price: number | null;
  url?: string;
  timestamp: string;
}

/** Local-storage key of the click log's copy in this browser. */
export const clickLogKey = "affiliate_clicks";
const keep = 100;
const flushAt = 5;
const flushEveryMs = 60_000;

let pending: ClickEvent[] = [];
let started = false;

function save(events: ClickEvent[]): void {
  try {
    const stored = JSON.parse(localStorage.getItem(clickLogKey) ?? "[]") as ClickEvent[];
    localStorage.setItem(clickLogKey, JSON.stringify([...stored, ...events].slice(-keep)));
  } catch (error) {
    console.error("Could not save the click log", error);
  }
}

function send(events: ClickEvent[]): void {
  const body = JSON.stringify({ userId: getVisitorId(), sessionId: getSessionId(), events });
  const blob = new Blob([body], { type: "application/json" });
  if (navigator.sendBeacon?.("/api/clicks", blob)) return;
  fetch("/api/clicks", { method: "POST", body, headers: { "content-type": "application/json" }, keepalive: true }).catch((error) =>
    console.error("Could not send the click log", error),
  );
}

export function flushClicks(): void {
  if (pending.length === 0) return;
  const events = pending;
  pending = [];
  if (!hasConsent()) return;
  save(events);
  send(events);
}

function start(): void {
  if (started) return;
  started = true;
  setInterval(flushClicks, flushEveryMs);
  addEventListener("pagehide", flushClicks);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") flushClicks();
  });
}

export function logClick(event: Omit<ClickEvent, "timestamp">): void {
  if (!hasConsent()) return;
  start();
  pending.push({ ...event, timestamp: new Date().toISOString() });
  if (pending.length >= flushAt) flushClicks();
}

/**
 * Logs clicks on static affiliate links: `<a data-affiliate data-retailer=… data-price=…>` inside
 * an element naming the product once for all its links (`data-product-id`, `data-product-name`).
 */
export function trackAffiliateLinks(root: ParentNode = document): void {
  root.addEventListener("click", (event) => {
    const link = (event.target as Element | null)?.closest<HTMLAnchorElement>("a[data-affiliate]");
    if (!link) return;
    const { retailer = "", price } = link.dataset;
    const { productName = "", productId } = link.closest<HTMLElement>("[data-product-name]")?.dataset ?? {};
    logClick({
      retailer,
      productName,
      productId: productId ? Number(productId) : undefined,
      price: price ? Number(price) : null,
      url: link.href,
    });
  });
}
