/**
 * The daily storage budget per client address, through the real server over a real SQLite file:
 * one address posting with a new visitor id every time stores exactly the budget's rows across
 * the anonymous tables and no more (the next write is a 429 that stores nothing), another address
 * keeps its own budget, an IPv6 client counts by its /64, the next UTC day brings the budget back
 * (the budget's clock is the test's), and bad input is refused as before without spending any.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTrustedProxies } from "../http/client-address.ts";
import { StorageBudget } from "../lib/storage-budget.ts";
import { startTestServer, type TestServer } from "./server.ts";

/** Rows one address may store per UTC day in these tests. */
const bound = 12;
let clock = new Date("2026-03-10T12:00:00.000Z");
let api: TestServer;
let productId: number;
let voucherId: number;

beforeAll(async () => {
  api = await startTestServer({ products: 20, storageBudget: new StorageBudget({ rowsPerDay: bound, now: () => clock }) });
  process.env.SECRETS_DIR = path.join(api.dir, "secrets");
  // The test names its clients in X-Forwarded-For, as a proxy on loopback would.
  api.services.context.requests!.trustedProxies = parseTrustedProxies("127.0.0.1");
  productId = (api.db.$client.prepare("SELECT id FROM products ORDER BY id LIMIT 1").get() as { id: number }).id;
  voucherId = (api.db.$client.prepare("SELECT id FROM vouchers ORDER BY id LIMIT 1").get() as { id: number }).id;
});
afterAll(async () => {
  delete process.env.SECRETS_DIR;
  await api.close();
});

let visitors = 0;
/** A visitor id never sent before, as a client minting ids freely would send. */
const newVisitor = () => `user_${String(++visitors).padStart(24, "0")}`;
let mailboxes = 0;
const newEmail = () => `owner${++mailboxes}@example.com`;

const post = (client: string, pathname: string, body: unknown) =>
  fetch(api.baseUrl + pathname, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": client }, body: JSON.stringify(body) });
const clicks = (client: string, events: number, userId = newVisitor()) =>
  post(client, "/api/clicks", {
    userId,
    events: Array.from({ length: events }, () => ({ retailer: "Amazon", productName: "Dog food", price: 9.99, timestamp: "2026-03-10T11:00:00.000Z" })),
  });

/** Every write an anonymous client can make that stores rows, each with a new visitor id (and a new address for mail). */
const writes = {
  favourite: (client: string) => post(client, "/api/favorites", { userId: newVisitor(), productId }),
  view: (client: string) => post(client, "/api/recently-viewed", { userId: newVisitor(), productId }),
  voucherUse: (client: string) => post(client, `/api/vouchers/${voucherId}/uses`, { userId: newVisitor() }),
  clicks: (client: string) => clicks(client, 2),
  alert: (client: string) => post(client, "/api/price-alerts", { userId: newVisitor(), productId, email: newEmail(), targetPrice: 5 }),
  signUp: (client: string) => post(client, "/api/subscribers", { email: newEmail() }),
};

const anonymousTables = ["user_behaviour", "favorites", "recently_viewed", "voucher_uses", "price_alerts", "email_subscribers", "email_confirmations"];
/** Rows in every table an anonymous write stores in. */
const storedRows = () =>
  anonymousTables.reduce((sum, table) => sum + (api.db.$client.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n, 0);
const voucherUses = () => (api.db.$client.prepare("SELECT uses FROM vouchers WHERE id = ?").get(voucherId) as { uses: number }).uses;

async function expectOverBudget(response: Response, retryAfter: number) {
  expect(response.status).toBe(429);
  expect(response.headers.get("retry-after")).toBe(String(retryAfter));
  expect(await response.json()).toEqual({ error: "Daily storage limit reached for your connection: nothing was saved. Please try again after midnight (UTC)" });
}

describe("the daily storage budget of one address", () => {
  it("stores exactly the budget's rows across the tables, then refuses every write that would store more (429, nothing stored)", async () => {
    const client = "203.0.113.10";
    const before = storedRows();
    // 2 + 2 + 2 + 2 click rows + (alert + its confirmation mail) + (sign-up + its confirmation mail) = 12.
    for (const write of [writes.favourite, writes.favourite, writes.view, writes.view, writes.voucherUse, writes.voucherUse]) {
      expect((await write(client)).status).toBeLessThan(300);
    }
    expect((await writes.clicks(client)).status).toBe(204);
    expect((await writes.alert(client)).status).toBe(201);
    expect(storedRows() - before).toBe(bound - 2);
    expect((await writes.signUp(client)).status).toBe(201);
    expect(storedRows() - before).toBe(bound);

    const uses = voucherUses();
    for (const [name, write] of Object.entries(writes)) {
      const response = await write(client);
      // 12:00 UTC: twelve hours to the next day.
      await expectOverBudget(response, 12 * 60 * 60);
      expect(storedRows() - before, name).toBe(bound);
    }
    // The voucher's use count moves with its use row: both were rolled back.
    expect(voucherUses()).toBe(uses);
  });

  it("refuses a click post whose events would pass the budget whole, and takes one that reaches it exactly", async () => {
    const client = "203.0.113.11";
    const userId = newVisitor();
    const rows = () => (api.db.$client.prepare("SELECT count(*) AS n FROM user_behaviour WHERE user_id = ?").get(userId) as { n: number }).n;
    expect((await clicks(client, 5, userId)).status).toBe(204);
    expect((await clicks(client, 5, userId)).status).toBe(204);
    await expectOverBudget(await clicks(client, 3, userId), 12 * 60 * 60);
    expect(rows()).toBe(10);
    expect((await clicks(client, 2, userId)).status).toBe(204);
    expect(rows()).toBe(bound);
    await expectOverBudget(await clicks(client, 1, userId), 12 * 60 * 60);
    expect(rows()).toBe(bound);
  });

  it("lets a write that stores nothing through at the bound: a repeat favourite, a repeat voucher use, a repeat view", async () => {
    const client = "203.0.113.12";
    const userId = newVisitor();
    expect((await post(client, "/api/favorites", { userId, productId })).status).toBe(201);
    expect((await post(client, `/api/vouchers/${voucherId}/uses`, { userId })).status).toBe(204);
    expect((await post(client, "/api/recently-viewed", { userId, productId })).status).toBe(204);
    expect((await clicks(client, bound - 3)).status).toBe(204);
    const before = storedRows();
    expect((await post(client, "/api/favorites", { userId, productId })).status).toBe(200);
    expect((await post(client, `/api/vouchers/${voucherId}/uses`, { userId })).status).toBe(204);
    expect((await post(client, "/api/recently-viewed", { userId, productId })).status).toBe(204);
    expect(storedRows()).toBe(before);
    // A new row is still refused.
    await expectOverBudget(await writes.favourite(client), 12 * 60 * 60);
  });

  it("keeps another address's budget apart", async () => {
    expect((await clicks("203.0.113.13", bound)).status).toBe(204);
    await expectOverBudget(await writes.favourite("203.0.113.13"), 12 * 60 * 60);
    const before = storedRows();
    expect((await writes.favourite("203.0.113.14")).status).toBe(201);
    expect((await clicks("203.0.113.14", bound - 1)).status).toBe(204);
    expect(storedRows() - before).toBe(bound);
  });

  it("counts an IPv6 client by its /64: other addresses in the network share the budget, the next network has its own", async () => {
    expect((await clicks("2001:db8:5:1::1", bound)).status).toBe(204);
    await expectOverBudget(await writes.view("2001:db8:5:1::2"), 12 * 60 * 60);
    await expectOverBudget(await writes.view("2001:db8:5:1:ffff:ffff:ffff:ffff"), 12 * 60 * 60);
    expect((await writes.view("2001:db8:5:2::1")).status).toBe(204);
  });

  it("refuses bad input as before (4xx) without spending any of the budget, even at the bound", async () => {
    const client = "203.0.113.15";
    const before = storedRows();
    const bad: [string, unknown, number][] = [
      ["/api/favorites", { userId: newVisitor(), productId: 999_999 }, 400],
      ["/api/favorites", { userId: "bob", productId }, 400],
      ["/api/recently-viewed", { userId: newVisitor(), productId: 0 }, 400],
      [`/api/vouchers/999999/uses`, { userId: newVisitor() }, 404],
      ["/api/clicks", { userId: newVisitor(), events: [] }, 400],
      ["/api/clicks", { userId: newVisitor(), events: [{ retailer: "Amazon", productName: "x", productId: 999_999, price: 1, timestamp: "2026-03-10T11:00:00.000Z" }] }, 400],
      ["/api/price-alerts", { userId: newVisitor(), productId, email: "not-an-email", targetPrice: 5 }, 400],
      ["/api/subscribers", { email: "" }, 400],
    ];
    for (const [pathname, body, status] of bad) expect((await post(client, pathname, body)).status, pathname).toBe(status);
    expect(storedRows()).toBe(before);
    // The whole budget is still there.
    expect((await clicks(client, bound)).status).toBe(204);
    expect(storedRows() - before).toBe(bound);
    // At the bound, bad input is still a 400 saying what is wrong, not a 429.
    const response = await post(client, "/api/favorites", { userId: newVisitor(), productId: 999_999 });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "productId: unknown product" });
  });

  it("comes back whole at the next UTC day, not a millisecond before", async () => {
    const client = "203.0.113.16";
    expect((await clicks(client, bound)).status).toBe(204);
    clock = new Date("2026-03-10T23:59:59.999Z");
    await expectOverBudget(await writes.favourite(client), 1);
    clock = new Date("2026-03-11T00:00:00.000Z");
    const before = storedRows();
    expect((await clicks(client, bound)).status).toBe(204);
    expect(storedRows() - before).toBe(bound);
    await expectOverBudget(await writes.favourite(client), 24 * 60 * 60);
    expect(storedRows() - before).toBe(bound);
  });
});
