import { useCallback, useRef, useState } from "react";
import type { BrandCount } from "../../../data/domain/facets.ts";
import { toFacetParams, type GridState } from "../../../data/domain/grid-query.ts";
import { fetchBrandCounts } from "../../lib/api.ts";

const facetKey = (state: GridState) => new URLSearchParams(toFacetParams(state)).toString();

/**
 * The brand filter's options with their counts for the view on screen (GET /api/brands/counts): `update`
 * fetches them when the view's other filters or search text change, and only the answer for the
 * latest view is shown. `initial` is the list built into the page for `initialFor` (none: fetched
 * on the first update). A failed fetch keeps the list shown.
 */
export function useBrandCounts(initial: BrandCount[], initialFor?: GridState): [BrandCount[], (state: GridState) => void] {
  const [brands, setBrands] = useState(initial);
  const shownFor = useRef(initialFor ? facetKey(initialFor) : null);
  const wanted = useRef<string | null>(null);
  const update = useCallback((state: GridState) => {
    const key = facetKey(state);
    if (key === shownFor.current) {
      wanted.current = null; // back to the view on screen: an answer on its way is for another
      return;
    }
    if (key === wanted.current) return;
    wanted.current = key;
    fetchBrandCounts(toFacetParams(state)).then(
      (list) => {
        if (wanted.current !== key) return;
        wanted.current = null;
        shownFor.current = key;
        setBrands(list);
      },
      (error: unknown) => {
        console.error("Could not load the brand list", error);
        if (wanted.current === key) wanted.current = null; // the next change of view tries again
      },
    );
  }, []);
  return [brands, update];
}
