/**
 * Deleting visitor data once the privacy policy's periods are over: recently viewed products
 * after 12 months, click records after 24 months, price alerts and newsletter sign-ups never
 * confirmed 7 days after they were made, confirmation links once they have expired, and who used
 * which voucher once its (UK) day is over.
 * Timestamps are ISO-8601 UTC text, so "older than" is a text comparison with the cut-off.
 */
import type { Db } from "./client.ts";
import { statement } from "./statements.ts";
import { confirmationTtlMs } from "./email-consent.ts";
import { ukToday } from "../domain/dates.ts";

export const recentlyViewedMonths = 12;
export const clickRecordMonths = 24;

export interface RetentionResult {
  recentlyViewed: number;
  clicks: number;
  unconfirmedAlerts: number;
  unconfirmedSubscribers: number;
  expiredConfirmations: number;
  voucherUses: number;
}

/**
 * `now` less whole calendar months (UTC), as an ISO string: 12 months before 2026-11-22T10:00Z
 * is 2025-11-22T10:00Z. A day that does not exist in the target month is clamped to its last day.
 * @example monthsBefore(new Date("2026-03-31T00:00:00Z"), 1) // "2026-02-28T00:00:00.000Z"
 */
export function monthsBefore(now: Date, months: number): string {
  const date = new Date(now.getTime());
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() - months);
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, lastDay));
  return date.toISOString();
}

/** Deletes what is past its period; a row exactly on the boundary is kept. Returns how many rows of each kind went. */
export function deleteExpiredVisitorData(db: Db, now: Date): RetentionResult {
  const unconfirmedBefore = new Date(now.getTime() - confirmationTtlMs).toISOString();
  return db.$client
    .transaction(
      (): RetentionResult => ({
        recentlyViewed: statement(db, "DELETE FROM recently_viewed WHERE viewed_at < ?").run(monthsBefore(now, recentlyViewedMonths)).changes,
        // The table holds the affiliate click records.
        clicks: statement(db, "DELETE FROM user_behaviour WHERE timestamp < ?").run(monthsBefore(now, clickRecordMonths)).changes,
        unconfirmedAlerts: statement(db, "DELETE FROM price_alerts WHERE confirmed_at IS NULL AND created_at < ?").run(unconfirmedBefore).changes,
        unconfirmedSubscribers: statement(db, "DELETE FROM email_subscribers WHERE confirmed_at IS NULL AND subscribed_at < ?").run(unconfirmedBefore)
          .changes,
        expiredConfirmations: statement(db, "DELETE FROM email_confirmations WHERE expires_at < ?").run(now.toISOString()).changes,
        // Who used a voucher is kept only to count each visitor once a day: yesterday's rows and older go.
        voucherUses: statement(db, "DELETE FROM voucher_uses WHERE day < ?").run(ukToday(now)).changes,
      }),
    )
    .immediate();
}
