import { defineRoute } from "../context.ts";
import { cachePublic, parseQuery } from "../lib/http.ts";
import { searchQuery } from "../../data/domain/queries.ts";
import { searchProducts } from "../../data/db/products.ts";

export default defineRoute((event, { db }) => {
  const { q, offset, limit } = parseQuery(event, searchQuery);
  cachePublic(event);
  return searchProducts(db, q, { offset, limit });
});
