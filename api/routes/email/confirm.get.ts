import { z } from "zod";
import { defineRoute } from "../../context.ts";
import { confirmEmail, confirmationTokenPattern, type ConfirmOutcome } from "../../../data/db/email-consent.ts";
import { siteConfig } from "../../../data/config.ts";
import { alertSummary, unsubscribePage } from "../../mail/templates.ts";

/** Exactly one token of the right shape; none, several or a malformed one is a bad link. */
const tokenQuery = z.object({
  token: z
    .string()
    .regex(confirmationTokenPattern)
    .optional()
    .catch(undefined)
    .meta({ description: "The token from the confirmation e-mail's link; without a valid one the answer is 400" }),
});

type Answer = { status: number; heading: string; message: string };

const invalid: Answer = {
  status: 400,
  heading: "Invalid confirmation link",
  message: "This confirmation link is not complete. Please open the link from the e-mail exactly as it is, or set up your alert or subscription again.",
};
const unknown: Answer = {
  status: 404,
  heading: "Confirmation link not found",
  message: "We don't know this confirmation link. It may be older than 7 days and deleted. Set up your alert or subscription again to get a new one.",
};
const expired: Answer = {
  status: 410,
  heading: "Confirmation link expired",
  message: "This confirmation link has expired (links work for 7 days). Set up your alert or subscription again to get a new one.",
};

function confirmedAnswer(outcome: Extract<ConfirmOutcome, { kind: "confirmed" | "already-confirmed" }>): Answer {
  const again = outcome.kind === "already-confirmed";
  if (outcome.purpose === "newsletter") {
    return {
      status: 200,
      heading: again ? "Subscription already confirmed" : "Newsletter subscription confirmed",
      message: outcome.subscribed
        ? `${outcome.email} is subscribed to the ${siteConfig.siteName} newsletter.${again ? " Nothing has changed." : ""} Every newsletter has an unsubscribe link.`
        : `${outcome.email} is confirmed, but there is no newsletter subscription waiting for it (it may have been cancelled). Sign up again on the site if you want the newsletter.`,
    };
  }
  const alerts = outcome.alerts.map(alertSummary);
  return {
    status: 200,
    heading: again ? "E-mail address already confirmed" : "E-mail address confirmed",
    message:
      (alerts.length
        ? `We'll e-mail ${outcome.email} when the price drops for: ${alerts.join("; ")}.`
        : `${outcome.email} is confirmed for price alerts from this browser, but none is set at the moment.`) +
      (again ? " Nothing has changed." : " Each alert e-mail has a link to switch the alert off."),
  };
}

/**
 * The link in a confirmation mail: confirms the address for what it was sent for (the visitor's
 * price alerts, or the newsletter sign-up) and answers a small page. A browser gets a page for
 * a bad link too; any other client gets the usual JSON error.
 */
export default defineRoute({ query: tokenQuery }, (event, ctx, { query: { token } }) => {
  let answer: Answer;
  if (token === undefined) {
    answer = invalid;
  } else {
    const outcome = confirmEmail(ctx.db, token, new Date());
    answer = outcome.kind === "unknown" ? unknown : outcome.kind === "expired" ? expired : confirmedAnswer(outcome);
    // Alerts just switched on may already be at their target: check now, not at the next scheduled run.
    if (outcome.kind === "confirmed" && outcome.purpose === "price-alerts") ctx.onAlertsChanged?.();
  }
  const headers = { "cache-control": "no-store" };
  const wantsPage = answer.status === 200 || (event.req.headers.get("accept") ?? "").includes("text/html");
  if (!wantsPage) return Response.json({ error: answer.heading }, { status: answer.status, headers });
  const html = unsubscribePage({ siteName: siteConfig.siteName, baseUrl: siteConfig.baseUrl, heading: answer.heading, message: answer.message });
  return new Response(html, { status: answer.status, headers: { ...headers, "content-type": "text/html; charset=utf-8" } });
});
