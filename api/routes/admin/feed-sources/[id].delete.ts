import fs from "node:fs";
import { HTTPError } from "h3";
import { defineAdminRoute } from "../../../context.ts";
import { noContent } from "../../../http/http.ts";
import { editableSource, sourceRef } from "../../../lib/feed-source-routes.ts";
import { uploadPath } from "../../../feed-imports.ts";
import { deleteFeedSource, feedSourceKey, listRuns } from "../../../../data/db/feed-sources.ts";

/** Deletes a feed source, its runs and its uploaded file: 204; 404 no such source; 409 while it is importing, or for the configured feed. */
export default defineAdminRoute({ params: { id: sourceRef } }, (_event, { db, admin }, { params }) => {
  const source = editableSource(params.id, db);
  const latest = listRuns(db, feedSourceKey(source.id), 1)[0];
  if (latest && (latest.status === "queued" || latest.status === "running")) {
    throw new HTTPError({ status: 409, message: `"${source.name}" is importing (run ${latest.id}); delete it when the run has finished` });
  }
  deleteFeedSource(db, source.id);
  if (source.storedFile) fs.rmSync(uploadPath(admin.feedImports.uploadsDir, source.storedFile), { force: true });
  admin.feedImports.replan();
  return noContent();
});
