/**
 * The compare tray's state, shared by every island on the page and kept for the visit
 * (session storage). Components read the atoms and change them only through the actions.
 */
import { atom } from "nanostores";
import { addToCompare, collapsedWindow, removeFromCompare, type CompareItem } from "../../../data/domain/compare.ts";

export const compareStorageKey = "compare_tray";

function load(): CompareItem[] {
  if (typeof sessionStorage === "undefined") return [];
  try {
    const stored = JSON.parse(sessionStorage.getItem(compareStorageKey) ?? "[]") as unknown;
    return Array.isArray(stored) ? (stored as CompareItem[]).slice(0, 4) : [];
  } catch {
    return [];
  }
}

export const $compareItems = atom<CompareItem[]>(load());
export const $compareOpen = atom(false);
export const $compareExpanded = atom(false);
export const $comparePosition = atom(0);

$compareItems.listen((items) => {
  try {
    sessionStorage.setItem(compareStorageKey, JSON.stringify(items));
  } catch {
    // Storage unavailable: the tray still works for this page.
  }
});

/** Adds a product and opens the tray; returns why not when it could not be added. */
export function addProductToCompare(item: CompareItem): "added" | "full" | "duplicate" {
  const result = addToCompare($compareItems.get(), item);
  if (result.added) {
    $compareItems.set(result.items);
    $comparePosition.set(Math.max(0, result.items.length - 2));
    $compareOpen.set(true);
    return "added";
  }
  $compareOpen.set(true);
  return result.reason;
}

export function removeProductFromCompare(id: number): void {
  const items = removeFromCompare($compareItems.get(), id);
  $compareItems.set(items);
  $comparePosition.set(collapsedWindow(items, $comparePosition.get()).position);
  if (items.length <= 2) $compareExpanded.set(false);
}

export function clearCompare(): void {
  $compareItems.set([]);
  $comparePosition.set(0);
  $compareExpanded.set(false);
  $compareOpen.set(false);
}

export function stepCompare(delta: number): void {
  $comparePosition.set(collapsedWindow($compareItems.get(), $comparePosition.get() + delta).position);
}

export function setCompareOpen(open: boolean): void {
  $compareOpen.set(open);
}

export function toggleCompareExpanded(): void {
  $compareExpanded.set(!$compareExpanded.get());
}
