/** Price-drop alerts of anonymous visitors (create, list, delete). Delivery: alert-delivery.ts. */
import type { Db } from "./client.ts";
import { statement } from "./statements.ts";
import { toPounds, type Pence } from "../domain/money.ts";
import { activeAlertLimit } from "../domain/visitor.ts";
import { alertStatus, type AlertStatus } from "../domain/alerts.ts";
import { hasConsent, requestConfirmation } from "./email-consent.ts";

/** "pending_confirmation" until the address is confirmed for this visitor: nothing is mailed before. */
export type AlertState = "pending_confirmation" | "active";

export interface PriceAlert {
  id: number;
  userId: string;
  productId: number;
  targetPrice: number;
  email: string;
  isActive: boolean;
  createdAt: string;
  lastNotifiedAt: string | null;
  product: { name: string; slug: string; bestPrice: number | null };
  status: AlertStatus;
  state: AlertState;
}

interface AlertRow {
  id: number;
  user_id: string;
  product_id: number;
  target_price_pence: number;
  email: string;
  is_active: number;
  created_at: string;
  last_notified_at: string | null;
  confirmed_at: string | null;
  name: string;
  slug: string;
  best_price_pence: number | null;
}

const select = `SELECT a.id, a.user_id, a.product_id, a.target_price_pence, a.email, a.is_active, a.created_at, a.last_notified_at, a.confirmed_at,
  p.name, p.slug, p.best_price_pence
  FROM price_alerts a JOIN products p ON p.id = a.product_id`;

function toAlert(row: AlertRow): PriceAlert {
  const bestPrice = toPounds(row.best_price_pence);
  const targetPrice = toPounds(row.target_price_pence);
  return {
    id: row.id,
    userId: row.user_id,
    productId: row.product_id,
    targetPrice,
    email: row.email,
    isActive: row.is_active === 1,
    createdAt: row.created_at,
    lastNotifiedAt: row.last_notified_at,
    product: { name: row.name, slug: row.slug, bestPrice },
    status: alertStatus(row.best_price_pence, row.target_price_pence),
    state: row.confirmed_at === null ? "pending_confirmation" : "active",
  };
}

export type CreateAlertResult =
  | {
      alert: PriceAlert;
      created: boolean;
      /** Whether a confirmation mail was queued (never for an active alert; see email-consent.ts for the limits). */
      confirmationSent: boolean;
    }
  | { limitReached: true };

/**
 * Creates an alert. The visitor's active alert for the same product and address is updated
 * instead (new target, notification state reset), so repeating the form never makes duplicates.
 * The alert is active at once only if this visitor has confirmed the address; otherwise it waits
 * for confirmation and a confirmation mail is queued (within the limits of email-consent.ts).
 */
export function createAlert(
  db: Db,
  input: { userId: string; productId: number; email: string; targetPricePence: Pence },
  now: Date = new Date(),
): CreateAlertResult {
  return db.$client.transaction((): CreateAlertResult => {
    const existing = statement(
      db,
      "SELECT id FROM price_alerts WHERE user_id = ? AND product_id = ? AND email = ? AND is_active = 1",
    ).get(input.userId, input.productId, input.email) as { id: number } | undefined;
    let id: number;
    if (existing) {
      statement(
        db,
        "UPDATE price_alerts SET target_price_pence = ?, last_notified_price_pence = NULL WHERE id = ?",
      ).run(input.targetPricePence, existing.id);
      id = existing.id;
    } else {
      const { n } = statement(db, "SELECT count(*) AS n FROM price_alerts WHERE user_id = ? AND is_active = 1").get(input.userId) as { n: number };
      if (n >= activeAlertLimit) return { limitReached: true };
      const confirmedAt = hasConsent(db, input.email, input.userId) ? now.toISOString() : null;
      const row = statement(
        db,
        "INSERT INTO price_alerts (user_id, product_id, email, target_price_pence, created_at, confirmed_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
      ).get(input.userId, input.productId, input.email, input.targetPricePence, now.toISOString(), confirmedAt) as { id: number };
      id = row.id;
    }
    const alert = toAlert(statement(db, `${select} WHERE a.id = ?`).get(id) as AlertRow);
    const confirmationSent =
      alert.state === "pending_confirmation" && requestConfirmation(db, { email: input.email, purpose: "price-alerts", userId: input.userId }, now);
    return { alert, created: !existing, confirmationSent };
  })();
}

/** The visitor's active alerts, newest first, with each product's current best price and status. */
export function listAlerts(db: Db, userId: string): PriceAlert[] {
  return (statement(db, `${select} WHERE a.user_id = ? AND a.is_active = 1 ORDER BY a.created_at DESC, a.id DESC`).all(userId) as AlertRow[]).map(
    toAlert,
  );
}

/** Deletes the visitor's own alert; false when there is none of that id for this visitor. */
export function deleteAlert(db: Db, id: number, userId: string): boolean {
  return statement(db, "DELETE FROM price_alerts WHERE id = ? AND user_id = ?").run(id, userId).changes === 1;
}
