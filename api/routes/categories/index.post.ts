import { defineAdminRoute } from "../../context.ts";
import { commitWrite } from "../../lib/catalogue-write.ts";
import { createCategory } from "../../../data/db/catalogue-writer/categories.ts";
import { categoryInput } from "../../../data/domain/catalogue-input.ts";

/** 201 with the new category; 409 when it clashes with an existing one. */
export default defineAdminRoute({ body: categoryInput }, async (event, { db, admin }, { body }) => {
  const input = await body();
  const created = commitWrite(admin, () => createCategory(db, input));
  event.res.status = 201;
  return created;
});
