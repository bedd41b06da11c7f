import { defineAdminRoute } from "../../../context.ts";
import { noContent, notFound, parseWith, routeParam } from "../../../lib/http.ts";
import { deleteSubscriber } from "../../../../data/db/subscribers.ts";
import { idParam } from "../../../../data/domain/queries.ts";

export default defineAdminRoute((event, { db }) => {
  if (!deleteSubscriber(db, parseWith(idParam(), routeParam(event, "id")))) throw notFound("Subscriber not found");
  return noContent();
});
