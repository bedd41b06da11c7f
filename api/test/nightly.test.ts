/**
 * The nightly job end to end, as the workflow runs it: a real server (the real app and services
 * over a temporary SQLite file, the real Astro build of a small catalogue), every offer's page on
 * a fixture shop on loopback, a real SMTP server on loopback, and `npm run nightly:remote`'s
 * script run as a child process with a machine token the admin created. A price drops on the
 * shop's page; the run reads it, mails the alert that became due, rebuilds the page, and the
 * script downloads the built site. A feed source that cannot be downloaded fails the next run.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import { createServer, type Server } from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { toNodeHandler } from "h3";
import * as tar from "tar";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApp } from "../app.ts";
import { createSiteRebuilder, type SiteRebuilder } from "../jobs/site-rebuild.ts";
import { allowLoopbackForTests } from "../lib/guarded-fetch.ts";
import { createPageReader } from "../lib/page-price.ts";
import { createMailer } from "../mail/mailer.ts";
import { createServices, type Services } from "../services.ts";
import { testAdminPassword, testAdminPasswordHash } from "./server.ts";
import { TestSmtpServer } from "./smtp.ts";
import { projectRoot } from "../../data/config.ts";
import { migrateDb, openDb } from "../../data/db/client.ts";
import { allowLoopbackOffers, withoutDelivery } from "../../data/db/fixtures/temp-db.ts";
import { recomputeBestPrices } from "../../data/db/offers.ts";
import { seedCatalogue } from "../../data/db/seed.ts";
import { formatPence } from "../../data/domain/money.ts";
import type { NightlyRun } from "../../data/domain/nightly.ts";
import { generateCatalogue } from "../../data/seed/generate.ts";

let dir: string;
let services: Services;
let site: SiteRebuilder;
let server: Server;
let baseUrl: string;
let smtp: TestSmtpServer;
let shop: Server;
let shopOrigin: string;
let token: string;
let cookie: string;
/** Each offer page's price and stock, by path: what the shop shows now. */
const shelf = new Map<string, { pence: number; inStock: boolean }>();
const silent = () => {};

/** The JSON-LD a retailer's product page carries. */
function offerPage({ pence, inStock }: { pence: number; inStock: boolean }): string {
  const offer = { "@type": "Offer", price: (pence / 100).toFixed(2), priceCurrency: "GBP", availability: `https://schema.org/${inStock ? "InStock" : "OutOfStock"}` };
  return `<!doctype html><html><head><script type="application/ld+json">${JSON.stringify({ "@context": "https://schema.org", "@type": "Product", name: "Test", offers: offer })}</script></head><body></body></html>`;
}

async function listen(target: net.Server): Promise<string> {
  await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(target.address() as net.AddressInfo).port}`;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-nightly-"));
  // Signing keys for this test only (the server would create data/secrets/app-secret).
  process.env.SECRETS_DIR = path.join(dir, "secrets");

  shop = createServer((request, response) => {
    if (request.url === "/robots.txt") return void response.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nAllow: /\n");
    const item = shelf.get(request.url ?? "");
    if (!item) return void response.writeHead(404).end("not found");
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(offerPage(item));
  });
  shopOrigin = await listen(shop);

  // A small live catalogue (not the demo: its offers are never read) whose every offer is a page
  // on the shop, showing the published price.
  const databaseFile = path.join(dir, "pawprice.db");
  const db = openDb(databaseFile);
  await migrateDb(db);
  seedCatalogue(db, generateCatalogue({ products: 8, today: new Date() }));
  allowLoopbackOffers(db);
  withoutDelivery(db);
  db.$client.prepare("UPDATE product_prices SET url = ? || '/offer/' || product_id || '-' || retailer_id, price_override = 0, source = 'page'").run(shopOrigin);
  db.$client.prepare("UPDATE products SET demo = 0").run();
  db.$client.prepare("UPDATE vouchers SET demo = 0").run();
  recomputeBestPrices(db);
  for (const offer of db.$client.prepare("SELECT url, price_pence, in_stock FROM product_prices").all() as { url: string; price_pence: number; in_stock: number }[]) {
    shelf.set(new URL(offer.url).pathname, { pence: offer.price_pence, inStock: offer.in_stock === 1 });
  }
  db.$client.close();

  smtp = new TestSmtpServer();
  await smtp.start();
  const allowance = allowLoopbackForTests();
  services = await createServices({
    databaseFile,
    prepare: false,
    mailer: createMailer({ smtpUrl: smtp.url, from: "PawPrice <alerts@pawprice.example>", outboxDir: path.join(dir, "unused-outbox") }),
    adminPasswordHash: await testAdminPasswordHash(),
    pageReader: createPageReader({ allowance }),
    feedAllowance: allowance,
    sources: new Map(),
    refreshCron: null,
    nightlyCron: null,
    hostDelayMs: 0,
    uploadsDir: path.join(dir, "uploads"),
    log: silent,
  });
  // As `npm start` does: the first build starts at once, and catalogue changes rebuild pages from now on.
  site = createSiteRebuilder({ db: services.db, databaseFile, releasesDir: path.join(dir, "releases"), delayMs: 200, log: silent });
  services.attachSite(site);
  server = createServer(toNodeHandler(createApp(services.context, { siteRoot: () => site.currentRoot() })));
  baseUrl = await listen(server);
  await vi.waitFor(() => expect(site.status()).toMatchObject({ state: "idle", lastBuild: { kind: "full", result: "succeeded" } }), { timeout: 240_000, interval: 200 });

  const login = await fetch(`${baseUrl}/api/admin/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ password: testAdminPassword }) });
  cookie = /^[^;]+/.exec(login.headers.get("set-cookie") ?? "")![0];
  const created = await fetch(`${baseUrl}/api/admin/machine-tokens`, {
    method: "POST",
    headers: { cookie, "content-type": "application/json" },
    body: JSON.stringify({ name: "GitHub nightly", scopes: ["nightly:run", "releases:read"] }),
  });
  expect(created.status).toBe(201);
  token = ((await created.json()) as { token: string }).token;
}, 300_000);

afterAll(async () => {
  await site?.stop();
  await site?.cleanedUp();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await services?.close();
  await smtp?.close();
  shop?.closeAllConnections();
  await new Promise<void>((resolve) => (shop ? shop.close(() => resolve()) : resolve()));
  fs.rmSync(dir, { recursive: true, force: true });
  delete process.env.SECRETS_DIR;
});

/** `npm run nightly:remote` against the server: its exit code and output. */
function nightlyRemote(args: string[], env: Record<string, string> = { PAWPRICE_URL: baseUrl, PAWPRICE_TOKEN: token }) {
  const child = spawn(process.execPath, [path.join(projectRoot, "scripts/nightly-remote.ts"), ...args], {
    env: { ...process.env, PAWPRICE_URL: "", PAWPRICE_TOKEN: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.once("close", (code) => resolve({ code, stdout, stderr })));
  return { child, exit };
}

const latestRun = () => services.db.$client.prepare("SELECT id, status FROM nightly_runs ORDER BY id DESC LIMIT 1").get() as { id: number; status: string } | undefined;

describe("npm run nightly:remote against the live server", () => {
  let product: { id: number; slug: string; name: string };
  let newPence: number;
  const email = "owner@example.com";

  it("refuses to start without its settings or with bad arguments (exit 2), and names what is missing", async () => {
    const missing = await nightlyRemote([], {}).exit;
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("PAWPRICE_URL is not set");
    const badToken = await nightlyRemote([], { PAWPRICE_URL: baseUrl, PAWPRICE_TOKEN: "hunter2" }).exit;
    expect(badToken.code).toBe(2);
    expect(badToken.stderr).toContain("PAWPRICE_TOKEN is not a machine token");
    expect(badToken.stderr).not.toContain("hunter2");
    const badPoll = await nightlyRemote(["--poll-ms", "soon"]).exit;
    expect(badPoll.code).toBe(2);
    expect(badPoll.stderr).toContain('--poll-ms must be a number from 100 to 600000, got "soon"');
    const unknownOption = await nightlyRemote(["--fast"]).exit;
    expect(unknownOption.code).toBe(2);
    expect(latestRun()).toBeUndefined();
  });

  it("sets up a price alert through the public API, confirmed from its mail, with a target below today's price", async () => {
    product = services.db.$client
      .prepare("SELECT id, slug, name FROM products p WHERE best_price_pence >= 1000 AND EXISTS (SELECT 1 FROM product_prices WHERE product_id = p.id AND in_stock = 1) ORDER BY id LIMIT 1")
      .get() as typeof product;
    const best = services.db.$client.prepare("SELECT best_price_pence AS pence FROM products WHERE id = ?").get(product.id) as { pence: number };
    newPence = Math.round(best.pence * 0.85);
    const target = Math.round(best.pence * 0.92);
    const response = await fetch(`${baseUrl}/api/price-alerts`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ userId: `user_${"nightly".padEnd(24, "0")}`, productId: product.id, email, targetPrice: target / 100 }),
    });
    expect(response.status, await response.clone().text()).toBe(201);
    await vi.waitFor(() => expect(smtp.received.map((mail) => mail.to[0])).toContain(email), { timeout: 20_000, interval: 50 });
    const link = /https?:\/\/[^\s"<>]+\/api\/email\/confirm\?token=[A-Za-z0-9._~-]+/.exec(smtp.received[0]!.text)![0];
    const confirmed = await fetch(baseUrl + new URL(link).pathname + new URL(link).search);
    expect(confirmed.status).toBe(200);
    expect(smtp.received).toHaveLength(1);
    // Today's page shows the old price.
    expect(await (await fetch(`${baseUrl}/product/${product.slug}`)).text()).not.toContain(formatPence(newPence));
  }, 60_000);

  it("runs the job on the server: the page's new price is read, the alert mailed, the page rebuilt, the site downloaded (exit 0)", async () => {
    // The shop cuts the price at the product's cheapest offer.
    const cheapest = services.db.$client
      .prepare("SELECT url FROM product_prices WHERE product_id = ? AND in_stock = 1 ORDER BY price_pence, retailer_id LIMIT 1")
      .get(product.id) as { url: string };
    shelf.set(new URL(cheapest.url).pathname, { pence: newPence, inStock: true });
    const out = path.join(dir, "site.tar.gz");

    const started = performance.now();
    const { code, stdout, stderr } = await nightlyRemote(["--out", out, "--poll-ms", "200", "--timeout-minutes", "10"]).exit;
    console.log(`nightly run and download took ${((performance.now() - started) / 1000).toFixed(1)} s`);
    expect(code, `${stdout}\n${stderr}`).toBe(0);
    expect(stderr).toBe("");
    expect(stdout).not.toContain(token);
    for (const step of ["Feed imports", "Page prices", "Price alerts", "Site build"]) expect(stdout).toContain(`  Step: ${step}`);
    expect(stdout).toMatch(/^Summary:$/m);
    expect(stdout).toMatch(/^ {2}Feed imports \(\d+\.\d s\): 0 sources, 0 failed$/m);
    expect(stdout).toMatch(/^ {2}Page prices \(\d+\.\d s\): succeeded, \d+ checked, 1 changed, 0 held, 0 failed, 0 marked stale$/m);
    // The alert the new price reached: mailed by this step, or first by the check the price change set off.
    expect(stdout).toMatch(/^ {2}Price alerts \(\d+\.\d s\): (1 sent, 0 failed, 0 re-armed|0 sent, 0 failed, 0 re-armed; 1 mailed since the run started)$/m);
    expect(stdout).toMatch(/^ {2}Site build \(\d+\.\d s\): (fast|full) build succeeded, \d+ pages, release \S+$/m);

    const run = latestRun()!;
    const answer = (await (await fetch(`${baseUrl}/api/machine/nightly/${run.id}`, { headers: { authorization: `Bearer ${token}` } })).json()) as NightlyRun;
    expect(answer).toMatchObject({ id: run.id, status: "succeeded", step: "build", error: null, releaseId: site.status().current });
    expect(stdout).toContain(`Nightly run ${run.id} succeeded: release ${answer.releaseId}`);
    expect(stdout).toContain(`Saved pawprice-site-${answer.releaseId}.tar.gz`);

    // The served page shows the new price.
    const page = await fetch(`${baseUrl}/product/${product.slug}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(formatPence(newPence));
    // The alert mail arrived (the run waited for the alert check).
    const alert = smtp.received.find((mail) => mail.subject.startsWith("Price drop"));
    expect(alert?.to).toEqual([email]);
    expect(alert?.subject).toBe(`Price drop: ${product.name} is now ${formatPence(newPence)} at ${alert?.subject.split(" at ").at(-1)}`);
    // The download is the whole site: its home page and every product page (a fast release merged with its base).
    const listed: string[] = [];
    await tar.t({ file: out, onReadEntry: (entry) => listed.push(entry.path) });
    expect(listed).toContain("./index.html");
    const slugs = services.db.$client.prepare("SELECT slug FROM products").pluck().all() as string[];
    for (const slug of slugs) expect(listed).toContain(`./product/${slug}.html.br`);
    // The admin sees the run too, and the token's last use.
    const runs = (await (await fetch(`${baseUrl}/api/admin/nightly-runs`, { headers: { cookie } })).json()) as NightlyRun[];
    expect(runs[0]).toMatchObject({ id: run.id, status: "succeeded", trigger: expect.stringMatching(/^token:\d+$/) });
    const tokens = (await (await fetch(`${baseUrl}/api/admin/machine-tokens`, { headers: { cookie } })).json()) as { lastUsedAt: string | null }[];
    expect(tokens[0]!.lastUsedAt).not.toBeNull();
  }, 600_000);

  it("fails the run when a feed source cannot be downloaded: the script prints why and exits 1; a second start joins the run", async () => {
    // A loopback port with nothing listening on it.
    const closed = net.createServer();
    const closedOrigin = await listen(closed);
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const source = await fetch(`${baseUrl}/api/admin/feed-sources`, {
      method: "POST",
      headers: { cookie, "content-type": "application/json" },
      body: JSON.stringify({ name: "Broken feed", kind: "url", url: `${closedOrigin}/feed.csv` }),
    });
    expect(source.status, await source.clone().text()).toBe(201);

    const before = latestRun()!.id;
    const { exit } = nightlyRemote(["--poll-ms", "200", "--timeout-minutes", "10"]);
    // While the run is going, starting the job again answers the same run.
    await vi.waitFor(() => expect(latestRun()!.id).toBeGreaterThan(before), { timeout: 30_000, interval: 20 });
    const again = await fetch(`${baseUrl}/api/machine/nightly`, { method: "POST", headers: { authorization: `Bearer ${token}` } });
    const joined = (await again.json()) as { id: number; status: string };
    const { code, stdout, stderr } = await exit;
    const run = latestRun()!;
    expect(again.status).toBe(202);
    expect(joined.id).toBe(run.id);
    expect(run.id).toBe(before + 1);

    expect(code, `${stdout}\n${stderr}`).toBe(1);
    expect(stdout).toMatch(/^ {2}Feed imports \(\d+\.\d s\): 1 source, 1 failed$/m);
    expect(stdout).toMatch(/^ {4}Broken feed: failed: /m);
    expect(stderr).toMatch(new RegExp(`^nightly:remote: run ${run.id} failed: feeds: 1 of 1 failed \\(Broken feed\\)`, "m"));
    expect(stderr).not.toContain(token);
    expect(run.status).toBe("failed");
    // The other steps still ran: nothing changed, so a full build was asked for and published.
    expect(stdout).toMatch(/^ {2}Site build \(\d+\.\d s\): full build succeeded, \d+ pages, release \S+; nothing changed, so a full build was asked for$/m);
  }, 600_000);
});
