import { defineAdminRoute } from "../../context.ts";
import { commitWrite } from "../../lib/catalogue-write.ts";
import { updateCategory } from "../../../data/db/catalogue-writer/categories.ts";
import { categoryInput } from "../../../data/domain/catalogue-input.ts";
import { idParam } from "../../../data/domain/queries.ts";

export default defineAdminRoute({ params: { id: idParam() }, body: categoryInput }, async (_event, { db, admin }, { params: { id }, body }) => {
  const input = await body();
  return commitWrite(admin, () => updateCategory(db, id, input));
});
