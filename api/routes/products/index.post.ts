import { defineAdminRoute } from "../../context.ts";
import { commitWrite } from "../../lib/catalogue-write.ts";
import { createProduct } from "../../../data/db/catalogue-writer/products.ts";
import { productInput } from "../../../data/domain/catalogue-input.ts";

/** Creates a product with its offers: 201 with its id and slug; 409 when the slug is taken. */
export default defineAdminRoute({ body: productInput }, async (event, { db, admin }, { body }) => {
  const input = await body();
  const created = commitWrite(admin, () => createProduct(db, input));
  event.res.status = 201;
  return created;
});
