import { defineCachedRead } from "../../http/cached-route.ts";
import { featuredQuery } from "../../../data/domain/queries.ts";
import { listFeaturedProducts } from "../../../data/db/products.ts";
import { productJson } from "../../../data/domain/catalogue-json.ts";

export default defineCachedRead({
  query: featuredQuery,
  maxAgeSeconds: 10,
  read: ({ query: { limit } }, { db }) => listFeaturedProducts(db, limit).map(productJson),
});
