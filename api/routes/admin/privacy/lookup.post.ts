import { defineAdminRoute } from "../../../context.ts";
import type { PersonalDataLookup } from "../../../http/responses.ts";
import { privacyKeySchema } from "../../../../data/domain/privacy.schema.ts";
import { readPersonalData } from "../../../../data/db/privacy.ts";

/**
 * Every row linked to an e-mail address or a visitor id, by kind, for a data-rights request; the
 * lookup is recorded in the audit log without the key. The key travels in the body, so it is
 * never part of a URL (server logs, browser history).
 */
export default defineAdminRoute({ body: privacyKeySchema }, async (_event, { db, admin }, { body }) => {
  const key = await body();
  return { ...readPersonalData(db, key, "lookup"), mailTransport: admin.mailTransport } satisfies PersonalDataLookup;
});
