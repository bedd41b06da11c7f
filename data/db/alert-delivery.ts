/**
 * The database side of price-alert delivery (by e-mail, to confirmed addresses only) and of unsubscribe links.
 *
 * An alert is mailed at most once per drop: `last_notified_price_pence` remembers the price
 * mailed about, and only a lower price (or a new drop after the price went back above the target,
 * see rearmAlerts) is due again. A check first claims the due alerts in one write transaction,
 * so two checks (in one process or in two) never pick the same alert; the claim is turned into
 * "notified" after a successful send or released after a failed one, so the next check retries.
 * A claim left behind by a crashed check counts as free again once it is stale.
 */
import type { Db } from "./client.ts";
import type { PriceAlertRow, ProductRow, RetailerRow } from "./rows.ts";
import { dealFactsFor } from "./deal-facts.ts";
import { statement } from "./statements.ts";
import { prescriptionOnlySqlList } from "./product-rows.ts";
import { alertFires, alertHolds, alertKindOf, alertRuleOf, type AlertCondition, type AlertKind } from "../domain/alerts.ts";
import type { Pence } from "../domain/money.ts";

/** A claimed alert with what its mail needs. */
export interface DueAlert {
  id: number;
  email: string;
  kind: AlertKind;
  /** Only for kind target. */
  targetPricePence: Pence | null;
  /** Only for kind drop. */
  dropPercent: number | null;
  /** The best price when the alert was set. */
  referencePricePence: Pence | null;
  productName: string;
  productSlug: string;
  /** The best price (total to the door) and the delivery inside it (null: not known). */
  bestPricePence: Pence;
  bestDeliveryPence: Pence | null;
  /** Null if the best offer's retailer is gone. */
  retailerName: string | null;
}

/** A due alert with its product and best retailer (a due alert's product has a best price). */
type DueAlertRow = Pick<PriceAlertRow, "id" | "email" | "target_price_pence" | "drop_percent" | "reference_price_pence"> &
  Pick<ProductRow, "name" | "slug" | "best_delivery_pence"> & { kind: AlertKind; best_price_pence: number; retailer_name: RetailerRow["name"] | null };

/** An alert with what deciding whether it fires needs. */
type RuleRow = Pick<
  PriceAlertRow,
  "id" | "product_id" | "target_price_pence" | "drop_percent" | "reference_price_pence" | "last_in_stock" | "last_notified_price_pence"
> &
  Pick<ProductRow, "best_price_pence"> & { kind: AlertKind };

const ruleColumns = `a.id, a.product_id, a.kind, a.target_price_pence, a.drop_percent, a.reference_price_pence, a.last_in_stock,
  a.last_notified_price_pence, p.best_price_pence`;

const conditionOf = (row: RuleRow): AlertCondition => ({
  kind: row.kind,
  targetPricePence: row.target_price_pence,
  dropPercent: row.drop_percent,
  referencePricePence: row.reference_price_pence,
});

/** Each row's product's least price of the 89 days before today, for the kinds that read history (lowest-90), read in bulk. */
function lowestBeforeToday(db: Db, rows: readonly RuleRow[], now: Date): (row: RuleRow) => Pence | null {
  const ids = [...new Set(rows.filter((row) => alertKindOf(row.kind).history && row.best_price_pence !== null).map((row) => row.product_id))];
  const facts = ids.length === 0 ? new Map() : dealFactsFor(db, ids, now);
  return (row) => facts.get(row.product_id)?.lowestBeforeTodayPence ?? null;
}

/**
 * Whether each alert fires now (alertFires: its kind's rule decides), by alert id. Back in stock
 * is judged against the stock state of the last check (unknown counts as in stock: no news).
 */
function firingNow(db: Db, rows: readonly RuleRow[], now: Date): Map<number, boolean> {
  const lowest = lowestBeforeToday(db, rows, now);
  const fires = new Map<number, boolean>();
  for (const row of rows) {
    const rule = alertRuleOf(conditionOf(row));
    const state = {
      currentPence: row.best_price_pence,
      referencePence: row.reference_price_pence,
      wasInStock: row.last_in_stock !== 0,
      lowest90ExcludingTodayPence: lowest(row),
    };
    fires.set(row.id, rule !== null && alertFires(rule, state));
  }
  return fires;
}

/**
 * Re-arms notified alerts whose condition no longer holds (alertHolds), so the next occurrence is
 * mailed again: a target alert whose product is back above the target (or out of stock
 * everywhere), a drop alert back above its threshold, a lowest-90 alert whose price is no longer
 * below the 90 days before today, a back-in-stock alert out of stock again. Returns how many
 * were re-armed.
 */
export function rearmAlerts(db: Db, now: Date = new Date()): number {
  const notified = statement<RuleRow>(
    db,
    `SELECT ${ruleColumns} FROM price_alerts a JOIN products p ON p.id = a.product_id
     WHERE a.is_active = 1 AND a.last_notified_price_pence IS NOT NULL`,
  ).all();
  const lowest = lowestBeforeToday(db, notified, now);
  const rearm = statement(db, "UPDATE price_alerts SET last_notified_price_pence = NULL WHERE id = ?");
  let rearmed = 0;
  for (const row of notified) {
    if (!alertHolds(conditionOf(row), row.best_price_pence, lowest(row))) rearmed += rearm.run(row.id).changes;
  }
  return rearmed;
}

export interface ClaimOptions {
  /** A claim older than this belongs to a check that died; it may be taken over. */
  staleAfterMs: number;
  /** At most this many per claim, so a long list is sent in batches that finish well before going stale. */
  limit: number;
}

/**
 * Claims (for `claimToken`, which must be new for every call) the active, confirmed alerts that are due and not claimed by a live check,
 * oldest first, and returns them with their mail's details. Due, once per occurrence, when the
 * alert fires (alertFires: its kind's rule decides, not SQL) and:
 * - a kind that mails once per price (target, drop, lowest-90): the best price is below the price
 *   last mailed about (or none was mailed yet);
 * - a kind that mails once per restock (back in stock, which fires on something in stock while
 *   nothing was at the last check): always. Each check records the stock state of such alerts it
 *   does not claim (a claimed one is recorded as in stock once its mail is sent), so it fires on
 *   the change only.
 * An alert waiting for its confirmation is never due (double opt-in) and its stock state is not
 * recorded: once confirmed, a product that came back meanwhile is news. An alert on a
 * prescription-only medicine (POM-V, POM-VPS) is never due: such a medicine may not be
 * advertised, and a mail about its price would be.
 * IMMEDIATE takes the write lock before reading, so a second process waits (busy_timeout) and
 * then sees the claims instead of claiming the same rows.
 */
export function claimDueAlerts(db: Db, claimToken: string, now: Date, options: ClaimOptions): DueAlert[] {
  const staleBefore = new Date(now.getTime() - options.staleAfterMs).toISOString();
  const claim = db.$client.transaction((): DueAlertRow[] => {
    claimFiring(db, claimToken, now, staleBefore, options.limit);
    return statement<DueAlertRow>(
      db,
      `SELECT a.id, a.email, a.kind, a.target_price_pence, a.drop_percent, a.reference_price_pence,
         p.name, p.slug, p.best_price_pence, p.best_delivery_pence, r.name AS retailer_name
       FROM price_alerts a JOIN products p ON p.id = a.product_id LEFT JOIN retailers r ON r.id = p.best_retailer_id
       WHERE a.claim_token = ? ORDER BY a.id`,
    ).all(claimToken);
  });
  return claim.immediate().map((row) => ({
    id: row.id,
    email: row.email,
    kind: row.kind,
    targetPricePence: row.target_price_pence,
    dropPercent: row.drop_percent,
    referencePricePence: row.reference_price_pence,
    productName: row.name,
    productSlug: row.slug,
    bestPricePence: row.best_price_pence,
    bestDeliveryPence: row.best_delivery_pence,
    retailerName: row.retailer_name,
  }));
}

/**
 * The deciding part of claimDueAlerts (inside its transaction). SQL picks the candidates only
 * coarsely (active, confirmed, not a prescription-only medicine, not claimed by a live check);
 * alertFires decides which are due.
 */
function claimFiring(db: Db, claimToken: string, now: Date, staleBefore: string, limit: number): void {
  const candidates = statement<RuleRow>(
    db,
    `SELECT ${ruleColumns} FROM price_alerts a JOIN products p ON p.id = a.product_id
     WHERE a.is_active = 1 AND a.confirmed_at IS NOT NULL AND p.legal_category NOT IN ${prescriptionOnlySqlList}
       AND (a.claim_token IS NULL OR a.claimed_at < ?)
     ORDER BY a.id`,
  ).all(staleBefore);
  const fires = firingNow(db, candidates, now);
  const claimOne = statement(db, "UPDATE price_alerts SET claim_token = ?, claimed_at = ? WHERE id = ?");
  const recordStock = statement(db, "UPDATE price_alerts SET last_in_stock = ? WHERE id = ? AND last_in_stock IS NOT ?");
  let claimed = 0;
  for (const row of candidates) {
    const perRestock = alertKindOf(row.kind).repeat === "restock";
    const due =
      fires.get(row.id) === true && (perRestock || row.last_notified_price_pence === null || row.best_price_pence! < row.last_notified_price_pence);
    if (due && claimed < limit) {
      claimOne.run(claimToken, now.toISOString(), row.id);
      claimed++;
    } else if (perRestock && !due) {
      const inStock = row.best_price_pence === null ? 0 : 1;
      recordStock.run(inStock, row.id, inStock);
    }
  }
}

/**
 * Records a sent mail: the time and the price it announced (in stock, so a back-in-stock alert
 * waits for the next time nothing is), and frees the claim. Does nothing
 * (returns false) if this check no longer holds the claim.
 */
export function markNotified(db: Db, alertId: number, claimToken: string, pricePence: Pence, now: Date): boolean {
  return (
    statement(
      db,
      `UPDATE price_alerts SET last_notified_at = ?, last_notified_price_pence = ?, last_in_stock = 1, claim_token = NULL, claimed_at = NULL
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

/** Whether an unsubscribe link's alert or subscription is still on, off already, or gone; reading it changes nothing. */
export type SubscriptionState = "active" | "already-unsubscribed" | "not-found";

function subscriptionState(db: Db, table: "price_alerts" | "email_subscribers", id: number): SubscriptionState {
  const row = statement<{ is_active: number }>(db, `SELECT is_active FROM ${table} WHERE id = ?`).get(id);
  if (!row) return "not-found";
  return row.is_active === 1 ? "active" : "already-unsubscribed";
}

/** An alert's state as its unsubscribe link's page shows it before the person confirms. */
export function alertState(db: Db, id: number): SubscriptionState {
  return subscriptionState(db, "price_alerts", id);
}

/** A newsletter subscriber's state as the unsubscribe link's page shows it before the person confirms. */
export function subscriberState(db: Db, id: number): SubscriptionState {
  return subscriptionState(db, "email_subscribers", id);
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
  return statement<Subscriber>(db, "SELECT id, email FROM email_subscribers WHERE is_active = 1 AND confirmed_at IS NOT NULL ORDER BY id").all();
}
