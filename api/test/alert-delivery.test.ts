/**
 * Price-alert delivery and unsubscribe links end to end: a real SMTP server (smtp-server) on
 * loopback, a real temporary SQLite file seeded with the catalogue generator, nodemailer as in
 * production, and the unsubscribe routes through the app's in-process fetch.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { H3 } from "h3";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createApp } from "../app.ts";
import { checkAlerts, notifyPricesChanged, startAlertSchedule } from "../jobs/alert-check.ts";
import { signToken } from "../lib/tokens.ts";
import { createMailer, type Mailer } from "../mail/mailer.ts";
import { projectRoot, siteConfig } from "../../data/config.ts";
import { migrateDb, openDb, type Db } from "../../data/db/client.ts";
import { recomputeBestPrices } from "../../data/db/offers.ts";
import { claimDueAlerts } from "../../data/db/alert-delivery.ts";
import { createSchedule } from "../jobs/schedule.ts";
import { seedCatalogue } from "../../data/db/seed.ts";
import { withoutDelivery } from "../../data/db/fixtures/temp-db.ts";
import { generateCatalogue } from "../../data/seed/generate.ts";
import { parseMail, TestSmtpServer, type ReceivedMail } from "./smtp.ts";

// ---------------------------------------------------------------------------------------------
// Database, app and helpers

const userId = "user_abcdefghijklmnopqrstuvwx";
let dir: string;
let databaseFile: string;
let db: Db;
let app: H3;
let smtp: TestSmtpServer;
let mailer: Mailer;
let productIds: number[];
const silent = () => {};

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-alerts-"));
  // Signing keys for this test only (the server would create data/secrets/app-secret).
  process.env.SECRETS_DIR = path.join(dir, "secrets");
  databaseFile = path.join(dir, "test.db");
  db = openDb(databaseFile);
  await migrateDb(db);
  seedCatalogue(db, generateCatalogue({ products: 30, today: new Date() }));
  // Item prices are set and compared with targets here; the test "compares the total to the door" adds delivery back.
  withoutDelivery(db);
  productIds = (db.$client.prepare("SELECT DISTINCT product_id AS id FROM product_prices ORDER BY product_id LIMIT 10").all() as { id: number }[]).map(
    (row) => row.id,
  );

  app = createApp({ db });

  smtp = new TestSmtpServer();
  await smtp.start();
  mailer = createMailer({ smtpUrl: smtp.url, from: "PawPrice <alerts@pawprice.example>", outboxDir: path.join(dir, "unused-outbox") });
});

afterAll(async () => {
  await smtp?.close();
  db?.$client.close();
  fs.rmSync(dir, { recursive: true, force: true });
  delete process.env.SECRETS_DIR;
});

beforeEach(() => {
  db.$client.prepare("DELETE FROM price_alerts").run();
  smtp.received.length = 0;
  smtp.refuse = false;
  smtp.delayMs = 0;
});

/** Makes `pence` the product's best price at its first retailer (the others dearer), as a price refresh would. */
function setBestPrice(productId: number, pence: number): void {
  db.$client.transaction(() => {
    db.$client
      .prepare(
        `UPDATE product_prices SET price_pence = CASE WHEN id = (SELECT min(id) FROM product_prices WHERE product_id = @productId) THEN @pence ELSE @pence + 500 END,
         in_stock = 1, price_override = 0 WHERE product_id = @productId`,
      )
      .run({ productId, pence });
    recomputeBestPrices(db, [productId]);
  })();
}

function product(productId: number) {
  return db.$client
    .prepare("SELECT p.name, p.slug, p.best_price_pence, r.name AS retailer FROM products p JOIN retailers r ON r.id = p.best_retailer_id WHERE p.id = ?")
    .get(productId) as { name: string; slug: string; best_price_pence: number; retailer: string };
}

/** An alert whose address is confirmed already (double opt-in has its own tests in email-consent.test.ts). */
function addAlert(productId: number, targetPence: number, email = "owner@example.com", isActive = true): number {
  return (
    db.$client
      .prepare(
        "INSERT INTO price_alerts (user_id, product_id, target_price_pence, email, is_active, confirmed_at) VALUES (?, ?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) RETURNING id",
      )
      .get(userId, productId, targetPence, email, isActive ? 1 : 0) as { id: number }
  ).id;
}

interface AlertRow {
  is_active: number;
  last_notified_at: string | null;
  last_notified_price_pence: number | null;
  claim_token: string | null;
  claimed_at: string | null;
}

function alertRow(id: number): AlertRow {
  return db.$client
    .prepare("SELECT is_active, last_notified_at, last_notified_price_pence, claim_token, claimed_at FROM price_alerts WHERE id = ?")
    .get(id) as AlertRow;
}

const check = (using: { db?: Db; mailer?: Mailer } = {}) => checkAlerts({ db: using.db ?? db, mailer: using.mailer ?? mailer, log: silent });

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The path and query of a link in a mail, to request from the in-process app. */
function linkPath(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}

function unsubscribeLink(mail: ReceivedMail, route: string): string {
  const pattern = new RegExp(`${siteConfig.baseUrl.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}${route}\\?token=[A-Za-z0-9._-]+`);
  const inText = pattern.exec(mail.text)?.[0];
  expect(inText, "unsubscribe link in the text part").toBeDefined();
  expect(mail.html).toContain(`href="${inText}"`);
  return inText!;
}

// ---------------------------------------------------------------------------------------------

describe("price alert check", () => {
  it("compares the total to the door with the target, and says what delivery it includes", async () => {
    const productId = productIds[9]!;
    const first = db.$client.prepare("SELECT retailer_id FROM product_prices WHERE product_id = ? ORDER BY id LIMIT 1").get(productId) as { retailer_id: number };
    try {
      // The first retailer charges £3.99 below £39: an item at £12.99 costs £16.98 to the door.
      db.$client.prepare("UPDATE retailers SET delivery_pence = 399, free_delivery_from_pence = 3900 WHERE id = ?").run(first.retailer_id);
      db.$client.prepare("UPDATE product_prices SET free_delivery = 0, delivery_pence = NULL WHERE product_id = ?").run(productId);
      setBestPrice(productId, 1299);
      addAlert(productId, 1500, "door@example.com");
      expect(await check()).toEqual({ sent: 0, failed: 0, rearmed: 0 });
      // £11.01 + £3.99 = £15.00: exactly the target.
      setBestPrice(productId, 1101);
      expect(product(productId).best_price_pence).toBe(1500);
      expect(await check()).toEqual({ sent: 1, failed: 0, rearmed: 0 });
      expect(smtp.received[0]!.subject).toContain("is now £15.00 at");
      expect(smtp.received[0]!.text).toContain("including £3.99 delivery");
    } finally {
      withoutDelivery(db);
    }
  });

  it("mails exactly one message with product, new price, retailer and links when the price drops to the target", async () => {
    const [productId] = productIds as [number];
    setBestPrice(productId, 2000);
    const alertId = addAlert(productId, 1500, "owner@example.com");
    expect(await check()).toEqual({ sent: 0, failed: 0, rearmed: 0 });
    expect(smtp.received).toHaveLength(0);

    setBestPrice(productId, 1299);
    expect(await check()).toEqual({ sent: 1, failed: 0, rearmed: 0 });
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    const { name, slug, retailer } = product(productId);
    const productUrl = `${siteConfig.baseUrl}/product/${slug}`;

    expect(mail.to).toEqual(["owner@example.com"]);
    expect(mail.headers.get("from")).toContain("alerts@pawprice.example");
    expect(mail.subject).toBe(`Price drop: ${name} is now £12.99 at ${retailer}`);
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain("£12.99");
      expect(part).toContain("£15.00");
      expect(part).toContain(productUrl);
    }
    expect(mail.text).toContain(name);
    expect(mail.text).toContain(retailer);
    const link = unsubscribeLink(mail, "/api/alerts/unsubscribe");
    expect(link).toContain(`token=alert-unsubscribe.${alertId}.`);
    expect(mail.headers.get("list-unsubscribe")).toBe(`<${link}>`);
    expect(mail.headers.get("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");

    const row = alertRow(alertId);
    expect(row.last_notified_at).not.toBeNull();
    expect(row.last_notified_price_pence).toBe(1299);
    expect(row.claim_token).toBeNull();
  });

  it("mails when the price drops exactly to the target, not while it is a penny above", async () => {
    const productId = productIds[6]!;
    setBestPrice(productId, 1501);
    const alertId = addAlert(productId, 1500);
    expect(await check()).toEqual({ sent: 0, failed: 0, rearmed: 0 });
    setBestPrice(productId, 1500);
    expect(await check()).toEqual({ sent: 1, failed: 0, rearmed: 0 });
    expect(smtp.received.map((mail) => mail.subject)).toEqual([expect.stringContaining("is now £15.00")]);
    expect(alertRow(alertId).last_notified_price_pence).toBe(1500);
  });

  it("re-arms when the price rises a penny above the target, not while it stays on it", async () => {
    const productId = productIds[6]!;
    setBestPrice(productId, 1500);
    const alertId = addAlert(productId, 1500);
    await check();
    expect(await check()).toEqual({ sent: 0, failed: 0, rearmed: 0 });
    expect(alertRow(alertId).last_notified_price_pence).toBe(1500);
    setBestPrice(productId, 1501);
    expect(await check()).toEqual({ sent: 0, failed: 0, rearmed: 1 });
    expect(alertRow(alertId).last_notified_price_pence).toBeNull();
  });

  it("sends nothing on a second check, nor when the price moves within the target but not below the mailed price", async () => {
    const productId = productIds[1]!;
    setBestPrice(productId, 999);
    const alertId = addAlert(productId, 1000);
    expect((await check()).sent).toBe(1);
    const notifiedAt = alertRow(alertId).last_notified_at;

    expect(await check()).toEqual({ sent: 0, failed: 0, rearmed: 0 });
    setBestPrice(productId, 1000);
    expect(await check()).toEqual({ sent: 0, failed: 0, rearmed: 0 });
    expect(smtp.received).toHaveLength(1);
    expect(alertRow(alertId).last_notified_at).toBe(notifiedAt);
  });

  it("mails again for a further drop below the price already mailed", async () => {
    const productId = productIds[2]!;
    setBestPrice(productId, 1400);
    const alertId = addAlert(productId, 1500);
    await check();
    setBestPrice(productId, 1199);
    expect((await check()).sent).toBe(1);
    expect(smtp.received.map((mail) => mail.subject)).toEqual([expect.stringContaining("£14.00"), expect.stringContaining("£11.99")]);
    expect(alertRow(alertId).last_notified_price_pence).toBe(1199);
  });

  it("after the price rises above the target, a new drop to the same price mails again", async () => {
    const productId = productIds[3]!;
    setBestPrice(productId, 1400);
    const alertId = addAlert(productId, 1500);
    await check();

    setBestPrice(productId, 1600);
    expect(await check()).toEqual({ sent: 0, failed: 0, rearmed: 1 });
    expect(alertRow(alertId).last_notified_price_pence).toBeNull();

    setBestPrice(productId, 1400);
    expect(await check()).toEqual({ sent: 1, failed: 0, rearmed: 0 });
    expect(smtp.received).toHaveLength(2);
    expect(smtp.received[1]!.subject).toContain("£14.00");
  });

  it("re-arms when the product goes out of stock everywhere, and mails when it is back at the target", async () => {
    const productId = productIds[4]!;
    setBestPrice(productId, 900);
    addAlert(productId, 1000);
    await check();
    db.$client.prepare("UPDATE product_prices SET in_stock = 0 WHERE product_id = ?").run(productId);
    recomputeBestPrices(db, [productId]);
    expect(await check()).toEqual({ sent: 0, failed: 0, rearmed: 1 });
    setBestPrice(productId, 900);
    expect((await check()).sent).toBe(1);
  });

  it("with the mail server down records nothing, releases the claim, and the next check sends once", async () => {
    const productId = productIds[5]!;
    setBestPrice(productId, 500);
    const alertId = addAlert(productId, 1000);
    const downMailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${await closedPort()}`, from: "PawPrice <alerts@pawprice.example>", outboxDir: dir });

    const lines: string[] = [];
    expect(await checkAlerts({ db, mailer: downMailer, log: (line) => lines.push(line) })).toEqual({ sent: 0, failed: 1, rearmed: 0 });
    expect(lines).toEqual([expect.stringMatching(new RegExp(`^Price alert ${alertId}: mail not sent \\(.+\\); the next check retries$`))]);
    expect(alertRow(alertId)).toMatchObject({ last_notified_at: null, last_notified_price_pence: null, claim_token: null, claimed_at: null });

    expect(await check()).toEqual({ sent: 1, failed: 0, rearmed: 0 });
    expect(await check()).toEqual({ sent: 0, failed: 0, rearmed: 0 });
    expect(smtp.received).toHaveLength(1);
    expect(alertRow(alertId).last_notified_at).not.toBeNull();
  });

  it("stops trying after repeated failures and leaves every due alert free for the next check", async () => {
    let attempts = 0;
    const failing: Mailer = {
      describe: "smtp",
      send: async () => {
        attempts++;
        throw new Error("connection refused");
      },
    };
    const ids = productIds.slice(0, 7).map((productId) => {
      setBestPrice(productId, 500);
      return addAlert(productId, 1000);
    });
    expect(await check({ mailer: failing })).toEqual({ sent: 0, failed: 7, rearmed: 0 });
    expect(attempts).toBe(5);
    for (const id of ids) expect(alertRow(id)).toMatchObject({ last_notified_at: null, claim_token: null });
    expect((await check()).sent).toBe(7);
  });

  it("when the mail server refuses the message, retries on the next check", async () => {
    const productId = productIds[5]!;
    setBestPrice(productId, 500);
    const alertId = addAlert(productId, 1000);
    smtp.refuse = true;
    expect(await check()).toEqual({ sent: 0, failed: 1, rearmed: 0 });
    expect(alertRow(alertId)).toMatchObject({ last_notified_at: null, claim_token: null });
    smtp.refuse = false;
    expect((await check()).sent).toBe(1);
    expect(smtp.received).toHaveLength(1);
  });

  it("never mails an inactive alert", async () => {
    const productId = productIds[6]!;
    setBestPrice(productId, 500);
    const alertId = addAlert(productId, 1000, "gone@example.com", false);
    expect(await check()).toEqual({ sent: 0, failed: 0, rearmed: 0 });
    expect(smtp.received).toHaveLength(0);
    expect(alertRow(alertId).last_notified_at).toBeNull();
  });

  it("two checks at once, in one process or over two connections, mail each due alert exactly once", async () => {
    smtp.delayMs = 30;
    const due = productIds.slice(0, 3).map((productId, index) => {
      setBestPrice(productId, 700);
      return addAlert(productId, 800, `owner${index}@example.com`);
    });
    const inProcess = await Promise.all([check(), check()]);
    expect(inProcess.reduce((sum, result) => sum + result.sent, 0)).toBe(3);
    expect(smtp.received.map((mail) => mail.to[0]).sort()).toEqual(["owner0@example.com", "owner1@example.com", "owner2@example.com"]);

    // Re-arm the same three and race a check on a second connection to the same file.
    smtp.received.length = 0;
    db.$client.prepare("UPDATE price_alerts SET last_notified_price_pence = NULL").run();
    const second = openDb(databaseFile);
    try {
      const racing = await Promise.all([check(), check({ db: second }), check(), check({ db: second })]);
      expect(racing.reduce((sum, result) => sum + result.sent, 0)).toBe(3);
    } finally {
      second.$client.close();
    }
    expect(smtp.received).toHaveLength(3);
    for (const id of due) expect(alertRow(id).claim_token).toBeNull();
  });

  it("takes over a claim left behind by a check that died, once it is stale", async () => {
    const productId = productIds[7]!;
    setBestPrice(productId, 500);
    const alertId = addAlert(productId, 1000);
    const claim = db.$client.prepare("UPDATE price_alerts SET claim_token = 'dead-check', claimed_at = ? WHERE id = ?");
    claim.run(new Date().toISOString(), alertId);
    expect((await check()).sent).toBe(0);
    claim.run(new Date(Date.now() - 60 * 60_000).toISOString(), alertId);
    expect((await check()).sent).toBe(1);
    expect(alertRow(alertId).claim_token).toBeNull();
  });

  it("without SMTP_URL writes a readable .eml file to the outbox", async () => {
    const productId = productIds[8]!;
    setBestPrice(productId, 500);
    addAlert(productId, 1000, "outbox@example.com");
    const outboxDir = path.join(dir, "outbox");
    const outboxMailer = createMailer({ smtpUrl: undefined, from: "PawPrice <alerts@pawprice.example>", outboxDir });
    expect(outboxMailer.describe).toBe("outbox");

    expect(await check({ mailer: outboxMailer })).toEqual({ sent: 1, failed: 0, rearmed: 0 });
    const files = fs.readdirSync(outboxDir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z-[0-9a-f]{8}\.eml$/);
    const mail = parseMail(fs.readFileSync(path.join(outboxDir, files[0]!), "utf8"), []);
    expect(mail.headers.get("to")).toBe("outbox@example.com");
    expect(mail.subject).toBe(`Price drop: ${product(productId).name} is now £5.00 at ${product(productId).retailer}`);
    expect(mail.text).toContain("£5.00");
    expect(mail.headers.get("list-unsubscribe")).toMatch(/^<.+\/api\/alerts\/unsubscribe\?token=alert-unsubscribe\.\d+\..+>$/);
    expect(smtp.received).toHaveLength(0);
  });
});

describe("alert schedule", () => {
  it("never runs two checks at once: calls during a check share one follow-up check", async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const counting: Mailer = {
      describe: "smtp",
      async send(message) {
        maxInFlight = Math.max(maxInFlight, ++inFlight);
        try {
          await new Promise((resolve) => setTimeout(resolve, 20));
          await mailer.send(message);
        } finally {
          inFlight--;
        }
      },
    };
    for (const productId of productIds.slice(0, 2)) {
      setBestPrice(productId, 300);
      addAlert(productId, 400);
    }
    const schedule = startAlertSchedule({ db, mailer: counting, intervalMinutes: 0, log: silent });
    const first = schedule.runNow();
    const second = schedule.runNow();
    const third = schedule.runNow();
    expect(third).toBe(second);
    expect(await first).toMatchObject({ sent: 2 });
    expect(await second).toMatchObject({ sent: 0 });
    expect(maxInFlight).toBe(1);
    await schedule.stop();
    // Stopped: even a due alert is left for the next start.
    setBestPrice(productIds[4]!, 300);
    addAlert(productIds[4]!, 400, "after-stop@example.com");
    expect(await schedule.runNow()).toEqual({ sent: 0, failed: 0, rearmed: 0 });
    expect(smtp.received.map((mail) => mail.to[0])).not.toContain("after-stop@example.com");
  });

  it("checks right away when started with an interval, then after every price change (notifyPricesChanged)", async () => {
    setBestPrice(productIds[9]!, 900);
    addAlert(productIds[9]!, 1000, "first@example.com");
    setBestPrice(productIds[0]!, 2000);
    addAlert(productIds[0]!, 1500, "second@example.com");
    const schedule = startAlertSchedule({ db, mailer, intervalMinutes: 60, log: silent });
    try {
      await vi.waitFor(() => expect(smtp.received.map((mail) => mail.to[0])).toEqual(["first@example.com"]), { timeout: 5000 });
      setBestPrice(productIds[0]!, 1400);
      notifyPricesChanged(schedule, silent);
      await vi.waitFor(() => expect(smtp.received.map((mail) => mail.to[0])).toEqual(["first@example.com", "second@example.com"]), { timeout: 5000 });
    } finally {
      await schedule.stop();
    }
  });
});

describe("alert schedule timing and log", () => {
  it("checks again when a whole interval has passed, not before", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const lines: string[] = [];
    const schedule = startAlertSchedule({ db, mailer, intervalMinutes: 1, log: (line) => lines.push(line) });
    try {
      // The first check runs at start, with nothing due.
      await schedule.runNow();
      setBestPrice(productIds[2]!, 400);
      addAlert(productIds[2]!, 500, "interval@example.com");
      vi.advanceTimersByTime(59_999);
      expect(await schedule.runNow()).toMatchObject({ sent: 1 });
      setBestPrice(productIds[3]!, 400);
      addAlert(productIds[3]!, 500, "tick@example.com");
      vi.advanceTimersByTime(1);
      await vi.waitFor(() => expect(smtp.received.map((mail) => mail.to[0])).toContain("tick@example.com"), { timeout: 5000 });
      // The scheduled check reports what it mailed; an idle one says nothing.
      await vi.waitFor(() => expect(lines).toEqual(["Price alerts: 1 sent, 0 failed, 0 re-armed"]), { timeout: 5000 });
    } finally {
      await schedule.stop();
      vi.useRealTimers();
    }
  });

  it("says when an alert was mailed but another check took its claim over during the send", async () => {
    const productId = productIds[6]!;
    setBestPrice(productId, 500);
    const alertId = addAlert(productId, 1000, "slow-send@example.com");
    const slow: Mailer = {
      describe: "smtp",
      send: async (message) => {
        // The send takes so long that another check counts the claim as stale and takes it.
        expect(claimDueAlerts(db, "another-check", new Date(Date.now() + 60_000), { staleAfterMs: 0, limit: 10 }).map((alert) => alert.id)).toEqual([alertId]);
        await mailer.send(message);
      },
    };
    const lines: string[] = [];
    expect(await checkAlerts({ db, mailer: slow, log: (line) => lines.push(line) })).toEqual({ sent: 1, failed: 0, rearmed: 0 });
    expect(lines).toEqual([`Price alert ${alertId}: mailed, but its claim was taken over meanwhile (the send took very long)`]);
    expect(alertRow(alertId)).toMatchObject({ last_notified_at: null, claim_token: "another-check" });
  });

  it("puts its check on the server's schedule as alert-check, reports a run's mail there, and takes the check off at stop", async () => {
    const lines: string[] = [];
    const schedule = createSchedule({ log: (line) => lines.push(line) });
    const alerts = startAlertSchedule({ db, mailer, intervalMinutes: 1, log: (line) => lines.push(line), schedule });
    setBestPrice(productIds[7]!, 400);
    addAlert(productIds[7]!, 500, "on-the-schedule@example.com");
    expect(schedule.has("alert-check")).toBe(true);
    expect(await schedule.run("alert-check")).toBe("ok");
    expect(lines).toEqual(["Price alerts: 1 sent, 0 failed, 0 re-armed"]);
    // Nothing due: a run says nothing.
    expect(await schedule.run("alert-check")).toBe("ok");
    expect(lines).toHaveLength(1);
    await alerts.stop();
    expect(schedule.has("alert-check")).toBe(false);
    await schedule.stop();
  });

  it("logs confirmation mails that could not be sent, then the check's own failure under its title", async () => {
    const lines: string[] = [];
    const broken = openDb(databaseFile);
    broken.$client.close();
    const schedule = createSchedule({ log: (line) => lines.push(line) });
    const alerts = startAlertSchedule({ db: broken, mailer, intervalMinutes: 1, log: (line) => lines.push(line), schedule });
    expect(await schedule.run("alert-check")).toBe("failed");
    expect(lines).toEqual([
      expect.stringMatching(/^Sending confirmation mails failed: .*database connection is not open/),
      expect.stringMatching(/^Price alert check failed: .*database connection is not open/),
    ]);
    await alerts.stop();
    await schedule.stop();
  });

  it("logs a failed check of its own schedule (no server schedule given) through its log", async () => {
    const lines: string[] = [];
    const broken = openDb(databaseFile);
    broken.$client.close();
    const alerts = startAlertSchedule({ db: broken, mailer, intervalMinutes: 60, log: (line) => lines.push(line) });
    try {
      // The check at start fails: its schedule says so.
      await vi.waitFor(() => expect(lines).toContainEqual(expect.stringMatching(/^Price alert check failed: .*database connection is not open/)));
    } finally {
      await alerts.stop();
    }
  });

  it("logs a check that failed as a whole", async () => {
    const lines: string[] = [];
    const broken = openDb(databaseFile);
    broken.$client.close();
    notifyPricesChanged(startAlertSchedule({ db: broken, mailer, intervalMinutes: 0, log: silent }), (line) => lines.push(line));
    await vi.waitFor(() => expect(lines).toEqual([expect.stringMatching(/^Price alert check failed: .*database connection is not open/)]));
  });
});

/** What a browser sends when it opens a link or posts a form. */
const browserAccept = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };

/** The button form of an unsubscribe page: where it posts, its hidden fields (as a form body) and its label. */
function pageForm(page: string): { action: string; fields: string; label: string } {
  const unescape = (text: string) => text.replace(/&amp;/g, "&").replace(/&quot;/g, '"');
  const form = /<form method="post" action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/.exec(page);
  expect(form, "a form in the page").not.toBeNull();
  const fields = [...form![2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(([, name, value]) => new URLSearchParams({ [unescape(name!)]: unescape(value!) }).toString());
  const label = /<button type="submit"[^>]*>([^<]+)<\/button>/.exec(form![2]!)?.[1] ?? "";
  return { action: unescape(form![1]!), fields: fields.join("&"), label };
}

/** Presses the page's button as a browser does: a form post to its action, asking for a page. */
function press(form: { action: string; fields: string }): Promise<Response> {
  return Promise.resolve(
    app.request(form.action, { method: "POST", headers: { ...browserAccept, "content-type": "application/x-www-form-urlencoded" }, body: form.fields }),
  );
}

describe("unsubscribe links", () => {
  const request = (pathAndQuery: string, init?: RequestInit) => Promise.resolve(app.request(pathAndQuery, init));

  async function mailedAlert(productId: number, email = "owner@example.com") {
    setBestPrice(productId, 500);
    const alertId = addAlert(productId, 1000, email);
    await check();
    const mail = smtp.received.find((received) => received.to[0] === email)!;
    return { alertId, link: unsubscribeLink(mail, "/api/alerts/unsubscribe") };
  }

  it("the alert link from the mail only shows a page with a button; the button switches the alert off once", async () => {
    const { alertId, link } = await mailedAlert(productIds[0]!);
    const before = alertRow(alertId);
    // A mail scanner or link preview fetching the link, with or without asking for a page, changes nothing.
    for (const init of [undefined, { headers: { accept: "*/*" } }, { method: "HEAD" }, { headers: browserAccept }]) {
      expect((await request(linkPath(link), init)).status).toBe(200);
    }
    expect(alertRow(alertId)).toEqual(before);
    expect(before.is_active).toBe(1);

    const opened = await request(linkPath(link), { headers: browserAccept });
    expect(opened.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(opened.headers.get("cache-control")).toBe("no-store");
    const page = await opened.text();
    expect(page).toContain("Switch off this price alert?");
    expect(page).toContain(siteConfig.siteName);
    expect(page).toContain(`href="${siteConfig.baseUrl}/"`);
    const button = pageForm(page);
    expect(button).toEqual({ action: linkPath(link), fields: "List-Unsubscribe=One-Click", label: "Switch off price alert" });
    expect(alertRow(alertId)).toEqual(before);

    // The person presses the button: the browser posts the form.
    const pressed = await press(button);
    expect(pressed.status).toBe(200);
    expect(pressed.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await pressed.text()).toContain("Price alert switched off");
    expect(alertRow(alertId).is_active).toBe(0);

    // Opened or pressed again: says so, shows no button, changes nothing.
    const off = alertRow(alertId);
    const again = await (await request(linkPath(link), { headers: browserAccept })).text();
    expect(again).toContain("already switched off");
    expect(again).not.toContain("<form");
    expect(await (await press(button)).text()).toContain("already switched off");
    expect(alertRow(alertId)).toEqual(off);

    // Switched off means no more mail, even for a deeper drop.
    setBestPrice(productIds[0]!, 100);
    expect((await check()).sent).toBe(0);
  });

  it("shows a browser a page for a bad or dead link, with its status, and changes nothing", async () => {
    const { alertId, link } = await mailedAlert(productIds[5]!);
    const token = new URL(link).searchParams.get("token")!;
    const before = db.$client.prepare("SELECT id, is_active FROM price_alerts ORDER BY id").all();
    const changed = `/api/alerts/unsubscribe?token=${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    for (const init of [{ headers: browserAccept }, { method: "POST", headers: { ...browserAccept, "content-type": "application/x-www-form-urlencoded" }, body: "List-Unsubscribe=One-Click" }]) {
      const bad = await request(changed, init);
      expect(bad.status).toBe(400);
      expect(bad.headers.get("content-type")).toBe("text/html; charset=utf-8");
      const text = await bad.text();
      expect(text).toContain("Invalid unsubscribe link");
      expect(text).toContain("Nothing has changed.");
      expect(text).not.toContain("<form");
    }
    expect(db.$client.prepare("SELECT id, is_active FROM price_alerts ORDER BY id").all()).toEqual(before);

    db.$client.prepare("DELETE FROM price_alerts WHERE id = ?").run(alertId);
    const gone = await request(linkPath(link), { headers: browserAccept });
    expect(gone.status).toBe(404);
    const text = await gone.text();
    expect(text).toContain("Price alert not found");
    expect(text).not.toContain("<form");
  });

  it("refuses a tampered, foreign, missing or repeated token with 400 and changes nothing", async () => {
    const { link } = await mailedAlert(productIds[1]!, "victim-a@example.com");
    const other = await mailedAlert(productIds[2]!, "victim-b@example.com");
    const token = new URL(link).searchParams.get("token")!;
    const [purpose, id, signature] = token.split(".") as [string, string, string];
    const snapshot = () => db.$client.prepare("SELECT id, is_active FROM price_alerts ORDER BY id").all();
    const before = snapshot();
    const flipped = signature[0] === "A" ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;

    const badQueries = [
      `token=${purpose}.${other.alertId}.${signature}`,
      `token=${purpose}.${id}.${flipped}`,
      `token=${signToken("newsletter-unsubscribe", Number(id))}`,
      `token=${encodeURIComponent(token + "x")}`,
      "token=",
      "",
      `token=${token}&token=${token}`,
      `token=${"a".repeat(5000)}`,
    ];
    for (const query of badQueries) {
      const response = await request(`/api/alerts/unsubscribe?${query}`);
      expect(response.status, query.slice(0, 80)).toBe(400);
      expect(await response.json()).toEqual({ error: "Invalid unsubscribe link" });
    }
    const post = await request(`/api/alerts/unsubscribe?token=${purpose}.${id}.${flipped}`, { method: "POST", body: "List-Unsubscribe=One-Click" });
    expect(post.status).toBe(400);
    expect(await post.json()).toEqual({ error: "Invalid unsubscribe link" });
    const foreign = await request(`/api/alerts/unsubscribe?token=${signToken("newsletter-unsubscribe", Number(id))}`, { method: "POST", body: "List-Unsubscribe=One-Click" });
    expect(foreign.status).toBe(400);
    expect(await foreign.json()).toEqual({ error: "Invalid unsubscribe link" });
    expect(snapshot()).toEqual(before);
  });

  it("answers 404 for an alert that was deleted", async () => {
    const { alertId, link } = await mailedAlert(productIds[3]!);
    db.$client.prepare("DELETE FROM price_alerts WHERE id = ?").run(alertId);
    const response = await request(linkPath(link));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "This price alert no longer exists" });
  });

  it("accepts the RFC 8058 one-click POST a mail client sends", async () => {
    const { alertId, link } = await mailedAlert(productIds[4]!);
    const init = { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "List-Unsubscribe=One-Click" };
    const first = await request(linkPath(link), init);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ unsubscribed: true, alreadyUnsubscribed: false });
    expect(alertRow(alertId).is_active).toBe(0);
    expect(await (await request(linkPath(link), init)).json()).toEqual({ unsubscribed: true, alreadyUnsubscribed: true });
  });
});

describe("newsletter", () => {
  const run = promisify(execFile);
  const script = (name: string, args: string[]) =>
    run(process.execPath, [path.join(projectRoot, "scripts", name), ...args], {
      cwd: projectRoot,
      env: { ...process.env, DATABASE_PATH: databaseFile, SMTP_URL: smtp.url, SECRETS_DIR: process.env.SECRETS_DIR },
    });
  const request = (pathAndQuery: string, init?: RequestInit) => Promise.resolve(app.request(pathAndQuery, init));

  it("npm run newsletter:send mails every active subscriber their own unsubscribe link, which works once", async () => {
    db.$client.prepare("DELETE FROM email_subscribers").run();
    const insert = db.$client.prepare("INSERT INTO email_subscribers (email, is_active, confirmed_at) VALUES (?, ?, '2026-01-01T00:00:00.000Z') RETURNING id");
    const reader = (insert.get("reader@example.com", 1) as { id: number }).id;
    const other = (insert.get("other@example.com", 1) as { id: number }).id;
    insert.get("left@example.com", 0);
    // Signed up but never confirmed: no newsletter goes to it.
    db.$client.prepare("INSERT INTO email_subscribers (email) VALUES ('pending@example.com')").run();
    const textFile = path.join(dir, "issue.txt");
    fs.writeFileSync(textFile, "New spring deals on dog food & cat litter.\n");

    const dryRun = await script("newsletter.ts", ["--subject", "Spring deals", "--text-file", textFile, "--dry-run"]);
    expect(dryRun.stdout).toContain("would go to 2 active subscriber(s)");
    expect(smtp.received).toHaveLength(0);

    const sent = await script("newsletter.ts", ["--subject", "Spring deals", "--text-file", textFile]);
    expect(sent.stdout).toContain("2 sent, 0 failed");
    expect(smtp.received.map((mail) => mail.to[0]).sort()).toEqual(["other@example.com", "reader@example.com"]);
    const mail = smtp.received.find((received) => received.to[0] === "reader@example.com")!;
    expect(mail.subject).toBe("Spring deals");
    expect(mail.text).toContain("New spring deals on dog food & cat litter.");
    expect(mail.html).toContain("dog food &amp; cat litter");
    const link = unsubscribeLink(mail, "/api/subscribers/unsubscribe");
    expect(link).toContain(`token=newsletter-unsubscribe.${reader}.`);
    expect(mail.headers.get("list-unsubscribe")).toBe(`<${link}>`);

    const active = (id: number) => (db.$client.prepare("SELECT is_active FROM email_subscribers WHERE id = ?").get(id) as { is_active: number }).is_active;
    // Opening the link (a person, or a mail scanner) only shows the button.
    const opened = await request(linkPath(link), { headers: browserAccept });
    expect(opened.status).toBe(200);
    const page = await opened.text();
    expect(page).toContain("Unsubscribe from the newsletter?");
    expect([active(reader), active(other)]).toEqual([1, 1]);
    const button = pageForm(page);
    expect(button).toEqual({ action: linkPath(link), fields: "List-Unsubscribe=One-Click", label: "Unsubscribe" });

    const first = await press(button);
    expect(first.status).toBe(200);
    expect(await first.text()).toContain("Unsubscribed from the newsletter");
    expect(active(reader)).toBe(0);
    expect(active(other)).toBe(1);
    const second = await request(linkPath(link), { headers: browserAccept });
    expect(second.status).toBe(200);
    expect(await second.text()).toContain("already unsubscribed");

    const token = new URL(link).searchParams.get("token")!;
    const tampered = await request(`/api/subscribers/unsubscribe?token=${token.replace(`.${reader}.`, `.${other}.`)}`);
    expect(tampered.status).toBe(400);
    expect(await tampered.json()).toEqual({ error: "Invalid unsubscribe link" });
    const alertToken = await request(`/api/subscribers/unsubscribe?token=${signToken("alert-unsubscribe", other)}`);
    expect(alertToken.status).toBe(400);
    expect(await alertToken.json()).toEqual({ error: "Invalid unsubscribe link" });
    expect(active(other)).toBe(1);
  });

  it("accepts the RFC 8058 one-click POST for a newsletter, for that subscriber only", async () => {
    db.$client.prepare("DELETE FROM email_subscribers").run();
    const insert = db.$client.prepare("INSERT INTO email_subscribers (email, is_active, confirmed_at) VALUES (?, 1, '2026-01-01T00:00:00.000Z') RETURNING id");
    const leaving = (insert.get("leaving@example.com") as { id: number }).id;
    const staying = (insert.get("staying@example.com") as { id: number }).id;
    const active = (id: number) => (db.$client.prepare("SELECT is_active FROM email_subscribers WHERE id = ?").get(id) as { is_active: number }).is_active;
    const oneClick = (token: string) =>
      Promise.resolve(
        app.request(`/api/subscribers/unsubscribe?token=${token}`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: "List-Unsubscribe=One-Click",
        }),
      );

    // An alert's token is not a newsletter token, even with the same id.
    const wrongPurpose = await oneClick(signToken("alert-unsubscribe", leaving));
    expect(wrongPurpose.status).toBe(400);
    expect(await wrongPurpose.json()).toEqual({ error: "Invalid unsubscribe link" });
    expect(active(leaving)).toBe(1);

    const first = await oneClick(signToken("newsletter-unsubscribe", leaving));
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("no-store");
    expect(await first.json()).toEqual({ unsubscribed: true, alreadyUnsubscribed: false });
    expect([active(leaving), active(staying)]).toEqual([0, 1]);
    expect(await (await oneClick(signToken("newsletter-unsubscribe", leaving))).json()).toEqual({ unsubscribed: true, alreadyUnsubscribed: true });

    const gone = await oneClick(signToken("newsletter-unsubscribe", 999_999));
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({ error: "This newsletter subscription no longer exists" });
  });

  it("npm run alerts:check reports its counts", async () => {
    setBestPrice(productIds[5]!, 500);
    addAlert(productIds[5]!, 1000, "cli@example.com");
    const { stdout } = await script("alerts-check.ts", []);
    expect(stdout).toContain("1 sent, 0 failed, 0 re-armed (mail: smtp)");
    expect(smtp.received.map((mail) => mail.to[0])).toEqual(["cli@example.com"]);
  });
});
