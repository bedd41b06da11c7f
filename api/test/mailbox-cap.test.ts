/**
 * The daily cap on confirmation mails holds per mailbox, not per spelling: plus-tags, upper
 * case, and dots at gmail.com/googlemail.com all reach one mailbox, so together they get only
 * `confirmationMailsPerDay` mails (data/domain/mailbox.ts). The real app (in-process fetch), a
 * real temporary SQLite file, and the real confirmation-mail job writing to an outbox folder.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { H3 } from "h3";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createApp } from "../app.ts";
import { sendConfirmationMails } from "../jobs/alert-check.ts";
import { createMailer, type Mailer } from "../mail/mailer.ts";
import { migrateDb, openDb, type Db } from "../../data/db/client.ts";
import { confirmationMailsPerDay } from "../../data/db/email-consent.ts";
import { seedCatalogue } from "../../data/db/seed.ts";
import { generateCatalogue } from "../../data/seed/generate.ts";

const visitor = `user_${"mallory".padEnd(24, "0")}`;

let dir: string;
let outbox: string;
let db: Db;
let app: H3;
let productId: number;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-mailbox-cap-"));
  process.env.SECRETS_DIR = path.join(dir, "secrets");
  outbox = path.join(dir, "outbox");
  db = openDb(path.join(dir, "test.db"));
  await migrateDb(db);
  seedCatalogue(db, generateCatalogue({ products: 5, today: new Date() }));
  productId = (db.$client.prepare("SELECT id FROM products ORDER BY id LIMIT 1").get() as { id: number }).id;
});

afterAll(() => {
  db?.$client.close();
  fs.rmSync(dir, { recursive: true, force: true });
  delete process.env.SECRETS_DIR;
});

beforeEach(() => {
  for (const table of ["price_alerts", "email_subscribers", "email_confirmations", "email_consents"]) db.$client.prepare(`DELETE FROM ${table}`).run();
  fs.rmSync(outbox, { recursive: true, force: true });
  // A new app per test: its per-client write limits start afresh.
  app = createApp({ db });
});

const post = async (pathname: string, body: unknown) => {
  const response = await app.request(pathname, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  expect(response.status, await response.clone().text()).toBeLessThan(300);
  return (await response.json()) as { confirmationSent: boolean };
};
const alertFor = (email: string) => post("/api/price-alerts", { userId: visitor, productId, email, targetPrice: 1 });
const signUp = (email: string) => post("/api/subscribers", { email });

/** Sends the queued confirmation mails to the outbox; the recipients of the mails sent, as written in their To header. */
async function sendQueued(): Promise<string[]> {
  await sendConfirmationMails({ db, mailer: createMailer({ smtpUrl: undefined, from: "PawPrice <alerts@pawprice.example>", outboxDir: outbox }), log: () => {} });
  if (!fs.existsSync(outbox)) return [];
  return fs
    .readdirSync(outbox)
    .filter((file) => file.endsWith(".eml"))
    .map((file) => /^To: (.+)$/m.exec(fs.readFileSync(path.join(outbox, file), "utf8"))![1]!.trim())
    .sort();
}

const queued = () => db.$client.prepare("SELECT email FROM email_confirmations ORDER BY id").all().map((row) => (row as { email: string }).email);

/** Seventeen spellings of the one Gmail mailbox mailbox@gmail.com; the first three are each of another kind. */
const gmailSpellings = [
  "m.a.i.l.box@gmail.com",
  "Mail.Box+x@GoogleMail.com",
  "mailbox+1@gmail.com",
  "MAILBOX@GMAIL.COM",
  "mailbox@googlemail.com",
  "mailbox@gmail.com",
  ...Array.from({ length: 11 }, (_, i) => `mailbox+${i + 2}@gmail.com`),
];
/** Seventeen spellings of the one mailbox mailbox@example.com (no dots: they would name another mailbox there). */
const exampleSpellings = ["MAILBOX@EXAMPLE.COM", ...Array.from({ length: 15 }, (_, i) => `Mailbox+${i + 1}@Example.com`), "mailbox@example.com"];

describe.each([
  { form: "price alerts", ask: alertFor },
  { form: "newsletter sign-ups", ask: signUp },
])(`$form: at most ${confirmationMailsPerDay} confirmation mails a day to one mailbox, however it is spelt`, ({ ask }) => {
  it.each([
    { mailbox: "mailbox@gmail.com", spellings: gmailSpellings, other: "mailbox2@gmail.com" },
    { mailbox: "mailbox@example.com", spellings: exampleSpellings, other: "mail.box@example.com" },
  ])("17 spellings of $mailbox queue and send $mailbox's share only; $other is another mailbox", async ({ spellings, other }) => {
    expect(spellings).toHaveLength(17);
    const answers: boolean[] = [];
    for (const email of spellings) answers.push((await ask(email)).confirmationSent);
    expect(answers).toEqual(spellings.map((_, i) => i < confirmationMailsPerDay));
    // Each queued mail is for the address as typed (the form lower-cases it).
    const firstSpellings = spellings.slice(0, confirmationMailsPerDay).map((email) => email.toLowerCase());
    expect(queued()).toEqual(firstSpellings);
    expect(await sendQueued()).toEqual([...firstSpellings].sort());

    // Another mailbox at the same domain has its own share.
    expect((await ask(other)).confirmationSent).toBe(true);
    expect(queued()).toEqual([...firstSpellings, other]);
    expect(await sendQueued()).toEqual([...firstSpellings, other].sort());
  });
});

describe("confirmation mails when the mail server fails", () => {
  const down: Mailer = {
    describe: "smtp",
    send: () => Promise.reject(new Error("connection refused")),
  };

  it("keeps a mail that failed for the next run, sends it then, and never twice", async () => {
    expect((await signUp("first@example.com")).confirmationSent).toBe(true);
    const lines: string[] = [];
    expect(await sendConfirmationMails({ db, mailer: down, log: (line) => lines.push(line) })).toEqual({ sent: 0, failed: 1 });
    expect(lines).toEqual([expect.stringMatching(/^Confirmation mail \d+: mail not sent \(connection refused\); the next check retries$/)]);
    expect(await sendQueued()).toEqual(["first@example.com"]);
    expect(await sendQueued()).toEqual(["first@example.com"]);
  });

  it("stops after 5 failures in a row and leaves the rest for the next run", async () => {
    const emails = Array.from({ length: 7 }, (_, i) => `reader${i}@example${i}.com`);
    for (const email of emails) await signUp(email);
    const tried: string[] = [];
    const failing: Mailer = { describe: "smtp", send: (message) => (tried.push(message.to), Promise.reject(new Error("down"))) };
    const lines: string[] = [];
    expect(await sendConfirmationMails({ db, mailer: failing, log: (line) => lines.push(line) })).toEqual({ sent: 0, failed: 7 });
    expect(tried).toHaveLength(5);
    expect(lines.at(-1)).toBe("Confirmation mails: the mail server failed 5 times in a row; the rest wait for the next check");
    expect(await sendQueued()).toEqual([...emails].sort());
  });
});
