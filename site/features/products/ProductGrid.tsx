import { useStore } from "@nanostores/react";
import { useCallback, useEffect, useRef, useState } from "react";
import {
  canGoNext,
  canGoPrev,
  clampPage,
  gridQueryString,
  pageCount,
  parseGridQuery,
  resetFilters,
  toApiParams,
  toCountParams,
  withFilter,
  withPage,
  type GridDefaults,
  type GridFilters,
  type GridState,
} from "../../../data/domain/grid-query.ts";
import { fetchProductCount, fetchProducts } from "../../lib/api.ts";
import { pushQuery, replaceQuery } from "../../lib/browser/address.ts";
import { toCardProduct, type CardProduct } from "./card-product.ts";
import { ProductCard, type LinkContext } from "./ProductCard.tsx";
import { ProductFilters, type FilterLists } from "./ProductFilters.tsx";
import { useBrandCounts } from "./use-brand-counts.ts";
import type { BrandCount } from "../../../data/domain/facets.ts";
import type { PetProfile } from "../../../data/domain/feeding.ts";
import { foodSpeciesOf } from "../../../data/domain/food.ts";
import { $petProfile, loadPetProfile } from "../pet-profile/pet-profile.store.ts";
import { useIsClient } from "../../lib/browser/use-is-client.ts";

/** Product data goes stale after 10 seconds and is refetched on window focus. */
const staleAfterMs = 10_000;

interface Props extends FilterLists {
  title: string;
  /** The first page of the default view, rendered into the static HTML. */
  initialProducts: CardProduct[];
  initialCount: number;
  /** The default view's brands with their counts. */
  brands: BrandCount[];
  /** Set on a category page: the category is fixed by the page. */
  fixedCategory?: string;
  links: LinkContext;
}

/** The product grid island: filters and paging kept in the query string. */
export default function ProductGrid(props: Props) {
  const storedPet = useStore($petProfile);
  // The pet is in local storage, which the static HTML cannot know: none until hydrated.
  const pet = useIsClient() ? storedPet : null;
  /** The view's defaults; a food category offers the cost-per-day sort while a pet of its species is saved. */
  const defaultsFor = (saved: PetProfile | null): GridDefaults => {
    if (!props.fixedCategory) return {};
    const costSort = saved !== null && foodSpeciesOf(props.fixedCategory) === saved.species;
    return costSort ? { category: props.fixedCategory, costSortFor: saved.name } : { category: props.fixedCategory };
  };
  const defaults = defaultsFor(pet);
  const [state, setState] = useState<GridState>(() => resetFilters(defaults));
  const [products, setProducts] = useState(props.initialProducts);
  const [count, setCount] = useState(props.initialCount);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState(false);
  const lastFetch = useRef({ key: gridQueryString(resetFilters(defaults), defaults), at: Date.now() });
  const [brands, updateBrands] = useBrandCounts(props.brands, resetFilters(defaults));
  const top = useRef<HTMLElement>(null);

  const load = useCallback(async (next: GridState, quiet = false) => {
    let key = gridQueryString(next, defaults);
    lastFetch.current = { key, at: Date.now() };
    updateBrands(next);
    if (!quiet) setLoading(true);
    try {
      const saved = $petProfile.get();
      let [page, total] = await Promise.all([fetchProducts(toApiParams(next, undefined, saved)), fetchProductCount(toCountParams(next))]);
      if (lastFetch.current.key !== key) return; // a newer request superseded this one
      const clamped = clampPage(next, total);
      if (clamped.page !== next.page) {
        // Past the last page (an old link, a result that shrank): the last page, under its own address.
        key = gridQueryString(clamped, defaults);
        lastFetch.current = { key, at: Date.now() };
        setState(clamped);
        replaceQuery(key);
        page = await fetchProducts(toApiParams(clamped, undefined, saved));
        if (lastFetch.current.key !== key) return;
      }
      setProducts(page.map(toCardProduct));
      setCount(total);
      setError(false);
    } catch (cause) {
      console.error("Could not load products", cause);
      if (lastFetch.current.key === key) setError(true);
    } finally {
      if (lastFetch.current.key === key) setLoading(false);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.fixedCategory]);

  // On arrival, the query string decides the view; the static first page is used only when it matches.
  // Values the grid cannot show fall back to their defaults, and the address is put in that canonical form.
  useEffect(() => {
    // The saved pet decides whether the address's sort=cost_per_day stands (read before the address is).
    loadPetProfile();
    const defaults = defaultsFor($petProfile.get());
    const fromUrl = () => {
      const state = parseGridQuery(window.location.search, defaults);
      replaceQuery(gridQueryString(state, defaults));
      return state;
    };
    const initial = fromUrl();
    setState(initial);
    if (gridQueryString(initial, defaults) !== lastFetch.current.key) void load(initial);
    else if (Date.now() - lastFetch.current.at > staleAfterMs) void load(initial, true);
    const onPop = () => {
      const next = fromUrl();
      setState(next);
      void load(next);
    };
    const onFocus = () => {
      if (Date.now() - lastFetch.current.at > staleAfterMs) void load(parseGridQuery(window.location.search, defaults), true);
    };
    window.addEventListener("popstate", onPop);
    window.addEventListener("focus", onFocus);
    return () => {
      window.removeEventListener("popstate", onPop);
      window.removeEventListener("focus", onFocus);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [load]);

  // Live now: the page's hydration directive replays what the visitor tapped before this moment.
  useEffect(() => {
    top.current?.dispatchEvent(new Event("pawprice:island-ready", { bubbles: true }));
  }, []);

  const go = (next: GridState, scroll = false) => {
    setState(next);
    pushQuery(gridQueryString(next, defaults));
    void load(next);
    if (scroll) top.current?.scrollIntoView({ behavior: "smooth", block: "start" });
  };
  const filter = (change: GridFilters) => go(withFilter(state, change));
  const reset = () => go(resetFilters(defaults));
  const pages = pageCount(count);

  return (
    <section ref={top} aria-labelledby="grid-title" className="scroll-mt-24" data-testid="product-grid">
      <div className="mb-4 flex flex-wrap items-end justify-between gap-2">
        <h2 id="grid-title" className="text-2xl font-bold text-slate-900">
          {props.title}
        </h2>
        <p className="text-sm text-slate-600" aria-live="polite">
          {loading ? "" : `${count.toLocaleString("en-GB")} product${count === 1 ? "" : "s"}`}
        </p>
      </div>
      <ProductFilters
        state={state}
        defaults={defaults}
        categories={props.categories}
        retailers={props.retailers}
        brands={brands}
        onChange={filter}
        onReset={reset}
      />

      {loading ? (
        <p className="py-16 text-center text-slate-600" role="status">
          Finding the best deals for your pets...
        </p>
      ) : error ? (
        <div className="py-16 text-center" role="alert">
          <p className="text-slate-700">We couldn't load products just now.</p>
          <button type="button" className="btn-primary mt-4" onClick={() => void load(state)}>
            Try Again
          </button>
        </div>
      ) : products.length === 0 ? (
        <div className="py-16 text-center">
          <p className="text-slate-700">No products match your current filters. Try adjusting your search criteria.</p>
          <button type="button" className="btn-primary mt-4" onClick={reset}>
            Reset Filters
          </button>
        </div>
      ) : (
        <ul className="grid grid-cols-1 gap-4 min-[480px]:grid-cols-2 lg:grid-cols-3">
          {products.map((product) => (
            <li key={product.id}>
              <ProductCard product={product} links={props.links} petName={defaults.costSortFor} />
            </li>
          ))}
        </ul>
      )}

      <nav aria-label="Pagination" className="mt-8 flex items-center justify-center gap-3">
        <button type="button" className="btn-outline" disabled={loading || !canGoPrev(state.page)} onClick={() => go(withPage(state, state.page - 1), true)}>
          Previous
        </button>
        <span className="text-sm text-slate-700">
          Page {state.page} of {pages}
        </span>
        <button type="button" className="btn-outline" disabled={loading || !canGoNext(state.page, count)} onClick={() => go(withPage(state, state.page + 1), true)}>
          Next
        </button>
      </nav>
    </section>
  );
}
