import { defineCachedRead } from "../../http/cached-route.ts";
import { notFound } from "../../http/http.ts";
import { brandFacetQuery } from "../../../data/domain/queries.ts";
import { getCategoryBySlug } from "../../../data/db/catalogue.ts";
import { listBrandCounts } from "../../../data/db/facets.ts";

/**
 * The brands of a view, each with its count: `[{ brand, count }]` by name (the grid's brand
 * filter). Without parameters every brand in the catalogue; `category`, `retailer`,
 * `minPrice`/`maxPrice` and `q` narrow it as the grid's filters and the search do. An unknown
 * category is a 404 (a typo, not an empty view).
 */
export default defineCachedRead({
  query: brandFacetQuery,
  maxAgeSeconds: 60,
  read: ({ query }, { db }) => {
    if (query.category !== undefined && !getCategoryBySlug(db, query.category)) throw notFound("Category not found");
    return listBrandCounts(db, query);
  },
});
