import { useStore } from "@nanostores/react";
import { HeartIcon } from "../../components/ui/icons.tsx";
import { useEffect, useState } from "react";
import { cn } from "../../lib/cn.ts";
import { $favorites, checkFavorite, toggleFavorite } from "./favorites.store.ts";

/** The product page's Save/Saved button: starts from the is-favorite check, disabled while busy. */
export default function FavoriteButton({ productId, productName }: { productId: number; productName: string }) {
  const saved = useStore($favorites)[productId] !== undefined;
  const [busy, setBusy] = useState(true);

  useEffect(() => {
    checkFavorite(productId)
      .catch((error) => console.error("Failed to fetch favorites", error))
      .finally(() => setBusy(false));
  }, [productId]);

  const toggle = async () => {
    setBusy(true);
    await toggleFavorite(productId);
    setBusy(false);
  };

  return (
    <button
      type="button"
      onClick={() => void toggle()}
      disabled={busy}
      aria-pressed={saved}
      aria-label={saved ? `Remove ${productName} from favourites` : `Save ${productName} to favourites`}
      className={cn("btn-outline h-full px-4", saved && "border-rose-300 bg-rose-50 text-rose-800 hover:bg-rose-100")}
      data-testid="favorite-button"
    >
      <HeartIcon className={cn("size-5", saved && "fill-rose-600 text-rose-600")} aria-hidden="true" />
      {saved ? "Saved" : "Save"}
    </button>
  );
}
