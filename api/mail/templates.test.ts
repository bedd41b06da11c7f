import { describe, expect, it } from "vitest";
import { alertMail, confirmationMail, escapeHtml, newsletterMail, unsubscribePage } from "./templates.ts";
import { discountPercent } from "../../data/domain/display.ts";

const identity = { siteName: "PawPrice", companyName: "PawPrice Ltd" };
const alertInput = {
  ...identity,
  productName: "Tom & Jerry's <Crunchy> Treats",
  productUrl: "https://pawprice.example/product/tom-jerry?x=1&y=2",
  pricePence: 1299,
  targetPence: 1500,
  retailerName: "Pets \"at\" Home",
  unsubscribeUrl: "https://pawprice.example/api/alerts/unsubscribe?token=alert-unsubscribe.5.abc",
};

describe("escapeHtml", () => {
  it("escapes the five characters that matter in content and attributes", () => {
    expect(escapeHtml(`<a href="x">Tom & 'Jerry'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;");
  });
});

describe("alertMail", () => {
  const mail = alertMail(alertInput);

  it("names product, new price and retailer in the subject", () => {
    expect(mail.subject).toBe(`Price drop: Tom & Jerry's <Crunchy> Treats is now £12.99 at Pets "at" Home`);
  });

  it("has a plain-text part with price, target, product link and unsubscribe link", () => {
    expect(mail.text).toContain("Tom & Jerry's <Crunchy> Treats is now £12.99 at Pets \"at\" Home");
    expect(mail.text).toContain("your target price of £15.00");
    expect(mail.text).toContain(alertInput.productUrl);
    expect(mail.text).toContain(alertInput.unsubscribeUrl);
    expect(mail.text).toContain("PawPrice Ltd");
  });

  it("has an HTML part with every value escaped and both links as hrefs", () => {
    expect(mail.html).toContain("Tom &amp; Jerry&#39;s &lt;Crunchy&gt; Treats");
    expect(mail.html).not.toContain("<Crunchy>");
    expect(mail.html).toContain("Pets &quot;at&quot; Home");
    expect(mail.html).toContain("£12.99");
    expect(mail.html).toContain(`href="https://pawprice.example/product/tom-jerry?x=1&amp;y=2"`);
    expect(mail.html).toContain(`href="${alertInput.unsubscribeUrl}"`);
  });

  it("says what delivery the price includes, and nothing when it is not known", () => {
    const delivered = alertMail({ ...alertInput, pricePence: 1698, deliveryPence: 399 });
    expect(delivered.subject).toBe(`Price drop: Tom & Jerry's <Crunchy> Treats is now £16.98 at Pets "at" Home`);
    expect(delivered.text).toContain(`is now £16.98 at Pets "at" Home including £3.99 delivery, at or below your target price of £15.00.`);
    expect(delivered.html).toContain("including £3.99 delivery");
    expect(alertMail({ ...alertInput, deliveryPence: 0 }).text).toContain(`£12.99 at Pets "at" Home with free delivery, at or below`);
    expect(mail.text).toContain(`£12.99 at Pets "at" Home, at or below`);
  });

  it("rounds a drop down by the same rule as the site's Save badge: 12.5% is 12%, never 13%", () => {
    for (const [reference, price] of [[800, 700], [1000, 875]] as const) {
      const drop = alertMail({ ...alertInput, kind: "drop", targetPence: null, pricePence: price, referencePence: reference });
      const shown = discountPercent(reference / 100, price / 100);
      expect(shown).toBe(12);
      expect(drop.subject).toContain(`has dropped ${shown}% to`);
      expect(drop.text).toContain(`has dropped ${shown}% to`);
    }
  });

  it("says what happened for each kind of alert, in subject, text and HTML", () => {
    const drop = alertMail({ ...alertInput, kind: "drop", targetPence: null, pricePence: 1760, referencePence: 2000, deliveryPence: 0 });
    expect(drop.subject).toBe(`Price drop: ${alertInput.productName} has dropped 12% to £17.60 at Pets "at" Home`);
    expect(drop.text).toContain(`Good news: ${alertInput.productName} has dropped 12% to £17.60 at Pets "at" Home with free delivery, from £20.00 when you set your alert.`);
    expect(drop.html).toContain(`has dropped 12% to <strong style="font-size: 18px; color: #15803d">£17.60</strong> at <strong>Pets &quot;at&quot; Home</strong>`);
    const back = alertMail({ ...alertInput, kind: "back-in-stock", targetPence: null });
    expect(back.subject).toBe(`Back in stock: ${alertInput.productName} is back in stock at Pets "at" Home`);
    expect(back.text).toContain(`is back in stock at Pets "at" Home, at £12.99.`);
    const lowest = alertMail({ ...alertInput, kind: "lowest-90", targetPence: null });
    expect(lowest.subject).toBe(`Lowest price in 90 days: ${alertInput.productName} is now £12.99 at Pets "at" Home`);
    expect(lowest.text).toContain(`is now £12.99 at Pets "at" Home: the lowest price in 90 days.`);
    for (const mail of [drop, back, lowest]) expect(mail.text).not.toContain("target");
  });

  it("leaves the retailer out when it is unknown", () => {
    const noRetailer = alertMail({ ...alertInput, retailerName: null });
    expect(noRetailer.subject).toBe("Price drop: Tom & Jerry's <Crunchy> Treats is now £12.99");
    expect(noRetailer.text).not.toContain(" at null");
  });
});

describe("newsletterMail", () => {
  const unsubscribeUrl = "https://pawprice.example/api/subscribers/unsubscribe?token=newsletter-unsubscribe.9.abc";

  it("adds the unsubscribe footer to the text and builds escaped HTML paragraphs from it", () => {
    const mail = newsletterMail({ ...identity, subject: "Spring deals", text: "Hello <friends>,\nnew deals.\n\nBye & thanks", unsubscribeUrl });
    expect(mail.subject).toBe("Spring deals");
    expect(mail.text.startsWith("Hello <friends>,\nnew deals.\n\nBye & thanks\n\n--\n")).toBe(true);
    expect(mail.text).toContain(unsubscribeUrl);
    expect(mail.html).toContain("Hello &lt;friends&gt;,<br>\nnew deals.</p>");
    expect(mail.html).toContain("Bye &amp; thanks");
    expect(mail.html).toContain(`href="${unsubscribeUrl}"`);
  });

  it("keeps the owner's HTML as written and puts the footer before </body>", () => {
    const html = "<html><body><h1>Deals</h1></BODY></html>";
    const mail = newsletterMail({ ...identity, subject: "Deals", text: "Deals", html, unsubscribeUrl });
    expect(mail.html.startsWith("<html><body><h1>Deals</h1>")).toBe(true);
    expect(mail.html.indexOf(unsubscribeUrl)).toBeLessThan(mail.html.indexOf("</BODY>"));
    const fragment = newsletterMail({ ...identity, subject: "Deals", text: "Deals", html: "<p>Deals</p>", unsubscribeUrl });
    expect(fragment.html).toContain(`<p>Deals</p>\n<p`);
    expect(fragment.html).toContain(unsubscribeUrl);
  });
});

describe("unsubscribePage", () => {
  it("is a small escaped page that links back to the site", () => {
    const page = unsubscribePage({ siteName: "Paw <Price>", baseUrl: "https://pawprice.example", heading: "Done", message: "No more & mails" });
    expect(page).toContain("<title>Done - Paw &lt;Price&gt;</title>");
    expect(page).toContain("No more &amp; mails");
    expect(page).toContain(`href="https://pawprice.example/"`);
    expect(page).not.toContain("<form");
  });

  it("carries a button posting to the action with its hidden fields, all escaped", () => {
    const page = unsubscribePage({
      siteName: "PawPrice",
      baseUrl: "https://pawprice.example",
      heading: "Switch off?",
      message: "Press the button.",
      form: { action: '/api/alerts/unsubscribe?token=a.1.x&y="z"', label: "Switch <off>", fields: { "List-Unsubscribe": "One-Click" } },
    });
    expect(page).toContain('<form method="post" action="/api/alerts/unsubscribe?token=a.1.x&amp;y=&quot;z&quot;"');
    expect(page).toContain('<input type="hidden" name="List-Unsubscribe" value="One-Click">');
    expect(page).toContain(">Switch &lt;off&gt;</button>");
  });

  it("links the site's icon in its head, as the site's pages do; a mail links none", () => {
    const page = unsubscribePage({ siteName: "PawPrice", baseUrl: "https://pawprice.example", heading: "Done", message: "Off" });
    const head = /<head>([\s\S]*)<\/head>/.exec(page)![1];
    expect(head).toContain(`<link rel="icon" href="/favicon.svg" type="image/svg+xml">`);
    expect(alertMail(alertInput).html).not.toContain(`rel="icon"`);
  });
});

describe("confirmationMail", () => {
  const confirmUrl = "https://pawprice.example/api/email/confirm?token=abc_DEF-123";
  const alerts = confirmationMail({
    ...identity,
    purpose: "price-alerts",
    confirmUrl,
    alerts: [
      { productName: "Tom & Jerry's <Crunchy> Treats", kind: "target", targetPricePence: 1250, dropPercent: null, referencePricePence: 1500 },
      { productName: "Kibble", kind: "drop", targetPricePence: null, dropPercent: 10, referencePricePence: 2000 },
    ],
    validDays: 7,
  });
  const newsletter = confirmationMail({ ...identity, purpose: "newsletter", confirmUrl, alerts: [], validDays: 7 });

  it("says what it confirms in the subject", () => {
    expect(alerts.subject).toBe("Confirm your e-mail address for PawPrice price alerts");
    expect(newsletter.subject).toBe("Confirm your PawPrice newsletter subscription");
  });

  it("lists the alerts, the link, the promise and what happens if ignored, in both parts, escaped in HTML", () => {
    expect(alerts.text).toContain("- Tom & Jerry's <Crunchy> Treats (£12.50 or less)");
    expect(alerts.text).toContain("- Kibble (a drop of 10% from £20.00, to £18.00 or less)");
    expect(alerts.text).toContain(`Confirm my price alerts: ${confirmUrl}`);
    expect(alerts.html).toContain("<li>Tom &amp; Jerry&#39;s &lt;Crunchy&gt; Treats (£12.50 or less)</li>");
    expect(alerts.html).toContain(`href="${confirmUrl}"`);
    for (const part of [alerts.text, alerts.html.replaceAll("&#39;", "'")]) {
      expect(part).toContain("We won't e-mail you about prices until you confirm.");
      expect(part).toContain("The link works for 7 days. If you didn't ask for this, ignore this e-mail: nothing more will be sent, and the request is deleted.");
    }
    expect(newsletter.text).toContain(`Confirm my subscription: ${confirmUrl}`);
    expect(newsletter.text).toContain("We won't send you the newsletter until you confirm.");
    expect(newsletter.text).not.toContain("- ");
  });
});
