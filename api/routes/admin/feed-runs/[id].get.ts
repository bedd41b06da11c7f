import { defineAdminRoute } from "../../../context.ts";
import { notFound } from "../../../http/http.ts";
import { getRun } from "../../../../data/db/feed-sources.ts";
import { idParam } from "../../../../data/domain/queries.ts";

/** One import run with its live counters (while it runs) or its result: 404 when there is none. */
export default defineAdminRoute({ params: { id: idParam() } }, (_event, { db }, { params: { id } }) => {
  const run = getRun(db, id);
  if (!run) throw notFound("Import run not found");
  return run;
});
