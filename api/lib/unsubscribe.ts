/**
 * What the unsubscribe links do (DECISIONS.md items 3 and 4): GET from the link in a mail
 * answers a small page; POST is the RFC 8058 one-click request a mail client sends for the
 * List-Unsubscribe header, and answers JSON. Both need a valid signed token, and using a link
 * twice is fine: the second time says it is off already and changes nothing.
 */
import type { H3Event } from "h3";
import { z } from "zod";
import type { Db } from "../../data/db/client.ts";
import { deactivateAlert, deactivateSubscriber, type UnsubscribeOutcome } from "../../data/db/alert-delivery.ts";
import { siteConfig } from "../../data/config.ts";
import { badRequest, notFound } from "./http.ts";
import { maxTokenLength, verifyToken, type TokenPurpose } from "./tokens.ts";
import { unsubscribePage } from "../mail/templates.ts";

export interface UnsubscribeKind {
  purpose: TokenPurpose;
  deactivate: (db: Db, id: number) => UnsubscribeOutcome;
  notFoundMessage: string;
  page: Record<"unsubscribed" | "already-unsubscribed", { heading: string; message: string }>;
}

export const alertUnsubscribe: UnsubscribeKind = {
  purpose: "alert-unsubscribe",
  deactivate: deactivateAlert,
  notFoundMessage: "This price alert no longer exists",
  page: {
    unsubscribed: { heading: "Price alert switched off", message: "You will not get any more e-mails about this price alert." },
    "already-unsubscribed": { heading: "Price alert already switched off", message: "This price alert was already switched off. Nothing has changed." },
  },
};

export const newsletterUnsubscribe: UnsubscribeKind = {
  purpose: "newsletter-unsubscribe",
  deactivate: deactivateSubscriber,
  notFoundMessage: "This newsletter subscription no longer exists",
  page: {
    unsubscribed: { heading: "Unsubscribed from the newsletter", message: `You will not get any more newsletters from ${siteConfig.siteName}.` },
    "already-unsubscribed": {
      heading: "Already unsubscribed",
      message: `You had already unsubscribed from the ${siteConfig.siteName} newsletter. Nothing has changed.`,
    },
  },
};

const invalidLink = "Invalid unsubscribe link";
/** Exactly one token (none or several fail as an array); every problem gets the same answer, a link is valid or not. */
const tokenQuery = z.object({ token: z.string().min(1).max(maxTokenLength) });

/** Verifies the link's token and switches the alert or subscription off; an invalid link changes nothing. */
function unsubscribe(event: H3Event, db: Db, kind: UnsubscribeKind): "unsubscribed" | "already-unsubscribed" {
  const tokens = event.url.searchParams.getAll("token");
  const parsed = tokenQuery.safeParse({ token: tokens.length === 1 ? tokens[0] : tokens });
  if (!parsed.success) throw badRequest(invalidLink);
  const id = verifyToken(kind.purpose, parsed.data.token);
  if (id === null) throw badRequest(invalidLink);
  const outcome = kind.deactivate(db, id);
  if (outcome === "not-found") throw notFound(kind.notFoundMessage);
  return outcome;
}

/** GET: the page a person sees after clicking the link in a mail. */
export function unsubscribeFromLink(event: H3Event, db: Db, kind: UnsubscribeKind): Response {
  const text = kind.page[unsubscribe(event, db, kind)];
  const html = unsubscribePage({ siteName: siteConfig.siteName, baseUrl: siteConfig.baseUrl, ...text });
  return new Response(html, { headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
}

/** POST: a mail client's one-click request (its body, "List-Unsubscribe=One-Click", carries nothing else). */
export function unsubscribeOneClick(event: H3Event, db: Db, kind: UnsubscribeKind): Response {
  const outcome = unsubscribe(event, db, kind);
  return Response.json({ unsubscribed: true, alreadyUnsubscribed: outcome === "already-unsubscribed" }, { headers: { "cache-control": "no-store" } });
}
