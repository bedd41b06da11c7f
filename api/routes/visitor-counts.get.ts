import { z } from "zod";
import { defineRoute } from "../context.ts";
import { cacheNone } from "../http/http.ts";
import { visitorIdSchema } from "../../data/domain/visitor.ts";
import { visitorCounts } from "../../data/db/visitor-counts.ts";

const query = z.object({ userId: visitorIdSchema });

/** The visitor's favourite and active-alert counts (the header's badges); their own data, never cached. */
export default defineRoute({ query }, (event, { db }, { query: { userId } }) => {
  cacheNone(event);
  return visitorCounts(db, userId);
});
