import { z } from "zod";
import { defineRoute } from "../../context.ts";
import { notFound, parseQuery, parseWith, readJson, routeParam } from "../../lib/http.ts";
import { idParam } from "../../../data/domain/queries.ts";
import { notesSchema, visitorIdSchema } from "../../../data/domain/visitor.ts";
import { updateFavoriteNotes } from "../../../data/db/favorites.ts";

const query = z.object({ userId: visitorIdSchema });
const body = z.object({ notes: notesSchema });

/** Sets the note shown under 'Your notes:' on /favorites; an empty note clears it. */
export default defineRoute(async (event, { db }) => {
  const id = parseWith(idParam(), routeParam(event, "id"));
  const { userId } = parseQuery(event, query);
  const { notes } = await readJson(event, body);
  const favorite = updateFavoriteNotes(db, id, userId, notes);
  if (!favorite) throw notFound("Favorite not found");
  return favorite;
});
