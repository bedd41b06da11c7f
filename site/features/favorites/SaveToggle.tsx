import { useStore } from "@nanostores/react";
import { HeartIcon } from "../../components/ui/icons.tsx";
import { useEffect, useState } from "react";
import { cn } from "../../lib/cn.ts";
import { $favorites, loadFavorites, toggleFavorite } from "./favorites.store.ts";

/**
 * The product card's Save/Saved toggle, on the same favourites as the product page and /favorites.
 * While a change is under way it is aria-disabled and ignores presses, but stays focusable: a
 * disabled button would drop the keyboard's focus to the page.
 */
export function SaveToggle({ productId, productName }: { productId: number; productName: string }) {
  const saved = useStore($favorites)[productId] !== undefined;
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    void loadFavorites();
  }, []);
  return (
    <button
      type="button"
      aria-disabled={busy || undefined}
      aria-pressed={saved}
      aria-label={saved ? `Remove ${productName} from favourites` : `Save ${productName} to favourites`}
      title={saved ? "Saved" : "Save"}
      onClick={async () => {
        if (busy) return;
        setBusy(true);
        await toggleFavorite(productId);
        setBusy(false);
      }}
      className={cn(
        "absolute top-2 right-2 grid size-9 place-items-center rounded-full bg-white/90 shadow-sm ring-1 ring-slate-200 hover:bg-white aria-disabled:cursor-wait",
        saved ? "text-rose-600" : "text-slate-600",
      )}
      data-testid="save-toggle"
    >
      <HeartIcon className={cn("size-4", saved && "fill-rose-600")} aria-hidden="true" />
      <span className="sr-only">{saved ? "Saved" : "Save"}</span>
    </button>
  );
}
