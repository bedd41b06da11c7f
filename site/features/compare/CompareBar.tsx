import { useStore } from "@nanostores/react";
import { Scale } from "lucide-react";
import { useEffect, useState } from "react";
import { compareBarLabel, compareLimit } from "../../../data/domain/compare.ts";
import { $compareItems, setCompareOpen } from "./compare.store.ts";

/** The home page's bottom compare bar: the first 3 names, then '+N more'. */
export default function CompareBar() {
  const items = useStore($compareItems);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  if (!hydrated || items.length === 0) return null;
  return (
    <div className="sticky bottom-0 z-30 border-t border-brand-800 bg-brand-900 text-white" data-testid="compare-bar">
      {/* A fixed height (h-16), which the open tray sits above (CompareTray withBar). */}
      <div className="container-page flex h-16 items-center justify-between gap-3">
        <p className="min-w-0 truncate text-sm">
          <span className="font-semibold">Comparing {items.length}/{compareLimit}:</span> {compareBarLabel(items.map((item) => item.name))}
        </p>
        <button type="button" onClick={() => setCompareOpen(true)} className="btn shrink-0 bg-white text-brand-900 hover:bg-brand-50">
          <Scale className="size-4" aria-hidden="true" /> Compare now
        </button>
      </div>
    </div>
  );
}
