import { defineRoute } from "../../context.ts";
import { newsletterUnsubscribe, unsubscribeOneClick } from "../../lib/unsubscribe.ts";

/** RFC 8058 one-click unsubscribe, sent by mail clients for a newsletter's List-Unsubscribe header. */
export default defineRoute((event, { db }) => unsubscribeOneClick(event, db, newsletterUnsubscribe));
