/** Build-time props of the product grid island: the first page (static HTML) and the filter lists. */
import { gridPageSize } from "../../data/domain/grid-query.ts";
import { siteConfig } from "../../data/config.ts";
import { compareStorageKey } from "../features/compare/compare.store.ts";
import { favoritesSavedKey } from "../features/favorites/favorites.store.ts";
import { toCardProduct } from "../features/products/card-product.ts";
import { productJson } from "../../data/domain/catalogue-json.ts";
import type { FilterLists } from "../features/products/ProductFilters.tsx";
import { allCategories, buildAffiliateIds, comparisonRetailers, gridBrandCounts, gridFirstPage } from "./build-data.ts";

/**
 * The grid's `client:interaction` keys: a visit that compares products or a browser with saved
 * favourites hydrates the grid at once, so its cards show them; any other visit on first touch.
 */
export const gridStateKeys = [compareStorageKey, favoritesSavedKey].join(",");

export function gridProps(title: string, fixedCategory?: string) {
  const { products, count } = gridFirstPage(fixedCategory ? { category: fixedCategory } : {}, gridPageSize);
  return {
    title,
    // Island props are JSON in the page: the API's shape, money in pounds.
    initialProducts: products.map((product) => toCardProduct(productJson(product))),
    initialCount: count,
    ...filterLists(),
    brands: gridBrandCounts(fixedCategory),
    fixedCategory,
    links: { affiliateIds: buildAffiliateIds(), siteName: siteConfig.siteName },
  };
}

/** The filters' fixed option lists (ProductFilters), as the grid and the search page show them. */
export function filterLists(): FilterLists {
  return {
    categories: allCategories().map(({ slug, name }) => ({ slug, name })),
    retailers: comparisonRetailers().map(({ id, name }) => ({ id, name })),
  };
}
