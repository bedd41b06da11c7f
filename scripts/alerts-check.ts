/**
 * Runs one price-alert check: mails every active alert whose target is met and not yet mailed
 * for this drop (api/jobs/alert-check.ts). Safe to run while the server runs its own checks.
 *
 *   node scripts/alerts-check.ts
 *
 * Mail goes over SMTP_URL, or into the outbox folder (MAIL_OUTBOX, default data/outbox) without
 * it. Exit codes: 0 done, 1 some mails failed (they are retried by the next check) or the check
 * could not run.
 */
import { databasePath } from "../data/config.ts";
import { closeDb, migrateDb, openDb, type Db } from "../data/db/client.ts";
import { checkAlerts } from "../api/jobs/alert-check.ts";
import { createMailer } from "../api/mail/mailer.ts";

async function main(): Promise<number> {
  let db: Db | undefined;
  try {
    db = openDb(databasePath());
    await migrateDb(db);
    const mailer = createMailer();
    const { sent, failed, rearmed } = await checkAlerts({ db, mailer });
    console.log(`${sent} sent, ${failed} failed, ${rearmed} re-armed (mail: ${mailer.describe})`);
    return failed > 0 ? 1 : 0;
  } catch (error) {
    console.error(`alerts:check: failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    if (db) closeDb(db);
  }
}

process.exitCode = await main();
