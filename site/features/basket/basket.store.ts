/**
 * The visitor's basket: the products they mean to buy, each with a quantity and whether they want
 * repeat delivery where a retailer offers it. Kept in this browser's local storage only (the quote
 * is asked for with the products and quantities, nothing else); at most basketLimits.products
 * products, each 1 to basketLimits.quantity times. Components read $basket and change it only
 * through the actions; every change is announced (basketChangedEvent) for the header's badge.
 */
import { atom } from "nanostores";
import { basketLimits } from "../../../data/domain/limits.ts";

export const basketStorageKey = "basket";
/** Dispatched on window after every change of the basket. */
export const basketChangedEvent = "pawprice:basket-changed";

export interface BasketItem {
  productId: number;
  name: string;
  slug: string;
  image: string;
  quantity: number;
  repeat: boolean;
}

const isItem = (value: unknown): value is BasketItem => {
  if (typeof value !== "object" || value === null) return false;
  const item = value as Record<string, unknown>;
  return (
    Number.isInteger(item.productId) &&
    (item.productId as number) > 0 &&
    typeof item.name === "string" &&
    typeof item.slug === "string" &&
    typeof item.image === "string" &&
    Number.isInteger(item.quantity) &&
    (item.quantity as number) >= 1 &&
    (item.quantity as number) <= basketLimits.quantity &&
    typeof item.repeat === "boolean"
  );
};

/** The stored basket; a damaged or hand-edited entry is left out, and so is a product stored twice. */
export function readBasket(): BasketItem[] {
  try {
    const stored = JSON.parse(localStorage.getItem(basketStorageKey) ?? "[]") as unknown;
    if (!Array.isArray(stored)) return [];
    const seen = new Set<number>();
    return stored.filter((item): item is BasketItem => isItem(item) && !seen.has(item.productId) && Boolean(seen.add(item.productId))).slice(0, basketLimits.products);
  } catch {
    return [];
  }
}

/** Empty until read in the browser (the server render and the first client render agree). */
export const $basket = atom<BasketItem[]>([]);

let loaded = false;
/** Reads the stored basket once, after hydration (call from an effect). */
export function loadBasket(): void {
  if (loaded) return;
  loaded = true;
  $basket.set(readBasket());
}

function save(items: BasketItem[]): void {
  loaded = true;
  $basket.set(items);
  try {
    if (items.length === 0) localStorage.removeItem(basketStorageKey);
    else localStorage.setItem(basketStorageKey, JSON.stringify(items));
  } catch {
    // Storage blocked: the basket holds for this page only.
  }
  window.dispatchEvent(new Event(basketChangedEvent));
}

export interface AddResult {
  added: number;
  /** Already in the basket (left as they were). */
  already: number;
  /** Not added: the basket was full. */
  full: number;
}

/** Adds products (once each, quantity 1, no repeat); products already in it stay as they are. */
export function addToBasket(products: readonly Pick<BasketItem, "productId" | "name" | "slug" | "image">[]): AddResult {
  loadBasket();
  const items = [...$basket.get()];
  const result: AddResult = { added: 0, already: 0, full: 0 };
  for (const { productId, name, slug, image } of products) {
    if (items.some((item) => item.productId === productId)) result.already++;
    else if (items.length >= basketLimits.products) result.full++;
    else {
      items.push({ productId, name, slug, image, quantity: 1, repeat: false });
      result.added++;
    }
  }
  if (result.added > 0) save(items);
  return result;
}

/** Sets a product's quantity, kept within 1 and basketLimits.quantity (a whole number). */
export function setBasketQuantity(productId: number, quantity: number): void {
  const whole = Math.min(basketLimits.quantity, Math.max(1, Math.round(Number.isFinite(quantity) ? quantity : 1)));
  save($basket.get().map((item) => (item.productId === productId ? { ...item, quantity: whole } : item)));
}

export function setBasketRepeat(productId: number, repeat: boolean): void {
  save($basket.get().map((item) => (item.productId === productId ? { ...item, repeat } : item)));
}

export function removeFromBasket(productIds: readonly number[]): void {
  const gone = new Set(productIds);
  save($basket.get().filter((item) => !gone.has(item.productId)));
}

export function clearBasket(): void {
  save([]);
}
