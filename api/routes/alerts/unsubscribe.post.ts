import { defineRoute } from "../../context.ts";
import { alertUnsubscribe, unsubscribeOneClick } from "../../lib/unsubscribe.ts";

/** Switches a price alert off: the link page's button, or the RFC 8058 one-click request mail clients send for the List-Unsubscribe header. */
export default defineRoute((event, { db }) => unsubscribeOneClick(event, db, alertUnsubscribe));
