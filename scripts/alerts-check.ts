/**
 * Runs one price-alert check: sends the queued address-confirmation mails, then mails every
 * active, confirmed alert whose target is met and not yet mailed for this drop
 * (api/jobs/alert-check.ts). Safe to run while the server runs its own checks.
 *
 *   node scripts/alerts-check.ts
 *
 * Mail goes over SMTP_URL, or into the outbox folder (MAIL_OUTBOX, default data/outbox) without
 * it. Exit codes: 0 done, 1 some mails failed (they are retried by the next check) or the check
 * could not run.
 */
import { databasePath } from "../data/config.ts";
import { runCommand, UsageError, withDatabase } from "./cli.ts";
import { checkAlerts, sendConfirmationMails } from "../api/jobs/alert-check.ts";
import { createMailer } from "../api/mail/mailer.ts";

async function check(): Promise<number> {
  return withDatabase(databasePath(), async (db) => {
    const mailer = createMailer();
    const confirmations = await sendConfirmationMails({ db, mailer });
    const { sent, failed, rearmed } = await checkAlerts({ db, mailer });
    console.log(`${sent} sent, ${failed} failed, ${rearmed} re-armed (mail: ${mailer.describe})`);
    if (confirmations.sent || confirmations.failed) console.log(`Confirmation mails: ${confirmations.sent} sent, ${confirmations.failed} failed`);
    return failed > 0 || confirmations.failed > 0 ? 1 : 0;
  });
}

const usage = "Usage: node scripts/alerts-check.ts (no arguments)";
process.exitCode = await runCommand("alerts:check", usage, (argv) => {
  if (argv.includes("--help") || argv.includes("-h")) return "help";
  if (argv.length > 0) throw new UsageError(`unexpected argument "${argv[0]}"`);
}, check);
