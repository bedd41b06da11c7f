/**
 * The price-alert check: mails every active, confirmed alert whose
 * condition holds (target reached, dropped N %, back in stock, lowest in 90 days; see
 * data/db/alert-delivery.ts), once per occurrence. The same schedule first sends the
 * queued address-confirmation mails (double opt-in, data/db/email-consent.ts). It runs from `npm run alerts:check`, on a
 * schedule inside the server, and after every price change (notifyPricesChanged).
 *
 * Delivery is at least once, never twice for one drop in normal operation: alerts are claimed
 * in the database before sending (see data/db/alert-delivery.ts), marked notified only after the
 * mail server accepted the message, and released for the next check when sending failed. Only a
 * check that dies between sending and recording can cause a repeat, once its claim goes stale.
 */
import crypto from "node:crypto";
import type { Db } from "../../data/db/client.ts";
import { claimDueAlerts, markNotified, rearmAlerts, releaseClaim, type DueAlert } from "../../data/db/alert-delivery.ts";
import {
  claimDueConfirmations,
  confirmationTtlMs,
  markConfirmationSent,
  releaseConfirmationClaim,
  type DueConfirmation,
} from "../../data/db/email-consent.ts";
import { siteConfig } from "../../data/config.ts";
import { apiPath, productPath } from "../../data/domain/paths.ts";
import { signToken } from "../lib/tokens.ts";
import type { Mailer, MailMessage } from "../mail/mailer.ts";
import { alertMail, confirmationMail } from "../mail/templates.ts";
import { createJobRunner } from "./runner.ts";
import { createSchedule, type JobDefinition, type Schedule } from "./schedule.ts";

export interface AlertCheckResult {
  sent: number;
  /** Due alerts not mailed in this run (send failed, or skipped because the mail server kept failing); retried next run. */
  failed: number;
  rearmed: number;
}

export interface AlertCheckOptions {
  db: Db;
  mailer: Mailer;
  now?: () => Date;
  log?: (message: string) => void;
}

/** Longer than any batch takes with the mailer's 10 s timeouts, so only a dead check's claims go stale. */
const claimStaleAfterMs = 15 * 60_000;
const batchSize = 50;
/** After this many failures in a row the mail server is taken to be down: the rest waits for the next run. */
const maxConsecutiveFailures = 5;

/** The one-click unsubscribe link of an alert, as put in its mail. */
export function alertUnsubscribeUrl(alertId: number): string {
  return siteConfig.baseUrl + apiPath("/alerts/unsubscribe", { token: signToken("alert-unsubscribe", alertId) });
}

function alertMessage(alert: DueAlert): MailMessage {
  const unsubscribeUrl = alertUnsubscribeUrl(alert.id);
  const mail = alertMail({
    productName: alert.productName,
    productUrl: siteConfig.baseUrl + productPath(alert.productSlug),
    pricePence: alert.bestPricePence,
    deliveryPence: alert.bestDeliveryPence,
    targetPence: alert.targetPricePence,
    retailerName: alert.retailerName,
    kind: alert.kind,
    referencePence: alert.referencePricePence,
    unsubscribeUrl,
    siteName: siteConfig.siteName,
    companyName: siteConfig.companyName,
  });
  return { to: alert.email, ...mail, unsubscribeUrl };
}

/** The link in a confirmation mail. */
export function confirmUrl(token: string): string {
  return siteConfig.baseUrl + apiPath("/email/confirm", { token });
}

function confirmationMessage(confirmation: DueConfirmation): MailMessage {
  const mail = confirmationMail({
    purpose: confirmation.purpose,
    confirmUrl: confirmUrl(confirmation.token),
    alerts: confirmation.alerts,
    validDays: confirmationTtlMs / (24 * 60 * 60_000),
    siteName: siteConfig.siteName,
    companyName: siteConfig.companyName,
  });
  return { to: confirmation.email, ...mail };
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A kind of claimed mail: how to claim a batch, write one, and record or release it. */
interface ClaimedMail<Item extends { id: number }> {
  /** Claims up to `limit` due items under the token (claims older than the stale limit are taken over). */
  claim(claimToken: string, limit: number): Item[];
  message(item: Item): MailMessage;
  /** Records the item as sent under its claim. */
  markSent(item: Item, claimToken: string): void;
  release(id: number, claimToken: string): void;
  /** How log lines name one item ("Price alert 12") and the kind ("Price alerts"). */
  name(item: Item): string;
  kind: string;
}

/**
 * Mails what is due in claimed batches: each item is claimed before it is sent, so two runs never
 * mail it twice. A failed send keeps its claim until the run ends (a later batch of the run skips
 * it) and is then released for the next run; after 5 failures in a row the mail server is taken
 * to be down and the rest waits for the next run.
 */
async function sendClaimed<Item extends { id: number }>(mail: ClaimedMail<Item>, mailer: Mailer, log: (message: string) => void): Promise<{ sent: number; failed: number }> {
  let sent = 0;
  let consecutiveFailures = 0;
  const unsent: { id: number; claimToken: string }[] = [];
  try {
    batches: for (;;) {
      const claimToken = crypto.randomUUID();
      const due = mail.claim(claimToken, batchSize);
      if (due.length === 0) break;
      for (const [index, item] of due.entries()) {
        if (consecutiveFailures >= maxConsecutiveFailures) {
          log(`${mail.kind}: the mail server failed ${consecutiveFailures} times in a row; the rest wait for the next check`);
          unsent.push(...due.slice(index).map(({ id }) => ({ id, claimToken })));
          break batches;
        }
        try {
          await mailer.send(mail.message(item));
        } catch (error) {
          consecutiveFailures++;
          unsent.push({ id: item.id, claimToken });
          log(`${mail.name(item)}: mail not sent (${errorMessage(error)}); the next check retries`);
          continue;
        }
        consecutiveFailures = 0;
        sent++;
        mail.markSent(item, claimToken);
      }
    }
  } finally {
    for (const { id, claimToken } of unsent) mail.release(id, claimToken);
  }
  return { sent, failed: unsent.length };
}

/** Runs one check: re-arm, then claim and mail the due alerts in batches. */
export async function checkAlerts({ db, mailer, now = () => new Date(), log = console.error }: AlertCheckOptions): Promise<AlertCheckResult> {
  const rearmed = rearmAlerts(db, now());
  const result = await sendClaimed<DueAlert>(
    {
      claim: (claimToken, limit) => claimDueAlerts(db, claimToken, now(), { staleAfterMs: claimStaleAfterMs, limit }),
      message: alertMessage,
      markSent: (alert, claimToken) => {
        if (!markNotified(db, alert.id, claimToken, alert.bestPricePence, now())) {
          log(`Price alert ${alert.id}: mailed, but its claim was taken over meanwhile (the send took very long)`);
        }
      },
      release: (id, claimToken) => releaseClaim(db, id, claimToken),
      name: (alert) => `Price alert ${alert.id}`,
      kind: "Price alerts",
    },
    mailer,
    log,
  );
  return { ...result, rearmed };
}

export interface ConfirmationSendResult {
  sent: number;
  /** Not sent in this run (send failed, or the mail server kept failing); retried next run while the link is valid. */
  failed: number;
}

/** Sends the queued confirmation mails, claimed and recorded like alert mails (never one twice, failures retried). */
export function sendConfirmationMails({ db, mailer, now = () => new Date(), log = console.error }: AlertCheckOptions): Promise<ConfirmationSendResult> {
  return sendClaimed<DueConfirmation>(
    {
      claim: (claimToken, limit) => claimDueConfirmations(db, claimToken, now(), { staleAfterMs: claimStaleAfterMs, limit }),
      message: confirmationMessage,
      markSent: (confirmation, claimToken) => markConfirmationSent(db, confirmation.id, claimToken, now()),
      release: (id, claimToken) => releaseConfirmationClaim(db, id, claimToken),
      name: (confirmation) => `Confirmation mail ${confirmation.id}`,
      kind: "Confirmation mails",
    },
    mailer,
    log,
  );
}

/** One run of the schedule: confirmation mails first (a visitor is waiting for one), then the alert check. */
async function runMailJobs(options: AlertCheckOptions): Promise<AlertCheckResult> {
  const log = options.log ?? console.error;
  try {
    const confirmations = await sendConfirmationMails(options);
    if (confirmations.sent || confirmations.failed) log(`Confirmation mails: ${confirmations.sent} sent, ${confirmations.failed} failed`);
  } catch (error) {
    log(`Sending confirmation mails failed: ${errorMessage(error)}`);
  }
  return checkAlerts(options);
}

export interface AlertSchedule {
  /** Runs a check now; while one runs, joins a single follow-up run after it (never two at once). */
  runNow(): Promise<AlertCheckResult>;
  /** Stops the timer and waits for a running check, so the database can be closed afterwards. */
  stop(): Promise<void>;
}

export interface AlertScheduleOptions {
  db: Db;
  mailer: Mailer;
  /** Minutes between checks; 0 runs checks only when asked (runNow). */
  intervalMinutes: number;
  log?: (message: string) => void;
  /** The server's schedule to put the check on (default: one of its own, started at once). */
  schedule?: Schedule;
}

const nothingDone: AlertCheckResult = { sent: 0, failed: 0, rearmed: 0 };

/**
 * The server's alert checks: one right away (drops while the server was down), then one every
 * interval, plus one whenever prices change. Checks never overlap in this process; a request
 * during a check is served by one follow-up check, since the running one may have missed the change.
 */
export function startAlertSchedule({ db, mailer, intervalMinutes, log = console.error, schedule }: AlertScheduleOptions): AlertSchedule {
  const runner = createJobRunner(() => runMailJobs({ db, mailer, log }), { whenStopped: { ...nothingDone } });
  // A scheduled check reports only when it mailed or failed something; a failed check is logged by the schedule.
  const job: JobDefinition = {
    name: "alert-check",
    title: "Price alert check",
    every: intervalMinutes * 60_000,
    runAtStart: true,
    run: async () => {
      const { sent, failed, rearmed } = await runner.request();
      if (sent || failed) log(`Price alerts: ${sent} sent, ${failed} failed, ${rearmed} re-armed`);
    },
  };
  const scheduled = intervalMinutes > 0;
  const own = scheduled && !schedule ? createSchedule({ log }) : null;
  const target = schedule ?? own;
  if (scheduled) target!.add(job);
  own?.start();

  return {
    runNow: () => runner.request(),
    async stop() {
      if (scheduled) target!.remove(job.name);
      await own?.stop();
      await runner.stop();
    },
  };
}

/**
 * Tells the schedule that prices changed (admin edit, import, refresh): call it after the commit.
 * The check runs in the background; its outcome is logged, never thrown at the caller.
 */
export function notifyPricesChanged(schedule: AlertSchedule, log: (message: string) => void = console.error): void {
  logOutcome(schedule.runNow(), log);
}

/** Background checks report only when they mailed or failed something, so an idle server stays quiet. */
function logOutcome(run: Promise<AlertCheckResult>, log: (message: string) => void): void {
  run.then(
    ({ sent, failed, rearmed }) => {
      if (sent || failed) log(`Price alerts: ${sent} sent, ${failed} failed, ${rearmed} re-armed`);
    },
    (error: unknown) => log(`Price alert check failed: ${errorMessage(error)}`),
  );
}
