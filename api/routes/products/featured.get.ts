import { defineRoute } from "../../context.ts";
import { cachePublic, parseQuery } from "../../lib/http.ts";
import { featuredQuery } from "../../../data/domain/queries.ts";
import { listFeaturedProducts } from "../../../data/db/products.ts";

export default defineRoute((event, { db }) => {
  const { limit } = parseQuery(event, featuredQuery);
  cachePublic(event);
  return listFeaturedProducts(db, limit);
});
