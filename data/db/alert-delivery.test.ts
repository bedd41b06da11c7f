import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activeSubscribers, claimDueAlerts, markNotified, releaseClaim } from "./alert-delivery.ts";
import { tempDb, type TempDb } from "./fixtures/temp-db.ts";

let temp: TempDb;
let productId: number;
beforeAll(async () => {
  temp = await tempDb(5);
  productId = (temp.db.$client.prepare("SELECT id FROM products WHERE best_price_pence IS NOT NULL LIMIT 1").get() as { id: number }).id;
});
afterAll(() => temp.remove());

const now = new Date("2026-11-22T12:00:00.000Z");
const alertRow = (id: number) =>
  temp.db.$client.prepare("SELECT claim_token, last_notified_price_pence, last_notified_at FROM price_alerts WHERE id = ?").get(id) as {
    claim_token: string | null;
    last_notified_price_pence: number | null;
    last_notified_at: string | null;
  };

describe("claims", () => {
  it("lets only the check holding the claim mark the alert notified or release it", () => {
    const id = (
      temp.db.$client.prepare("INSERT INTO price_alerts (user_id, product_id, email, target_price_pence, confirmed_at) VALUES ('user_claimtester1000000000000', ?, 'a@example.com', 99999999, '2026-11-01T00:00:00.000Z') RETURNING id").get(productId) as {
        id: number;
      }
    ).id;
    const [due] = claimDueAlerts(temp.db, "check-a", now, { staleAfterMs: 60_000, limit: 10 });
    expect(due?.id).toBe(id);
    expect(markNotified(temp.db, id, "check-b", 100, now)).toBe(false);
    expect(releaseClaim(temp.db, id, "check-b")).toBe(false);
    expect(alertRow(id)).toEqual({ claim_token: "check-a", last_notified_price_pence: null, last_notified_at: null });
    expect(markNotified(temp.db, id, "check-a", 100, now)).toBe(true);
    expect(alertRow(id)).toEqual({ claim_token: null, last_notified_price_pence: 100, last_notified_at: now.toISOString() });
    // Released once, a claim cannot be released or used again.
    expect(markNotified(temp.db, id, "check-a", 90, now)).toBe(false);
    temp.db.$client.prepare("UPDATE price_alerts SET claim_token = 'check-c' WHERE id = ?").run(id);
    expect(releaseClaim(temp.db, id, "check-c")).toBe(true);
    expect(releaseClaim(temp.db, id, "check-c")).toBe(false);
    expect(alertRow(id).claim_token).toBeNull();
  });
});

describe("pending alerts", () => {
  it("never claims an alert whose address is not confirmed, however far the price has dropped", () => {
    const insert = temp.db.$client.prepare(
      "INSERT INTO price_alerts (user_id, product_id, email, target_price_pence, confirmed_at) VALUES ('user_pendingtester00000000000', ?, 'p@example.com', 99999999, ?) RETURNING id",
    );
    const pending = (insert.get(productId, null) as { id: number }).id;
    const confirmed = (insert.get(productId, "2026-11-01T00:00:00.000Z") as { id: number }).id;
    const claimed = claimDueAlerts(temp.db, "check-pending", now, { staleAfterMs: 60_000, limit: 10 }).map((alert) => alert.id);
    expect(claimed).toContain(confirmed);
    expect(claimed).not.toContain(pending);
    expect(alertRow(pending).claim_token).toBeNull();
  });
});

describe("activeSubscribers", () => {
  it("lists the active, confirmed newsletter subscribers, oldest first", () => {
    const insert = temp.db.$client.prepare("INSERT INTO email_subscribers (email, is_active, confirmed_at) VALUES (?, ?, ?) RETURNING id");
    const first = (insert.get("first@example.com", 1, "2026-11-01T00:00:00.000Z") as { id: number }).id;
    insert.get("left@example.com", 0, "2026-11-01T00:00:00.000Z");
    insert.get("pending@example.com", 1, null);
    const second = (insert.get("second@example.com", 1, "2026-11-02T00:00:00.000Z") as { id: number }).id;
    expect(activeSubscribers(temp.db)).toEqual([
      { id: first, email: "first@example.com" },
      { id: second, email: "second@example.com" },
    ]);
  });
});
