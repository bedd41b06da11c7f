import { defineAdminRoute } from "../../../context.ts";
import { commitWrite } from "../../../lib/catalogue-write.ts";
import { rejectHeldPrice } from "../../../../data/db/price-writer.ts";
import { idParam } from "../../../../data/domain/queries.ts";

/** Drops a held price; the published one stays. 404 unknown, 409 already reviewed. */
export default defineAdminRoute({ params: { id: idParam() }, body: null }, (_event, { db, admin }, { params: { id } }) => {
  return commitWrite(admin, () => rejectHeldPrice(db, id));
});
