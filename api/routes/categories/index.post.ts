import { defineAdminRoute } from "../../context.ts";
import { commitWrite } from "../../lib/catalogue-write.ts";
import { readJson } from "../../lib/http.ts";
import { createCategory } from "../../../data/db/catalogue-writer.ts";
import { categoryInput } from "../../../data/domain/catalogue-input.ts";

/** 201 with the new category; 409 when it clashes with an existing one. */
export default defineAdminRoute(async (event, { db, admin }) => {
  const input = await readJson(event, categoryInput);
  const created = commitWrite(admin, () => createCategory(db, input));
  event.res.status = 201;
  return created;
});
