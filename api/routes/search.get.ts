import { defineCachedRead } from "../lib/cached-route.ts";
import { searchQuery } from "../../data/domain/queries.ts";
import { searchProducts } from "../../data/db/products.ts";

export default defineCachedRead({
  query: searchQuery,
  maxAgeSeconds: 10,
  read: ({ query: { q, offset, limit } }, { db }) => searchProducts(db, q, { offset, limit }),
});
