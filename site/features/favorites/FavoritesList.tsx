import { ArrowDown, ArrowUp, Equal, ExternalLink, HeartOff, Pencil } from "lucide-react";
import { AlertDialog } from "radix-ui";
import { useCallback, useEffect, useState } from "react";
import { buildAffiliateUrl } from "../../../data/domain/affiliate.ts";
import { bestDealOffer } from "../../../data/domain/catalogue.ts";
import type { ProductJson } from "../../../data/domain/catalogue-json.ts";
import { discountPercent, formatPrice } from "../../../data/domain/display.ts";
import { isPrescriptionOnly, prescriptionNeededText } from "../../../data/domain/legal-category.ts";
import { homePath, packshotPath, productImage, productPath } from "../../../data/domain/paths.ts";
import { maxNotesLength } from "../../../data/domain/limits.ts";
import { priceMoveSinceSaved } from "../../../data/domain/saved-price.ts";
import { api } from "../../lib/api.ts";
import { logClick } from "../../lib/browser/clicks.ts";
import { getVisitorId } from "../../lib/browser/visitor.ts";
import { showFallbackImage } from "../../lib/browser/image-fallback.ts";
import type { LinkContext } from "../products/ProductCard.tsx";
import { toast } from "../toast/toast.store.ts";
import { removeFavorite } from "./favorites.store.ts";
import AddToBasketButton from "../basket/AddToBasketButton.tsx";

interface Favorite {
  id: number;
  productId: number;
  notes: string | null;
  product: ProductJson;
  /** The best price to the door when saved (null: saved before prices were kept). */
  savedPrice: number | null;
}

type State = { kind: "loading" } | { kind: "failed" } | { kind: "ready"; favorites: Favorite[] };

const moveStyles = {
  down: { className: "text-emerald-800", Icon: ArrowDown },
  up: { className: "text-red-700", Icon: ArrowUp },
  same: { className: "text-slate-600", Icon: Equal },
} as const;

/** How the price to the door moved since the visitor saved the product: words, with colour and an arrow beside them. */
function PriceMove({ favorite }: { favorite: Favorite }) {
  const move = priceMoveSinceSaved(favorite.savedPrice, favorite.product.bestPrice);
  if (!move) return null;
  const { className, Icon } = moveStyles[move.direction];
  return (
    <p className={`mt-1 flex items-center gap-1 text-sm font-semibold ${className}`} data-testid="price-move" data-direction={move.direction}>
      <Icon className="size-4 shrink-0" aria-hidden="true" />
      {move.text}
    </p>
  );
}

function RemoveButton({ favorite, onRemoved }: { favorite: Favorite; onRemoved: () => void }) {
  const [busy, setBusy] = useState(false);
  const remove = async () => {
    setBusy(true);
    try {
      await removeFavorite(favorite.productId, favorite.id);
      toast({ title: "Success", description: "Item removed from favorites" });
      onRemoved();
    } catch (error) {
      console.error("Failed to remove from favorites", error);
      toast({ title: "Error", description: "Failed to remove from favorites. Please try again.", variant: "destructive" });
    } finally {
      setBusy(false);
    }
  };
  return (
    <AlertDialog.Root>
      <AlertDialog.Trigger asChild>
        <button type="button" className="btn-outline text-red-700" disabled={busy} aria-label={`Remove ${favorite.product.name}`}>
          <HeartOff className="size-4" aria-hidden="true" /> Remove
        </button>
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-slate-900/50" />
        <AlertDialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-xl bg-white p-6 shadow-xl">
          <AlertDialog.Title className="text-lg font-bold text-slate-900">Remove from Favorites?</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm text-slate-700">
            Are you sure you want to remove this item from your favorites? This action cannot be undone.
          </AlertDialog.Description>
          <div className="mt-6 flex justify-end gap-2">
            <AlertDialog.Cancel asChild>
              <button type="button" className="btn-outline">
                Cancel
              </button>
            </AlertDialog.Cancel>
            <AlertDialog.Action asChild>
              <button type="button" className="btn bg-red-700 text-white hover:bg-red-800" onClick={() => void remove()}>
                Remove
              </button>
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

function Notes({ favorite, onSaved }: { favorite: Favorite; onSaved: (notes: string | null) => void }) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(favorite.notes ?? "");
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    try {
      const updated = await api.patch<{ notes: string | null }>(`/api/favorites/${favorite.id}`, { notes: text }, { userId: getVisitorId() });
      onSaved(updated.notes);
      setEditing(false);
    } catch (error) {
      console.error("Failed to save the note", error);
      toast({ title: "Error", description: "Something went wrong. Please try again.", variant: "destructive" });
    } finally {
      setBusy(false);
    }
  };
  if (editing) {
    const id = `notes-${favorite.id}`;
    return (
      <div className="mt-3">
        <label htmlFor={id} className="text-sm font-medium text-slate-800">
          Your notes:
        </label>
        <textarea
          id={id}
          value={text}
          maxLength={maxNotesLength}
          rows={3}
          onChange={(event) => setText(event.target.value)}
          className="mt-1 w-full rounded-lg border border-slate-300 px-3 py-2 text-sm"
        />
        <div className="mt-2 flex gap-2">
          <button type="button" className="btn-primary px-3 py-1.5" disabled={busy} onClick={() => void save()}>
            Save note
          </button>
          <button type="button" className="btn-ghost px-3 py-1.5" onClick={() => setEditing(false)}>
            Cancel
          </button>
        </div>
      </div>
    );
  }
  return (
    <div className="mt-3 text-sm">
      {favorite.notes && (
        <p className="rounded-lg bg-amber-50 px-3 py-2 text-slate-800">
          <span className="font-semibold">Your notes:</span> {favorite.notes}
        </p>
      )}
      <button type="button" className="mt-1 inline-flex items-center gap-1 text-brand-700 hover:underline" onClick={() => setEditing(true)}>
        <Pencil className="size-3.5" aria-hidden="true" /> {favorite.notes ? "Edit note" : "Add a note"}
      </button>
    </div>
  );
}

/** /favorites: the visitor's saved products. */
export default function FavoritesList({ links }: { links: LinkContext }) {
  const [state, setState] = useState<State>({ kind: "loading" });
  const load = useCallback(() => {
    api
      .get<Favorite[]>("/api/favorites", { userId: getVisitorId() })
      .then((favorites) => setState({ kind: "ready", favorites }))
      .catch((error) => {
        console.error("Failed to fetch favorites", error);
        toast({ title: "Error", description: "Failed to load your favorites. Please try again.", variant: "destructive" });
        setState({ kind: "failed" });
      });
  }, []);
  useEffect(load, [load]);

  const update = (id: number, change: (favorite: Favorite) => Favorite | null) =>
    setState((current) =>
      current.kind === "ready"
        ? { kind: "ready", favorites: current.favorites.flatMap((f) => (f.id === id ? (change(f) ?? []) : [f])) }
        : current,
    );

  if (state.kind === "loading") {
    return (
      <p className="py-12 text-center text-slate-600" role="status">
        Loading your favourites...
      </p>
    );
  }
  if (state.kind === "failed") {
    return (
      <div className="card py-12 text-center" role="alert">
        <p className="font-semibold text-slate-900">Failed to load your favorites. Please try again.</p>
        <button type="button" className="btn-primary mt-4" onClick={load}>
          Try Again
        </button>
      </div>
    );
  }
  if (state.favorites.length === 0) {
    return (
      <div className="card py-12 text-center">
        <HeartOff className="mx-auto size-10 text-slate-400" aria-hidden="true" />
        <p className="mt-3 text-lg font-semibold text-slate-900">Your Favorites List is Empty</p>
        <p className="mt-1 text-slate-600">Tap the heart on any product to keep it here and compare later.</p>
        <a href={homePath} className="btn-primary mt-5">
          Browse Products
        </a>
      </div>
    );
  }
  const basketable = state.favorites.map(({ product }) => ({ productId: product.id, name: product.name, slug: product.slug, image: product.image }));
  return (
    <>
      {basketable.length > 1 && <AddToBasketButton className="mb-4" products={basketable} label="Add all to your basket" />}
      <ul className="grid gap-4 md:grid-cols-2" data-testid="favorites">
        {state.favorites.map((favorite) => {
          const { product } = favorite;
          const best = bestDealOffer(product);
          const href = best ? buildAffiliateUrl(best.retailer.key, best.url, links.affiliateIds, links.siteName) : null;
          // A prescription-only medicine may not be advertised: no saving, was price or price move, and "Prescription needed".
          const prescriptionOnly = isPrescriptionOnly(product.legalCategory);
          const discount = prescriptionOnly ? null : discountPercent(product.originalPrice, product.bestPrice);
          return (
            <li key={favorite.id} className="card flex gap-4 p-4" data-testid="favorite">
              <a href={productPath(product.slug)} className="shrink-0">
                <img src={productImage(product)} onError={(event) => showFallbackImage(event.currentTarget, packshotPath(product.slug))} alt="" width={112} height={112} className="size-28 rounded-lg bg-slate-100 object-contain p-1" />
              </a>
              <div className="min-w-0 flex-1">
                <h2 className="font-semibold text-slate-900">
                  <a href={productPath(product.slug)} className="hover:text-brand-700 hover:underline">
                    {product.name}
                  </a>
                </h2>
                <p className="mt-1 line-clamp-2 text-sm text-slate-600">{product.description}</p>
                <p className="mt-2 flex items-baseline gap-2">
                  <span className="text-xl font-extrabold text-slate-900">{formatPrice(product.bestPrice, "N/A")}</span>
                  {product.originalPrice !== null && discount !== null && (
                    <span className="text-sm text-slate-500">
                      <span className="sr-only">was </span>
                      <s>{formatPrice(product.originalPrice)}</s>
                    </span>
                  )}
                  {product.bestRetailer && <span className="text-xs text-slate-600">at {product.bestRetailer.name}</span>}
                </p>
                {prescriptionOnly ? (
                  <p className="mt-1 text-sm font-semibold text-amber-900" data-testid="favorite-prescription">
                    {prescriptionNeededText}
                  </p>
                ) : (
                  <PriceMove favorite={favorite} />
                )}
                <Notes favorite={favorite} onSaved={(notes) => update(favorite.id, (f) => ({ ...f, notes }))} />
                <div className="mt-3 flex flex-wrap gap-2">
                  {href && best ? (
                    <a
                      href={href}
                      target="_blank"
                      rel="sponsored noopener"
                      className="btn-deal"
                      onClick={() => logClick({ retailer: best.retailer.name, productName: product.name, productId: product.id, price: best.price, url: href })}
                    >
                      Buy Now <ExternalLink className="size-3.5" aria-hidden="true" />
                      <span className="sr-only">at {best.retailer.name} (affiliate link, opens in a new tab)</span>
                    </a>
                  ) : (
                    <a href={productPath(product.slug)} className="btn-outline">
                      Out of stock: see prices
                    </a>
                  )}
                  <RemoveButton favorite={favorite} onRemoved={() => update(favorite.id, () => null)} />
                </div>
                <AddToBasketButton
                  className="mt-2"
                  products={[{ productId: product.id, name: product.name, slug: product.slug, image: product.image }]}
                  label="Add to basket"
                />
              </div>
            </li>
          );
        })}
      </ul>
    </>
  );
}
