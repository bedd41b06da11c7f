/**
 * The alert kinds beyond a target price (any drop of N %, back in stock, lowest in 90 days) end
 * to end: POST /api/price-alerts through the real app, the double opt-in link, and the real
 * alert check mailing over nodemailer to a real SMTP server on loopback, on a real temporary
 * SQLite file. Prices are moved as a price refresh would (offer rows, then the best price
 * re-derived); each check is awaited (`drain`) before mails are counted.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { H3 } from "h3";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createApp } from "../app.ts";
import { notifyPricesChanged, startAlertSchedule, type AlertSchedule } from "../jobs/alert-check.ts";
import { createMailer, type Mailer } from "../mail/mailer.ts";
import { siteConfig } from "../../data/config.ts";
import { migrateDb, openDb, type Db } from "../../data/db/client.ts";
import { withoutDelivery } from "../../data/db/fixtures/temp-db.ts";
import { recomputeBestPrices } from "../../data/db/offers.ts";
import { seedCatalogue } from "../../data/db/seed.ts";
import { generateCatalogue } from "../../data/seed/generate.ts";
import { TestSmtpServer, type ReceivedMail } from "./smtp.ts";

const visitor = (name: string) => `user_${name.padEnd(24, "0")}`;
const alice = visitor("alice");

let dir: string;
let db: Db;
let smtp: TestSmtpServer;
let schedule: AlertSchedule;
let app: H3;
/** Products with offers, each reshaped by `oneOffer` in the test that uses it. */
let productIds: number[];
const silent = () => {};
const dayMs = 86_400_000;
/**
 * An alert is mailed once per occurrence: the same mail (one alert, the same price) a second time
 * is a re-fire. Every alert mail goes through `onceEach`, which refuses such a repeat (so a check
 * that keeps re-claiming the alert ends instead of mailing it in a loop) and notes it in
 * `mailedTwice`, which `drain` asserts empty. No test here mails one alert the same price twice.
 */
const mailedOnce = new Set<string>();
const mailedTwice: string[] = [];
const onceEach = (mailer: Mailer): Mailer => ({
  describe: mailer.describe,
  async send(message) {
    if (message.unsubscribeUrl !== undefined) {
      const key = `${message.unsubscribeUrl}\n${message.text}`;
      if (mailedOnce.has(key)) {
        mailedTwice.push(message.subject);
        throw new Error(`mailed twice: ${message.subject}`);
      }
      mailedOnce.add(key);
    }
    await mailer.send(message);
  },
});

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-deal-alerts-"));
  process.env.SECRETS_DIR = path.join(dir, "secrets");
  db = openDb(path.join(dir, "test.db"));
  await migrateDb(db);
  seedCatalogue(db, generateCatalogue({ products: 20, today: new Date() }));
  // Item prices equal totals here: percentages are easy to put on a boundary.
  withoutDelivery(db);
  productIds = (db.$client.prepare("SELECT DISTINCT product_id AS id FROM product_prices ORDER BY product_id LIMIT 8").all() as { id: number }[]).map(
    (row) => row.id,
  );
  smtp = new TestSmtpServer();
  await smtp.start();
  const mailer = createMailer({ smtpUrl: smtp.url, from: "PawPrice <alerts@pawprice.example>", outboxDir: path.join(dir, "unused-outbox") });
  schedule = startAlertSchedule({ db, mailer: onceEach(mailer), intervalMinutes: 0, log: silent });
});

afterAll(async () => {
  await schedule?.stop();
  await smtp?.close();
  db?.$client.close();
  fs.rmSync(dir, { recursive: true, force: true });
  delete process.env.SECRETS_DIR;
});

beforeEach(async () => {
  // Mail runs the last test asked for finish before its rows and mails are cleared.
  await schedule.runNow();
  for (const table of ["price_alerts", "email_confirmations", "email_consents"]) db.$client.prepare(`DELETE FROM ${table}`).run();
  smtp.received.length = 0;
  mailedOnce.clear();
  mailedTwice.length = 0;
  app = createApp({ db, onAlertsChanged: () => notifyPricesChanged(schedule, silent) });
});

/** Runs a check (and waits for any the app asked for); fails if any alert was mailed twice for one price. */
async function drain(): Promise<void> {
  await schedule.runNow();
  expect(mailedTwice, "mailed twice (one alert, the same price)").toEqual([]);
}
const post = (body: unknown) =>
  Promise.resolve(app.request("/api/price-alerts", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));
const run = (sql: string, ...params: unknown[]) => db.$client.prepare(sql).run(...params);

/**
 * Leaves the product one offer, at `pence` (in stock unless null), with the item price history
 * `history` ([days ago, pence]): what the alert check sees.
 */
function oneOffer(productId: number, pence: number | null, history: [number, number][] = []): string {
  const [keep, ...others] = db.$client.prepare("SELECT id, retailer_id FROM product_prices WHERE product_id = ? ORDER BY id").all(productId) as {
    id: number;
    retailer_id: number;
  }[];
  db.$client.transaction(() => {
    for (const other of others) run("DELETE FROM product_prices WHERE id = ?", other.id);
    run(
      "UPDATE product_prices SET price_pence = ?, in_stock = ?, stale = 0, price_override = 0, free_delivery = 0, delivery_pence = NULL WHERE id = ?",
      pence ?? 1000,
      pence === null ? 0 : 1,
      keep!.id,
    );
    run("DELETE FROM price_history WHERE product_id = ?", productId);
    for (const [daysAgo, price] of history) {
      run("INSERT INTO price_history (product_id, retailer_id, price_pence, recorded_at) VALUES (?, ?, ?, ?)", productId, keep!.retailer_id, price, new Date(Date.now() - daysAgo * dayMs).toISOString());
    }
    recomputeBestPrices(db, [productId]);
  })();
  return (db.$client.prepare("SELECT name FROM retailers WHERE id = ?").get(keep!.retailer_id) as { name: string }).name;
}

/** Moves the product's (single) offer to `pence`, or out of stock (null), as a price refresh would. */
function setPrice(productId: number, pence: number | null): void {
  db.$client.transaction(() => {
    run("UPDATE product_prices SET price_pence = coalesce(?, price_pence), in_stock = ? WHERE product_id = ?", pence, pence === null ? 0 : 1, productId);
    recomputeBestPrices(db, [productId]);
  })();
}

const priceMails = () => smtp.received.filter((mail) => !mail.subject.startsWith("Confirm"));
const productName = (id: number) => (db.$client.prepare("SELECT name FROM products WHERE id = ?").get(id) as { name: string }).name;
const alertRow = (id: number) =>
  db.$client.prepare("SELECT kind, target_price_pence, drop_percent, reference_price_pence, last_in_stock, confirmed_at FROM price_alerts WHERE id = ?").get(id);

/** Confirms the address through the link of its confirmation mail (double opt-in). */
async function confirm(email: string): Promise<void> {
  await drain();
  const mail = smtp.received.findLast((received: ReceivedMail) => received.to.includes(email) && received.subject.startsWith("Confirm"));
  expect(mail, "confirmation mail").toBeDefined();
  const link = new RegExp(`${siteConfig.baseUrl.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}/api/email/confirm\\?token=[A-Za-z0-9_-]+`).exec(mail!.text)![0];
  const url = new URL(link);
  expect((await app.request(url.pathname + url.search)).status).toBe(200);
}

async function createAlert(body: Record<string, unknown>): Promise<{ id: number; condition: string; status: string; kind: string }> {
  const response = await post({ userId: alice, email: "owner@example.com", ...body });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: number; condition: string; status: string; kind: string };
}

describe("creating alerts of each kind", () => {
  it("stores the kind, its one figure and the best price at creation, and says the condition in words", async () => {
    const id = productIds[0]!;
    oneOffer(id, 2000);
    const drop = await createAlert({ productId: id, kind: "drop", dropPercent: 10 });
    expect(drop).toMatchObject({ kind: "drop", dropPercent: 10, targetPrice: null, referencePrice: 20, condition: "a drop of 10% from £20.00, to £18.00 or less", status: "Waiting for drop" });
    expect(alertRow(drop.id)).toEqual({ kind: "drop", target_price_pence: null, drop_percent: 10, reference_price_pence: 2000, last_in_stock: 1, confirmed_at: null });
    const back = await createAlert({ productId: id, kind: "back-in-stock" });
    expect(back).toMatchObject({ kind: "back-in-stock", condition: "back in stock", status: "In stock" });
    const lowest = await createAlert({ productId: id, kind: "lowest-90" });
    expect(lowest).toMatchObject({ kind: "lowest-90", condition: "the lowest price in 90 days", status: "Waiting for a new low" });
    // Left out, the kind is target, exactly as before.
    const target = await createAlert({ productId: id, targetPrice: 15 });
    expect(alertRow(target.id)).toMatchObject({ kind: "target", target_price_pence: 1500, drop_percent: null });
    expect(target).toMatchObject({ condition: "£15.00 or less", status: "Waiting for drop" });
    const listed = (await (await app.request(`/api/price-alerts?userId=${alice}`)).json()) as { kind: string; condition: string }[];
    expect(listed.map((alert) => alert.kind)).toEqual(["target", "lowest-90", "back-in-stock", "drop"]);
  });

  it("a back-in-stock alert on a product out of stock everywhere starts from out of stock", async () => {
    const id = productIds[1]!;
    oneOffer(id, null);
    const back = await createAlert({ productId: id, kind: "back-in-stock" });
    expect(back.status).toBe("Waiting for stock");
    expect(alertRow(back.id)).toMatchObject({ kind: "back-in-stock", reference_price_pence: null, last_in_stock: 0 });
  });

  it.each([
    [{ kind: "drop", dropPercent: 0 }, "dropPercent must be a whole number from 1 to 99"],
    [{ kind: "drop", dropPercent: 100 }, "dropPercent must be a whole number from 1 to 99"],
    [{ kind: "drop", dropPercent: 12.5 }, "dropPercent must be a whole number from 1 to 99"],
    [{ kind: "drop", dropPercent: "10" }, "dropPercent must be a whole number from 1 to 99"],
    [{ kind: "drop" }, "dropPercent must be a whole number from 1 to 99"],
    [{ kind: "drop", dropPercent: 10, targetPrice: 5 }, "targetPrice: only for a target-price alert, not drop"],
    [{ kind: "back-in-stock", targetPrice: 5 }, "targetPrice: only for a target-price alert, not back-in-stock"],
    [{ kind: "lowest-90", dropPercent: 10 }, "dropPercent: only for a drop alert, not lowest-90"],
    [{ targetPrice: 5, dropPercent: 10 }, "dropPercent: only for a drop alert, not target"],
    [{ kind: "target" }, "targetPrice: Please enter a valid price"],
    [{ kind: "cheaper", targetPrice: 5 }, "kind must be one of target, drop, back-in-stock, lowest-90"],
    [{ kind: null, targetPrice: 5 }, "kind must be one of"],
  ])("rejects %j with 400 and stores nothing", async (fields, message) => {
    oneOffer(productIds[2]!, 2000);
    const response = await post({ userId: alice, email: "owner@example.com", productId: productIds[2], ...fields });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toContain(message);
    expect(db.$client.prepare("SELECT count(*) AS n FROM price_alerts").get()).toEqual({ n: 0 });
  });

  it("refuses a lowest-90 alert while today's price is below every day of the 90 before (it would mail at once); equal to their lowest is accepted", async () => {
    const id = productIds[7]!;
    // £20.00 for 100 days; today £19.99: the lowest in 90 days already.
    oneOffer(id, 1999, [[100, 2000]]);
    const refused = await post({ userId: alice, email: "owner@example.com", productId: id, kind: "lowest-90" });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toBe(
      "The price is already £19.99, the lowest in 90 days: no alert needed, you can buy at that price now.",
    );
    const count = (table: string) => (db.$client.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    expect(count("price_alerts")).toBe(0);
    expect(count("email_confirmations")).toBe(0);

    // Equal to the lowest of the days before is no news yet: the alert waits for a new low.
    setPrice(id, 2000);
    const accepted = await createAlert({ productId: id, kind: "lowest-90" });
    expect(accepted.status).toBe("Waiting for a new low");
    const stored = alertRow(accepted.id);
    // Asked again once the price is the lowest already: refused, and the alert set earlier is left as it was.
    setPrice(id, 1999);
    expect((await post({ userId: alice, email: "owner@example.com", productId: id, kind: "lowest-90" })).status).toBe(400);
    expect(alertRow(accepted.id)).toEqual(stored);
    expect(count("price_alerts")).toBe(1);
  });

  it("refuses a drop alert while nothing is in stock (there is no price to drop from)", async () => {
    oneOffer(productIds[2]!, null);
    const response = await post({ userId: alice, email: "owner@example.com", productId: productIds[2], kind: "drop", dropPercent: 10 });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toContain("out of stock everywhere");
    expect(db.$client.prepare("SELECT count(*) AS n FROM price_alerts").get()).toEqual({ n: 0 });
  });
});

describe("the alert check", () => {
  it("drop: not before confirmation; exactly N % off fires and a penny less of a drop does not; once per drop; re-armed above the threshold", async () => {
    const id = productIds[3]!;
    const retailer = oneOffer(id, 2000);
    await createAlert({ productId: id, kind: "drop", dropPercent: 10 });
    setPrice(id, 1800);
    await drain();
    expect(priceMails()).toEqual([]);
    setPrice(id, 1801);
    await confirm("owner@example.com");
    await drain();
    expect(priceMails()).toEqual([]);
    setPrice(id, 1800);
    await drain();
    await drain();
    expect(priceMails().map((mail) => mail.subject)).toEqual([`Price drop: ${productName(id)} has dropped 10% to £18.00 at ${retailer}`]);
    expect(priceMails()[0]!.text).toContain(`Good news: ${productName(id)} has dropped 10% to £18.00 at ${retailer}, from £20.00 when you set your alert.`);
    // Back above the threshold re-arms it; the next drop is mailed again.
    setPrice(id, 1900);
    await drain();
    setPrice(id, 1750);
    await drain();
    expect(priceMails().map((mail) => mail.subject)).toEqual([
      `Price drop: ${productName(id)} has dropped 10% to £18.00 at ${retailer}`,
      `Price drop: ${productName(id)} has dropped 12% to £17.50 at ${retailer}`,
    ]);
  });

  it("back in stock: only on the change from out of stock, once each time", async () => {
    const id = productIds[4]!;
    const retailer = oneOffer(id, 1500);
    const alert = await createAlert({ productId: id, kind: "back-in-stock" });
    await confirm("owner@example.com");
    await drain();
    expect(priceMails()).toEqual([]);
    setPrice(id, null);
    await drain();
    expect(priceMails()).toEqual([]);
    expect(alertRow(alert.id)).toMatchObject({ last_in_stock: 0 });
    setPrice(id, 1450);
    await drain();
    await drain();
    expect(priceMails().map((mail) => mail.subject)).toEqual([`Back in stock: ${productName(id)} is back in stock at ${retailer}`]);
    expect(priceMails()[0]!.text).toContain(`Good news: ${productName(id)} is back in stock at ${retailer}, at £14.50.`);
    expect(alertRow(alert.id)).toMatchObject({ last_in_stock: 1 });
    // A price change while in stock is no news; selling out and coming back again is.
    setPrice(id, 1400);
    await drain();
    expect(priceMails()).toHaveLength(1);
    setPrice(id, null);
    await drain();
    setPrice(id, 1400);
    await drain();
    expect(priceMails()).toHaveLength(2);
  });

  it("back in stock: an alert set while out of stock and confirmed after the product came back is mailed once confirmed", async () => {
    const id = productIds[5]!;
    oneOffer(id, null);
    await createAlert({ productId: id, kind: "back-in-stock" });
    setPrice(id, 1200);
    await drain();
    expect(priceMails()).toEqual([]);
    await confirm("owner@example.com");
    await drain();
    expect(priceMails().map((mail) => mail.subject)).toEqual([expect.stringMatching(/^Back in stock: /)]);
  });

  it("lowest in 90 days: strictly below every day of the 90 before today, once per new low, not before confirmation", async () => {
    const id = productIds[6]!;
    // 20.00 for 100 days, then today: matching the lowest is no news.
    const retailer = oneOffer(id, 2000, [[100, 2000]]);
    await createAlert({ productId: id, kind: "lowest-90" });
    setPrice(id, 1999);
    await drain();
    expect(priceMails()).toEqual([]);
    setPrice(id, 2000);
    await confirm("owner@example.com");
    await drain();
    expect(priceMails()).toEqual([]);
    setPrice(id, 1999);
    await drain();
    await drain();
    expect(priceMails().map((mail) => mail.subject)).toEqual([`Lowest price in 90 days: ${productName(id)} is now £19.99 at ${retailer}`]);
    expect(priceMails()[0]!.text).toContain(`Good news: ${productName(id)} is now £19.99 at ${retailer}: the lowest price in 90 days.`);
    const listed = (await (await app.request(`/api/price-alerts?userId=${alice}`)).json()) as { status: string }[];
    expect(listed.map((alert) => alert.status)).toEqual(["Lowest in 90 days!"]);
    // Lower again the same day: a new low, mailed once more.
    setPrice(id, 1950);
    await drain();
    expect(priceMails()).toHaveLength(2);
  });
});
