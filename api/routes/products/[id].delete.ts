import { defineAdminRoute } from "../../context.ts";
import { commitWrite } from "../../lib/catalogue-write.ts";
import { noContent } from "../../http/http.ts";
import { deleteProduct } from "../../../data/db/catalogue-writer/products.ts";
import { idParam } from "../../../data/domain/queries.ts";

/** Deletes a product with its offers, history and the visitor data attached to it. */
export default defineAdminRoute({ params: { id: idParam() } }, (_event, { db, admin }, { params: { id } }) => {
  commitWrite(admin, () => deleteProduct(db, id));
  return noContent();
});
