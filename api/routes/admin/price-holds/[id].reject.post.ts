import { defineAdminRoute } from "../../../context.ts";
import { commitWrite } from "../../../lib/catalogue-write.ts";
import { parseWith, routeParam } from "../../../lib/http.ts";
import { rejectHeldPrice } from "../../../../data/db/price-writer.ts";
import { idParam } from "../../../../data/domain/queries.ts";

/** Drops a held price; the published one stays. 404 unknown, 409 already reviewed. */
export default defineAdminRoute((event, { db, admin }) => {
  const id = parseWith(idParam(), routeParam(event, "id"));
  return commitWrite(admin, () => rejectHeldPrice(db, id));
});
