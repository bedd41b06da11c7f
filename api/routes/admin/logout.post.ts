import { defineRoute } from "../../context.ts";
import type { OkResponse } from "../../http/responses.ts";
import { closeSession } from "../../lib/admin-auth.ts";
import { cacheNone } from "../../http/http.ts";

/** Ends the session (if any) and clears the cookie; answers the same whether or not one was open. */
export default defineRoute({ body: null }, (event, { db, admin }) => {
  cacheNone(event);
  closeSession(db, event, admin?.publicOrigin ?? "");
  return { ok: true } satisfies OkResponse;
});
