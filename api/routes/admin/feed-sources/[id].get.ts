import { defineAdminRoute } from "../../../context.ts";
import { notFound } from "../../../http/http.ts";
import { sourceRef } from "../../../lib/feed-source-routes.ts";

/** One feed source as the list shows it (its URL masked); 404 when there is none. */
export default defineAdminRoute({ params: { id: sourceRef } }, (_event, { admin }, { params: { id: ref } }) => {
  const view = admin.feedImports.views().find((source) => source.id === ref);
  if (!view) throw notFound("Feed source not found");
  return view;
});
