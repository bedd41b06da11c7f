import { defineRoute } from "../../context.ts";
import { alertUnsubscribe, unsubscribeOneClick } from "../../lib/unsubscribe.ts";

/** RFC 8058 one-click unsubscribe, sent by mail clients for a price-alert mail's List-Unsubscribe header. */
export default defineRoute((event, { db }) => unsubscribeOneClick(event, db, alertUnsubscribe));
