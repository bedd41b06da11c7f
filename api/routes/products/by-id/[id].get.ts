import { defineRoute } from "../../../context.ts";
import { cacheNone, notFound, parseWith, routeParam } from "../../../lib/http.ts";
import { idParam } from "../../../../data/domain/queries.ts";
import { getProductById } from "../../../../data/db/products.ts";

/** Read by the admin edit form, which must see its own save at once: not cached. */
export default defineRoute((event, { db }) => {
  const id = parseWith(idParam(), routeParam(event, "id"));
  const product = getProductById(db, id);
  if (!product) throw notFound("Product not found");
  cacheNone(event);
  return product;
});
