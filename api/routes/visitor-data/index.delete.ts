import { z } from "zod";
import { defineRoute } from "../../context.ts";
import { cacheNone } from "../../http/http.ts";
import { visitorIdSchema } from "../../../data/domain/visitor.ts";
import { clearVisitorData } from "../../../data/db/privacy.ts";

const query = z.object({ userId: visitorIdSchema });

/**
 * A visitor clears their own browser's data: every row keyed on their visitor id is deleted
 * (favourites, recently viewed, price alerts and the rest); another visitor's rows stay. Answers
 * how many rows of each kind went.
 */
export default defineRoute({ query }, (event, { db }, { query: { userId } }) => {
  cacheNone(event);
  return { deleted: clearVisitorData(db, userId) };
});
