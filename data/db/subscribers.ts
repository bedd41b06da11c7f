import type { Db } from "./client.ts";
import { recordAudit } from "./audit.ts";
import { statement } from "./statements.ts";
import { requestConfirmation } from "./email-consent.ts";

/** "pending_confirmation" until the address follows its confirmation link: no newsletter goes to it before. */
export type SubscriptionState = "pending_confirmation" | "active";

export interface SubscribeResult {
  created: boolean;
  state: SubscriptionState;
  /** Whether a confirmation mail was queued (see email-consent.ts for the limits). */
  confirmationSent: boolean;
}

/**
 * Adds a newsletter subscriber, pending until the address is confirmed
 * (double opt-in). An address already on the list is not an error to the visitor: a confirmed
 * one stays as it is, a pending one gets another confirmation mail (within the limits), and one
 * that had unsubscribed is pending again, so nobody can switch a stranger's newsletter back on.
 */
export function subscribe(db: Db, email: string, source: string, now: Date = new Date()): SubscribeResult {
  return db.$client.transaction((): SubscribeResult => {
    const existing = statement<{ id: number; is_active: number; confirmed_at: string | null }>(db, "SELECT id, is_active, confirmed_at FROM email_subscribers WHERE email = ?").get(email);
    if (existing?.is_active === 1 && existing.confirmed_at !== null) return { created: false, state: "active", confirmationSent: false };
    if (!existing) {
      statement(db, "INSERT INTO email_subscribers (email, source, subscribed_at) VALUES (?, ?, ?)").run(email, source, now.toISOString());
    } else if (existing.is_active === 0) {
      statement(db, "UPDATE email_subscribers SET is_active = 1, confirmed_at = NULL, subscribed_at = ?, source = ? WHERE id = ?").run(
        now.toISOString(),
        source,
        existing.id,
      );
    }
    const confirmationSent = requestConfirmation(db, { email, purpose: "newsletter", userId: null }, now);
    return { created: !existing, state: "pending_confirmation", confirmationSent };
  })();
}

export interface AdminSubscriber {
  id: number;
  email: string;
  isActive: boolean;
  /** Whether the address confirmed its sign-up (double opt-in); only confirmed ones get the newsletter. */
  isConfirmed: boolean;
  subscribedAt: string;
  source: string;
}

/** Every subscriber for the admin's list, newest first. */
export function listSubscribersWithConsent(db: Db): AdminSubscriber[] {
  const rows = statement<{ id: number; email: string; is_active: number; confirmed_at: string | null; subscribed_at: string; source: string }>(
    db,
    "SELECT id, email, is_active, confirmed_at, subscribed_at, source FROM email_subscribers ORDER BY subscribed_at DESC, id DESC",
  ).all();
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    isActive: row.is_active === 1,
    isConfirmed: row.confirmed_at !== null,
    subscribedAt: row.subscribed_at,
    source: row.source,
  }));
}

/** Deletes a subscriber (the admin's list), with an audit entry; false when there is none. */
export function deleteSubscriber(db: Db, id: number, now = new Date()): boolean {
  return db.$client
    .transaction(() => {
      const row = statement<{ email: string }>(db, "SELECT email FROM email_subscribers WHERE id = ?").get(id);
      if (!row) return false;
      statement(db, "DELETE FROM email_subscribers WHERE id = ?").run(id);
      recordAudit(db, { action: "delete", entity: "subscriber", entityId: id, summary: `Removed subscriber ${row.email}` }, now);
      return true;
    })
    .immediate();
}
