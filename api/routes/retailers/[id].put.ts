import { defineAdminRoute } from "../../context.ts";
import { commitWrite } from "../../lib/catalogue-write.ts";
import { updateRetailer } from "../../../data/db/catalogue-writer/retailers.ts";
import { getRetailerById } from "../../../data/db/catalogue.ts";
import { retailerInput } from "../../../data/domain/catalogue-input.ts";
import { idParam } from "../../../data/domain/queries.ts";

export default defineAdminRoute({ params: { id: idParam() }, body: retailerInput }, async (_event, { db, admin }, { params: { id }, body }) => {
  const input = await body();
  const updated = commitWrite(admin, () => updateRetailer(db, id, input));
  // Answered as GET /api/retailers/:id reads it (pounds, not the writer's pence).
  return getRetailerById(db, updated.id);
});
