import { defineRoute } from "../../context.ts";
import { alertUnsubscribe, unsubscribeOneClick, unsubscribeQuery } from "../../lib/unsubscribe.ts";

/** Switches a price alert off: the link page's button, or the RFC 8058 one-click request mail clients send for the List-Unsubscribe header. */
export default defineRoute({ query: unsubscribeQuery, body: null }, (event, { db }, { query }) => unsubscribeOneClick(event, db, alertUnsubscribe, query.token));
