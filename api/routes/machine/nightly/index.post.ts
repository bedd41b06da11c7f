import { HTTPError } from "h3";
import { defineMachineRoute } from "../../../context.ts";
import { NightlyStopping } from "../../../nightly.ts";

/**
 * Starts the nightly job: 202 `{ id, status }` at once (GET /api/machine/nightly/{id} follows it).
 * While a run is queued or running, that run is answered instead: one run at a time.
 */
export default defineMachineRoute({ body: null }, (event, { ctx: { machine }, token }) => {
  let run;
  try {
    ({ run } = machine.nightly.start(`token:${token.id}`));
  } catch (error) {
    if (error instanceof NightlyStopping) throw new HTTPError({ status: 503, message: error.message });
    throw error;
  }
  event.res.status = 202;
  event.res.headers.set("location", `/api/machine/nightly/${run.id}`);
  return { id: run.id, status: run.status };
});
