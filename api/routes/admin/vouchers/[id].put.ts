import { defineAdminRoute } from "../../../context.ts";
import { commitWrite } from "../../../lib/catalogue-write.ts";
import { updateVoucher } from "../../../../data/db/catalogue-writer/vouchers.ts";
import { voucherInput } from "../../../../data/domain/catalogue-input.ts";
import { idParam } from "../../../../data/domain/queries.ts";

export default defineAdminRoute({ params: { id: idParam() }, body: voucherInput }, async (_event, { db, admin }, { params: { id }, body }) => {
  const input = await body();
  return commitWrite(admin, () => updateVoucher(db, id, input));
});
