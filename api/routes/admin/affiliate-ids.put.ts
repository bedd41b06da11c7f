import { defineAdminRoute } from "../../context.ts";
import { commitWrite } from "../../lib/catalogue-write.ts";
import { setAffiliateIds } from "../../../data/db/catalogue-writer/affiliate-ids.ts";
import { affiliateIdsInput } from "../../../data/domain/catalogue-input.ts";

/** All five IDs are required; saving them rebuilds every page (every outbound link carries one). */
export default defineAdminRoute({ body: affiliateIdsInput, messagesAsIs: true }, async (_event, { db, admin }, { body }) => {
  // The five messages are the form's own ("Amazon affiliate ID is required").
  const ids = await body();
  return commitWrite(admin, () => setAffiliateIds(db, ids));
});
