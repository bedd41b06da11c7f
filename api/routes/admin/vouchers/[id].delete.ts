import { defineAdminRoute } from "../../../context.ts";
import { commitWrite } from "../../../lib/catalogue-write.ts";
import { noContent } from "../../../http/http.ts";
import { deleteVoucher } from "../../../../data/db/catalogue-writer/vouchers.ts";
import { idParam } from "../../../../data/domain/queries.ts";

export default defineAdminRoute({ params: { id: idParam() } }, (_event, { db, admin }, { params: { id } }) => {
  commitWrite(admin, () => deleteVoucher(db, id));
  return noContent();
});
