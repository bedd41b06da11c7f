import { defineCachedRead } from "../../http/cached-route.ts";
import { productCountQuery } from "../../../data/domain/queries.ts";
import { countProducts } from "../../../data/db/products.ts";

export default defineCachedRead({
  query: productCountQuery,
  maxAgeSeconds: 10,
  read: ({ query }, { db }) => ({ count: countProducts(db, query) }),
});
