import { defineAdminRoute } from "../../context.ts";
import type { StartedRun } from "../../http/responses.ts";
import { importError } from "../../lib/feed-source-routes.ts";

/**
 * Starts an import of the configured product source (IMPORT_SOURCE, default the sample feed) in
 * the background: 202 `{ runId, run }` at once; GET /api/admin/feed-runs/{runId} follows it to its
 * result. 503 when the source cannot be used as configured (the message says why, e.g. missing
 * credentials); 409 while that source has a run going. A feed that turns out not to be a feed
 * ends its run failed, with the reason.
 */
export default defineAdminRoute({ body: null }, (event, { admin }) => {
  try {
    const run = admin.feedImports.start(admin.feedImports.defaultTarget(), "admin");
    event.res.status = 202;
    return { runId: run.id, run } satisfies StartedRun;
  } catch (error) {
    throw importError(error);
  }
});
