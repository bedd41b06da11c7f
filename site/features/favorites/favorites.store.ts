/**
 * The visitor's favourites as every island on the page sees them: product id -> favourite id.
 * The card Save toggles and the product page's Save button both change it through `toggleFavorite`
 * (one favourites API for both), so they always agree.
 */
import { map } from "nanostores";
import { api } from "../../lib/api.ts";
import { getVisitorId } from "../../lib/browser/visitor.ts";
import { announceVisitorCountsChanged } from "../../lib/browser/visitor-counts.ts";
import { toast } from "../toast/toast.store.ts";

/**
 * Local-storage key set while this browser has saved favourites: product grids then hydrate at
 * once (rather than on first touch) to show them as saved. Cleared when the list comes back empty.
 */
export const favoritesSavedKey = "favorites_saved";

function markSaved(saved: boolean): void {
  try {
    if (saved) localStorage.setItem(favoritesSavedKey, "1");
    else localStorage.removeItem(favoritesSavedKey);
  } catch {
    // Storage unavailable: grids show saved state once the visitor touches them.
  }
}

/** productId -> favourite id (absent: not saved). */
export const $favorites = map<Record<number, number | undefined>>({});
let loaded: Promise<void> | null = null;

/** Loads the visitor's favourites once per page (the card toggles' initial state). */
export function loadFavorites(): Promise<void> {
  loaded ??= api
    .get<{ id: number; productId: number }[]>("/api/favorites", { userId: getVisitorId() })
    .then((favorites) => {
      for (const favorite of favorites) $favorites.setKey(favorite.productId, favorite.id);
      // From the store, not the answer alone: a save made while the list was on its way (a tap
      // replayed at hydration) is not in the answer but is saved.
      markSaved(Object.values($favorites.get()).some((id) => id !== undefined));
    })
    .catch((error) => {
      loaded = null;
      console.error("Failed to fetch favorites", error);
    });
  return loaded;
}

/** The product page's initial state comes from the is-favorite check. */
export async function checkFavorite(productId: number): Promise<void> {
  const result = await api.get<{ isFavorite: boolean; favoriteId: number | null }>("/api/is-favorite", { userId: getVisitorId(), productId });
  $favorites.setKey(productId, result.favoriteId ?? undefined);
}

export async function addFavorite(productId: number): Promise<void> {
  const favorite = await api.post<{ id: number }>("/api/favorites", { userId: getVisitorId(), productId });
  $favorites.setKey(productId, favorite.id);
  markSaved(true);
  announceVisitorCountsChanged();
}

export async function removeFavorite(productId: number, favoriteId = $favorites.get()[productId]): Promise<void> {
  if (favoriteId !== undefined) await api.delete(`/api/favorites/${favoriteId}`, { userId: getVisitorId() });
  $favorites.setKey(productId, undefined);
  announceVisitorCountsChanged();
}

/** Save/unsave with a toast saying what happened; resolves to whether it worked. */
export async function toggleFavorite(productId: number): Promise<boolean> {
  const saved = $favorites.get()[productId] !== undefined;
  try {
    if (saved) await removeFavorite(productId);
    else await addFavorite(productId);
    toast({ title: saved ? "Removed from favorites" : "Added to favorites" });
    return true;
  } catch (error) {
    console.error(saved ? "Failed to remove from favorites" : "Failed to add to favorites", error);
    toast({ title: "Error", description: "Something went wrong. Please try again.", variant: "destructive" });
    return false;
  }
}
