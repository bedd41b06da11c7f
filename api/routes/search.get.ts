import { defineCachedRead } from "../http/cached-route.ts";
import { searchQuery } from "../../data/domain/queries.ts";
import { searchCatalogue } from "../../data/db/product-search.ts";
import { productJson } from "../../data/domain/catalogue-json.ts";

export default defineCachedRead({
  query: searchQuery,
  maxAgeSeconds: 10,
  read: ({ query: { q, sort, offset, limit, ...filters } }, { db }) => {
    const { products, total, suggestion } = searchCatalogue(db, q, filters, { sort, offset, limit });
    return { products: products.map(productJson), total, suggestion };
  },
});
