import { defineAdminRoute } from "../../../../context.ts";
import type { StartedRun } from "../../../../http/responses.ts";
import { editableSource, importError, sourceRef } from "../../../../lib/feed-source-routes.ts";
import { configuredFeedId } from "../../../../feed-imports.ts";
import { notFound } from "../../../../http/http.ts";

/**
 * Starts an import of the source in the background: 202 `{ runId, run }` at once (GET
 * /api/admin/feed-runs/{runId} follows it). 409 while the source has a run going, or a file
 * source with no file yet; 404 no such source (nor a configured feed); 503 the configured feed cannot be used.
 */
export default defineAdminRoute({ params: { id: sourceRef }, body: null }, (event, { db, admin }, { params: { id: ref } }) => {
  try {
    if (ref === configuredFeedId && !admin.feedImports.configured.has(configuredFeedId)) throw notFound("Feed source not found");
    const target = ref === configuredFeedId ? admin.feedImports.configuredTarget(configuredFeedId) : admin.feedImports.targetOf(editableSource(ref, db));
    const run = admin.feedImports.start(target, "admin");
    event.res.status = 202;
    return { runId: run.id, run } satisfies StartedRun;
  } catch (error) {
    throw importError(error);
  }
});
