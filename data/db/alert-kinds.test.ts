import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimDueAlerts } from "./alert-delivery.ts";
import { tempDb, type TempDb } from "./fixtures/temp-db.ts";
import { alertFigures, alertKindOf, alertKinds, type AlertFigure } from "../domain/alerts.ts";

let temp: TempDb;
let productId: number;
let bestPricePence: number;
beforeAll(async () => {
  temp = await tempDb(3);
  ({ id: productId, best_price_pence: bestPricePence } = temp.db.$client
    .prepare("SELECT id, best_price_pence FROM products WHERE best_price_pence IS NOT NULL AND legal_category = 'none' LIMIT 1")
    .get() as { id: number; best_price_pence: number });
});
afterAll(() => temp.remove());

const now = new Date("2026-11-22T12:00:00.000Z");
/** A stored value each figure's column accepts. */
const figureValue: Record<AlertFigure, number> = { targetPence: 1200, percent: 10 };
const columnOf: Record<AlertFigure, string> = { targetPence: "target_price_pence", percent: "drop_percent" };

function insert(kind: string, figures: Partial<Record<AlertFigure, number>>): number {
  return (
    temp.db.$client
      .prepare(
        `INSERT INTO price_alerts (user_id, product_id, email, kind, target_price_pence, drop_percent, reference_price_pence, last_in_stock, confirmed_at)
         VALUES ('user_kindtester0000000000000', ?, 'k@example.com', ?, ?, ?, ?, 1, '2026-11-01T00:00:00.000Z') RETURNING id`,
      )
      .get(productId, kind, figures.targetPence ?? null, figures.percent ?? null, bestPricePence * 2) as { id: number }
  ).id;
}

describe("the database's alert kinds (the migrated CHECK constraints)", () => {
  it("stores every kind of the table with its own figure, and no kind outside it", () => {
    for (const kind of alertKinds) {
      const figure = alertKindOf(kind).figure;
      const id = insert(kind, figure === null ? {} : { [figure]: figureValue[figure] });
      const row = temp.db.$client.prepare("SELECT kind, target_price_pence, drop_percent FROM price_alerts WHERE id = ?").get(id) as Record<string, unknown>;
      expect(row.kind).toBe(kind);
      for (const name of Object.keys(alertFigures) as AlertFigure[]) expect(row[columnOf[name]], `${kind} ${name}`).toBe(name === figure ? figureValue[name] : null);
    }
    expect(() => insert("price-rise", {})).toThrow(/CHECK constraint failed: price_alerts_kind_ck/);
  });

  it("refuses a figure for a kind that does not take it, and a kind without its figure", () => {
    for (const kind of alertKinds) {
      const taken = alertKindOf(kind).figure;
      for (const figure of Object.keys(alertFigures) as AlertFigure[]) {
        if (figure !== taken) expect(() => insert(kind, { [figure]: figureValue[figure] }), `${kind} with ${figure}`).toThrow(/CHECK constraint failed/);
      }
      if (taken !== null) expect(() => insert(kind, {}), `${kind} without its figure`).toThrow(/CHECK constraint failed/);
    }
  });
});

describe("claiming due alerts of different kinds", () => {
  it("claims the oldest firing alert first whatever its kind, and leaves one that does not fire", () => {
    temp.db.$client.prepare("DELETE FROM price_alerts").run();
    // A drop of 10 % from twice today's price fires, a target at today's price fires, one a penny below it does not.
    const drop = insert("drop", { percent: 10 });
    const quiet = insert("target", { targetPence: bestPricePence - 1 });
    const target = insert("target", { targetPence: bestPricePence });
    const claim = (token: string) => claimDueAlerts(temp.db, token, now, { staleAfterMs: 60_000, limit: 1 }).map((alert) => alert.id);
    expect(claim("check-1")).toEqual([drop]);
    expect(claim("check-2")).toEqual([target]);
    expect(claim("check-3")).toEqual([]);
    const claimed = temp.db.$client.prepare("SELECT id, claim_token FROM price_alerts ORDER BY id").all();
    expect(claimed).toEqual([
      { id: drop, claim_token: "check-1" },
      { id: quiet, claim_token: null },
      { id: target, claim_token: "check-2" },
    ]);
  });
});
