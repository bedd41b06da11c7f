/** Price-drop alerts of anonymous visitors (create, list, delete). Delivery: alert-delivery.ts. */
import type { Db } from "./client.ts";
import type { PriceAlertRow, ProductRow } from "./rows.ts";
import { statement } from "./statements.ts";
import { toPounds, type Pence } from "../domain/money.ts";
import { activeAlertLimit } from "../domain/visitor.ts";
import {
  alertConditionText,
  alertKindOf,
  alertRefusal,
  alertStatusOf,
  storedFiguresOf,
  type AlertCondition,
  type AlertKind,
  type AlertRule,
  type AlertStatus,
} from "../domain/alerts.ts";
import { hasConsent, requestConfirmation } from "./email-consent.ts";
import { dealFactsFor } from "./deal-facts.ts";

/** "pending_confirmation" until the address is confirmed for this visitor: nothing is mailed before. */
export type AlertState = "pending_confirmation" | "active";

export interface PriceAlert {
  id: number;
  userId: string;
  productId: number;
  /** Only for kind target; null otherwise. */
  targetPrice: number | null;
  email: string;
  isActive: boolean;
  createdAt: string;
  lastNotifiedAt: string | null;
  product: { name: string; slug: string; bestPrice: number | null };
  status: AlertStatus;
  state: AlertState;
  kind: AlertKind;
  /** Only for kind drop: 1 to 99. */
  dropPercent: number | null;
  /** The best price when the alert was set (a drop is measured from it); null when nothing was in stock. */
  referencePrice: number | null;
  /** What the alert waits for, in words: "£12.00 or less", "a drop of 10% from £20.00, to £18.00 or less", "back in stock". */
  condition: string;
}

/** An alert with its product's name, slug and best price; its kind is one of the kind table's (the CHECK keeps it so). */
type AlertRow = Pick<
  PriceAlertRow,
  "id" | "user_id" | "product_id" | "target_price_pence" | "email" | "is_active" | "created_at" | "last_notified_at" | "confirmed_at" | "drop_percent" | "reference_price_pence"
> &
  Pick<ProductRow, "name" | "slug" | "best_price_pence"> & { kind: AlertKind };

const select = `SELECT a.id, a.user_id, a.product_id, a.target_price_pence, a.email, a.is_active, a.created_at, a.last_notified_at, a.confirmed_at,
  p.name, p.slug, p.best_price_pence, a.kind, a.drop_percent, a.reference_price_pence
  FROM price_alerts a JOIN products p ON p.id = a.product_id`;

const conditionOf = (row: AlertRow): AlertCondition => ({
  kind: row.kind,
  targetPricePence: row.target_price_pence,
  dropPercent: row.drop_percent,
  referencePricePence: row.reference_price_pence,
});

/** Rows as alerts; the status of a kind that reads history (lowest-90) needs its product's 90 days (read in bulk for all of them). */
function toAlerts(db: Db, rows: readonly AlertRow[], now: Date): PriceAlert[] {
  const lowestIds = [...new Set(rows.filter((row) => alertKindOf(row.kind).history).map((row) => row.product_id))];
  const facts = lowestIds.length === 0 ? new Map() : dealFactsFor(db, lowestIds, now);
  return rows.map((row) => toAlert(row, facts.get(row.product_id)?.lowestBeforeTodayPence ?? null));
}

function toAlert(row: AlertRow, lowest90ExcludingTodayPence: Pence | null): PriceAlert {
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
    status: alertStatusOf(conditionOf(row), row.best_price_pence, lowest90ExcludingTodayPence),
    state: row.confirmed_at === null ? "pending_confirmation" : "active",
    kind: row.kind,
    dropPercent: row.drop_percent,
    referencePrice: toPounds(row.reference_price_pence),
    condition: alertConditionText(conditionOf(row)),
  };
}

export type CreateAlertResult =
  | {
      alert: PriceAlert;
      created: boolean;
      /** Whether a confirmation mail was queued (never for an active alert; see email-consent.ts for the limits). */
      confirmationSent: boolean;
    }
  | { limitReached: true }
  /** The kind refuses the alert now (alertRefusal: a drop while nothing is in stock, a lowest-90 alert met already), saying why. */
  | { refused: string };

/**
 * Creates an alert. The visitor's active alert of the same kind for the same product and address
 * is updated instead (new figures, reference price and notification state reset), so repeating
 * the form never makes duplicates. Every alert keeps the product's best price at creation as its
 * reference (a drop is measured from it) and whether anything was in stock (back in stock fires
 * when that changes to in stock). The alert is active at once only if this visitor has confirmed
 * the address; otherwise it waits for confirmation and a confirmation mail is queued (within the
 * limits of email-consent.ts): the double opt-in applies to every kind. The alert's kind may
 * refuse it now (alertRefusal): a drop while nothing is in stock, a lowest-90 alert while today's
 * price is the lowest of 90 days already (it would only mail at once); the product page's form
 * refuses a target at or above today's price the same way.
 */
export function createAlert(
  db: Db,
  input: { userId: string; productId: number; email: string } & ({ targetPricePence: Pence; rule?: undefined } | { rule: AlertRule }),
  now: Date = new Date(),
): CreateAlertResult {
  const rule: AlertRule = input.rule ?? { kind: "target", targetPence: input.targetPricePence! };
  const { targetPricePence, dropPercent } = storedFiguresOf(rule);
  return db.$client.transaction((): CreateAlertResult => {
    const reference =
      statement<Pick<ProductRow, "best_price_pence">>(db, "SELECT best_price_pence FROM products WHERE id = ?").get(input.productId)
        ?.best_price_pence ?? null;
    const inStock = reference === null ? 0 : 1;
    const lowestBeforeTodayPence =
      alertKindOf(rule.kind).history && reference !== null
        ? (dealFactsFor(db, [input.productId], now).get(input.productId)?.lowestBeforeTodayPence ?? null)
        : null;
    const refused = alertRefusal(rule, { currentPence: reference, lowestBeforeTodayPence });
    if (refused !== null) return { refused };
    const existing = statement<Pick<PriceAlertRow, "id">>(
      db,
      "SELECT id FROM price_alerts WHERE user_id = ? AND product_id = ? AND email = ? AND kind = ? AND is_active = 1",
    ).get(input.userId, input.productId, input.email, rule.kind);
    let id: number;
    if (existing) {
      statement(
        db,
        `UPDATE price_alerts SET target_price_pence = ?, drop_percent = ?, reference_price_pence = ?, last_in_stock = ?, last_notified_price_pence = NULL
         WHERE id = ?`,
      ).run(targetPricePence, dropPercent, reference, inStock, existing.id);
      id = existing.id;
    } else {
      const { n } = statement<{ n: number }>(db, "SELECT count(*) AS n FROM price_alerts WHERE user_id = ? AND is_active = 1").get(input.userId)!;
      if (n >= activeAlertLimit) return { limitReached: true };
      const confirmedAt = hasConsent(db, input.email, input.userId) ? now.toISOString() : null;
      const row = statement<Pick<PriceAlertRow, "id">>(
        db,
        `INSERT INTO price_alerts (user_id, product_id, email, target_price_pence, created_at, confirmed_at, kind, drop_percent, reference_price_pence, last_in_stock)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      ).get(input.userId, input.productId, input.email, targetPricePence, now.toISOString(), confirmedAt, rule.kind, dropPercent, reference, inStock)!;
      id = row.id;
    }
    const [alert] = toAlerts(db, [statement<AlertRow>(db, `${select} WHERE a.id = ?`).get(id)!], now);
    const confirmationSent =
      alert!.state === "pending_confirmation" && requestConfirmation(db, { email: input.email, purpose: "price-alerts", userId: input.userId }, now);
    return { alert: alert!, created: !existing, confirmationSent };
  })();
}

/** The visitor's active alerts, newest first, with each product's current best price and status. */
export function listAlerts(db: Db, userId: string, now: Date = new Date()): PriceAlert[] {
  return toAlerts(db, statement<AlertRow>(db, `${select} WHERE a.user_id = ? AND a.is_active = 1 ORDER BY a.created_at DESC, a.id DESC`).all(userId), now);
}

/** Deletes the visitor's own alert; false when there is none of that id for this visitor. */
export function deleteAlert(db: Db, id: number, userId: string): boolean {
  return statement(db, "DELETE FROM price_alerts WHERE id = ? AND user_id = ?").run(id, userId).changes === 1;
}
