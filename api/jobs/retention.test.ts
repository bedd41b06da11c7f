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
});
