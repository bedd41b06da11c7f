import { defineAdminRoute } from "../../context.ts";
import { commitWrite } from "../../lib/catalogue-write.ts";
import { parseWith, readJson, routeParam } from "../../lib/http.ts";
import { updateProduct } from "../../../data/db/catalogue-writer.ts";
import { productInput } from "../../../data/domain/catalogue-input.ts";
import { idParam } from "../../../data/domain/queries.ts";

/** Replaces a product's fields and offers (offers not listed are removed). */
export default defineAdminRoute(async (event, { db, admin }) => {
  const id = parseWith(idParam(), routeParam(event, "id"));
  const input = await readJson(event, productInput);
  return commitWrite(admin, () => updateProduct(db, id, input));
});
