import { z } from "zod";
import { defineRoute } from "../../context.ts";
import { noContent, notFound } from "../../http/http.ts";
import { idParam } from "../../../data/domain/queries.ts";
import { visitorIdSchema } from "../../../data/domain/visitor.ts";
import { deleteAlert } from "../../../data/db/alerts.ts";

const query = z.object({ userId: visitorIdSchema });

/** Only the visitor who created it can delete it: another visitor's id is a 404. */
export default defineRoute({ params: { id: idParam() }, query }, (_event, { db }, { params: { id }, query: { userId } }) => {
  if (!deleteAlert(db, id, userId)) throw notFound("Price alert not found");
  return noContent();
});
