import { useStore } from "@nanostores/react";
import { ChevronLeft, ChevronRight, Maximize2, Minimize2, Scale, X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { bestPricedId, canExpand, collapsedWindow, compareLimit, compareUnitPrice, type CompareItem } from "../../../data/domain/compare.ts";
import { formatUnitPrice } from "../../../data/domain/unit-price.ts";
import { formatPrice } from "../../../data/domain/display.ts";
import { comparePath, packshotPath, productImage, productPath } from "../../../data/domain/paths.ts";
import { showFallbackImage } from "../../lib/browser/image-fallback.ts";
import { cn } from "../../lib/cn.ts";
import { useKeepToastsClear } from "../toast/keep-clear.ts";
import {
  $compareExpanded,
  $compareItems,
  $compareOpen,
  $comparePosition,
  clearCompare,
  removeProductFromCompare,
  setCompareOpen,
  stepCompare,
  toggleCompareExpanded,
} from "./compare.store.ts";

/** One compared product; in the expanded grid the image sits above the text so names have room. */
function CompareCard({ item, best, stacked }: { item: CompareItem; best: boolean; stacked: boolean }) {
  return (
    <li
      className={cn(
        "relative flex gap-3 rounded-lg border bg-white p-3",
        stacked && "flex-col",
        best ? "border-emerald-600 ring-1 ring-emerald-600" : "border-slate-200",
      )}
    >
      {best && (
        <span className="absolute -top-2.5 left-3 rounded-full bg-emerald-700 px-2 py-0.5 text-[11px] font-semibold text-white">Best Price</span>
      )}
      <img
        src={productImage(item)}
        onError={(event) => showFallbackImage(event.currentTarget, packshotPath(item.slug))}
        alt=""
        width={56}
        height={56}
        className={cn("shrink-0 rounded-md bg-slate-100 object-contain", stacked ? "h-24 w-full" : "size-14")}
      />
      <div className="min-w-0 flex-1">
        <a href={productPath(item.slug)} title={item.name} className="line-clamp-2 text-sm font-medium text-slate-900 hover:text-brand-700 hover:underline">
          {item.name}
        </a>
        <p className="mt-1 text-base font-bold text-slate-900">{formatPrice(item.bestPrice, "N/A")}</p>
        {compareUnitPrice(item) && (
          <p className="text-xs font-semibold text-slate-900" data-testid="compare-unit-price">
            {formatUnitPrice(compareUnitPrice(item)!)}
          </p>
        )}
        {item.bestRetailer && <p className="text-xs text-slate-600">at {item.bestRetailer}</p>}
      </div>
      <button
        type="button"
        onClick={() => removeProductFromCompare(item.id)}
        className={cn("rounded-md p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-800", stacked ? "absolute top-2 right-2 bg-white/90" : "self-start")}
        aria-label={`Remove ${item.name} from comparison`}
      >
        <X className="size-4" aria-hidden="true" />
      </button>
    </li>
  );
}

/**
 * The compare tray: up to 4 products, collapsed (2 at a time) or expanded,
 * and 'Compare now' to the compare page. It always comes with the bottom compare bar
 * (CompareDock.astro), whose button opens it again once closed. Toasts stay above it.
 */
export default function CompareTray() {
  const items = useStore($compareItems);
  const open = useStore($compareOpen);
  const expanded = useStore($compareExpanded);
  const position = useStore($comparePosition);
  // Session storage is read in the browser only; render nothing until hydrated to match the static HTML.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const tray = useRef<HTMLElement>(null);
  // It sits higher while the bar is shown under it (items), which changes no size of its own.
  useKeepToastsClear(tray, hydrated && open, [items.length > 0]);
  if (!hydrated || !open) return null;

  const best = bestPricedId(items);
  const window = collapsedWindow(items, position);
  const shown = expanded ? items : window.visible;

  return (
    <section
      ref={tray}
      id="compare-tray"
      aria-label="Compare products"
      className={cn(
        "fixed right-0 left-0 z-40 border-t border-slate-200 bg-slate-50 shadow-[0_-8px_24px_rgba(15,23,42,0.15)] sm:right-4 sm:left-auto sm:rounded-xl sm:border",
        // Above the compare bar (h-16, CompareBar.tsx), never over its buttons; the bar hides when the tray is empty.
        items.length > 0 ? "bottom-16 sm:bottom-20" : "bottom-0 sm:bottom-4",
        // Collapsed, two cards side by side: wide enough for a name's first 24 or so characters on a line.
        expanded ? "sm:w-[min(56rem,calc(100vw-2rem))]" : "sm:w-[min(44rem,calc(100vw-2rem))]",
      )}
      data-testid="compare-tray"
    >
      <header className="flex items-center justify-between gap-2 border-b border-slate-200 px-4 py-3">
        <h2 className="flex items-center gap-2 text-sm font-bold text-slate-900">
          <Scale className="size-4 text-brand-700" aria-hidden="true" /> Compare Products ({items.length}/{compareLimit})
        </h2>
        <div className="flex items-center gap-1">
          {canExpand(items) && (
            <button type="button" onClick={toggleCompareExpanded} className="btn-ghost px-2 py-1 text-xs" aria-pressed={expanded}>
              {expanded ? <Minimize2 className="size-4" aria-hidden="true" /> : <Maximize2 className="size-4" aria-hidden="true" />}
              {expanded ? "Collapse" : "Expand"}
            </button>
          )}
          {items.length > 0 && (
            <button type="button" onClick={clearCompare} className="btn-ghost px-2 py-1 text-xs text-red-700">
              Clear All
            </button>
          )}
          <button type="button" onClick={() => setCompareOpen(false)} className="rounded-md p-1 text-slate-600 hover:bg-slate-200" aria-label="Close comparison">
            <X className="size-4" aria-hidden="true" />
          </button>
        </div>
      </header>
      <div className="p-4">
        {items.length === 0 ? (
          <div className="py-6 text-center">
            <p className="font-semibold text-slate-900">Start Comparing Products</p>
            <p className="mt-1 text-sm text-slate-600">Add up to {compareLimit} products to see their best prices side by side.</p>
          </div>
        ) : (
          <div className="flex items-center gap-2">
            {!expanded && items.length > 2 && (
              <button type="button" onClick={() => stepCompare(-1)} disabled={!window.canStepBack} className="btn-ghost p-1" aria-label="Previous products">
                <ChevronLeft className="size-5" aria-hidden="true" />
              </button>
            )}
            <ul className={cn("grid flex-1 gap-3", expanded ? "grid-cols-1 sm:grid-cols-2 lg:grid-cols-4" : "grid-cols-1 min-[480px]:grid-cols-2")}>
              {shown.map((item) => (
                <CompareCard key={item.id} item={item} best={item.id === best} stacked={expanded} />
              ))}
            </ul>
            {!expanded && items.length > 2 && (
              <button type="button" onClick={() => stepCompare(1)} disabled={!window.canStepForward} className="btn-ghost p-1" aria-label="Next products">
                <ChevronRight className="size-5" aria-hidden="true" />
              </button>
            )}
          </div>
        )}
        {items.length > 0 && (
          <div className="mt-3 flex justify-end">
            <a href={comparePath(items.map((item) => item.id))} className="btn-primary">
              <Scale className="size-4" aria-hidden="true" /> Compare now
            </a>
          </div>
        )}
      </div>
    </section>
  );
}
