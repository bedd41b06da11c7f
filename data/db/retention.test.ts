import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { deleteExpiredVisitorData, monthsBefore } from "./retention.ts";
import { tempDb, type TempDb } from "./fixtures/temp-db.ts";

let temp: TempDb;
let productId: number;
beforeAll(async () => {
  temp = await tempDb(3);
  productId = (temp.db.$client.prepare("SELECT id FROM products LIMIT 1").get() as { id: number }).id;
});
afterAll(() => temp.remove());
beforeEach(() => {
  for (const table of ["recently_viewed", "user_behaviour", "price_alerts", "email_subscribers", "email_confirmations", "voucher_uses"]) {
    temp.db.$client.prepare(`DELETE FROM ${table}`).run();
  }
});

const now = new Date("2026-11-22T12:00:00.000Z");
/** One millisecond before an ISO time. */
const justBefore = (iso: string) => new Date(new Date(iso).getTime() - 1).toISOString();
const run = (sql: string, ...params: unknown[]) => temp.db.$client.prepare(sql).run(...params);
const column = (sql: string) => (temp.db.$client.prepare(sql).all() as { v: string }[]).map((row) => row.v);

describe("monthsBefore", () => {
  it("goes back whole calendar months in UTC, clamping a day the month does not have", () => {
    expect(monthsBefore(now, 12)).toBe("2025-11-22T12:00:00.000Z");
    expect(monthsBefore(now, 24)).toBe("2024-11-22T12:00:00.000Z");
    expect(monthsBefore(new Date("2026-03-31T08:30:00.000Z"), 1)).toBe("2026-02-28T08:30:00.000Z");
    expect(monthsBefore(new Date("2024-02-29T00:00:00.000Z"), 12)).toBe("2023-02-28T00:00:00.000Z");
    expect(monthsBefore(new Date("2026-01-15T00:00:00.000Z"), 2)).toBe("2025-11-15T00:00:00.000Z");
  });
});

describe("deleteExpiredVisitorData", () => {
  it("deletes recently viewed rows older than 12 months and click records older than 24 months; a row on the boundary stays", () => {
    const viewed = "INSERT INTO recently_viewed (user_id, product_id, viewed_at) VALUES (?, ?, ?)";
    run(viewed, "user_onboundary00000000000000", productId, "2025-11-22T12:00:00.000Z");
    run(viewed, "user_justpast0000000000000000", productId, justBefore("2025-11-22T12:00:00.000Z"));
    run(viewed, "user_recent000000000000000000", productId, "2026-11-01T00:00:00.000Z");
    const click = "INSERT INTO user_behaviour (user_id, product_id, action, timestamp) VALUES ('user_clicker00000000000000000', ?, 'affiliate_click', ?)";
    run(click, productId, "2024-11-22T12:00:00.000Z");
    run(click, productId, justBefore("2024-11-22T12:00:00.000Z"));
    // Older than the 12 months of recently viewed, but clicks are kept 24.
    run(click, productId, "2025-01-01T00:00:00.000Z");

    expect(deleteExpiredVisitorData(temp.db, now)).toEqual({ recentlyViewed: 1, clicks: 1, unconfirmedAlerts: 0, unconfirmedSubscribers: 0, expiredConfirmations: 0, voucherUses: 0 });
    expect(column("SELECT viewed_at AS v FROM recently_viewed ORDER BY viewed_at")).toEqual(["2025-11-22T12:00:00.000Z", "2026-11-01T00:00:00.000Z"]);
    expect(column("SELECT timestamp AS v FROM user_behaviour ORDER BY timestamp")).toEqual(["2024-11-22T12:00:00.000Z", "2025-01-01T00:00:00.000Z"]);
  });

  it("deletes alerts and sign-ups still unconfirmed 7 days after they were made, and expired confirmation links; confirmed ones stay", () => {
    const sevenDaysAgo = "2026-11-15T12:00:00.000Z";
    const alert = "INSERT INTO price_alerts (user_id, product_id, email, target_price_pence, created_at, confirmed_at) VALUES ('user_retention000000000000000', ?, ?, 100, ?, ?)";
    run(alert, productId, "boundary@example.com", sevenDaysAgo, null);
    run(alert, productId, "past@example.com", justBefore(sevenDaysAgo), null);
    run(alert, productId, "confirmed@example.com", "2025-01-01T00:00:00.000Z", "2025-01-01T00:05:00.000Z");
    const subscriber = "INSERT INTO email_subscribers (email, subscribed_at, confirmed_at, is_active) VALUES (?, ?, ?, ?)";
    run(subscriber, "boundary@example.com", sevenDaysAgo, null, 1);
    run(subscriber, "past@example.com", justBefore(sevenDaysAgo), null, 1);
    run(subscriber, "confirmed@example.com", "2025-01-01T00:00:00.000Z", "2025-01-01T00:05:00.000Z", 1);
    run(subscriber, "left@example.com", "2025-01-01T00:00:00.000Z", "2025-01-01T00:05:00.000Z", 0);
    const confirmation =
      "INSERT INTO email_confirmations (email, purpose, user_id, token_hash, created_at, expires_at, confirmed_at) VALUES (?, 'newsletter', NULL, ?, ?, ?, ?)";
    run(confirmation, "boundary@example.com", "h1", sevenDaysAgo, now.toISOString(), null);
    run(confirmation, "past@example.com", "h2", justBefore(sevenDaysAgo), justBefore(now.toISOString()), null);
    run(confirmation, "confirmed@example.com", "h3", justBefore(sevenDaysAgo), justBefore(now.toISOString()), sevenDaysAgo);

    expect(deleteExpiredVisitorData(temp.db, now)).toEqual({ recentlyViewed: 0, clicks: 0, unconfirmedAlerts: 1, unconfirmedSubscribers: 1, expiredConfirmations: 2, voucherUses: 0 });
    expect(column("SELECT email AS v FROM price_alerts ORDER BY email")).toEqual(["boundary@example.com", "confirmed@example.com"]);
    expect(column("SELECT email AS v FROM email_subscribers ORDER BY email")).toEqual(["boundary@example.com", "confirmed@example.com", "left@example.com"]);
    expect(column("SELECT email AS v FROM email_confirmations")).toEqual(["boundary@example.com"]);
  });

  it("deletes who used which voucher once the UK day is over; today's uses stay (they keep a repeat from counting)", () => {
    const voucherId = (temp.db.$client.prepare("SELECT id FROM vouchers LIMIT 1").get() as { id: number }).id;
    const use = "INSERT INTO voucher_uses (voucher_id, user_id, day) VALUES (?, ?, ?)";
    // 2026-11-22T12:00Z is 22 November in the UK; just after midnight UK time the day before is gone.
    run(use, voucherId, "user_today0000000000000000000", "2026-11-22");
    run(use, voucherId, "user_yesterday000000000000000", "2026-11-21");
    expect(deleteExpiredVisitorData(temp.db, now).voucherUses).toBe(1);
    expect(column("SELECT day AS v FROM voucher_uses")).toEqual(["2026-11-22"]);
  });
});
