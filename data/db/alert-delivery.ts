/**
 * The database side of price-alert delivery (DECISIONS.md item 4) and of unsubscribe links.
 *
 * An alert is mailed at most once per drop: `last_notified_price_pence` remembers the price
 * mailed about, and only a lower price (or a new drop after the price went back above the target,
 * see rearmAlerts) is due again. A check first claims the due alerts in one write transaction,
 * so two checks (in one process or in two) never pick the same alert; the claim is turned into
 * "notified" after a successful send or released after a failed one, so the next check retries.
 * A claim left behind by a crashed check counts as free again once it is stale.
 */
import type { Db } from "./client.ts";
import { statement } from "./statements.ts";
import type { Pence } from "../domain/money.ts";

/** A claimed alert with what its mail needs. */
export interface DueAlert {
  id: number;
  email: string;
  targetPricePence: Pence;
  productName: string;
  productSlug: string;
  /** The best price (total to the door) and the delivery inside it (null: not known). */
  bestPricePence: Pence;
  bestDeliveryPence: Pence | null;
  /** Null if the best offer's retailer is gone. */
  retailerName: string | null;
}

interface DueAlertRow {
  id: number;
  email: string;
  target_price_pence: number;
  name: string;
  slug: string;
  best_price_pence: number;
  best_delivery_pence: number | null;
  retailer_name: string | null;
}

/**
 * Re-arms notified alerts whose product is back above the target (or out of stock everywhere),
 * so the next drop to the target is mailed again. Returns how many were re-armed.
 */
export function rearmAlerts(db: Db): number {
  return statement(
    db,
    `UPDATE price_alerts SET last_notified_price_pence = NULL
     WHERE is_active = 1 AND last_notified_price_pence IS NOT NULL
       AND EXISTS (SELECT 1 FROM products p WHERE p.id = price_alerts.product_id
                   AND (p.best_price_pence IS NULL OR p.best_price_pence > price_alerts.target_price_pence))`,
  ).run().changes;
}

export interface ClaimOptions {
  /** A claim older than this belongs to a check that died; it may be taken over. */
  staleAfterMs: number;
  /** At most this many per claim, so a long list is sent in batches that finish well before going stale. */
  limit: number;
}

/**
 * Claims (for `claimToken`, which must be new for every call) the active, confirmed alerts that are due (best price at or below the target and below the price
 * last mailed about) and not claimed by a live check, and returns them with their mail's details.
 * IMMEDIATE takes the write lock before reading, so a second process waits (busy_timeout) and
 * then sees the claims instead of claiming the same rows.
 */
export function claimDueAlerts(db: Db, claimToken: string, now: Date, options: ClaimOptions): DueAlert[] {
  const staleBefore = new Date(now.getTime() - options.staleAfterMs).toISOString();
  const claim = db.$client.transaction((): DueAlertRow[] => {
    statement(
      db,
      `UPDATE price_alerts SET claim_token = ?, claimed_at = ?
       WHERE id IN (
         SELECT a.id FROM price_alerts a JOIN products p ON p.id = a.product_id
         WHERE a.is_active = 1 AND a.confirmed_at IS NOT NULL
           AND p.best_price_pence IS NOT NULL AND p.best_price_pence <= a.target_price_pence
           AND (a.last_notified_price_pence IS NULL OR p.best_price_pence < a.last_notified_price_pence)
           AND (a.claim_token IS NULL OR a.claimed_at < ?)
         ORDER BY a.id LIMIT ?)`,
    ).run(claimToken, now.toISOString(), staleBefore, options.limit);
    return statement(
      db,
      `SELECT a.id, a.email, a.target_price_pence, p.name, p.slug, p.best_price_pence, p.best_delivery_pence, r.name AS retailer_name
       FROM price_alerts a JOIN products p ON p.id = a.product_id LEFT JOIN retailers r ON r.id = p.best_retailer_id
       WHERE a.claim_token = ? ORDER BY a.id`,
    ).all(claimToken) as DueAlertRow[];
  });
  return claim.immediate().map((row) => ({
    id: row.id,
    email: row.email,
    targetPricePence: row.target_price_pence,
    productName: row.name,
    productSlug: row.slug,
    bestPricePence: row.best_price_pence,
    bestDeliveryPence: row.best_delivery_pence,
    retailerName: row.retailer_name,
  }));
}

/**
 * Records a sent mail: the time and the price it announced, and frees the claim. Does nothing
 * (returns false) if this check no longer holds the claim.
 */
export function markNotified(db: Db, alertId: number, claimToken: string, pricePence: Pence, now: Date): boolean {
  return (
    statement(
      db,
      `UPDATE price_alerts SET last_notified_at = ?, last_notified_price_pence = ?, claim_token = NULL, claimed_at = NULL
       WHERE id = ? AND claim_token = ?`,
    ).run(now.toISOString(), pricePence, alertId, claimToken).changes === 1
  );
}

/** Frees the claim after a failed send, so the next check tries again. */
export function releaseClaim(db: Db, alertId: number, claimToken: string): boolean {
  return statement(db, "UPDATE price_alerts SET claim_token = NULL, claimed_at = NULL WHERE id = ? AND claim_token = ?").run(alertId, claimToken)
    .changes === 1;
}

/** What an unsubscribe link did: switched it off now, found it off already, or found nothing. */
export type UnsubscribeOutcome = "unsubscribed" | "already-unsubscribed" | "not-found";

function deactivate(db: Db, table: "price_alerts" | "email_subscribers", id: number): UnsubscribeOutcome {
  return db.$client.transaction((): UnsubscribeOutcome => {
    if (statement(db, `UPDATE ${table} SET is_active = 0 WHERE id = ? AND is_active = 1`).run(id).changes === 1) return "unsubscribed";
    return statement(db, `SELECT 1 FROM ${table} WHERE id = ?`).get(id) ? "already-unsubscribed" : "not-found";
  })();
}

/** Switches an alert off (its unsubscribe link). The row stays, inactive, so a second click can say it is off already. */
export function deactivateAlert(db: Db, id: number): UnsubscribeOutcome {
  return deactivate(db, "price_alerts", id);
}

/** Switches a newsletter subscriber off; signing up again on the site makes them pending until they confirm again. */
export function deactivateSubscriber(db: Db, id: number): UnsubscribeOutcome {
  return deactivate(db, "email_subscribers", id);
}

export interface Subscriber {
  id: number;
  email: string;
}

/** Everyone a newsletter goes to (active and confirmed), oldest subscription first. */
export function activeSubscribers(db: Db): Subscriber[] {
  return statement(db, "SELECT id, email FROM email_subscribers WHERE is_active = 1 AND confirmed_at IS NOT NULL ORDER BY id").all() as Subscriber[];
}
