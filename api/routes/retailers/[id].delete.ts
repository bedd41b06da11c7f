import { defineAdminRoute } from "../../context.ts";
import { commitWrite } from "../../lib/catalogue-write.ts";
import { noContent } from "../../http/http.ts";
import { deleteRetailer } from "../../../data/db/catalogue-writer/retailers.ts";
import { idParam } from "../../../data/domain/queries.ts";

/** 409 while products still use it. */
export default defineAdminRoute({ params: { id: idParam() } }, (_event, { db, admin }, { params: { id } }) => {
  commitWrite(admin, () => deleteRetailer(db, id));
  return noContent();
});
