import { defineRoute } from "../../context.ts";
import { cachePublic } from "../../lib/http.ts";
import { listRetailers } from "../../../data/db/catalogue.ts";

export default defineRoute((event, { db }) => {
  cachePublic(event, 60);
  return listRetailers(db);
});
