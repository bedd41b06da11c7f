import { defineRoute } from "../context.ts";
import { cachePublic } from "../lib/http.ts";
import { listBrands } from "../../data/db/products.ts";

export default defineRoute((event, { db }) => {
  cachePublic(event, 60);
  return listBrands(db);
});
