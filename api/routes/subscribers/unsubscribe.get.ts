import { defineRoute } from "../../context.ts";
import { newsletterUnsubscribe, unsubscribeFromLink } from "../../lib/unsubscribe.ts";

/** The unsubscribe link in every newsletter: a page with a button that unsubscribes; opening it changes nothing. */
export default defineRoute((event, { db }) => unsubscribeFromLink(event, db, newsletterUnsubscribe));
