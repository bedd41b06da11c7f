import { defineAdminRoute } from "../../../context.ts";
import { notFound, parseWith, routeParam } from "../../../lib/http.ts";
import { getAdminProduct } from "../../../../data/db/admin-reads.ts";
import { idParam } from "../../../../data/domain/queries.ts";

/** A product as the edit form loads it (the shape it saves). */
export default defineAdminRoute((event, { db }) => {
  const product = getAdminProduct(db, parseWith(idParam(), routeParam(event, "id")));
  if (!product) throw notFound("Product not found");
  return product;
});
