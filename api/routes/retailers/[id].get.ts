import { defineRoute } from "../../context.ts";
import { cachePublic, notFound, parseWith, routeParam } from "../../lib/http.ts";
import { idParam } from "../../../data/domain/queries.ts";
import { getRetailerById } from "../../../data/db/catalogue.ts";

export default defineRoute((event, { db }) => {
  const id = parseWith(idParam(), routeParam(event, "id"));
  const retailer = getRetailerById(db, id);
  if (!retailer) throw notFound("Retailer not found");
  cachePublic(event, 60);
  return retailer;
});
