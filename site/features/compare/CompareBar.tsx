import { useStore } from "@nanostores/react";
import { ChevronDown, ChevronUp, Scale } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { compareBarLabel, compareLimit } from "../../../data/domain/compare.ts";
import { comparePath } from "../../../data/domain/paths.ts";
import { useKeepToastsClear } from "../toast/keep-clear.ts";
import { $compareItems, $compareOpen, setCompareOpen } from "./compare.store.ts";

/**
 * The bottom compare bar, on every page with the compare tray: the first 3 names, then '+N more',
 * a button that shows or hides the tray (so a closed tray can always be reopened) and 'Compare
 * now' to the compare page. Nothing while the tray is empty. Toasts stay above it.
 */
export default function CompareBar() {
  const items = useStore($compareItems);
  const open = useStore($compareOpen);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const bar = useRef<HTMLDivElement>(null);
  const shown = hydrated && items.length > 0;
  useKeepToastsClear(bar, shown);
  if (!shown) return null;
  return (
    <div ref={bar} className="sticky bottom-0 z-30 border-t border-brand-800 bg-brand-900 text-white" data-testid="compare-bar">
      {/* A fixed height (h-16), which the open tray sits above (CompareTray). */}
      <div className="container-page flex h-16 items-center justify-between gap-2 sm:gap-3">
        <p className="min-w-0 flex-1 truncate text-sm">
          <span className="font-semibold">Comparing {items.length}/{compareLimit}</span>
          <span className="hidden sm:inline">: {compareBarLabel(items.map((item) => item.name))}</span>
        </p>
        <button
          type="button"
          onClick={() => setCompareOpen(!open)}
          aria-expanded={open}
          aria-controls="compare-tray"
          className="btn shrink-0 border border-white/60 px-3 text-white hover:bg-white/10"
        >
          {open ? <ChevronDown className="size-4" aria-hidden="true" /> : <ChevronUp className="size-4" aria-hidden="true" />}
          {open ? "Hide tray" : "Show tray"}
        </button>
        <a href={comparePath(items.map((item) => item.id))} className="btn shrink-0 bg-white px-3 text-brand-900 hover:bg-brand-50">
          <Scale className="size-4" aria-hidden="true" /> Compare now
        </a>
      </div>
    </div>
  );
}
