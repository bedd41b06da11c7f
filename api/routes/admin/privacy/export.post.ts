import { defineAdminRoute } from "../../../context.ts";
import { siteConfig } from "../../../../data/config.ts";
import { ukToday } from "../../../../data/domain/dates.ts";
import { slugify } from "../../../../data/domain/slug.ts";
import { personalDataDocument, personalDataFileName } from "../../../../data/domain/privacy.ts";
import { privacyKeySchema } from "../../../../data/domain/privacy.schema.ts";
import { readPersonalData } from "../../../../data/db/privacy.ts";

/**
 * A subject access export: every row linked to the key as one JSON file download (timestamps
 * ISO-8601), with what was searched for and how rows were linked; recorded in the audit log
 * without the key. The file's name carries the site and the date, nothing of the person.
 */
export default defineAdminRoute({ body: privacyKeySchema }, async (_event, { db }, { body }) => {
  const key = await body();
  const now = new Date();
  const report = readPersonalData(db, key, "export", now);
  const document = personalDataDocument(report, key.kind === "email" ? key.email : key.userId, { siteName: siteConfig.siteName, now });
  return new Response(JSON.stringify(document, null, 2), {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="${personalDataFileName(slugify(siteConfig.siteName), ukToday(now))}"`,
      "cache-control": "no-store",
    },
  });
});
