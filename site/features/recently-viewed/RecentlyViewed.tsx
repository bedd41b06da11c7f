import { useEffect, useState } from "react";
import type { RecentlyViewedItem } from "../../../data/domain/catalogue.ts";
import { formatPrice } from "../../../data/domain/display.ts";
import { packshotPath, productImage, productPath } from "../../../data/domain/paths.ts";
import { api } from "../../lib/api.ts";
import { getVisitorId } from "../../lib/browser/visitor.ts";
import { showFallbackImage } from "../../lib/browser/image-fallback.ts";
import { viewedKey } from "./record-view.ts";

/** 4 skeleton placeholders while loading. */
const skeletons = 4;

function hasViewed(): boolean {
  try {
    return localStorage.getItem(viewedKey) !== null;
  } catch {
    return false;
  }
}

/** "Compared across 2 retailers": the retailers with an offer for this product, not all the site compares. */
function comparedAcross(retailerCount: number): string {
  return `Compared across ${retailerCount} ${retailerCount === 1 ? "retailer" : "retailers"}`;
}

/**
 * The visitor's recently viewed products; hidden when there are none. The build renders nothing (it
 * cannot know the visitor); the skeleton shows while loading only in a browser that has viewed a
 * product, so a new visitor never sees placeholders appear and vanish.
 */
export default function RecentlyViewed() {
  const [items, setItems] = useState<RecentlyViewedItem[] | null>(null);
  const [expecting, setExpecting] = useState(false);

  useEffect(() => {
    setExpecting(hasViewed());
    api
      .get<RecentlyViewedItem[]>("/api/recently-viewed", { userId: getVisitorId() })
      .then(setItems)
      .catch((error) => {
        console.error("Could not load recently viewed products", error);
        setItems([]);
      });
  }, []);

  if (items === null ? !expecting : items.length === 0) return null;
  return (
    <section aria-labelledby="recently-viewed-title" data-testid="recently-viewed">
      <h2 id="recently-viewed-title" className="mb-4 text-2xl font-bold text-slate-900">
        Recently Viewed
      </h2>
      <ul className="grid grid-cols-2 gap-4 sm:grid-cols-4 lg:grid-cols-6">
        {items === null
          ? Array.from({ length: skeletons }, (_, i) => (
              <li key={i} className="card animate-pulse p-3" aria-hidden="true">
                <div className="aspect-square rounded-lg bg-slate-200" />
                <div className="mt-3 h-3 rounded bg-slate-200" />
                <div className="mt-2 h-3 w-1/2 rounded bg-slate-200" />
              </li>
            ))
          : items.slice(0, 6).map((item) => (
              <li key={item.id}>
                <a href={productPath(item.slug)} className="card block h-full p-3 hover:shadow-md">
                  <img
                    src={productImage(item)}
                    onError={(event) => showFallbackImage(event.currentTarget, packshotPath(item.slug))}
                    alt=""
                    width={200}
                    height={200}
                    loading="lazy"
                    className="aspect-square w-full rounded-lg bg-slate-100 object-contain"
                  />
                  <p className="mt-2 line-clamp-2 text-sm font-medium text-slate-900">{item.name}</p>
                  <p className="mt-1 text-sm font-bold text-slate-900">{formatPrice(item.bestPrice, "N/A")}</p>
                  {item.retailerCount > 0 && <p className="text-xs text-slate-600">{comparedAcross(item.retailerCount)}</p>}
                </a>
              </li>
            ))}
      </ul>
    </section>
  );
}
