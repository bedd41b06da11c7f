import { defineAdminRoute } from "../../context.ts";
import { commitWrite } from "../../lib/catalogue-write.ts";
import { noContent, parseWith, routeParam } from "../../lib/http.ts";
import { deleteCategory } from "../../../data/db/catalogue-writer.ts";
import { idParam } from "../../../data/domain/queries.ts";

/** 409 while products still use it. */
export default defineAdminRoute((event, { db, admin }) => {
  const id = parseWith(idParam(), routeParam(event, "id"));
  commitWrite(admin, () => deleteCategory(db, id));
  return noContent();
});
