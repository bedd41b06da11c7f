import { defineCachedRead } from "../../http/cached-route.ts";
import { featuredQuery } from "../../../data/domain/queries.ts";
import { listFeaturedProducts } from "../../../data/db/products.ts";

export default defineCachedRead({
  query: featuredQuery,
  maxAgeSeconds: 10,
  read: ({ query: { limit } }, { db }) => listFeaturedProducts(db, limit),
});
