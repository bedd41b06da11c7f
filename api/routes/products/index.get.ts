import { defineCachedRead } from "../../lib/cached-route.ts";
import { productListQuery } from "../../../data/domain/queries.ts";
import { listProducts } from "../../../data/db/products.ts";

export default defineCachedRead({
  query: productListQuery,
  maxAgeSeconds: 10,
  read: ({ query: { sort, offset, limit, ...filters } }, { db }) => listProducts(db, filters, { sort, offset, limit }),
});
