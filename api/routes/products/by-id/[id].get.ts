import { defineRoute } from "../../../context.ts";
import { cacheNone, notFound } from "../../../http/http.ts";
import { idParam } from "../../../../data/domain/queries.ts";
import { getProductById } from "../../../../data/db/products.ts";
import { productJson } from "../../../../data/domain/catalogue-json.ts";

/** Read by the admin edit form, which must see its own save at once: not cached. */
export default defineRoute({ params: { id: idParam() } }, (event, { db }, { params: { id } }) => {
  const product = getProductById(db, id);
  if (!product) throw notFound("Product not found");
  cacheNone(event);
  return productJson(product);
});
