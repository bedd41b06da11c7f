import { defineRoute } from "../../context.ts";
import { newsletterUnsubscribe, unsubscribeFromLink } from "../../lib/unsubscribe.ts";

/** The unsubscribe link in every newsletter: switches the subscriber off and answers a small page. */
export default defineRoute((event, { db }) => unsubscribeFromLink(event, db, newsletterUnsubscribe));
