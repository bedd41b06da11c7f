import { useCallback, useEffect, useRef, useState } from "react";
import { gridPageSize, pageCount } from "../../../data/domain/grid-query.ts";
import { parseSearchQuery, searchPageQuery, searchQueryString } from "../../../data/domain/search-query.ts";
import { fetchSearch } from "../../lib/api.ts";
import { replaceQuery } from "../../lib/browser/address.ts";
import { toCardProduct, type CardProduct } from "../products/card-product.ts";
import { ProductCard, type LinkContext } from "../products/ProductCard.tsx";

type Status = "idle" | "loading" | "done" | "failed";

/** The search page (SPEC.md section 2): results for ?q=&page=, 15 a page, 3 columns. */
export default function SearchResults({ links }: { links: LinkContext }) {
  const [query, setQuery] = useState({ q: "", page: 1 });
  const [products, setProducts] = useState<CardProduct[]>([]);
  const [total, setTotal] = useState(0);
  const [status, setStatus] = useState<Status>("idle");
  const heading = useRef<HTMLHeadingElement>(null);
  const latest = useRef(0);

  const load = useCallback(async (q: string, page: number) => {
    setQuery({ q, page });
    if (!q.trim()) {
      // An empty query returns nothing without calling the server.
      setProducts([]);
      setTotal(0);
      setStatus("done");
      return;
    }
    const id = ++latest.current;
    setStatus("loading");
    try {
      const result = await fetchSearch({ q: q.trim(), offset: (page - 1) * gridPageSize, limit: gridPageSize });
      if (id !== latest.current) return;
      const last = pageCount(result.total);
      if (page > last) {
        // Past the last page (an old link, fewer results now): the last page, under its own address.
        replaceQuery(searchPageQuery(q, last)!);
        void load(q, last);
        return;
      }
      setProducts(result.products.map(toCardProduct));
      setTotal(result.total);
      setStatus("done");
    } catch (error) {
      // SPEC.md section 7: a non-ok search response is treated as empty.
      console.error("Search failed", error);
      if (id !== latest.current) return;
      setProducts([]);
      setTotal(0);
      setStatus("done");
    }
  }, []);

  useEffect(() => {
    const fromUrl = () => {
      const { q, page } = parseSearchQuery(window.location.search);
      // The address in its canonical form: the text trimmed, a bad or first page left out.
      const canonical = searchPageQuery(q, page);
      if (canonical !== null) replaceQuery(canonical);
      void load(q, page);
    };
    fromUrl();
    window.addEventListener("popstate", fromUrl);
    return () => window.removeEventListener("popstate", fromUrl);
  }, [load]);

  useEffect(() => {
    document.title = query.q ? `Search Results for "${query.q}" | ${links.siteName}` : `Search | ${links.siteName}`;
  }, [query.q, links.siteName]);

  const goToPage = (page: number) => {
    const url = searchQueryString(query.q, page);
    if (url === null) return;
    window.history.pushState(null, "", url);
    void load(query.q, page);
    heading.current?.scrollIntoView({ behavior: "smooth", block: "start" });
  };

  const pages = pageCount(total);
  return (
    <section aria-labelledby="search-title" data-testid="search-results">
      <h1 ref={heading} id="search-title" className="scroll-mt-24 text-3xl font-extrabold tracking-tight text-slate-900">
        {query.q ? `Search Results for "${query.q}"` : "Search"}
      </h1>
      {status === "loading" ? (
        <p className="py-16 text-center text-slate-600" role="status">
          Searching for the best deals...
        </p>
      ) : status === "idle" ? null : !query.q.trim() ? (
        <p className="mt-4 text-slate-700">Type what you're looking for in the search box above, for example "Royal Canin" or "dog bed".</p>
      ) : products.length === 0 ? (
        <div className="py-16 text-center">
          <p className="text-lg font-semibold text-slate-900">No products found</p>
          <p className="mt-2 text-slate-700">No products match your search... Try different keywords or browse our categories.</p>
        </div>
      ) : (
        <>
          <p className="mt-2 text-slate-700" aria-live="polite">
            Found {total.toLocaleString("en-GB")} product(s) (Page {query.page} of {pages})
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
              <button type="button" className="btn-outline" disabled={query.page <= 1} onClick={() => goToPage(query.page - 1)}>
                Previous Page
              </button>
              <button type="button" className="btn-outline" disabled={query.page >= pages} onClick={() => goToPage(query.page + 1)}>
                Next Page
              </button>
            </nav>
          )}
        </>
      )}
    </section>
  );
}
