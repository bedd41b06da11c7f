/** Build-time props of the product grid island: the first page (static HTML) and the filter lists. */
import { listComparisonRetailers } from "../../data/db/catalogue.ts";
import { countProducts, listBrands, listProducts } from "../../data/db/products.ts";
import { defaultSort } from "../../data/domain/sorting.ts";
import { gridPageSize } from "../../data/domain/grid-query.ts";
import { siteConfig } from "../../data/config.ts";
import { allCategories, buildAffiliateIds, buildDb } from "./build-data.ts";

let shared: { brands: string[]; retailers: { id: number; name: string }[] } | undefined;

export function gridProps(title: string, fixedCategory?: string) {
  const db = buildDb();
  shared ??= {
    brands: listBrands(db),
    retailers: listComparisonRetailers(db).map(({ id, name }) => ({ id, name })),
  };
  const filters = fixedCategory ? { category: fixedCategory } : {};
  return {
    title,
    initialProducts: listProducts(db, filters, { sort: defaultSort, offset: 0, limit: gridPageSize }),
    initialCount: countProducts(db, filters),
    categories: allCategories().map(({ slug, name }) => ({ slug, name })),
    retailers: shared.retailers,
    brands: shared.brands,
    fixedCategory,
    links: { affiliateIds: buildAffiliateIds(), siteName: siteConfig.siteName },
  };
}
