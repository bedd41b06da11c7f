import { defineAdminRoute } from "../../context.ts";
import { commitWrite } from "../../lib/catalogue-write.ts";
import { parseWith, readJson, routeParam } from "../../lib/http.ts";
import { updateRetailer } from "../../../data/db/catalogue-writer.ts";
import { getRetailerById } from "../../../data/db/catalogue.ts";
import { retailerInput } from "../../../data/domain/catalogue-input.ts";
import { idParam } from "../../../data/domain/queries.ts";

export default defineAdminRoute(async (event, { db, admin }) => {
  const id = parseWith(idParam(), routeParam(event, "id"));
  const input = await readJson(event, retailerInput);
  const updated = commitWrite(admin, () => updateRetailer(db, id, input));
  // Answered as GET /api/retailers/:id reads it (pounds, not the writer's pence).
  return getRetailerById(db, updated.id);
});
