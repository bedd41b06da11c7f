/**
 * The texts of outgoing mail (price alerts, newsletters, address confirmations) and of the page
 * an unsubscribe or confirmation link opens. Every mail has a plain-text part and a simple inline-styled HTML part (mail clients
 * ignore style sheets); every value placed in HTML is escaped.
 */
import { formatPence, type Pence } from "../../data/domain/money.ts";
import { alertConditionText, alertMailTexts, defaultAlertKind, type AlertCondition, type AlertKind } from "../../data/domain/alerts.ts";
import { faviconPath } from "../../data/domain/paths.ts";

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** Who the mail comes from, named in every footer. */
export interface MailIdentity {
  siteName: string;
  companyName: string;
}

/**
 * Text made safe for HTML content and double-quoted attribute values.
 * @example escapeHtml(`Tom & "Jerry" <b>`) // "Tom &amp; &quot;Jerry&quot; &lt;b&gt;"
 */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => htmlEntities[char]!);
}

const htmlEntities: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

const fontStack = "font-family: Arial, Helvetica, sans-serif";
const linkStyle = "color: #0f766e";

/** A minimal HTML document around mail content: one centred column, inline styles only. `head`: more of the head, as HTML. */
function htmlDocument(title: string, body: string, head = ""): string {
  return `<!doctype html>
<html lang="en-GB">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>${head}</head>
<body style="margin: 0; padding: 24px; background: #f5f5f4; ${fontStack}; color: #1c1917; line-height: 1.5">
<div style="max-width: 560px; margin: 0 auto; padding: 24px; background: #ffffff; border-radius: 8px">
${body}
</div>
</body>
</html>
`;
}

function footerText(identity: MailIdentity, reason: string, unsubscribeLabel: string, unsubscribeUrl: string): string {
  return `--\n${reason}\n${unsubscribeLabel}: ${unsubscribeUrl}\n${identity.companyName}`;
}

function footerHtml(identity: MailIdentity, reason: string, unsubscribeLabel: string, unsubscribeUrl: string): string {
  return `<p style="margin: 24px 0 0; padding-top: 16px; border-top: 1px solid #e7e5e4; font-size: 12px; color: #57534e">
${escapeHtml(reason)}<br>
<a href="${escapeHtml(unsubscribeUrl)}" style="${linkStyle}">${escapeHtml(unsubscribeLabel)}</a><br>
${escapeHtml(identity.companyName)}
</p>`;
}

export interface AlertMailInput extends MailIdentity {
  productName: string;
  productUrl: string;
  /** The best price: the total to the door. */
  pricePence: Pence;
  /** The delivery inside it (0: free); null or absent when not known, and the mail says nothing of it. */
  deliveryPence?: Pence | null;
  /** Only for a target alert. */
  targetPence: Pence | null;
  /** Null when the best offer's retailer is unknown; the mail then leaves the retailer out. */
  retailerName: string | null;
  unsubscribeUrl: string;
  /** What the alert waited for; target when absent. */
  kind?: AlertKind;
  /** The best price when the alert was set (a drop alert's mail says how far it fell from it). */
  referencePence?: Pence | null;
}

/**
 * The mail sent when an alert's condition holds, saying what happened in its kind's words (the
 * kind table's mail texts): the price reached the target, dropped N % (percentOff: whole percent,
 * rounded down) to £x, is back in stock at a retailer, or is the lowest price in 90 days.
 */
export function alertMail(input: AlertMailInput): RenderedMail {
  const price = formatPence(input.pricePence);
  const at = input.retailerName ? ` at ${input.retailerName}` : "";
  const delivery = input.deliveryPence ?? null;
  const deliveryNote = delivery === null ? "" : delivery === 0 ? " with free delivery" : ` including ${formatPence(delivery)} delivery`;
  /** The subject, and what happened: after "Good news: " and before the product's name is repeated in HTML. */
  const { subject, news } = alertMailTexts(input.kind ?? defaultAlertKind, {
    productName: input.productName,
    price,
    pricePence: input.pricePence,
    at,
    deliveryNote,
    targetPence: input.targetPence,
    referencePence: input.referencePence ?? null,
  });
  const reason = `You are receiving this because you set a price alert on ${input.siteName}.`;
  const unsubscribeLabel = "Switch off this price alert";
  const caution = "Prices change quickly, so check the price on the retailer's site before you buy.";

  const text = [
    `Good news: ${input.productName} ${news}`,
    "",
    `Compare all prices: ${input.productUrl}`,
    "",
    caution,
    "",
    footerText(input, reason, unsubscribeLabel, input.unsubscribeUrl),
    "",
  ].join("\n");

  // The price and the retailer stand out in the HTML form.
  let newsHtml = escapeHtml(news).replace(escapeHtml(price), `<strong style="font-size: 18px; color: #15803d">${escapeHtml(price)}</strong>`);
  if (input.retailerName) newsHtml = newsHtml.replace(escapeHtml(at), ` at <strong>${escapeHtml(input.retailerName)}</strong>`);
  const html = htmlDocument(
    subject,
    `<p style="margin: 0 0 8px; font-size: 14px; color: #57534e">${escapeHtml(input.siteName)} price alert</p>
<h1 style="margin: 0 0 16px; font-size: 20px">${escapeHtml(input.productName)}</h1>
<p style="margin: 0 0 16px">Good news: it ${newsHtml}</p>
<p style="margin: 0 0 16px"><a href="${escapeHtml(input.productUrl)}" style="display: inline-block; padding: 10px 16px; background: #0f766e; color: #ffffff; text-decoration: none; border-radius: 6px">Compare all prices</a></p>
<p style="margin: 0; font-size: 13px; color: #57534e">${escapeHtml(caution)}</p>
${footerHtml(input, reason, unsubscribeLabel, input.unsubscribeUrl)}`,
  );
  return { subject, text, html };
}

export interface NewsletterMailInput extends MailIdentity {
  subject: string;
  text: string;
  /** Written by the site owner and sent as given; without it the text is shown as paragraphs. */
  html?: string;
  unsubscribeUrl: string;
}

/** Plain text as escaped HTML paragraphs, keeping single line breaks. */
function textToHtml(text: string): string {
  return text
    .trim()
    .split(/\n\s*\n/)
    .map((paragraph) => `<p style="margin: 0 0 16px">${escapeHtml(paragraph).replace(/\n/g, "<br>\n")}</p>`)
    .join("\n");
}

/** A newsletter issue with the subscriber's own unsubscribe link added to both parts. */
export function newsletterMail(input: NewsletterMailInput): RenderedMail {
  const reason = `You are receiving this because you subscribed to the ${input.siteName} newsletter.`;
  const unsubscribeLabel = "Unsubscribe from this newsletter";
  const text = `${input.text.trimEnd()}\n\n${footerText(input, reason, unsubscribeLabel, input.unsubscribeUrl)}\n`;
  const footer = footerHtml(input, reason, unsubscribeLabel, input.unsubscribeUrl);
  let html: string;
  if (input.html === undefined) {
    html = htmlDocument(input.subject, `${textToHtml(input.text)}\n${footer}`);
  } else {
    const bodyEnd = input.html.search(/<\/body>/i);
    html = bodyEnd === -1 ? `${input.html}\n${footer}\n` : `${input.html.slice(0, bodyEnd)}${footer}\n${input.html.slice(bodyEnd)}`;
  }
  return { subject: input.subject, text, html };
}

export interface ConfirmationMailInput extends MailIdentity {
  purpose: "price-alerts" | "newsletter";
  confirmUrl: string;
  /** The alerts the link switches on (price alerts). */
  alerts: ({ productName: string } & AlertCondition)[];
  /** How many days the link works. */
  validDays: number;
}

/** "Dog Food (£12.00 or less)", "Dog Food (back in stock)", as the confirmation mail and page list a price alert. */
export function alertSummary(alert: { productName: string } & AlertCondition): string {
  return `${alert.productName} (${alertConditionText(alert)})`;
}

/**
 * The double opt-in mail: one link that confirms the address. It says what was asked for, that
 * nothing more comes without the click, and that the request is simply dropped if ignored.
 */
export function confirmationMail(input: ConfirmationMailInput): RenderedMail {
  const forAlerts = input.purpose === "price-alerts";
  const subject = forAlerts ? `Confirm your e-mail address for ${input.siteName} price alerts` : `Confirm your ${input.siteName} newsletter subscription`;
  const intro = forAlerts
    ? `Someone (we hope you) asked ${input.siteName} to e-mail this address when a price drops:`
    : `Someone (we hope you) asked to receive the ${input.siteName} newsletter at this address.`;
  const action = forAlerts ? "Confirm my price alerts" : "Confirm my subscription";
  const promise = forAlerts
    ? "We won't e-mail you about prices until you confirm."
    : "We won't send you the newsletter until you confirm.";
  const ignore = `The link works for ${input.validDays} days. If you didn't ask for this, ignore this e-mail: nothing more will be sent, and the request is deleted.`;
  const items = forAlerts ? input.alerts.map(alertSummary) : [];

  const text = [
    intro,
    ...(items.length ? ["", ...items.map((item) => `- ${item}`)] : []),
    "",
    `${action}: ${input.confirmUrl}`,
    "",
    promise,
    ignore,
    "",
    `--\n${input.companyName}`,
    "",
  ].join("\n");

  const list = items.length ? `<ul style="margin: 0 0 16px; padding-left: 20px">${items.map((item) => `<li>${escapeHtml(item)}</li>`).join("")}</ul>\n` : "";
  const html = htmlDocument(
    subject,
    `<p style="margin: 0 0 8px; font-size: 14px; color: #57534e">${escapeHtml(input.siteName)}</p>
<h1 style="margin: 0 0 16px; font-size: 20px">${escapeHtml(subject)}</h1>
<p style="margin: 0 0 16px">${escapeHtml(intro)}</p>
${list}<p style="margin: 0 0 16px"><a href="${escapeHtml(input.confirmUrl)}" style="display: inline-block; padding: 10px 16px; background: #0f766e; color: #ffffff; text-decoration: none; border-radius: 6px">${escapeHtml(action)}</a></p>
<p style="margin: 0 0 8px">${escapeHtml(promise)}</p>
<p style="margin: 0; font-size: 13px; color: #57534e">${escapeHtml(ignore)}</p>
<p style="margin: 24px 0 0; padding-top: 16px; border-top: 1px solid #e7e5e4; font-size: 12px; color: #57534e">${escapeHtml(input.companyName)}</p>`,
  );
  return { subject, text, html };
}

export interface PageInput {
  siteName: string;
  baseUrl: string;
  heading: string;
  message: string;
  /**
   * A button that posts to `action` (a path on this site) with `fields` as hidden inputs: the
   * step a person confirms, which a mail scanner following the link never takes.
   */
  form?: { action: string; label: string; fields?: Readonly<Record<string, string>> };
}

/** The small page an unsubscribe or confirmation link answers with: what happened (or the button that does it), and a way back to the site. */
export function unsubscribePage(input: PageInput): string {
  const form = input.form
    ? `<form method="post" action="${escapeHtml(input.form.action)}" style="margin: 0 0 24px">
${Object.entries(input.form.fields ?? {})
  .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">\n`)
  .join("")}<button type="submit" style="padding: 10px 16px; background: #0f766e; color: #ffffff; border: 0; border-radius: 6px; font-size: 16px; cursor: pointer">${escapeHtml(input.form.label)}</button>
</form>
`
    : "";
  // A page in the browser (not a mail): the site's icon, so the browser does not ask for a missing /favicon.ico.
  return htmlDocument(
    `${input.heading} - ${input.siteName}`,
    `<p style="margin: 0 0 8px; font-size: 14px; color: #57534e">${escapeHtml(input.siteName)}</p>
<h1 style="margin: 0 0 16px; font-size: 22px">${escapeHtml(input.heading)}</h1>
<p style="margin: 0 0 24px">${escapeHtml(input.message)}</p>
${form}<p style="margin: 0"><a href="${escapeHtml(input.baseUrl)}/" style="${linkStyle}">Back to ${escapeHtml(input.siteName)}</a></p>`,
    `<link rel="icon" href="${faviconPath}" type="image/svg+xml">`,
  );
}
