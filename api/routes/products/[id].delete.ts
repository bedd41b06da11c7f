import { defineAdminRoute } from "../../context.ts";
import { commitWrite } from "../../lib/catalogue-write.ts";
import { noContent, parseWith, routeParam } from "../../lib/http.ts";
import { deleteProduct } from "../../../data/db/catalogue-writer.ts";
import { idParam } from "../../../data/domain/queries.ts";

/** Deletes a product with its offers, history and the visitor data attached to it. */
export default defineAdminRoute((event, { db, admin }) => {
  const id = parseWith(idParam(), routeParam(event, "id"));
  commitWrite(admin, () => deleteProduct(db, id));
  return noContent();
});
