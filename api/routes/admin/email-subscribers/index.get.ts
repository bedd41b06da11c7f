import { defineAdminRoute } from "../../../context.ts";
import { listSubscribers } from "../../../../data/db/admin-reads.ts";

/** Every subscriber, newest first. */
export default defineAdminRoute((_event, { db }) => listSubscribers(db));
