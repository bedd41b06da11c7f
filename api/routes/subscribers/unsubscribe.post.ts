import { defineRoute } from "../../context.ts";
import { newsletterUnsubscribe, unsubscribeOneClick, unsubscribeQuery } from "../../lib/unsubscribe.ts";

/** Unsubscribes from the newsletter: the link page's button, or the RFC 8058 one-click request mail clients send for the List-Unsubscribe header. */
export default defineRoute({ query: unsubscribeQuery, body: null }, (event, { db }, { query }) => unsubscribeOneClick(event, db, newsletterUnsubscribe, query.token));
