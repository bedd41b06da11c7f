import { defineAdminRoute } from "../../context.ts";
import { commitWrite } from "../../lib/catalogue-write.ts";
import { createRetailer } from "../../../data/db/catalogue-writer/retailers.ts";
import { getRetailerById } from "../../../data/db/catalogue.ts";
import { retailerInput } from "../../../data/domain/catalogue-input.ts";

/** 201 with the new retailer as GET /api/retailers/:id reads it; 409 when it clashes with an existing one. */
export default defineAdminRoute({ body: retailerInput }, async (event, { db, admin }, { body }) => {
  const input = await body();
  const created = commitWrite(admin, () => createRetailer(db, input));
  event.res.status = 201;
  return getRetailerById(db, created.id);
});
