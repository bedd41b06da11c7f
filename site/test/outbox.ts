/**
 * Reading the mails the test server wrote to its outbox (no SMTP in the browser tests): the
 * messages to one address, and the confirmation link of a double opt-in mail, rebased onto the
 * test server (mails carry the public base URL).
 */
import fs from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { parseMail, type ReceivedMail } from "../../api/test/smtp.ts";

/** Every finished mail in the outbox addressed to `email`, oldest first. */
export function mailsTo(outboxDir: string, email: string): ReceivedMail[] {
  if (!fs.existsSync(outboxDir)) return [];
  return fs
    .readdirSync(outboxDir)
    .filter((file) => file.endsWith(".eml"))
    .sort()
    .map((file) => parseMail(fs.readFileSync(path.join(outboxDir, file), "utf8"), [email]))
    .filter((mail) => mail.headers.get("to") === email);
}

/** Waits for the one confirmation mail to `email` and returns its link on the test server. */
export async function confirmationLink(outboxDir: string, email: string, baseUrl: string): Promise<string> {
  const confirmations = () => mailsTo(outboxDir, email).filter((mail) => mail.subject.startsWith("Confirm"));
  await expect.poll(() => confirmations().length, { timeout: 10_000 }).toBe(1);
  const link = /https?:\/\/[^\s"]+\/api\/email\/confirm\?token=[A-Za-z0-9_-]+/.exec(confirmations()[0]!.text)?.[0];
  expect(link, "confirmation link in the mail").toBeDefined();
  const url = new URL(link!);
  return baseUrl + url.pathname + url.search;
}
