import { useCallback, useEffect, useRef, useState } from "react";
import {
  clampPage,
  gridQueryString,
  pageCount,
  parseGridQuery,
  resetFilters,
  toApiParams,
  withFilter,
  withPage,
  type GridDefaults,
  type GridFilters,
  type GridState,
} from "../../../data/domain/grid-query.ts";
import { categoryPath, searchBasePath } from "../../../data/domain/paths.ts";
import type { SearchResponse } from "../../../api/http/responses.ts";
import { fetchSearch } from "../../lib/api.ts";
import { pushQuery, replaceQuery } from "../../lib/browser/address.ts";
import { toCardProduct, type CardProduct } from "../products/card-product.ts";
import { ProductCard, type LinkContext } from "../products/ProductCard.tsx";
import { ProductFilters, type FilterLists } from "../products/ProductFilters.tsx";
import { useBrandCounts } from "../products/use-brand-counts.ts";

type Status = "idle" | "loading" | "done";

/** The search page's view: the grid's filters, sort and paging with the text q (grid-query.ts). */
const defaults: GridDefaults = { search: true };

interface Props extends FilterLists {
  links: LinkContext;
}

/**
 * The search page: results for ?q=, 15 a page, 3 columns, narrowed and sorted
 * with the product grid's filters, all kept in the address as the grid keeps them.
 */
export default function SearchResults({ links, ...lists }: Props) {
  const [state, setState] = useState<GridState>(() => resetFilters(defaults));
  const [products, setProducts] = useState<CardProduct[]>([]);
  const [total, setTotal] = useState(0);
  const [suggestion, setSuggestion] = useState<SearchResponse["suggestion"]>(null);
  const [status, setStatus] = useState<Status>("idle");
  const heading = useRef<HTMLHeadingElement>(null);
  const latest = useRef(0);
  // The brands of this search: none is known until the text is (the page is the same for every search).
  const [brands, updateBrands] = useBrandCounts([]);

  const load = useCallback(async (next: GridState) => {
    setState(next);
    const id = ++latest.current;
    if (!next.q) {
      // An empty query returns nothing without calling the server.
      setProducts([]);
      setTotal(0);
      setSuggestion(null);
      setStatus("done");
      return;
    }
    updateBrands(next);
    setStatus("loading");
    try {
      let result = await fetchSearch(toApiParams(next));
      if (id !== latest.current) return;
      const clamped = clampPage(next, result.total);
      if (clamped.page !== next.page) {
        // Past the last page (an old link, fewer results now): the last page, under its own address.
        setState(clamped);
        replaceQuery(gridQueryString(clamped, defaults));
        result = await fetchSearch(toApiParams(clamped));
        if (id !== latest.current) return;
      }
      setProducts(result.products.map(toCardProduct));
      setTotal(result.total);
      setSuggestion(result.suggestion);
    } catch (error) {
      // A non-ok search response is treated as no results.
      console.error("Search failed", error);
      if (id !== latest.current) return;
      setProducts([]);
      setTotal(0);
      setSuggestion(null);
    }
    setStatus("done");
  }, []);

  // The address decides the view; values the page cannot show fall back to their defaults, and
  // the address is put in that canonical form.
  useEffect(() => {
    const fromUrl = () => {
      const next = parseGridQuery(window.location.search, defaults);
      replaceQuery(gridQueryString(next, defaults));
      void load(next);
    };
    fromUrl();
    window.addEventListener("popstate", fromUrl);
    return () => window.removeEventListener("popstate", fromUrl);
  }, [load]);

  useEffect(() => {
    document.title = state.q ? `Search Results for "${state.q}" | ${links.siteName}` : `Search | ${links.siteName}`;
  }, [state.q, links.siteName]);

  const go = (next: GridState, scroll = false) => {
    pushQuery(gridQueryString(next, defaults));
    void load(next);
    if (scroll) heading.current?.scrollIntoView({ behavior: "smooth", block: "start" });
  };
  const filter = (change: GridFilters) => go(withFilter(state, change));
  const reset = () => go(resetFilters(defaults, state));
  const filtered = gridQueryString(withPage(state, 1), defaults) !== gridQueryString(resetFilters(defaults, state), defaults);

  const pages = pageCount(total);
  // The corrected search, with the same filters and sort: a link that works without the island too.
  const corrected = suggestion ? withPage({ ...state, q: suggestion.q }, 1) : null;
  const suggestionLink = corrected && suggestion && (
    <a
      href={`${searchBasePath}${gridQueryString(corrected, defaults)}`}
      className="font-semibold text-brand-700 underline hover:text-brand-800"
      onClick={(event) => {
        event.preventDefault();
        go(corrected);
      }}
    >
      {suggestion.label}
    </a>
  );
  return (
    <section aria-labelledby="search-title" data-testid="search-results">
      <h1 ref={heading} id="search-title" className="scroll-mt-24 text-3xl font-extrabold tracking-tight text-slate-900">
        {state.q ? `Search Results for "${state.q}"` : "Search"}
      </h1>
      {state.q && (
        <div className="mt-6">
          <ProductFilters state={state} defaults={defaults} {...lists} brands={brands} onChange={filter} onReset={reset} />
        </div>
      )}
      {status === "loading" ? (
        <p className="py-16 text-center text-slate-600" role="status">
          Searching for the best deals...
        </p>
      ) : status === "idle" ? null : !state.q ? (
        <p className="mt-4 text-slate-700">Type what you're looking for in the search box above, for example "Royal Canin" or "dog bed".</p>
      ) : products.length === 0 ? (
        <div className="py-16 text-center" data-testid="search-empty">
          <p className="text-lg font-semibold text-slate-900">No products found</p>
          <p className="mt-2 text-slate-700">No products match your search... Try different keywords or browse our categories.</p>
          <ul className="mt-4 flex flex-wrap justify-center gap-2" aria-label="Our categories">
            {lists.categories.map((category) => (
              <li key={category.slug}>
                <a href={categoryPath(category.slug)} className="btn-outline px-3 py-1.5 text-sm">
                  {category.name}
                </a>
              </li>
            ))}
          </ul>
          {filtered && (
            <button type="button" className="btn-primary mt-4" onClick={reset}>
              Reset Filters
            </button>
          )}
        </div>
      ) : (
        <>
          {suggestion?.applied ? (
            <p className="mb-2 text-slate-700" data-testid="search-corrected">
              No products match "{state.q}". Showing results for <strong className="text-slate-900">{suggestion.label}</strong>.
            </p>
          ) : (
            suggestion && (
              <p className="mb-2 text-slate-700" data-testid="did-you-mean">
                Did you mean {suggestionLink}?
              </p>
            )
          )}
          <p className="text-slate-700" aria-live="polite">
            Found {total.toLocaleString("en-GB")} product(s) (Page {state.page} of {pages})
          </p>
          <ul className="mt-6 grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {products.map((product) => (
              <li key={product.id}>
                <ProductCard product={product} links={links} />
              </li>
            ))}
          </ul>
          {pages > 1 && (
            <nav aria-label="Pagination" className="mt-8 flex items-center justify-center gap-3">
              <button type="button" className="btn-outline" disabled={state.page <= 1} onClick={() => go(withPage(state, state.page - 1), true)}>
                Previous Page
              </button>
              <button type="button" className="btn-outline" disabled={state.page >= pages} onClick={() => go(withPage(state, state.page + 1), true)}>
                Next Page
              </button>
            </nav>
          )}
        </>
      )}
    </section>
  );
}
