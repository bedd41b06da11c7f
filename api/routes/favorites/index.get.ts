import { z } from "zod";
import { defineRoute } from "../../context.ts";
import { cacheNone, parseQuery } from "../../lib/http.ts";
import { visitorIdSchema } from "../../../data/domain/visitor.ts";
import { listFavorites } from "../../../data/db/favorites.ts";

const query = z.object({ userId: visitorIdSchema });

export default defineRoute((event, { db }) => {
  const { userId } = parseQuery(event, query);
  cacheNone(event);
  return listFavorites(db, userId);
});
