import { HTTPError } from "h3";
import { defineAdminRoute } from "../../../context.ts";
import { badRequest } from "../../../http/http.ts";
import { editableSource, sourceRef } from "../../../lib/feed-source-routes.ts";
import { sourceView } from "../../../feed-imports.ts";
import { WriteRefused } from "../../../../data/db/catalogue-writer/transaction.ts";
import { feedSourceKey, listRuns, updateFeedSource } from "../../../../data/db/feed-sources.ts";
import { feedSourceChanges, mappingProblem } from "../../../../data/domain/feed-sources.schema.ts";

/**
 * Changes a feed source: the fields sent change, the others (the URL above all, which the admin
 * never sees whole) are kept. 200 with the source; 400 bad input, 404 no such source, 409 a name
 * taken or the configured feed. The schedules are planned again.
 */
export default defineAdminRoute({ params: { id: sourceRef }, body: feedSourceChanges }, async (_event, { db, admin }, { params, body }) => {
  const current = editableSource(params.id, db);
  const changes = await body();
  const problem = mappingProblem(changes.layout ?? current.layout, changes.mapping === undefined ? current.mapping : changes.mapping);
  if (problem) throw badRequest(problem);
  let source;
  try {
    source = updateFeedSource(db, current.id, changes, new Date());
  } catch (error) {
    if (error instanceof WriteRefused) throw new HTTPError({ status: error.status, message: error.message });
    throw error;
  }
  if (!source) throw new HTTPError({ status: 404, message: "Feed source not found" });
  admin.feedImports.replan();
  return sourceView(source, listRuns(db, feedSourceKey(source.id), 1)[0] ?? null, admin.feedImports.nextRun(source.id));
});
