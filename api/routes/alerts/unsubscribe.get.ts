import { defineRoute } from "../../context.ts";
import { alertUnsubscribe, unsubscribeFromLink } from "../../lib/unsubscribe.ts";

/** The one-click link in every price-alert mail: switches that alert off and answers a small page. */
export default defineRoute((event, { db }) => unsubscribeFromLink(event, db, alertUnsubscribe));
