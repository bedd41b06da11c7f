import { defineRoute } from "../../context.ts";
import { newsletterUnsubscribe, unsubscribeFromLink, unsubscribeQuery } from "../../lib/unsubscribe.ts";

/** The unsubscribe link in every newsletter: a page with a button that unsubscribes; opening it changes nothing. */
export default defineRoute({ query: unsubscribeQuery }, (event, { db }, { query }) => unsubscribeFromLink(event, db, newsletterUnsubscribe, query.token));
