import { defineAdminRoute } from "../../../../context.ts";
import type { FeedRunList } from "../../../../http/responses.ts";
import { notFound } from "../../../../http/http.ts";
import { sourceRef } from "../../../../lib/feed-source-routes.ts";
import { configuredFeedId } from "../../../../feed-imports.ts";
import { feedSourceKey, getFeedSource, listRuns } from "../../../../../data/db/feed-sources.ts";

/** A source's latest 20 runs, newest first: `{ runs }`; 404 no such source. */
export default defineAdminRoute({ params: { id: sourceRef } }, (_event, { db, admin }, { params: { id: ref } }) => {
  if (ref === configuredFeedId) {
    if (!admin.feedImports.configured.has(configuredFeedId)) throw notFound("Feed source not found");
    return { runs: listRuns(db, configuredFeedId) } satisfies FeedRunList;
  }
  if (!getFeedSource(db, ref)) throw notFound("Feed source not found");
  return { runs: listRuns(db, feedSourceKey(ref)) } satisfies FeedRunList;
});
