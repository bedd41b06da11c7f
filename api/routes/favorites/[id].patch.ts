import { z } from "zod";
import { defineRoute } from "../../context.ts";
import { notFound } from "../../http/http.ts";
import { idParam } from "../../../data/domain/queries.ts";
import { notesSchema, visitorIdSchema } from "../../../data/domain/visitor.ts";
import { updateFavoriteNotes } from "../../../data/db/favorites.ts";

const query = z.object({ userId: visitorIdSchema });
const bodySchema = z.object({ notes: notesSchema });

/** Sets the note shown under 'Your notes:' on /favorites; an empty note clears it. */
export default defineRoute({ params: { id: idParam() }, query, body: bodySchema }, async (_event, { db }, { params: { id }, query: { userId }, body }) => {
  const { notes } = await body();
  const favorite = updateFavoriteNotes(db, id, userId, notes);
  if (!favorite) throw notFound("Favorite not found");
  return favorite;
});
