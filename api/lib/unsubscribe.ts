/**
 * What the unsubscribe links do. Opening the link in a mail (GET)
 * changes nothing: it shows a page with a button, because mail scanners and link previews follow
 * links by themselves and must not switch anyone's alerts off. The button POSTs to the same
 * address, as the RFC 8058 one-click request a mail client sends for the List-Unsubscribe header
 * does; that POST switches the alert or subscription off. Both need a valid signed token, and
 * using a link twice is fine: the second time says it is off already and changes nothing.
 *
 * A browser (it asks for text/html) gets pages, bad links included; any other client, such as a
 * mail provider's one-click request, gets JSON as before.
 */
import { HTTPError, type H3Event } from "h3";
import { z } from "zod";
import type { Db } from "../../data/db/client.ts";
import {
  alertState,
  deactivateAlert,
  deactivateSubscriber,
  subscriberState,
  type SubscriptionState,
  type UnsubscribeOutcome,
} from "../../data/db/alert-delivery.ts";
import { siteConfig } from "../../data/config.ts";
import { badRequest, notFound } from "../http/http.ts";
import { maxTokenLength, verifyToken, type TokenPurpose } from "./tokens.ts";
import { unsubscribePage } from "../mail/templates.ts";

interface PageText {
  heading: string;
  message: string;
}

export interface UnsubscribeKind {
  purpose: TokenPurpose;
  state: (db: Db, id: number) => SubscriptionState;
  deactivate: (db: Db, id: number) => UnsubscribeOutcome;
  notFoundMessage: string;
  page: Record<"confirm" | "unsubscribed" | "already-unsubscribed" | "not-found", PageText>;
  /** The confirm page's button. */
  button: string;
}

export const alertUnsubscribe: UnsubscribeKind = {
  purpose: "alert-unsubscribe",
  state: alertState,
  deactivate: deactivateAlert,
  notFoundMessage: "This price alert no longer exists",
  page: {
    confirm: { heading: "Switch off this price alert?", message: "Press the button to stop the e-mails about this price alert. Nothing changes until you do." },
    unsubscribed: { heading: "Price alert switched off", message: "You will not get any more e-mails about this price alert." },
    "already-unsubscribed": { heading: "Price alert already switched off", message: "This price alert was already switched off. Nothing has changed." },
    "not-found": { heading: "Price alert not found", message: "This price alert no longer exists (it may have been deleted), so there is nothing to switch off. Nothing has changed." },
  },
  button: "Switch off price alert",
};

export const newsletterUnsubscribe: UnsubscribeKind = {
  purpose: "newsletter-unsubscribe",
  state: subscriberState,
  deactivate: deactivateSubscriber,
  notFoundMessage: "This newsletter subscription no longer exists",
  page: {
    confirm: {
      heading: "Unsubscribe from the newsletter?",
      message: `Press the button to stop getting the ${siteConfig.siteName} newsletter. Nothing changes until you do.`,
    },
    unsubscribed: { heading: "Unsubscribed from the newsletter", message: `You will not get any more newsletters from ${siteConfig.siteName}.` },
    "already-unsubscribed": {
      heading: "Already unsubscribed",
      message: `You had already unsubscribed from the ${siteConfig.siteName} newsletter. Nothing has changed.`,
    },
    "not-found": {
      heading: "Subscription not found",
      message: "This newsletter subscription no longer exists (it may have been removed), so there is nothing to unsubscribe. Nothing has changed.",
    },
  },
  button: "Unsubscribe",
};

const invalidLink = "Invalid unsubscribe link";
const invalidPage: PageText = {
  heading: invalidLink,
  message: "This unsubscribe link is not complete or has been changed. Please open the link from the e-mail exactly as it is. Nothing has changed.",
};
/**
 * The unsubscribe routes' query: exactly one token (none, several or a malformed one parse as
 * no token, answered as an invalid link, as a page for a browser).
 */
export const unsubscribeQuery = z.object({
  token: z
    .string()
    .min(1)
    .max(maxTokenLength)
    .optional()
    .catch(undefined)
    .meta({ description: "The signed token from the e-mail's link; without a valid one the answer is 400" }),
});

/** The id the link's token was signed for; a missing, changed or foreign token is a 400. */
function linkId(token: string | undefined, kind: UnsubscribeKind): { id: number; token: string } {
  if (token === undefined) throw badRequest(invalidLink);
  const id = verifyToken(kind.purpose, token);
  if (id === null) throw badRequest(invalidLink);
  return { id, token };
}

const wantsPage = (event: H3Event) => (event.req.headers.get("accept") ?? "").includes("text/html");

function page(text: PageText, status = 200, form?: Parameters<typeof unsubscribePage>[0]["form"]): Response {
  const html = unsubscribePage({ siteName: siteConfig.siteName, baseUrl: siteConfig.baseUrl, ...text, form });
  return new Response(html, { status, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
}

/** Runs `answer`; for a browser, a bad link becomes a page saying so (with the same status) instead of JSON. */
function withErrorPage(event: H3Event, kind: UnsubscribeKind, answer: () => Response): Response {
  try {
    return answer();
  } catch (error) {
    if (!(error instanceof HTTPError) || !wantsPage(event)) throw error;
    if (error.status === 404) return page(kind.page["not-found"], 404);
    if (error.status === 400) return page(invalidPage, 400);
    throw error;
  }
}

/** GET: the page a person sees after clicking the link in a mail; it only reads, the button does the rest. */
export function unsubscribeFromLink(event: H3Event, db: Db, kind: UnsubscribeKind, linkToken: string | undefined): Response {
  return withErrorPage(event, kind, () => {
    const { id, token } = linkId(linkToken, kind);
    const state = kind.state(db, id);
    if (state === "not-found") throw notFound(kind.notFoundMessage);
    if (state === "already-unsubscribed") return page(kind.page["already-unsubscribed"]);
    // The button posts to this same address: the RFC 8058 request, with its body.
    const action = `${event.url.pathname}?${new URLSearchParams({ token })}`;
    return page(kind.page.confirm, 200, { action, label: kind.button, fields: { "List-Unsubscribe": "One-Click" } });
  });
}

/**
 * POST: the confirm page's button, or a mail client's one-click request (its body,
 * "List-Unsubscribe=One-Click", carries nothing else). Switches it off; the button gets a page,
 * the mail client JSON.
 */
export function unsubscribeOneClick(event: H3Event, db: Db, kind: UnsubscribeKind, linkToken: string | undefined): Response {
  return withErrorPage(event, kind, () => {
    const { id } = linkId(linkToken, kind);
    const outcome = kind.deactivate(db, id);
    if (outcome === "not-found") throw notFound(kind.notFoundMessage);
    if (wantsPage(event)) return page(kind.page[outcome]);
    return Response.json({ unsubscribed: true, alreadyUnsubscribed: outcome === "already-unsubscribed" }, { headers: { "cache-control": "no-store" } });
  });
}
