import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRetentionSchedule } from "./retention.ts";
import { tempDb, type TempDb } from "../../data/db/fixtures/temp-db.ts";

let temp: TempDb;
beforeAll(async () => {
  temp = await tempDb(2);
});
afterAll(() => temp.remove());

const count = () => (temp.db.$client.prepare("SELECT count(*) AS n FROM recently_viewed").get() as { n: number }).n;

describe("retention schedule", () => {
  it("deletes expired visitor data as soon as it starts, logs what went, and again when run", () => {
    const productId = (temp.db.$client.prepare("SELECT id FROM products LIMIT 1").get() as { id: number }).id;
    const insert = temp.db.$client.prepare("INSERT INTO recently_viewed (user_id, product_id, viewed_at) VALUES (?, ?, ?)");
    insert.run("user_old000000000000000000000", productId, "2020-01-01T00:00:00.000Z");
    insert.run("user_new000000000000000000000", productId, new Date().toISOString());
    const lines: string[] = [];
    const schedule = startRetentionSchedule({ db: temp.db, log: (line) => lines.push(line) });
    try {
      expect(count()).toBe(1);
      expect(lines).toEqual(["Retention: deleted 1 recentlyViewed"]);
      insert.run("user_old100000000000000000000", productId, "2020-01-01T00:00:00.000Z");
      expect(schedule.runNow().recentlyViewed).toBe(1);
      expect(count()).toBe(1);
    } finally {
      schedule.stop();
    }
  });

  it("with interval 0 runs only when asked", () => {
    const productId = (temp.db.$client.prepare("SELECT id FROM products LIMIT 1").get() as { id: number }).id;
    temp.db.$client.prepare("INSERT INTO recently_viewed (user_id, product_id, viewed_at) VALUES ('user_idle00000000000000000000', ?, '2020-01-01T00:00:00.000Z')").run(productId);
    const before = count();
    const schedule = startRetentionSchedule({ db: temp.db, intervalMs: 0, log: () => {} });
    expect(count()).toBe(before);
    expect(schedule.runNow().recentlyViewed).toBe(1);
    schedule.stop();
  });

  it("trims tables over their row ceilings as it starts, logging what went, and again when asked; without ceilings it trims nothing", () => {
    const productId = (temp.db.$client.prepare("SELECT id FROM products LIMIT 1").get() as { id: number }).id;
    temp.db.$client.exec("DELETE FROM favorites");
    const insert = temp.db.$client.prepare("INSERT INTO favorites (user_id, product_id) VALUES (?, ?)");
    for (const userId of ["user_ceiling1", "user_ceiling2", "user_ceiling3"]) insert.run(userId, productId);
    const favourites = () => (temp.db.$client.prepare("SELECT user_id AS v FROM favorites ORDER BY id").all() as { v: string }[]).map((row) => row.v);
    const unbounded = startRetentionSchedule({ db: temp.db, intervalMs: 0, log: () => {} });
    expect(unbounded.trimNow()).toBeNull();
    expect(favourites()).toHaveLength(3);
    const lines: string[] = [];
    const ceilings = { clicks: 1000, favourites: 2, recentlyViewed: 1000, voucherUses: 1000, pendingAlerts: 1000 };
    const schedule = startRetentionSchedule({ db: temp.db, ceilings, log: (line) => lines.push(line) });
    try {
      expect(favourites()).toEqual(["user_ceiling2", "user_ceiling3"]);
      expect(lines).toContain("Row ceilings: deleted the oldest 1 favourites");
      insert.run("user_ceiling4", productId);
      expect(schedule.trimNow()).toEqual({ clicks: 0, favourites: 1, recentlyViewed: 0, voucherUses: 0, pendingAlerts: 0 });
      expect(favourites()).toEqual(["user_ceiling3", "user_ceiling4"]);
    } finally {
      schedule.stop();
    }
  });
});
