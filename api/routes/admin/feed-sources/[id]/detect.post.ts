import fs from "node:fs";
import { HTTPError } from "h3";
import { defineAdminRoute } from "../../../../context.ts";
import { editableSource, importError, sourceRef } from "../../../../lib/feed-source-routes.ts";
import { sniffFeedUrl } from "../../../../lib/feed-download.ts";
import { uploadPath } from "../../../../feed-imports.ts";
import { sniffFeed } from "../../../../../data/feeds/read-feed.ts";

/**
 * Detects a source's format, layout and columns from the first bytes of its feed (a URL's
 * download is cut off after them, through the guarded fetch): 200 `{ format, layout, columns,
 * sample, description }`. 409 a file source with no file yet; 422 not a feed; 400 a URL that may
 * not be fetched (not a public address); 502 a download that failed.
 */
export default defineAdminRoute({ params: { id: sourceRef }, body: null }, async (_event, { db, admin }, { params }) => {
  const source = editableSource(params.id, db);
  try {
    if (source.kind === "url") return await sniffFeedUrl(source.url!, { allowance: admin.feedImports.allowance });
    const file = source.storedFile ? uploadPath(admin.feedImports.uploadsDir, source.storedFile) : null;
    if (!file || !fs.existsSync(file)) throw new HTTPError({ status: 409, message: `Upload a feed file for "${source.name}" first` });
    return await sniffFeed(file);
  } catch (error) {
    throw importError(error);
  }
});
