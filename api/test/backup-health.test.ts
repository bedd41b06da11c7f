/**
 * Backups in the server: the scheduled backup job (one named job on the services' schedule,
 * keeping the newest BACKUP_KEEP) and Platform Health's last backup (GET /api/admin/analytics).
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createMailer } from "../mail/mailer.ts";
import { createServices } from "../services.ts";
import { backupDatabase, listBackups } from "../../data/db/backup.ts";
import { tempDb, type TempDb } from "../../data/db/fixtures/temp-db.ts";
import { startTestServer, testAdminPasswordHash, type TestServer } from "./server.ts";

let api: TestServer;
beforeAll(async () => {
  api = await startTestServer({ products: 20 });
});
afterAll(async () => {
  await api.close();
});

type Health = { health: { lastBackup: { takenAt: string; bytes: number } | null } };

describe("Platform Health's last backup", () => {
  it("says there is none, then shows the newest backup's time and size, not an older one's", async () => {
    const read = async () => ((await (await api.admin("GET", "/api/admin/analytics")).json()) as Health).health.lastBackup;
    expect(await read()).toBeNull();
    const dir = path.join(api.dir, "backups");
    const older = await backupDatabase(api.db, { dir, now: new Date("2026-03-01T03:30:00.000Z") });
    api.db.$client.exec("CREATE TABLE padding (b BLOB); INSERT INTO padding VALUES (zeroblob(200000))");
    const newer = await backupDatabase(api.db, { dir, now: new Date("2026-03-02T03:30:00.000Z") });
    expect(newer.bytes).toBeGreaterThan(older.bytes);
    expect(await read()).toEqual({ takenAt: "2026-03-02T03:30:00.000Z", bytes: newer.bytes });
    // The server's folders stay private: no path in the answer.
    expect(JSON.stringify(await read())).not.toContain(api.dir);
  });
});

describe("the scheduled backup job", () => {
  let temp: TempDb;
  beforeAll(async () => {
    temp = await tempDb(5);
  });
  afterAll(() => temp.remove());

  /** The server's services over the test's database, backing up into `dir` every `every` ms (null: never), keeping 2. */
  const servicesBackingUpTo = async (dir: string, every: number | null) =>
    createServices({
      databaseFile: temp.file,
      prepare: false,
      mailer: createMailer({ smtpUrl: undefined, from: "PawPrice <alerts@pawprice.example>", outboxDir: path.join(dir, "outbox") }),
      alertsOnChange: false,
      adminPasswordHash: await testAdminPasswordHash(),
      refreshCron: null,
      demoRefresh: false,
      backup: { dir, keep: 2, every },
      log: () => {},
    });

  it("backs up on its interval as the job named backup, keeping the newest `keep`; stopping the services stops it", async () => {
    const dir = path.join(path.dirname(temp.file), "backups");
    const services = await servicesBackingUpTo(dir, 40);
    const outcomes: string[] = [];
    services.schedule.onRun((name, outcome) => {
      if (name === "backup") outcomes.push(outcome);
    });
    try {
      await vi.waitFor(() => expect(outcomes.length).toBeGreaterThanOrEqual(3), { timeout: 10_000, interval: 20 });
      expect(outcomes.every((outcome) => outcome === "ok")).toBe(true);
      expect(listBackups(dir)).toHaveLength(2);
      expect(services.schedule.status().find((job) => job.name === "backup")).toMatchObject({ every: "every 0.04 s", lastOutcome: "ok" });
      expect(services.context.admin?.lastBackup()?.name).toBe(listBackups(dir)[0]!.name);
    } finally {
      await services.close();
    }
    const after = fs.readdirSync(dir).sort();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(fs.readdirSync(dir).sort()).toEqual(after);
  });

  it("schedules no backup when told not to (BACKUP_CRON=off)", async () => {
    const dir = path.join(path.dirname(temp.file), "no-backups");
    const services = await servicesBackingUpTo(dir, null);
    try {
      expect(services.schedule.status().map((job) => job.name)).not.toContain("backup");
      expect(services.context.admin?.lastBackup()).toBeNull();
    } finally {
      await services.close();
    }
  });
});
