import { defineAdminRoute } from "../../context.ts";
import { commitWrite } from "../../lib/catalogue-write.ts";
import { updateProduct } from "../../../data/db/catalogue-writer/products.ts";
import { productInput } from "../../../data/domain/catalogue-input.ts";
import { idParam } from "../../../data/domain/queries.ts";

/** Replaces a product's fields and offers (offers not listed are removed). */
export default defineAdminRoute({ params: { id: idParam() }, body: productInput }, async (_event, { db, admin }, { params: { id }, body }) => {
  const input = await body();
  return commitWrite(admin, () => updateProduct(db, id, input));
});
