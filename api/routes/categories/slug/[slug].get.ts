import { defineRoute } from "../../../context.ts";
import { cachePublic, notFound, parseWith, routeParam } from "../../../lib/http.ts";
import { slugParam } from "../../../../data/domain/queries.ts";
import { getCategoryBySlug } from "../../../../data/db/catalogue.ts";

export default defineRoute((event, { db }) => {
  const slug = parseWith(slugParam(), routeParam(event, "slug"));
  const category = getCategoryBySlug(db, slug);
  if (!category) throw notFound("Category not found");
  cachePublic(event, 60);
  return category;
});
