import { defineRoute } from "../../context.ts";
import { cachePublic, notFound, parseWith, routeParam } from "../../lib/http.ts";
import { slugParam } from "../../../data/domain/queries.ts";
import { getProductBySlug } from "../../../data/db/products.ts";

export default defineRoute((event, { db }) => {
  const slug = parseWith(slugParam(), routeParam(event, "slug"));
  const product = getProductBySlug(db, slug);
  if (!product) throw notFound("Product not found");
  cachePublic(event);
  return product;
});
