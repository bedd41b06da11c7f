import { defineMachineRoute } from "../../../context.ts";
import { notFound } from "../../../http/http.ts";
import { getNightlyRun } from "../../../../data/db/nightly-runs.ts";
import { idParam } from "../../../../data/domain/queries.ts";

/** A nightly run: its status, the step it is on, each step's outcome so far, its error and the release it built; 404 when there is none. */
export default defineMachineRoute({ params: { id: idParam() } }, (_event, { ctx: { db } }, { params }) => {
  const run = getNightlyRun(db, params.id);
  if (!run) throw notFound("Nightly run not found");
  const { id, status, step, summary, error, releaseId, queuedAt, startedAt, finishedAt } = run;
  return { id, status, step, summary, error, releaseId, queuedAt, startedAt, finishedAt };
});
