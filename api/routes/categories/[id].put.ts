import { defineAdminRoute } from "../../context.ts";
import { commitWrite } from "../../lib/catalogue-write.ts";
import { parseWith, readJson, routeParam } from "../../lib/http.ts";
import { updateCategory } from "../../../data/db/catalogue-writer.ts";
import { categoryInput } from "../../../data/domain/catalogue-input.ts";
import { idParam } from "../../../data/domain/queries.ts";

export default defineAdminRoute(async (event, { db, admin }) => {
  const id = parseWith(idParam(), routeParam(event, "id"));
  const input = await readJson(event, categoryInput);
  return commitWrite(admin, () => updateCategory(db, id, input));
});
