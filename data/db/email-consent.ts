/**
 * Double opt-in for every address we mail (price alerts, the newsletter): the first alert or
 * sign-up for an address queues one confirmation mail, and nothing else is mailed to it until
 * its link is followed.
 *
 * - A visitor who confirmed an address for price alerts keeps it confirmed: their later alerts
 *   for it are active at once. Another visitor (another browser) entering the same address gets
 *   pending alerts and a confirmation mail of its own, so nobody can have price mail sent to an
 *   address they cannot read.
 * - At most `confirmationMailsPerDay` confirmation mails go to one mailbox in any 24 hours,
 *   whoever asks and however its address is spelt (data/domain/mailbox.ts: case, plus-tags, and
 *   dots at gmail.com/googlemail.com); each mail goes to the address as typed. Beyond that the
 *   request is still accepted (pending) but no mail is queued. A visitor who asks again for the
 *   same address within `resendAfterMs` of their last mail gets no second one.
 * - A link's token is derived from a random seed with the app secret and only its SHA-256 hash
 *   is stored, so the database alone confirms nothing; the seed is deleted once the mail is sent.
 *   Links expire after `confirmationTtlMs` and confirm only what their purpose names.
 *
 * The mails are sent by the alert check (api/jobs/alert-check.ts), claimed like alerts so that
 * two checks never send one twice and a failed send is retried.
 */
import crypto from "node:crypto";
import type { Db } from "./client.ts";
import { statement } from "./statements.ts";
import { appSecret } from "../config.ts";
import type { Pence } from "../domain/money.ts";
import type { AlertCondition, AlertKind } from "../domain/alerts.ts";
import { mailboxDomains, mailboxKey } from "../domain/mailbox.ts";

export type ConfirmationPurpose = "price-alerts" | "newsletter";

/** How long a confirmation link works. Unconfirmed alerts and sign-ups are deleted after the same time. */
export const confirmationTtlMs = 7 * 24 * 60 * 60 * 1000;
/** Confirmation mails one mailbox can receive in any 24 hours, however many visitors ask and however its address is spelt. */
export const confirmationMailsPerDay = 3;
/** A visitor asking again this soon after their last confirmation mail for an address gets no new one. */
export const resendAfterMs = 10 * 60 * 1000;

const dayMs = 24 * 60 * 60 * 1000;

/** A link's token: 43 base64url characters (HMAC-SHA256 of the row's seed with the app secret). */
export const confirmationTokenPattern = /^[A-Za-z0-9_-]{43}$/;

export function confirmationToken(seed: string, secret: string = appSecret()): string {
  return crypto.createHmac("sha256", secret).update(`email-confirmation.${seed}`).digest("base64url");
}

function tokenHash(token: string): string {
  return crypto.createHash("sha256").update(token).digest("hex");
}

/** Whether this visitor has confirmed this address for price alerts. */
export function hasConsent(db: Db, email: string, userId: string): boolean {
  return statement(db, "SELECT 1 FROM email_consents WHERE email = ? AND user_id = ?").get(email, userId) !== undefined;
}

export interface ConfirmationRequest {
  email: string;
  purpose: ConfirmationPurpose;
  /** The visitor asking (price alerts); null for a newsletter sign-up. */
  userId: string | null;
}

/** `%@domain` for LIKE, with LIKE's wildcards in the domain taken literally. */
const addressesAt = (domain: string) => `%@${domain.replace(/[\\%_]/g, "\\$&")}`;

/**
 * Confirmation mails asked for since `since` to the mailbox `email` reaches, however the address
 * was spelt (data/domain/mailbox.ts): the rows at the mailbox's domains are read and compared by
 * mailbox key.
 */
function mailsToMailboxSince(db: Db, email: string, since: Date): number {
  const [domain, otherDomain = domain] = mailboxDomains(email).map(addressesAt);
  const rows = statement<{ email: string }>(
    db,
    "SELECT email FROM email_confirmations WHERE created_at > ? AND (email LIKE ? ESCAPE '\\' OR email LIKE ? ESCAPE '\\')",
  ).all(since.toISOString(), domain, otherDomain);
  const mailbox = mailboxKey(email);
  return rows.filter((row) => mailboxKey(row.email) === mailbox).length;
}

/**
 * Queues a confirmation mail for the request, unless the same requester got one within
 * `resendAfterMs` or the address's mailbox has had its day's share. Returns whether a mail was queued.
 * Runs inside the caller's transaction, so the limits hold under concurrent requests.
 */
export function requestConfirmation(db: Db, request: ConfirmationRequest, now: Date, secret: string = appSecret()): boolean {
  const recent = statement(
    db,
    `SELECT 1 FROM email_confirmations
     WHERE email = ? AND purpose = ? AND user_id IS ? AND confirmed_at IS NULL AND created_at > ?`,
  ).get(request.email, request.purpose, request.userId, new Date(now.getTime() - resendAfterMs).toISOString());
  if (recent) return false;
  if (mailsToMailboxSince(db, request.email, new Date(now.getTime() - dayMs)) >= confirmationMailsPerDay) return false;
  const seed = crypto.randomBytes(32).toString("base64url");
  statement(
    db,
    `INSERT INTO email_confirmations (email, purpose, user_id, token_hash, token_seed, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    request.email,
    request.purpose,
    request.userId,
    tokenHash(confirmationToken(seed, secret)),
    seed,
    now.toISOString(),
    new Date(now.getTime() + confirmationTtlMs).toISOString(),
  );
  return true;
}

/** An alert a price-alert confirmation switches on, as its mail and page name it. */
export interface PendingAlertSummary extends AlertCondition {
  productName: string;
}

interface SummaryRow {
  name: string;
  kind: AlertKind;
  target_price_pence: number | null;
  drop_percent: number | null;
  reference_price_pence: number | null;
}

const summaryOf = (row: SummaryRow): PendingAlertSummary => ({
  productName: row.name,
  kind: row.kind,
  targetPricePence: row.target_price_pence,
  dropPercent: row.drop_percent,
  referencePricePence: row.reference_price_pence,
});

/** A claimed confirmation mail with what it needs. */
export interface DueConfirmation {
  id: number;
  email: string;
  purpose: ConfirmationPurpose;
  token: string;
  /** The alerts waiting for this confirmation (price alerts only; empty for the newsletter). */
  alerts: PendingAlertSummary[];
}

function pendingAlerts(db: Db, email: string, userId: string): PendingAlertSummary[] {
  return (
    statement<SummaryRow>(
      db,
      `SELECT p.name, a.kind, a.target_price_pence, a.drop_percent, a.reference_price_pence FROM price_alerts a JOIN products p ON p.id = a.product_id
       WHERE a.email = ? AND a.user_id = ? AND a.is_active = 1 AND a.confirmed_at IS NULL ORDER BY a.id`,
    ).all(email, userId)
  ).map(summaryOf);
}

interface ConfirmationRow {
  id: number;
  email: string;
  purpose: ConfirmationPurpose;
  user_id: string | null;
  token_seed: string;
}

/**
 * Claims (for `claimToken`, new for every call) the unsent, unexpired confirmation mails not
 * claimed by a live check, as claimDueAlerts does for alerts.
 */
export function claimDueConfirmations(
  db: Db,
  claimToken: string,
  now: Date,
  options: { staleAfterMs: number; limit: number },
  secret: string = appSecret(),
): DueConfirmation[] {
  const staleBefore = new Date(now.getTime() - options.staleAfterMs).toISOString();
  const rows = db.$client
    .transaction((): ConfirmationRow[] => {
      statement(
        db,
        `UPDATE email_confirmations SET claim_token = ?, claimed_at = ?
         WHERE id IN (
           SELECT id FROM email_confirmations
           WHERE sent_at IS NULL AND token_seed IS NOT NULL AND confirmed_at IS NULL AND expires_at > ?
             AND (claim_token IS NULL OR claimed_at < ?)
           ORDER BY id LIMIT ?)`,
      ).run(claimToken, now.toISOString(), now.toISOString(), staleBefore, options.limit);
      return statement<ConfirmationRow>(db, "SELECT id, email, purpose, user_id, token_seed FROM email_confirmations WHERE claim_token = ? ORDER BY id").all(
        claimToken,
      );
    })
    .immediate();
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    purpose: row.purpose,
    token: confirmationToken(row.token_seed, secret),
    alerts: row.user_id === null ? [] : pendingAlerts(db, row.email, row.user_id),
  }));
}

/** Records a sent confirmation mail and forgets its seed; false if this check no longer holds the claim. */
export function markConfirmationSent(db: Db, id: number, claimToken: string, now: Date): boolean {
  return (
    statement(
      db,
      "UPDATE email_confirmations SET sent_at = ?, token_seed = NULL, claim_token = NULL, claimed_at = NULL WHERE id = ? AND claim_token = ?",
    ).run(now.toISOString(), id, claimToken).changes === 1
  );
}

/** Frees the claim after a failed send, so the next check tries again. */
export function releaseConfirmationClaim(db: Db, id: number, claimToken: string): boolean {
  return (
    statement(db, "UPDATE email_confirmations SET claim_token = NULL, claimed_at = NULL WHERE id = ? AND claim_token = ?").run(id, claimToken)
      .changes === 1
  );
}

/** What following a confirmation link did. */
export type ConfirmOutcome =
  | { kind: "unknown" }
  | { kind: "expired" }
  | {
      kind: "confirmed" | "already-confirmed";
      purpose: ConfirmationPurpose;
      email: string;
      /** The visitor's alerts for the address that are now active (price alerts). */
      alerts: PendingAlertSummary[];
      /** Whether the address is now on the newsletter list (newsletter). */
      subscribed: boolean;
    };

function activeAlerts(db: Db, email: string, userId: string): PendingAlertSummary[] {
  return (
    statement<SummaryRow>(
      db,
      `SELECT p.name, a.kind, a.target_price_pence, a.drop_percent, a.reference_price_pence FROM price_alerts a JOIN products p ON p.id = a.product_id
       WHERE a.email = ? AND a.user_id = ? AND a.is_active = 1 AND a.confirmed_at IS NOT NULL ORDER BY a.id`,
    ).all(email, userId)
  ).map(summaryOf);
}

/**
 * Follows a confirmation link: records the visitor's consent and switches on their pending
 * alerts for the address (price alerts), or the address's pending newsletter sign-up. Returns
 * "unknown" for a token never issued (or deleted after expiry) and "expired" for one past its
 * time; neither changes anything. Using a link twice changes nothing the second time.
 */
export function confirmEmail(db: Db, token: string, now: Date): ConfirmOutcome {
  if (!confirmationTokenPattern.test(token)) return { kind: "unknown" };
  return db.$client
    .transaction((): ConfirmOutcome => {
      const row = statement<{ id: number; email: string; purpose: ConfirmationPurpose; user_id: string | null; expires_at: string; confirmed_at: string | null }>(
        db,
        "SELECT id, email, purpose, user_id, expires_at, confirmed_at FROM email_confirmations WHERE token_hash = ?",
      ).get(tokenHash(token));
      if (!row) return { kind: "unknown" };
      const at = now.toISOString();
      const alreadyConfirmed = row.confirmed_at !== null;
      if (!alreadyConfirmed && row.expires_at <= at) return { kind: "expired" };
      if (!alreadyConfirmed) {
        statement(db, "UPDATE email_confirmations SET confirmed_at = ? WHERE id = ?").run(at, row.id);
        // Mails still waiting for the same requester are not needed any more.
        statement(
          db,
          "DELETE FROM email_confirmations WHERE email = ? AND purpose = ? AND user_id IS ? AND sent_at IS NULL AND claim_token IS NULL AND id <> ?",
        ).run(row.email, row.purpose, row.user_id, row.id);
        if (row.purpose === "price-alerts" && row.user_id !== null) {
          statement(db, "INSERT INTO email_consents (email, user_id, confirmed_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING").run(row.email, row.user_id, at);
          statement(db, "UPDATE price_alerts SET confirmed_at = ? WHERE email = ? AND user_id = ? AND confirmed_at IS NULL AND is_active = 1").run(
            at,
            row.email,
            row.user_id,
          );
        } else if (row.purpose === "newsletter") {
          statement(db, "UPDATE email_subscribers SET confirmed_at = ? WHERE email = ? AND confirmed_at IS NULL AND is_active = 1").run(at, row.email);
        }
      }
      const subscribed =
        row.purpose === "newsletter" &&
        statement(db, "SELECT 1 FROM email_subscribers WHERE email = ? AND is_active = 1 AND confirmed_at IS NOT NULL").get(row.email) !== undefined;
      return {
        kind: alreadyConfirmed ? "already-confirmed" : "confirmed",
        purpose: row.purpose,
        email: row.email,
        alerts: row.user_id === null ? [] : activeAlerts(db, row.email, row.user_id),
        subscribed,
      };
    })
    .immediate();
}
