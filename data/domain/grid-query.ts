/**
 * The product grid's filter state and the query string that carries it; the search page uses
 * the same filters, sort and paging with its text `q`.
 * Query strings are visitor input: anything invalid falls back to the default instead of
 * reaching the API as a 400.
 */
import { formatPriceRange, parsePriceRange } from "./price-range.ts";
import { costPerDaySort, defaultSearchSort, defaultSort, isSearchSortKey, isSortKey, searchSortOptions, sortOffered, sortOptionsFor, type CostPerDaySortKey, type SearchSortKey } from "./sorting.ts";
import { petQueryParams } from "./food.ts";
import type { PetBody } from "./feeding.ts";
import { defaultPageSize, positiveInteger, toParams, validPage } from "./query-values.ts";
import { maxBrandLength } from "./catalogue.ts";
import { slugPattern } from "./slug.ts";

export interface GridState {
  /** The search text: on the search page only (trimmed; "" when none was given). */
  q?: string;
  /** Category slug. */
  category?: string;
  /** Retailer id. */
  retailer?: number;
  /** Brand name; the select's 'all' means no filter and is stored as undefined. */
  brand?: string;
  /** A price-range option value such as "10-25"; 'any' is stored as undefined. */
  priceRange?: string;
  /** One of the view's sort options: the grid's, on the search page also "relevance", on a food category with a pet saved also "cost_per_day". */
  sort: GridSortKey;
  page: number;
}

export interface GridDefaults {
  /** On a category page the category is fixed by the page, not by the query string. */
  category?: string;
  /** The search page: the state carries the text `q`, and the sort options start with relevance (the default). */
  search?: boolean;
  /** The view offers the cost-per-day sort: a food category of the species of the pet saved in this browser (whose name is this; cards say "a day for {name}"). */
  costSortFor?: string;
}

/** A sort a grid can be in. */
export type GridSortKey = SearchSortKey | CostPerDaySortKey;

export type GridFilters = Partial<Omit<GridState, "page" | "q">>;

/**
 * The sort options of a view: the grid's (with price per kg in a category sold by weight, and the
 * cost per day where the view offers it), or the search page's (relevance first).
 */
export function gridSortOptions(defaults: GridDefaults = {}, category?: string): readonly { value: GridSortKey; label: string }[] {
  if (defaults.search) return searchSortOptions;
  const options = sortOptionsFor(category);
  return defaults.costSortFor === undefined ? options : [...options, costPerDaySort];
}

/**
 * A grid sort that its category does not offer (price per kg outside one sold by weight) is
 * dropped; whether the cost per day is offered is decided with the view (parseGridQuery).
 */
const offeredSort = (sort: GridSortKey | undefined, category: string | undefined): GridSortKey | undefined =>
  sort === undefined || sort === "relevance" || sort === costPerDaySort.value || sortOffered(sort, category) ? sort : undefined;

/** The default sort of a view: best sellers, or on the search page the best match. */
export function gridDefaultSort(defaults: GridDefaults = {}): GridSortKey {
  return defaults.search ? defaultSearchSort : defaultSort;
}

/** Products per page of the grid and the search results: the API's default limit. */
export const gridPageSize = defaultPageSize;

const allBrands = "all";
const anyPrice = "any";

function validCategory(value: string | null | undefined): string | undefined {
  return value && slugPattern.test(value) ? value : undefined;
}

function validBrand(value: string | null | undefined): string | undefined {
  const brand = value?.trim();
  return brand && brand !== allBrands && brand.length <= maxBrandLength ? brand : undefined;
}

/** A price-range value in its canonical form ("10-25"), or undefined for 'any' and bad text. */
function validPriceRange(value: string | null | undefined): string | undefined {
  const bounds = parsePriceRange(value);
  if (bounds === null) return undefined;
  if (bounds.minPrice !== undefined && bounds.maxPrice !== undefined && bounds.minPrice > bounds.maxPrice) return undefined;
  const canonical = formatPriceRange(bounds);
  return canonical === anyPrice ? undefined : canonical;
}

/** Builds a state without undefined keys, so states compare and serialise cleanly. */
function gridState(filters: GridFilters & { q?: string | undefined }, page: number, fallbackSort: GridSortKey = defaultSort): GridState {
  const state: GridState = { sort: filters.sort ?? fallbackSort, page };
  if (filters.q !== undefined) state.q = filters.q;
  if (filters.category !== undefined) state.category = filters.category;
  if (filters.retailer !== undefined) state.retailer = filters.retailer;
  if (filters.brand !== undefined) state.brand = filters.brand;
  if (filters.priceRange !== undefined) state.priceRange = filters.priceRange;
  return state;
}

/**
 * Reads the grid state from a query string; invalid values fall back to the defaults.
 * @example parseGridQuery("?brand=Royal+Canin&sort=price_asc&page=2") // { brand: "Royal Canin", sort: "price_asc", page: 2 }
 * @example parseGridQuery("?sort=nope&page=0&brand=all") // { sort: "rank_asc", page: 1 }
 * @example parseGridQuery("?category=x", { category: "dog-food" }) // { category: "dog-food", sort: "rank_asc", page: 1 }
 * @example parseGridQuery("?q=+cat+&sort=relevance", { search: true }) // { q: "cat", sort: "relevance", page: 1 }
 */
export function parseGridQuery(search: string | URLSearchParams, defaults: GridDefaults = {}): GridState {
  const params = toParams(search);
  const sort = params.get("sort");
  // The cost per day only where the view offers it (a food category with a pet of its species saved).
  const validSort = defaults.search ? isSearchSortKey(sort) : isSortKey(sort) || (sort === costPerDaySort.value && defaults.costSortFor !== undefined);
  const category = defaults.category ?? validCategory(params.get("category"));
  return gridState(
    {
      q: defaults.search ? (params.get("q") ?? "").trim() : undefined,
      category,
      retailer: positiveInteger(params.get("retailer")),
      brand: validBrand(params.get("brand")),
      priceRange: validPriceRange(params.get("priceRange")),
      sort: validSort ? offeredSort(sort as GridSortKey, category) : undefined,
    },
    validPage(params.get("page")),
    gridDefaultSort(defaults),
  );
}

/**
 * The query string for a grid state, "" when everything is at its default. Parameters come in
 * a fixed order (q, category, retailer, brand, priceRange, sort, page); page 1, the view's
 * default sort and a category fixed by the page are left out. The search text is written as
 * the header's search form writes it (spaces as %20).
 * @example gridQueryString({ brand: "Lily's Kitchen", sort: "rank_asc", page: 1 }) // "?brand=Lily%27s+Kitchen"
 * @example gridQueryString({ category: "dog-food", sort: "price_asc", page: 3 }, { category: "dog-food" }) // "?sort=price_asc&page=3"
 * @example gridQueryString({ q: "royal canin", sort: "price_asc", page: 2 }, { search: true }) // "?q=royal%20canin&sort=price_asc&page=2"
 */
export function gridQueryString(state: GridState, defaults: GridDefaults = {}): string {
  const parts: string[] = [];
  if (defaults.search && state.q) parts.push(`q=${encodeURIComponent(state.q)}`);
  const params = new URLSearchParams();
  if (defaults.category === undefined && state.category) params.set("category", state.category);
  if (state.retailer !== undefined) params.set("retailer", String(state.retailer));
  if (state.brand) params.set("brand", state.brand);
  if (state.priceRange) params.set("priceRange", state.priceRange);
  if (state.sort !== gridDefaultSort(defaults)) params.set("sort", state.sort);
  if (state.page > 1) params.set("page", String(state.page));
  const filters = params.toString();
  if (filters) parts.push(filters);
  return parts.length > 0 ? `?${parts.join("&")}` : "";
}

/**
 * Applies a filter change; any change sends the visitor back to page 1. The selects' 'all'
 * brand and 'any' price range clear their filter.
 * @example withFilter({ sort: "rank_asc", page: 4 }, { brand: "Whiskas" }) // { brand: "Whiskas", sort: "rank_asc", page: 1 }
 * @example withFilter({ brand: "Whiskas", sort: "rank_asc", page: 2 }, { brand: "all" }) // { sort: "rank_asc", page: 1 }
 */
export function withFilter(state: GridState, change: GridFilters): GridState {
  const next = { ...state, ...change };
  return gridState(
    {
      q: state.q,
      category: next.category,
      retailer: next.retailer,
      brand: validBrand(next.brand),
      priceRange: validPriceRange(next.priceRange),
      sort: offeredSort(next.sort, next.category),
    },
    1,
  );
}

/**
 * Moves to another page, keeping the filters; a page below 1 or not whole becomes 1.
 * @example withPage({ sort: "rank_asc", page: 1 }, 2) // { sort: "rank_asc", page: 2 }
 */
export function withPage(state: GridState, page: number): GridState {
  return { ...state, page: validPage(page) };
}

/**
 * The state after Reset Filters: no filters, the view's default sort, page 1 (a category page
 * keeps its category, the search page the text of `from`).
 * @example resetFilters() // { sort: "rank_asc", page: 1 }
 * @example resetFilters({ category: "cat-food" }) // { category: "cat-food", sort: "rank_asc", page: 1 }
 * @example resetFilters({ search: true }, { q: "cat", brand: "Felix", sort: "price_asc", page: 2 }) // { q: "cat", sort: "relevance", page: 1 }
 */
export function resetFilters(defaults: GridDefaults = {}, from?: GridState): GridState {
  return gridState({ category: defaults.category, q: defaults.search ? (from?.q ?? "") : undefined }, 1, gridDefaultSort(defaults));
}

/**
 * The filter part of the API query, as sent to GET /api/products/count (and with the search
 * text to GET /api/search).
 * @example toCountParams({ brand: "Whiskas", priceRange: "100-", sort: "rank_asc", page: 1 }) // { brand: "Whiskas", minPrice: "100" }
 */
export function toCountParams(state: GridState): Record<string, string> {
  const params: Record<string, string> = {};
  if (state.q) params.q = state.q;
  if (state.category) params.category = state.category;
  if (state.retailer !== undefined) params.retailer = String(state.retailer);
  if (state.brand) params.brand = state.brand;
  const bounds = parsePriceRange(state.priceRange) ?? {};
  if (bounds.minPrice !== undefined) params.minPrice = String(bounds.minPrice);
  if (bounds.maxPrice !== undefined) params.maxPrice = String(bounds.maxPrice);
  return params;
}

/**
 * The query for GET /api/brands/counts: the view's filters and search text but the brand, since a
 * brand's count is what choosing it would give.
 * @example toFacetParams({ category: "dog-food", brand: "Whiskas", priceRange: "10-25", sort: "price_asc", page: 2 }) // { category: "dog-food", minPrice: "10", maxPrice: "25" }
 */
export function toFacetParams(state: GridState): Record<string, string> {
  const { brand: _brand, ...params } = toCountParams(state);
  return params;
}

/**
 * The query for GET /api/products: the filters, the sort and the page as offset and limit; with
 * the cost-per-day sort also the pet's body (`petQueryParams`, never its name).
 * @example toApiParams({ priceRange: "10-25", sort: "price_asc", page: 3 }) // { minPrice: "10", maxPrice: "25", sort: "price_asc", offset: "30", limit: "15" }
 * @example toApiParams({ category: "dog-food", sort: "cost_per_day", page: 1 }, 15, rex) // { category: "dog-food", sort: "cost_per_day", offset: "0", limit: "15", species: "dog", weightKg: "12", … }
 */
export function toApiParams(state: GridState, pageSize: number = gridPageSize, pet: PetBody | null = null): Record<string, string> {
  return {
    ...toCountParams(state),
    sort: state.sort,
    offset: String((validPage(state.page) - 1) * pageSize),
    limit: String(pageSize),
    ...(state.sort === costPerDaySort.value && pet !== null ? petQueryParams(pet) : {}),
  };
}

/**
 * How many pages a result has; at least 1, so "Page 1 of 1" shows for an empty result.
 * @example pageCount(31, 15) // 3
 * @example pageCount(0, 15) // 1
 */
export function pageCount(count: number, pageSize: number = gridPageSize): number {
  return Math.max(1, Math.ceil(count / pageSize));
}

/**
 * The state with its page brought within the result: a page past the last one (an old link, a
 * result that shrank) becomes the last page; an empty result has one page.
 * @example clampPage({ sort: "rank_asc", page: 40 }, 120) // { sort: "rank_asc", page: 8 }
 * @example clampPage({ sort: "rank_asc", page: 3 }, 0) // { sort: "rank_asc", page: 1 }
 */
export function clampPage(state: GridState, count: number, pageSize: number = gridPageSize): GridState {
  const last = pageCount(count, pageSize);
  return state.page > last ? withPage(state, last) : state;
}

/**
 * Whether Next is enabled: false when the page is at or beyond ceil(count / page size).
 * @example canGoNext(1, 16, 15) // true
 * @example canGoNext(2, 30, 15) // false
 */
export function canGoNext(page: number, count: number, pageSize: number = gridPageSize): boolean {
  return page < Math.ceil(count / pageSize);
}

/**
 * Whether Previous is enabled: false on page 1.
 * @example canGoPrev(1) // false
 */
export function canGoPrev(page: number): boolean {
  return page > 1;
}
