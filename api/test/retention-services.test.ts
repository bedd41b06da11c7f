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

    const services = await createServices({
      databaseFile,
      prepare: false,
      mailer: createMailer({ smtpUrl: undefined, from: "PawPrice <alerts@pawprice.example>", outboxDir: path.join(dir, "outbox") }),
      alertsOnChange: false,
      adminPasswordHash: await testAdminPasswordHash(),
      refreshCron: null,
      log: () => {},
    });
    try {
      const emails = services.db.$client.prepare("SELECT email FROM price_alerts ORDER BY email").all();
      expect(emails).toEqual([{ email: "confirmed@example.com" }, { email: "fresh@example.com" }]);
    } finally {
      await services.close();
    }
  });
});
