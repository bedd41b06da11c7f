import { defineAdminRoute } from "../../../context.ts";
import { noContent, notFound } from "../../../http/http.ts";
import { deleteSubscriber } from "../../../../data/db/subscribers.ts";
import { idParam } from "../../../../data/domain/queries.ts";

export default defineAdminRoute({ params: { id: idParam() } }, (_event, { db }, { params: { id } }) => {
  if (!deleteSubscriber(db, id)) throw notFound("Subscriber not found");
  return noContent();
});
