import { defineAdminRoute } from "../../../context.ts";
import { commitWrite } from "../../../lib/catalogue-write.ts";
import { noContent, parseWith, routeParam } from "../../../lib/http.ts";
import { deleteVoucher } from "../../../../data/db/catalogue-writer.ts";
import { idParam } from "../../../../data/domain/queries.ts";

export default defineAdminRoute((event, { db, admin }) => {
  const id = parseWith(idParam(), routeParam(event, "id"));
  commitWrite(admin, () => deleteVoucher(db, id));
  return noContent();
});
