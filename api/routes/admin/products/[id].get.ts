import { defineAdminRoute } from "../../../context.ts";
import { notFound } from "../../../http/http.ts";
import { getAdminProduct } from "../../../../data/db/admin-reads.ts";
import { idParam } from "../../../../data/domain/queries.ts";

/** A product as the edit form loads it (the shape it saves). */
export default defineAdminRoute({ params: { id: idParam() } }, (_event, { db }, { params: { id } }) => {
  const product = getAdminProduct(db, id);
  if (!product) throw notFound("Product not found");
  return product;
});
