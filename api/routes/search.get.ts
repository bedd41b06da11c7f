import { defineCachedRead } from "../http/cached-route.ts";
import { searchQuery } from "../../data/domain/queries.ts";
import { searchCatalogue } from "../../data/db/product-search.ts";

export default defineCachedRead({
  query: searchQuery,
  maxAgeSeconds: 10,
  read: ({ query: { q, sort, offset, limit, ...filters } }, { db }) => searchCatalogue(db, q, filters, { sort, offset, limit }),
});
