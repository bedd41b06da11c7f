/**
 * The server's services run the retention job as they start: visitor data past its period in
 * the database file is gone once createServices returns, and what is within it stays.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createMailer } from "../mail/mailer.ts";
import { createServices } from "../services.ts";
import { migrateDb, openDb } from "../../data/db/client.ts";
import { testAdminPasswordHash } from "./server.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-retention-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The server's services on `databaseFile`, with no mail, no alerts and no page reads. */
async function startServices(databaseFile: string, options: Partial<Parameters<typeof createServices>[0]> = {}) {
  return createServices({
    databaseFile,
    prepare: false,
    mailer: createMailer({ smtpUrl: undefined, from: "PawPrice <alerts@pawprice.example>", outboxDir: path.join(dir, "outbox") }),
    alertsOnChange: false,
    adminPasswordHash: await testAdminPasswordHash(),
    refreshCron: null,
    log: () => {},
    ...options,
  });
}

describe("retention in the server", () => {
  it("deletes expired visitor data when the services start", async () => {
    const databaseFile = path.join(dir, "test.db");
    const db = openDb(databaseFile);
    await migrateDb(db);
    const insert = db.$client.prepare(
      "INSERT INTO price_alerts (user_id, product_id, email, target_price_pence, created_at, confirmed_at) VALUES ('user_retentionservices000000', 1, ?, 100, ?, ?)",
    );
    db.$client.prepare("INSERT INTO categories (name, slug, icon) VALUES ('Dog', 'dog', 'dog')").run();
    db.$client.prepare("INSERT INTO products (name, slug, brand, category_id) VALUES ('Bone', 'bone', 'Acme', 1)").run();
    insert.run("stale@example.com", "2020-01-01T00:00:00.000Z", null);
    insert.run("confirmed@example.com", "2020-01-01T00:00:00.000Z", "2020-01-01T00:01:00.000Z");
    insert.run("fresh@example.com", new Date().toISOString(), null);
    db.$client.close();

    const services = await startServices(databaseFile);
    try {
      const emails = services.db.$client.prepare("SELECT email FROM price_alerts ORDER BY email").all();
      expect(emails).toEqual([{ email: "confirmed@example.com" }, { email: "fresh@example.com" }]);
    } finally {
      await services.close();
    }
  });

  it("trims the anonymous tables to their row ceilings when the services start: the oldest pending alerts go, confirmed ones stay", async () => {
    const databaseFile = path.join(dir, "ceilings.db");
    const db = openDb(databaseFile);
    await migrateDb(db);
    db.$client.prepare("INSERT INTO categories (name, slug, icon) VALUES ('Dog', 'dog', 'dog')").run();
    db.$client.prepare("INSERT INTO products (name, slug, brand, category_id) VALUES ('Bone', 'bone', 'Acme', 1)").run();
    const now = Date.now();
    const insert = db.$client.prepare(
      "INSERT INTO price_alerts (user_id, product_id, email, target_price_pence, created_at, confirmed_at) VALUES ('user_ceilingservices00000000', 1, ?, 100, ?, ?)",
    );
    // Within the week an unconfirmed alert is kept for, so only the ceiling removes any.
    const minutesAgo = (minutes: number) => new Date(now - minutes * 60_000).toISOString();
    insert.run("confirmed-oldest@example.com", minutesAgo(50), minutesAgo(49));
    insert.run("pending-old@example.com", minutesAgo(40), null);
    insert.run("pending-mid@example.com", minutesAgo(30), null);
    insert.run("pending-new@example.com", minutesAgo(20), null);
    const click = db.$client.prepare("INSERT INTO user_behaviour (user_id, action, timestamp) VALUES (?, 'affiliate_click', ?)");
    click.run("user_clickold", minutesAgo(10));
    click.run("user_clicknew", minutesAgo(5));
    db.$client.close();

    const services = await startServices(databaseFile, { tableCeilings: { clicks: 1, favourites: 10, recentlyViewed: 10, voucherUses: 10, pendingAlerts: 2 } });
    try {
      const column = (sql: string) => (services.db.$client.prepare(sql).all() as { v: string }[]).map((row) => row.v);
      expect(column("SELECT email AS v FROM price_alerts ORDER BY id")).toEqual(["confirmed-oldest@example.com", "pending-mid@example.com", "pending-new@example.com"]);
      expect(column("SELECT user_id AS v FROM user_behaviour")).toEqual(["user_clicknew"]);
    } finally {
      await services.close();
    }
  });
});
