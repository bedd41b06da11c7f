import { defineAdminRoute } from "../../../context.ts";
import { listSubscribersWithConsent } from "../../../../data/db/subscribers.ts";

/** Every subscriber, newest first, with whether they confirmed their address. */
export default defineAdminRoute((_event, { db }) => listSubscribersWithConsent(db));
