import { defineRoute } from "../../context.ts";
import { cachePublic, parseQuery } from "../../lib/http.ts";
import { productListQuery } from "../../../data/domain/queries.ts";
import { listProducts } from "../../../data/db/products.ts";

export default defineRoute((event, { db }) => {
  const { sort, offset, limit, ...filters } = parseQuery(event, productListQuery);
  cachePublic(event);
  return listProducts(db, filters, { sort, offset, limit });
});
