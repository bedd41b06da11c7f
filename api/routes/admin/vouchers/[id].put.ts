import { defineAdminRoute } from "../../../context.ts";
import { commitWrite } from "../../../lib/catalogue-write.ts";
import { parseWith, readJson, routeParam } from "../../../lib/http.ts";
import { updateVoucher } from "../../../../data/db/catalogue-writer.ts";
import { voucherInput } from "../../../../data/domain/catalogue-input.ts";
import { idParam } from "../../../../data/domain/queries.ts";

export default defineAdminRoute(async (event, { db, admin }) => {
  const id = parseWith(idParam(), routeParam(event, "id"));
  const input = await readJson(event, voucherInput);
  return commitWrite(admin, () => updateVoucher(db, id, input));
});
