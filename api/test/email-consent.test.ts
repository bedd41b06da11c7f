/**
 * Double opt-in end to end: the real app (in-process fetch), a real temporary SQLite file, the
 * real mail schedule sending over nodemailer to a real SMTP server on loopback. A request that
 * asks for a confirmation mail triggers the schedule as in the server; `drain()` waits until
 * every run it asked for has finished, so "no further mail" is checked after the work is done.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { H3 } from "h3";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createApp } from "../app.ts";
import { notifyPricesChanged, startAlertSchedule, type AlertSchedule } from "../jobs/alert-check.ts";
import { createMailer } from "../mail/mailer.ts";
import { escapeHtml } from "../mail/templates.ts";
import { siteConfig } from "../../data/config.ts";
import { migrateDb, openDb, type Db } from "../../data/db/client.ts";
import { activeSubscribers } from "../../data/db/alert-delivery.ts";
import { confirmationMailsPerDay } from "../../data/db/email-consent.ts";
import { seedCatalogue } from "../../data/db/seed.ts";
import { generateCatalogue } from "../../data/seed/generate.ts";
import { TestSmtpServer, type ReceivedMail } from "./smtp.ts";

/** A visitor id in the browser's format: user_ and 24 characters from [a-z0-9]. */
const visitor = (name: string) => `user_${name.padEnd(24, "0")}`;
const alice = visitor("alice");
const bob = visitor("bob");
const visitors = ["carol", "dave", "erin", "frank"].map(visitor);

let dir: string;
let db: Db;
let smtp: TestSmtpServer;
let schedule: AlertSchedule;
let app: H3;
/** A product with a best price, and another one. */
let product: { id: number; name: string; bestPence: number };
let otherProduct: { id: number; name: string };
const silent = () => {};

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-consent-"));
  process.env.SECRETS_DIR = path.join(dir, "secrets");
  db = openDb(path.join(dir, "test.db"));
  await migrateDb(db);
  seedCatalogue(db, generateCatalogue({ products: 20, today: new Date() }));
  const rows = db.$client.prepare("SELECT id, name, best_price_pence FROM products WHERE best_price_pence IS NOT NULL ORDER BY id LIMIT 2").all() as {
    id: number;
    name: string;
    best_price_pence: number;
  }[];
  product = { id: rows[0]!.id, name: rows[0]!.name, bestPence: rows[0]!.best_price_pence };
  otherProduct = { id: rows[1]!.id, name: rows[1]!.name };
  smtp = new TestSmtpServer();
  await smtp.start();
  const mailer = createMailer({ smtpUrl: smtp.url, from: "PawPrice <alerts@pawprice.example>", outboxDir: path.join(dir, "unused-outbox") });
  schedule = startAlertSchedule({ db, mailer, intervalMinutes: 0, log: silent });
});

afterAll(async () => {
  await schedule?.stop();
  await smtp?.close();
  db?.$client.close();
  fs.rmSync(dir, { recursive: true, force: true });
  delete process.env.SECRETS_DIR;
});

beforeEach(() => {
  for (const table of ["price_alerts", "email_subscribers", "email_confirmations", "email_consents"]) db.$client.prepare(`DELETE FROM ${table}`).run();
  smtp.received.length = 0;
  smtp.refuse = false;
  // A new app per test: its per-client write limits start afresh.
  app = createApp({ db, onAlertsChanged: () => notifyPricesChanged(schedule, silent) });
});

/** Waits until the mail schedule has done everything asked of it so far. */
const drain = () => schedule.runNow();

const post = (pathname: string, body: unknown) =>
  Promise.resolve(app.request(pathname, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));
const get = (pathAndQuery: string, headers: Record<string, string> = {}) => Promise.resolve(app.request(pathAndQuery, { headers }));

interface AlertAnswer {
  id: number;
  state: "pending_confirmation" | "active";
  confirmationSent: boolean;
  status: string;
}

async function createAlert(userId: string, email: string, targetPrice: number, productId = product.id): Promise<{ status: number; body: AlertAnswer }> {
  const response = await post("/api/price-alerts", { userId, productId, email, targetPrice });
  return { status: response.status, body: (await response.json()) as AlertAnswer };
}

const mailsTo = (email: string) => smtp.received.filter((mail) => mail.to.includes(email));
const confirmationMails = (email: string) => mailsTo(email).filter((mail) => mail.subject.startsWith("Confirm"));
const priceMails = (email: string) => mailsTo(email).filter((mail) => mail.subject.startsWith("Price drop"));

const confirmLinkPattern = new RegExp(`${siteConfig.baseUrl.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}/api/email/confirm\\?token=[A-Za-z0-9_-]+`);

/** The confirmation link of a mail, the same in both parts, as a path for the in-process app. */
function confirmPath(mail: ReceivedMail): string {
  const link = confirmLinkPattern.exec(mail.text)?.[0];
  expect(link, "confirmation link in the text part").toBeDefined();
  expect(mail.html).toContain(`href="${link}"`);
  const url = new URL(link!);
  return url.pathname + url.search;
}

const alertRow = (id: number) => db.$client.prepare("SELECT is_active, confirmed_at, last_notified_at FROM price_alerts WHERE id = ?").get(id) as {
  is_active: number;
  confirmed_at: string | null;
  last_notified_at: string | null;
};
const everything = () => ({
  alerts: db.$client.prepare("SELECT * FROM price_alerts ORDER BY id").all(),
  subscribers: db.$client.prepare("SELECT * FROM email_subscribers ORDER BY id").all(),
  confirmations: db.$client.prepare("SELECT * FROM email_confirmations ORDER BY id").all(),
  consents: db.$client.prepare("SELECT * FROM email_consents ORDER BY email, user_id").all(),
});

describe("price alerts wait for the address to be confirmed", () => {
  it("the first alert for an address sends exactly one confirmation mail and no price mail, even with the target met", async () => {
    const email = "first@example.com";
    // Target well above the current price: an active alert would be mailed at once.
    const { status, body } = await createAlert(alice, email, 999);
    expect(status).toBe(201);
    expect(body).toMatchObject({ state: "pending_confirmation", confirmationSent: true, status: "Price reached!" });
    await expect.poll(() => confirmationMails(email).length).toBe(1);
    await drain();
    expect(mailsTo(email)).toHaveLength(1);
    const mail = mailsTo(email)[0]!;
    expect(mail.subject).toBe("Confirm your e-mail address for PawPrice price alerts");
    expect(mail.text).toContain(`- ${product.name} (£999.00 or less)`);
    expect(mail.text).toContain("We won't e-mail you about prices until you confirm.");
    expect(mail.html).toContain(`<li>${escapeHtml(`${product.name} (£999.00 or less)`)}</li>`);
    expect(alertRow(body.id)).toMatchObject({ is_active: 1, confirmed_at: null, last_notified_at: null });
    const listed = await (await get(`/api/price-alerts?userId=${alice}`)).json();
    expect(listed).toEqual([expect.objectContaining({ id: body.id, state: "pending_confirmation" })]);

    // The token is stored only as its hash, and the seed it was derived from is gone once sent.
    const token = new URL(siteConfig.baseUrl + confirmPath(mail)).searchParams.get("token")!;
    const stored = db.$client.prepare("SELECT token_hash, token_seed, sent_at FROM email_confirmations").all() as {
      token_hash: string;
      token_seed: string | null;
      sent_at: string | null;
    }[];
    expect(stored).toEqual([{ token_hash: crypto.createHash("sha256").update(token).digest("hex"), token_seed: null, sent_at: expect.any(String) }]);
    expect(JSON.stringify(everything())).not.toContain(token);
  });

  it("following the link activates the alert and its price mail goes; the same visitor's later alerts are active at once", async () => {
    const email = "confirming@example.com";
    const { body } = await createAlert(alice, email, 999);
    await expect.poll(() => confirmationMails(email).length).toBe(1);
    const link = confirmPath(confirmationMails(email)[0]!);

    const page = await get(link);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    const html = await page.text();
    expect(html).toContain("E-mail address confirmed");
    expect(html).toContain(`<link rel="icon" href="/favicon.svg" type="image/svg+xml">`);
    expect(html).toContain(`We&#39;ll e-mail ${email} when the price drops for:`);
    expect(alertRow(body.id).confirmed_at).not.toBeNull();
    await expect.poll(() => priceMails(email).length).toBe(1);
    expect((await (await get(`/api/price-alerts?userId=${alice}`)).json()) as AlertAnswer[]).toEqual([expect.objectContaining({ state: "active" })]);

    // A second click says so and changes nothing.
    const before = everything();
    const again = await get(link);
    expect(again.status).toBe(200);
    expect(await again.text()).toContain("E-mail address already confirmed");
    expect(everything()).toEqual(before);

    // The same browser's next alert for the address: active at once, no new confirmation mail.
    const later = await createAlert(alice, email, 999, otherProduct.id);
    expect(later.status).toBe(201);
    expect(later.body).toMatchObject({ state: "active", confirmationSent: false });
    await expect.poll(() => priceMails(email).length).toBe(2);
    await drain();
    expect(confirmationMails(email)).toHaveLength(1);
  });

  it("another visitor entering a confirmed address gets pending alerts and no silent mail: only a confirmation of its own", async () => {
    const email = "owner@example.com";
    await createAlert(alice, email, 999);
    await expect.poll(() => confirmationMails(email).length).toBe(1);
    expect((await get(confirmPath(confirmationMails(email)[0]!))).status).toBe(200);
    await expect.poll(() => priceMails(email).length).toBe(1);

    const stranger = await createAlert(bob, email, 999, otherProduct.id);
    expect(stranger.status).toBe(201);
    expect(stranger.body).toMatchObject({ state: "pending_confirmation", confirmationSent: true });
    await expect.poll(() => confirmationMails(email).length).toBe(2);
    await drain();
    // Alice's alert was mailed once; bob's target is met too, yet nothing about it was sent.
    expect(priceMails(email)).toHaveLength(1);
    expect(alertRow(stranger.body.id).confirmed_at).toBeNull();
    // Alice's old link does not confirm bob's alert.
    expect(await (await get(confirmPath(confirmationMails(email)[0]!))).text()).toContain("already confirmed");
    expect(alertRow(stranger.body.id).confirmed_at).toBeNull();
    expect(db.$client.prepare("SELECT user_id FROM email_consents WHERE email = ?").all(email)).toEqual([{ user_id: alice }]);
  });

  it("a visitor's link switches on that visitor's pending alerts only, not another visitor's pending alerts for the same address", async () => {
    const email = "shared@example.com";
    // Both targets are met: a switched-on alert would be mailed at once.
    const mine = await createAlert(alice, email, 999);
    const theirs = await createAlert(bob, email, 998);
    expect([mine.body.state, theirs.body.state]).toEqual(["pending_confirmation", "pending_confirmation"]);
    await drain();
    expect(confirmationMails(email)).toHaveLength(2);
    const aliceMail = confirmationMails(email).find((mail) => mail.text.includes("(£999.00 or less)"))!;
    expect(aliceMail.text).not.toContain("(£998.00 or less)");

    expect((await get(confirmPath(aliceMail))).status).toBe(200);
    expect(alertRow(mine.body.id).confirmed_at).not.toBeNull();
    expect(alertRow(theirs.body.id), "bob's alert stays pending after alice confirms").toMatchObject({ is_active: 1, confirmed_at: null });
    expect(db.$client.prepare("SELECT user_id FROM email_consents WHERE email = ?").all(email)).toEqual([{ user_id: alice }]);
    await drain();
    // Alice's alert was mailed; bob's, its target met too, was not.
    expect(priceMails(email)).toHaveLength(1);
    expect((await (await get(`/api/price-alerts?userId=${bob}`)).json()) as AlertAnswer[]).toEqual([expect.objectContaining({ state: "pending_confirmation" })]);
  });

  it(`sends at most ${confirmationMailsPerDay} confirmation mails a day to one address, whoever asks; the rest stay pending`, async () => {
    const email = "flooded@example.com";
    const answers: AlertAnswer[] = [];
    for (const visitor of visitors) {
      const { status, body } = await createAlert(visitor, email, 1);
      expect(status).toBe(201);
      answers.push(body);
    }
    expect(answers.map((answer) => [answer.state, answer.confirmationSent])).toEqual([
      ["pending_confirmation", true],
      ["pending_confirmation", true],
      ["pending_confirmation", true],
      ["pending_confirmation", false],
    ]);
    await drain();
    expect(confirmationMails(email)).toHaveLength(3);
    expect(mailsTo(email)).toHaveLength(3);
    // Another address is not affected by this one's limit.
    expect((await createAlert(visitors[3]!, "other@example.com", 1)).body.confirmationSent).toBe(true);
  });

  it("a visitor repeating the form (or replacing the alert) within minutes gets no second confirmation mail", async () => {
    const email = "repeat@example.com";
    const first = await createAlert(alice, email, 5);
    const replaced = await createAlert(alice, email, 6);
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ id: first.body.id, state: "pending_confirmation", confirmationSent: false });
    expect((await createAlert(alice, email, 5, otherProduct.id)).body.confirmationSent).toBe(false);
    await drain();
    const mails = confirmationMails(email);
    expect(mails).toHaveLength(1);
    // The one link confirms both of the visitor's pending alerts.
    await get(confirmPath(mails[0]!));
    expect(db.$client.prepare("SELECT count(*) AS n FROM price_alerts WHERE user_id = ? AND confirmed_at IS NOT NULL").get(alice)).toEqual({ n: 2 });
  });

  it("retries a confirmation mail the mail server refused, and sends it once", async () => {
    const email = "retry@example.com";
    smtp.refuse = true;
    await createAlert(alice, email, 5);
    await drain();
    expect(mailsTo(email)).toHaveLength(0);
    expect(db.$client.prepare("SELECT sent_at, token_seed IS NOT NULL AS has_seed, claim_token FROM email_confirmations").get()).toEqual({
      sent_at: null,
      has_seed: 1,
      claim_token: null,
    });
    smtp.refuse = false;
    await drain();
    await drain();
    expect(confirmationMails(email)).toHaveLength(1);
  });
});

describe("newsletter sign-ups wait for the address to be confirmed", () => {
  const subscribe = async (email: string) => {
    const response = await post("/api/subscribers", { email });
    return { status: response.status, body: (await response.json()) as { subscribed: boolean; status: string; confirmationSent: boolean } };
  };

  it("a new sign-up is pending with one confirmation mail; the link subscribes it; signing up again changes nothing", async () => {
    const email = "reader@example.com";
    expect(await subscribe(email)).toEqual({ status: 201, body: { subscribed: false, status: "pending_confirmation", confirmationSent: true } });
    await expect.poll(() => confirmationMails(email).length).toBe(1);
    const mail = confirmationMails(email)[0]!;
    expect(mail.subject).toBe("Confirm your PawPrice newsletter subscription");
    expect(mail.text).toContain("We won't send you the newsletter until you confirm.");
    expect(activeSubscribers(db)).toEqual([]);

    const page = await get(confirmPath(mail));
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Newsletter subscription confirmed");
    expect(html).toContain(`${email} is subscribed to the PawPrice newsletter.`);
    expect(activeSubscribers(db).map((subscriber) => subscriber.email)).toEqual([email]);

    expect(await subscribe(email)).toEqual({ status: 200, body: { subscribed: true, status: "active", confirmationSent: false } });
    await drain();
    expect(mailsTo(email)).toHaveLength(1);
  });

  it("an unsubscribed address signing up again is pending with one confirmation mail, not switched back on", async () => {
    const email = "left@example.com";
    db.$client.prepare("INSERT INTO email_subscribers (email, is_active, confirmed_at, subscribed_at) VALUES (?, 0, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')").run(email);
    expect(await subscribe(email)).toEqual({ status: 200, body: { subscribed: false, status: "pending_confirmation", confirmationSent: true } });
    expect(db.$client.prepare("SELECT is_active, confirmed_at FROM email_subscribers WHERE email = ?").get(email)).toEqual({ is_active: 1, confirmed_at: null });
    expect(activeSubscribers(db)).toEqual([]);
    await drain();
    expect(confirmationMails(email)).toHaveLength(1);
    expect(mailsTo(email)).toHaveLength(1);
  });

  it("a newsletter link confirms the newsletter only, not the visitor's pending alerts for the address", async () => {
    const email = "both@example.com";
    const alert = await createAlert(alice, email, 5);
    await subscribe(email);
    await drain();
    const newsletterMail = confirmationMails(email).find((mail) => mail.subject.includes("newsletter"))!;
    await get(confirmPath(newsletterMail));
    expect(activeSubscribers(db).map((subscriber) => subscriber.email)).toEqual([email]);
    expect(alertRow(alert.body.id).confirmed_at).toBeNull();
    expect(db.$client.prepare("SELECT count(*) AS n FROM email_consents").get()).toEqual({ n: 0 });
  });
});

describe("bad confirmation links", () => {
  it("refuse a missing, repeated, malformed, unknown or expired token with a clear 4xx and change nothing", async () => {
    const email = "bad-links@example.com";
    await createAlert(alice, email, 5);
    await subscribe("bad-links-news@example.com");
    await drain();
    const token = new URL(siteConfig.baseUrl + confirmPath(confirmationMails(email)[0]!)).searchParams.get("token")!;
    const unknownToken = crypto.randomBytes(32).toString("base64url");
    expect(unknownToken).toHaveLength(43);
    // This link's time is over.
    db.$client.prepare("UPDATE email_confirmations SET expires_at = ? WHERE email = ?").run(new Date(Date.now() - 1000).toISOString(), email);
    const before = everything();

    const cases: [string, number, string][] = [
      ["/api/email/confirm", 400, "Invalid confirmation link"],
      [`/api/email/confirm?token=${unknownToken}&token=${unknownToken}`, 400, "Invalid confirmation link"],
      ["/api/email/confirm?token=abc", 400, "Invalid confirmation link"],
      [`/api/email/confirm?token=${token.slice(0, 42)}!`, 400, "Invalid confirmation link"],
      [`/api/email/confirm?token=${unknownToken}`, 404, "Confirmation link not found"],
      [`/api/email/confirm?token=${token}`, 410, "Confirmation link expired"],
    ];
    for (const [link, status, heading] of cases) {
      const json = await get(link);
      expect(json.status, link).toBe(status);
      expect(await json.json()).toEqual({ error: heading });
      const page = await get(link, { accept: "text/html,application/xhtml+xml" });
      expect(page.status, link).toBe(status);
      expect(page.headers.get("content-type")).toContain("text/html");
      const html = await page.text();
      expect(html).toContain(heading);
      // The site's icon, so the browser asks for no /favicon.ico (which the site has not).
      expect(html).toContain(`<link rel="icon" href="/favicon.svg" type="image/svg+xml">`);
    }
    expect(everything()).toEqual(before);
  });

  const subscribe = (email: string) => post("/api/subscribers", { email });
});
