import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { deleteOverCeilings, type TableCeilings } from "./storage-ceilings.ts";
import { tempDb, type TempDb } from "./fixtures/temp-db.ts";

let temp: TempDb;
let productId: number;
let voucherId: number;
beforeAll(async () => {
  temp = await tempDb(2);
  productId = (temp.db.$client.prepare("SELECT id FROM products ORDER BY id LIMIT 1").get() as { id: number }).id;
  voucherId = (temp.db.$client.prepare("SELECT id FROM vouchers ORDER BY id LIMIT 1").get() as { id: number }).id;
});
afterAll(() => temp.remove());
beforeEach(() => {
  temp.db.$client.exec("DELETE FROM user_behaviour; DELETE FROM favorites; DELETE FROM recently_viewed; DELETE FROM voucher_uses; DELETE FROM price_alerts;");
});

const run = (sql: string, ...params: unknown[]) => temp.db.$client.prepare(sql).run(...params);
const column = (sql: string) => (temp.db.$client.prepare(sql).all() as { v: unknown }[]).map((row) => row.v);
const roomy: TableCeilings = { clicks: 100, favourites: 100, recentlyViewed: 100, voucherUses: 100, pendingAlerts: 100 };
const none = { clicks: 0, favourites: 0, recentlyViewed: 0, voucherUses: 0, pendingAlerts: 0 };

const click = (userId: string, timestamp: string) =>
  run("INSERT INTO user_behaviour (user_id, action, timestamp) VALUES (?, 'affiliate_click', ?)", userId, timestamp);
const alert = (email: string, confirmedAt: string | null) =>
  run("INSERT INTO price_alerts (user_id, product_id, email, target_price_pence, confirmed_at) VALUES ('user_x', ?, ?, 100, ?)", productId, email, confirmedAt);

describe("deleteOverCeilings", () => {
  it("leaves a table exactly at its ceiling alone and takes one over it down to the ceiling, oldest first", () => {
    click("user_c", "2026-03-03T00:00:00.000Z");
    click("user_a", "2026-03-01T00:00:00.000Z");
    click("user_b", "2026-03-02T00:00:00.000Z");
    expect(deleteOverCeilings(temp.db, { ...roomy, clicks: 3 })).toEqual(none);
    expect(deleteOverCeilings(temp.db, { ...roomy, clicks: 2 })).toEqual({ ...none, clicks: 1 });
    expect(column("SELECT user_id AS v FROM user_behaviour ORDER BY timestamp")).toEqual(["user_b", "user_c"]);
  });

  it("breaks a tie in time by the order the rows were stored", () => {
    for (const userId of ["user_first", "user_second", "user_third"]) click(userId, "2026-03-01T00:00:00.000Z");
    expect(deleteOverCeilings(temp.db, { ...roomy, clicks: 1 }).clicks).toBe(2);
    expect(column("SELECT user_id AS v FROM user_behaviour")).toEqual(["user_third"]);
  });

  it("trims favourites, recently viewed and voucher uses by age, each against its own ceiling", () => {
    for (const userId of ["user_f1", "user_f2", "user_f3"]) run("INSERT INTO favorites (user_id, product_id) VALUES (?, ?)", userId, productId);
    for (const userId of ["user_v1", "user_v2", "user_v3"]) run("INSERT INTO recently_viewed (user_id, product_id) VALUES (?, ?)", userId, productId);
    // Voucher uses: the older day goes first, whatever order the rows came in.
    run("INSERT INTO voucher_uses (voucher_id, user_id, day) VALUES (?, 'user_u1', '2026-03-02')", voucherId);
    run("INSERT INTO voucher_uses (voucher_id, user_id, day) VALUES (?, 'user_u2', '2026-03-01')", voucherId);
    run("INSERT INTO voucher_uses (voucher_id, user_id, day) VALUES (?, 'user_u3', '2026-03-02')", voucherId);
    expect(deleteOverCeilings(temp.db, { ...roomy, favourites: 1, recentlyViewed: 2, voucherUses: 2 })).toEqual({
      ...none,
      favourites: 2,
      recentlyViewed: 1,
      voucherUses: 1,
    });
    expect(column("SELECT user_id AS v FROM favorites")).toEqual(["user_f3"]);
    expect(column("SELECT user_id AS v FROM recently_viewed ORDER BY id")).toEqual(["user_v2", "user_v3"]);
    expect(column("SELECT user_id AS v FROM voucher_uses ORDER BY user_id")).toEqual(["user_u1", "user_u3"]);
  });

  it("counts and deletes only alerts waiting for confirmation: confirmed alerts are kept however old and however many", () => {
    alert("confirmed-old@example.com", "2026-01-01T00:00:00.000Z");
    alert("pending-1@example.com", null);
    alert("confirmed-new@example.com", "2026-03-01T00:00:00.000Z");
    alert("pending-2@example.com", null);
    alert("pending-3@example.com", null);
    // Five alerts, three pending: a ceiling of 3 is not passed.
    expect(deleteOverCeilings(temp.db, { ...roomy, pendingAlerts: 3 }).pendingAlerts).toBe(0);
    expect(deleteOverCeilings(temp.db, { ...roomy, pendingAlerts: 1 }).pendingAlerts).toBe(2);
    expect(column("SELECT email AS v FROM price_alerts ORDER BY id")).toEqual(["confirmed-old@example.com", "confirmed-new@example.com", "pending-3@example.com"]);
    // Confirmed alerts alone above the ceiling: still none of them goes.
    alert("confirmed-3@example.com", "2026-03-02T00:00:00.000Z");
    expect(deleteOverCeilings(temp.db, { ...roomy, pendingAlerts: 1 }).pendingAlerts).toBe(0);
    expect(column("SELECT count(*) AS v FROM price_alerts WHERE confirmed_at IS NOT NULL")).toEqual([3]);
  });

  it("counts rows, not the span of their ids: a table with gaps at its ceiling keeps every row", () => {
    for (const userId of ["user_g1", "user_g2", "user_g3", "user_g4"]) run("INSERT INTO favorites (user_id, product_id) VALUES (?, ?)", userId, productId);
    run("DELETE FROM favorites WHERE user_id IN ('user_g2', 'user_g3')");
    expect(deleteOverCeilings(temp.db, { ...roomy, favourites: 2 }).favourites).toBe(0);
    expect(column("SELECT user_id AS v FROM favorites ORDER BY id")).toEqual(["user_g1", "user_g4"]);
  });
});
