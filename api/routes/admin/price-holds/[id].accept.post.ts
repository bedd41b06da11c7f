import { defineAdminRoute } from "../../../context.ts";
import { commitWrite } from "../../../lib/catalogue-write.ts";
import { acceptHeldPrice } from "../../../../data/db/price-writer.ts";
import { idParam } from "../../../../data/domain/queries.ts";

/** Publishes a held price (history, best price, alerts, rebuild). 404 unknown, 409 already reviewed. */
export default defineAdminRoute({ params: { id: idParam() }, body: null }, (_event, { db, admin }, { params: { id } }) => {
  return commitWrite(admin, () => acceptHeldPrice(db, id));
});
