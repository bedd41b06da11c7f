/**
 * The compare tray's rules, as pure functions over the list of
 * compared products; the tray's store holds the list and calls these.
 */
import { toPence } from "./money.ts";
import { unitPriceOf, type PackSize } from "./product-quantity.ts";
import type { UnitPrice } from "./unit-price.ts";

export interface CompareItem {
  id: number;
  slug: string;
  name: string;
  image: string;
  /** Pounds; null when no retailer has it in stock. */
  bestPrice: number | null;
  bestRetailer: string | null;
  /** Its pack size, for the unit price; absent in trays saved before unit prices were shown. */
  packSize?: PackSize | null;
}

export const compareLimit = 4;
/** Products shown at a time in the collapsed tray. */
export const collapsedSize = 2;
/** Names the bottom compare bar spells out before '+N more'. */
const barNameCount = 3;

export type AddToCompareResult =
  | { items: CompareItem[]; added: true; reason?: undefined }
  | { items: CompareItem[]; added: false; reason: "full" | "duplicate" };

/**
 * Adds a product unless it is already in the tray or the tray holds 4 (a duplicate is
 * reported as such even when the tray is full). The list passed in is never changed.
 * @example addToCompare([], dogFood) // { items: [dogFood], added: true }
 * @example addToCompare([dogFood], dogFood) // { items: [dogFood], added: false, reason: "duplicate" }
 */
export function addToCompare(items: readonly CompareItem[], product: CompareItem): AddToCompareResult {
  if (items.some((item) => item.id === product.id)) return { items: [...items], added: false, reason: "duplicate" };
  if (items.length >= compareLimit) return { items: [...items], added: false, reason: "full" };
  return { items: [...items, product], added: true };
}

/**
 * The tray without the product of that id.
 * @example removeFromCompare([dogFood, catFood], dogFood.id) // [catFood]
 */
export function removeFromCompare(items: readonly CompareItem[], id: number): CompareItem[] {
  return items.filter((item) => item.id !== id);
}

export interface CompareWindow {
  visible: CompareItem[];
  /** Index of the first visible product, clamped so the window is always full when it can be. */
  position: number;
  canStepBack: boolean;
  canStepForward: boolean;
}

/**
 * What the collapsed tray shows from a position (stepping is by one product). The position is
 * clamped into range, so after a removal the store can pass its old position and keep the result.
 * @example collapsedWindow([a, b, c], 1) // { visible: [b, c], position: 1, canStepBack: true, canStepForward: false }
 * @example collapsedWindow([a, b], 5) // { visible: [a, b], position: 0, canStepBack: false, canStepForward: false }
 */
export function collapsedWindow(items: readonly CompareItem[], position: number, size: number = collapsedSize): CompareWindow {
  const lastStart = Math.max(0, items.length - size);
  const start = Number.isFinite(position) ? Math.min(lastStart, Math.max(0, Math.trunc(position))) : 0;
  return {
    visible: items.slice(start, start + size),
    position: start,
    canStepBack: start > 0,
    canStepForward: start < lastStart,
  };
}

/**
 * The Expand toggle shows only when there are more products than the collapsed view holds.
 * @example canExpand([a, b, c]) // true
 */
export function canExpand(items: readonly CompareItem[]): boolean {
  return items.length > collapsedSize;
}

/**
 * The product that gets the Best Price badge: the lowest known best price (the first such
 * product on a tie); null when no compared product has a price.
 * @example bestPricedId([{ ...a, bestPrice: 9.99 }, { ...b, bestPrice: 7.5 }]) // b.id
 */
export function bestPricedId(items: readonly CompareItem[]): number | null {
  let best: CompareItem | null = null;
  for (const item of items) {
    if (item.bestPrice === null || !Number.isFinite(item.bestPrice)) continue;
    if (best === null || item.bestPrice < (best.bestPrice ?? Infinity)) best = item;
  }
  return best?.id ?? null;
}

/**
 * The bottom compare bar's text: the first 3 names, then '+N more'.
 * @example compareBarLabel(["A", "B"]) // "A, B"
 * @example compareBarLabel(["A", "B", "C", "D", "E"]) // "A, B, C +2 more"
 */
export function compareBarLabel(names: readonly string[]): string {
  const shown = names.slice(0, barNameCount).join(", ");
  const hidden = names.length - barNameCount;
  return hidden > 0 ? `${shown} +${hidden} more` : shown;
}

/**
 * The unit price of a compared product's best price (per kg, litre or item), or null without a
 * pack size or a best price.
 * @example compareUnitPrice({ ...dogFood, bestPrice: 45.99, packSize: { amount: 12000, unit: "kg", label: "12kg" } }) // { pence: 383, unit: "kg" }
 */
export function compareUnitPrice(item: CompareItem): UnitPrice | null {
  if (item.bestPrice === null || !item.packSize) return null;
  const pence = toPence(item.bestPrice);
  return pence === null ? null : unitPriceOf(pence, item.packSize);
}
