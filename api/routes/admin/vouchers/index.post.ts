import { defineAdminRoute } from "../../../context.ts";
import { commitWrite } from "../../../lib/catalogue-write.ts";
import { createVoucher } from "../../../../data/db/catalogue-writer/vouchers.ts";
import { voucherInput } from "../../../../data/domain/catalogue-input.ts";

/** 201 with the voucher; 409 when the retailer already has the code. */
export default defineAdminRoute({ body: voucherInput }, async (event, { db, admin }, { body }) => {
  const input = await body();
  const created = commitWrite(admin, () => createVoucher(db, input));
  event.res.status = 201;
  return created;
});
