import { z } from "zod";
import { defineRoute } from "../../context.ts";
import { noContent, notFound } from "../../http/http.ts";
import { idParam } from "../../../data/domain/queries.ts";
import { visitorIdSchema } from "../../../data/domain/visitor.ts";
import { removeFavorite } from "../../../data/db/favorites.ts";

const query = z.object({ userId: visitorIdSchema });

/** Only the visitor who saved it can remove it: another visitor's id is a 404, as if it did not exist. */
export default defineRoute({ params: { id: idParam() }, query }, (_event, { db }, { params: { id }, query: { userId } }) => {
  if (!removeFavorite(db, id, userId)) throw notFound("Favorite not found");
  return noContent();
});
