import { z } from "zod";
import { defineRoute } from "../context.ts";
import { cacheNone } from "../http/http.ts";
import { idParam } from "../../data/domain/queries.ts";
import { visitorIdSchema } from "../../data/domain/visitor.ts";
import { findFavorite } from "../../data/db/favorites.ts";

const query = z.object({ userId: visitorIdSchema, productId: idParam("productId") });

export default defineRoute({ query }, (event, { db }, { query: { userId, productId } }) => {
  const favorite = findFavorite(db, userId, productId);
  cacheNone(event);
  return { isFavorite: favorite !== null, favoriteId: favorite?.id ?? null };
});
