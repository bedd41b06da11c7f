import { defineAdminRoute } from "../../../context.ts";
import { privacyKeySchema } from "../../../../data/domain/privacy.schema.ts";
import { erasePersonalData } from "../../../../data/db/privacy.ts";

/**
 * Erases everything linked to an e-mail address or a visitor id in one transaction (the admin
 * screen asks for confirmation first) and answers how many rows of each kind went; recorded in
 * the audit log without the key.
 */
export default defineAdminRoute({ body: privacyKeySchema }, async (_event, { db }, { body }) => {
  const key = await body();
  return erasePersonalData(db, key);
});
