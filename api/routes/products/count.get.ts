import { defineRoute } from "../../context.ts";
import { cachePublic, parseQuery } from "../../lib/http.ts";
import { productCountQuery } from "../../../data/domain/queries.ts";
import { countProducts } from "../../../data/db/products.ts";

export default defineRoute((event, { db }) => {
  const filters = parseQuery(event, productCountQuery);
  cachePublic(event);
  return { count: countProducts(db, filters) };
});
