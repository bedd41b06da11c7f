import { HTTPError } from "h3";
import { defineAdminRoute } from "../../../context.ts";
import { badRequest } from "../../../http/http.ts";
import { sourceView } from "../../../feed-imports.ts";
import { WriteRefused } from "../../../../data/db/catalogue-writer/transaction.ts";
import { createFeedSource } from "../../../../data/db/feed-sources.ts";
import { feedSourceInput, mappingProblem } from "../../../../data/domain/feed-sources.schema.ts";

/** Adds a feed source: 201 with it (its URL masked); 400 for bad input, 409 when the name is taken. A file source gets its file by PUT .../file. */
export default defineAdminRoute({ body: feedSourceInput }, async (event, { db, admin }, { body }) => {
  const input = await body();
  const problem = mappingProblem(input.layout ?? "auto", input.mapping ?? null);
  if (problem) throw badRequest(problem);
  let source;
  try {
    source = createFeedSource(db, input, new Date());
  } catch (error) {
    if (error instanceof WriteRefused) throw new HTTPError({ status: error.status, message: error.message });
    throw error;
  }
  admin.feedImports.replan();
  event.res.status = 201;
  return sourceView(source, null, admin.feedImports.nextRun(source.id));
});
