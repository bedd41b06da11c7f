/**
 * Sends a newsletter issue to every active subscriber who confirmed their address (double
 * opt-in; pending sign-ups get nothing), each with their own signed unsubscribe link.
 *
 *   node scripts/newsletter.ts --subject "..." --text-file issue.txt [--html-file issue.html] [--dry-run]
 *
 * --dry-run prints how many would get it and sends nothing. Mail goes over SMTP_URL, or into
 * the outbox folder without it. Sends are not recorded per subscriber, so running it again sends
 * the issue again. An issue that links to or names a prescription-only medicine (POM-V, POM-VPS)
 * in the catalogue is refused before anything is sent, dry run or not: such a medicine may not be
 * advertised to the public. Exit codes: 0 all sent, 1 some failed or the run stopped, 2 bad
 * arguments or a refused issue.
 */
import fs from "node:fs";
import { databasePath, siteConfig } from "../data/config.ts";
import { parseOptions, runCommand, UsageError, withDatabase } from "./cli.ts";
import { activeSubscribers, type Subscriber } from "../data/db/alert-delivery.ts";
import { apiPath } from "../data/domain/paths.ts";
import { signToken } from "../api/lib/tokens.ts";
import { createMailer, type Mailer } from "../api/mail/mailer.ts";
import { newsletterMail } from "../api/mail/templates.ts";
import { listPrescriptionOnlyProducts } from "../data/db/products.ts";
import { promotedProducts } from "../data/domain/legal-category.ts";

const usage = 'Usage: node scripts/newsletter.ts --subject "..." --text-file PATH [--html-file PATH] [--dry-run]';
/** After this many failures in a row the mail server is taken to be down and the run stops. */
const maxConsecutiveFailures = 5;


interface Issue {
  subject: string;
  text: string;
  html?: string;
  dryRun: boolean;
}

function readFile(option: string, file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (error) {
    throw new UsageError(`${option}: cannot read ${file} (${error instanceof Error ? error.message : String(error)})`);
  }
}

function parseIssue(argv: string[]): Issue | "help" {
  const values = parseOptions(argv, {
    subject: { type: "string" },
    "text-file": { type: "string" },
    "html-file": { type: "string" },
    "dry-run": { type: "boolean" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) return "help";
  const subject = values.subject?.trim();
  if (!subject) throw new UsageError("--subject is required");
  if (!values["text-file"]) throw new UsageError("--text-file is required");
  const text = readFile("--text-file", values["text-file"]);
  if (!text.trim()) throw new UsageError("--text-file is empty");
  const html = values["html-file"] ? readFile("--html-file", values["html-file"]) : undefined;
  return { subject, text, html, dryRun: values["dry-run"] ?? false };
}

function subscriberMail(issue: Issue, subscriber: Subscriber) {
  const unsubscribeUrl = siteConfig.baseUrl + apiPath("/subscribers/unsubscribe", { token: signToken("newsletter-unsubscribe", subscriber.id) });
  const mail = newsletterMail({
    subject: issue.subject,
    text: issue.text,
    html: issue.html,
    unsubscribeUrl,
    siteName: siteConfig.siteName,
    companyName: siteConfig.companyName,
  });
  return { to: subscriber.email, ...mail, unsubscribeUrl };
}

async function sendAll(mailer: Mailer, issue: Issue, subscribers: Subscriber[]): Promise<{ sent: number; failed: number }> {
  let sent = 0;
  let failed = 0;
  let consecutiveFailures = 0;
  for (const subscriber of subscribers) {
    if (consecutiveFailures >= maxConsecutiveFailures) {
      console.error(`newsletter: the mail server failed ${consecutiveFailures} times in a row; stopped`);
      break;
    }
    try {
      await mailer.send(subscriberMail(issue, subscriber));
      sent++;
      consecutiveFailures = 0;
    } catch (error) {
      failed++;
      consecutiveFailures++;
      console.error(`newsletter: subscriber ${subscriber.id}: not sent (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  return { sent, failed };
}

async function send(issue: Issue): Promise<number> {
  return withDatabase(databasePath(), async (db) => {
    const medicines = promotedProducts(`${issue.text}\n${issue.html ?? ""}`, listPrescriptionOnlyProducts(db));
    if (medicines.length > 0) {
      const named = medicines.map((product) => `"${product.name}" (/product/${product.slug})`).join(", ");
      console.error(`newsletter: the issue links to or names prescription-only medicines, which may not be advertised: ${named}. Remove them; nothing was sent`);
      return 2;
    }
    const subscribers = activeSubscribers(db);
    if (issue.dryRun) {
      console.log(`Dry run: "${issue.subject}" would go to ${subscribers.length} active subscriber(s); nothing sent`);
      return 0;
    }
    const mailer = createMailer();
    const { sent, failed } = await sendAll(mailer, issue, subscribers);
    const skipped = subscribers.length - sent - failed;
    console.log(`${sent} sent, ${failed} failed${skipped ? `, ${skipped} not attempted` : ""} (mail: ${mailer.describe})`);
    return failed > 0 || skipped > 0 ? 1 : 0;
  });
}

process.exitCode = await runCommand("newsletter", usage, parseIssue, send);
