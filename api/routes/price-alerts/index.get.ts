import { z } from "zod";
import { defineRoute } from "../../context.ts";
import { cacheNone } from "../../http/http.ts";
import { visitorIdSchema } from "../../../data/domain/visitor.ts";
import { listAlerts } from "../../../data/db/alerts.ts";

const query = z.object({ userId: visitorIdSchema });

export default defineRoute({ query }, (event, { db }, { query: { userId } }) => {
  cacheNone(event);
  return listAlerts(db, userId);
});
