/**
 * The product filters: category (unless the page fixes it), retailer, brand,
 * price range, sort and Reset Filters, as the product grid and the search results show them.
 * It only reports changes; the island that holds the state applies them (grid-query.ts).
 */
import {
  gridQueryString,
  gridSortOptions,
  resetFilters,
  type GridDefaults,
  type GridFilters,
  type GridState,
} from "../../../data/domain/grid-query.ts";
import { brandLabel, brandOptions, sameBrand, type BrandCount } from "../../../data/domain/facets.ts";
import { priceRangeOptions } from "../../../data/domain/price-range.ts";
import type { GridSortKey } from "../../../data/domain/grid-query.ts";

/** The filters' fixed option lists, built into the page. */
export interface FilterLists {
  categories: { slug: string; name: string }[];
  retailers: { id: number; name: string }[];
}

interface Props extends FilterLists {
  /** The view's brands with their counts (the chosen brand is added when the list lacks it). */
  brands: BrandCount[];
  state: GridState;
  defaults: GridDefaults;
  onChange: (change: GridFilters) => void;
  onReset: () => void;
}

const selectClass =
  "w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 focus:border-brand-600 focus:outline-none focus-visible:outline-2";

function Select(props: { label: string; id: string; value: string; onChange: (value: string) => void; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <label htmlFor={props.id} className="mb-1 block text-xs font-semibold text-slate-700">
        {props.label}
      </label>
      <select id={props.id} value={props.value} onChange={(event) => props.onChange(event.target.value)} className={selectClass}>
        {props.children}
      </select>
    </div>
  );
}

export function ProductFilters({ state, defaults, categories, retailers, brands, onChange, onReset }: Props) {
  const atReset = gridQueryString(state, defaults) === gridQueryString(resetFilters(defaults, state), defaults);
  const brandList = brandOptions(brands, state.brand);
  // The address may spell the chosen brand in another case than the list (the filter ignores case).
  const chosenBrand = state.brand === undefined ? "all" : (brandList.find((option) => sameBrand(option.brand, state.brand!))?.brand ?? state.brand);
  return (
    <form className="card mb-6 grid grid-cols-2 gap-3 p-4 md:grid-cols-3 lg:grid-cols-6 lg:items-end" onSubmit={(event) => event.preventDefault()} aria-label="Filter products">
      {!defaults.category && (
        <Select label="Category" id="filter-category" value={state.category ?? ""} onChange={(value) => onChange({ category: value || undefined })}>
          <option value="">All categories</option>
          {categories.map((category) => (
            <option key={category.slug} value={category.slug}>
              {category.name}
            </option>
          ))}
        </Select>
      )}
      <Select label="Retailer" id="filter-retailer" value={state.retailer ? String(state.retailer) : ""} onChange={(value) => onChange({ retailer: value ? Number(value) : undefined })}>
        <option value="">All retailers</option>
        {retailers.map((retailer) => (
          <option key={retailer.id} value={retailer.id}>
            {retailer.name}
          </option>
        ))}
      </Select>
      <Select label="Brand" id="filter-brand" value={chosenBrand} onChange={(value) => onChange({ brand: value })}>
        <option value="all">All brands</option>
        {brandList.map((option) => (
          <option key={option.brand} value={option.brand}>
            {brandLabel(option)}
          </option>
        ))}
      </Select>
      <Select label="Price" id="filter-price" value={state.priceRange ?? "any"} onChange={(value) => onChange({ priceRange: value })}>
        {priceRangeOptions.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </Select>
      <Select label="Sort by" id="filter-sort" value={state.sort} onChange={(value) => onChange({ sort: value as GridSortKey })}>
        {gridSortOptions(defaults, state.category).map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </Select>
      <button type="button" onClick={onReset} className="btn-outline col-span-2 md:col-span-1" disabled={atReset}>
        Reset Filters
      </button>
    </form>
  );
}
