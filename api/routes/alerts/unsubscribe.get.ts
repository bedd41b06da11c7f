import { defineRoute } from "../../context.ts";
import { alertUnsubscribe, unsubscribeFromLink, unsubscribeQuery } from "../../lib/unsubscribe.ts";

/** The unsubscribe link in every price-alert mail: a page with a button that switches the alert off; opening it changes nothing. */
export default defineRoute({ query: unsubscribeQuery }, (event, { db }, { query }) => unsubscribeFromLink(event, db, alertUnsubscribe, query.token));
