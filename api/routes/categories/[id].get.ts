import { defineRoute } from "../../context.ts";
import { cachePublic, notFound, parseWith, routeParam } from "../../lib/http.ts";
import { idParam } from "../../../data/domain/queries.ts";
import { getCategoryById } from "../../../data/db/catalogue.ts";

export default defineRoute((event, { db }) => {
  const id = parseWith(idParam(), routeParam(event, "id"));
  const category = getCategoryById(db, id);
  if (!category) throw notFound("Category not found");
  cachePublic(event, 60);
  return category;
});
