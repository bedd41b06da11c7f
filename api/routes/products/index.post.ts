import { defineAdminRoute } from "../../context.ts";
import { commitWrite } from "../../lib/catalogue-write.ts";
import { readJson } from "../../lib/http.ts";
import { createProduct } from "../../../data/db/catalogue-writer.ts";
import { productInput } from "../../../data/domain/catalogue-input.ts";

/** Creates a product with its offers: 201 with its id and slug; 409 when the slug is taken. */
export default defineAdminRoute(async (event, { db, admin }) => {
  const input = await readJson(event, productInput);
  const created = commitWrite(admin, () => createProduct(db, input));
  event.res.status = 201;
  return created;
});
