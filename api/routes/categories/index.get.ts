import { defineRoute } from "../../context.ts";
import { cachePublic } from "../../lib/http.ts";
import { listCategories } from "../../../data/db/catalogue.ts";

export default defineRoute((event, { db }) => {
  cachePublic(event, 60);
  return listCategories(db);
});
