/**
 * The admin's Feeds screen in a real browser against the real server, at desktop and phone
 * widths: a feed added by uploading a CSV, its columns mapped, run, its progress followed and its
 * result seen in the screen and in the database; and a URL feed whose rows arrive slowly, so the
 * live counters are seen moving while the run goes on. The imports write products, so they run
 * on a server of their own (isolated-server.ts); the URL feed is a fixture server on loopback,
 * which only the test server's allowance lets the guarded fetch read.
 */
import fs from "node:fs";
import { createServer, type Server } from "node:http";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, openPage, seriousA11yViolations, toastShows } from "./browser.ts";
import { startIsolatedServer, type IsolatedServer } from "./isolated-server.ts";

const adminPassword = inject("adminPassword");
const databaseFile = inject("databaseFile");
const screenshotDir = path.join(os.tmpdir(), "pawprice-admin-screens");

const header =
  "aw_deep_link,product_name,aw_product_id,merchant_product_id,merchant_image_url,description,merchant_category,search_price,merchant_name,merchant_id,category_name,category_id,aw_image_url,currency,store_price,delivery_cost,merchant_deep_link,language,last_updated,display_price,data_feed_id,brand_name,ean";
/** A feed row of a compared retailer (Amazon UK) with no picture (this machine reaches no image host). */
const row = (name: string, price: string, ean: string, merchant = "Amazon UK") =>
  `https://www.awin1.com/pclick.php?p=1&a=1&m=1,${name},1,B0BROWSE,,A feed test product.,Pets,${price},${merchant},1,Dog Food,1,,GBP,${price},0.00,https://www.amazon.co.uk/dp/B0BR${ean.slice(-6)},en,2026-11-20 03:00:00,GBP${price},1,Browserfeed,${ean}`;

let browser: Browser;
let server: IsolatedServer;
let feeds: Server;
let feedOrigin: string;
let releaseSlow: () => void = () => undefined;
let dir: string;

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startIsolatedServer({ databaseFile, adminPassword });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-feeds-browser-"));
  // A feed download whose last row waits until the test has seen the run going.
  feeds = createServer((request, response) => {
    if (request.url !== "/datafeed/key0browser0slow/feed.csv") return void response.writeHead(404).end();
    response.writeHead(200, { "content-type": "text/csv" });
    response.write([header, row("Browserfeed Slow Lamb 2kg", "10.49", "5098765000017"), row("Browserfeed Slow Duck 2kg", "10.99", "5098765000024")].join("\n") + "\n");
    new Promise<void>((resolve) => (releaseSlow = resolve)).then(() => response.end(`${row("Browserfeed Slow Beef 2kg", "11.49", "5098765000031")}\n`));
  });
  await new Promise<void>((resolve) => feeds.listen(0, "127.0.0.1", resolve));
  feedOrigin = `http://127.0.0.1:${(feeds.address() as { port: number }).port}`;
}, 120_000);
afterAll(async () => {
  releaseSlow();
  await browser?.close();
  await server?.stop();
  feeds?.closeAllConnections();
  await new Promise((resolve) => feeds?.close(resolve));
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const pathname = (page: Page) => new URL(page.url()).pathname;

async function logIn(page: Page): Promise<void> {
  await page.goto(`${server.baseUrl}/admin/login`);
  await page.getByLabel("Password").fill(adminPassword);
  await page.getByRole("button", { name: "Login" }).click();
  await page.waitForURL((url) => url.pathname === "/admin");
}

function withDb<T>(fn: (db: Database.Database) => T): T {
  const db = new Database(server.databaseFile);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/** A CSV feed of two new products of a compared retailer and one row of a merchant we do not compare. */
function writeFeed(tag: string): string {
  const file = path.join(dir, `browser-feed-${tag}.csv`);
  const ean = (n: number) => `50${String(Date.now()).slice(-9)}${n}`.slice(0, 13);
  fs.writeFileSync(
    file,
    [
      header,
      row(`Browserfeed ${tag} Chicken 2kg`, "9.49", ean(1)),
      row(`Browserfeed ${tag} Salmon 2kg`, "9.99", ean(2)),
      row(`Browserfeed ${tag} Turkey 2kg`, "8.99", ean(3), "Corner Pet Shop"),
    ].join("\n") + "\n",
  );
  return file;
}

describe.each([1280, 375])("the Feeds screen at %i px", (width) => {
  it("adds a feed by uploading a CSV, maps its columns, runs it and shows its progress and result", async () => {
    const tag = width === 1280 ? "Wide" : "Narrow";
    const name = `Browser upload feed ${tag}`;
    const file = writeFeed(tag);
    const { page, context, errors } = await openPage(browser, { width, height: 900 });
    try {
      await logIn(page);
      // From the dashboard's tile to the list.
      await page.getByRole("link", { name: /^Feeds\s*Product feeds/ }).click();
      await page.getByRole("heading", { level: 1, name: "Feeds" }).waitFor();
      await page.getByRole("link", { name: "Add feed" }).click();
      await page.getByRole("heading", { level: 1, name: "Add feed" }).waitFor();

      const form = page.getByTestId("feed-form");
      await form.getByRole("textbox", { name: "Name", exact: true }).fill(name);
      await form.getByLabel("A file I upload").check();
      await form.getByLabel("Feed file").setInputFiles(file);
      await form.getByLabel("Layout").selectOption({ label: "Mapped columns" });
      await form.getByLabel("Create products for rows that match none").check();
      await form.getByRole("button", { name: "Save feed" }).click();
      await toastShows(page, "Choose which column holds each field");
      await expect.poll(() => pathname(page)).toMatch(/^\/admin\/feeds\/edit\/\d+$/);
      const id = Number(pathname(page).split("/").pop());

      // The mapping step: the detected columns, a select per field, the first row as a sample.
      const mapping = page.getByTestId("column-mapping");
      await mapping.waitFor();
      await mapping.getByLabel("Product name").selectOption("product_name");
      await mapping.getByRole("combobox", { name: "Price", exact: true }).selectOption("search_price");
      await mapping.getByLabel("Product link").selectOption("merchant_deep_link");
      await mapping.getByText(`Sample: Browserfeed ${tag} Chicken 2kg`).waitFor();
      await mapping.getByText("Sample: 9.49").waitFor();
      await page.getByRole("button", { name: "Save feed and mapping" }).click();
      await expect.poll(() => withDb((db) => db.prepare("SELECT layout FROM feed_sources WHERE id = ?").get(id))).toEqual({ layout: "mapped" });
      expect(withDb((db) => db.prepare("SELECT layout, mapping, file_name, create_products FROM feed_sources WHERE id = ?").get(id))).toEqual({
        layout: "mapped",
        mapping: expect.stringContaining('"name":"product_name"'),
        file_name: path.basename(file),
        create_products: 1,
      });

      // Run it: the run is followed until it has ended, then its result stays.
      const started = page.waitForResponse((response) => response.url().endsWith(`/api/admin/feed-sources/${id}/runs`) && response.request().method() === "POST");
      await page.getByRole("button", { name: "Run now" }).click();
      expect((await started).status()).toBe(202);
      const progress = page.getByTestId("run-progress");
      await progress.and(page.locator('[data-status="succeeded"]')).waitFor({ timeout: 30_000 });
      const counts = progress.getByTestId("run-counts");
      await expect.poll(() => counts.textContent()).toContain("Rows read3");
      expect(await counts.textContent()).toContain("Created2");
      expect(await counts.textContent()).toContain("Refused1");
      expect(await progress.getByTestId("run-refusals").textContent()).toContain("Merchant is not a retailer we compare1");
      await page.getByTestId("feed-runs").getByText("3 rows: 2 created, 0 matched, 1 refused").waitFor();
      expect(withDb((db) => db.prepare("SELECT count(*) AS n FROM products WHERE name LIKE ?").get(`Browserfeed ${tag} %`))).toEqual({ n: 2 });
      expect(withDb((db) => db.prepare("SELECT status, trigger, rows_read, created FROM feed_import_runs WHERE source_id = ?").all(id))).toEqual([
        { status: "succeeded", trigger: "admin", rows_read: 3, created: 2 },
      ]);

      // The list shows the feed with its file, layout and last run.
      await page.getByRole("link", { name: "Back to Feeds" }).click();
      // Phones get a card per feed, wider screens the table.
      const listed = page.getByTestId(width < 768 ? "feed-card" : "feed-row").filter({ hasText: name });
      await listed.waitFor();
      expect(await listed.textContent()).toContain(path.basename(file));
      expect(await listed.textContent()).toContain("Mapped columns");
      expect(await listed.textContent()).toContain("By merchant column");
      expect(await listed.getByTestId("feed-last-run").textContent()).toContain("Succeeded");

      expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth), `list at ${width} px`).toBe(false);
      expect(await seriousA11yViolations(page)).toEqual([]);
      fs.mkdirSync(screenshotDir, { recursive: true });
      await page.screenshot({ path: path.join(screenshotDir, `feeds-${width}.png`), fullPage: true });
      await page.goto(`${server.baseUrl}/admin/feeds/edit/${id}`);
      await page.getByTestId("feed-runs").waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth), `feed form at ${width} px`).toBe(false);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await page.screenshot({ path: path.join(screenshotDir, `feed-form-${width}.png`), fullPage: true });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe("a feed read from its download URL", () => {
  it("shows the run's live counters while rows arrive, then its result; the URL is shown masked", async () => {
    const { page, context, errors } = await openPage(browser);
    try {
      await logIn(page);
      await page.goto(`${server.baseUrl}/admin/feeds/new`);
      const form = page.getByTestId("feed-form");
      await form.getByRole("textbox", { name: "Name", exact: true }).fill("Browser URL feed");
      await form.getByRole("textbox", { name: "Download URL" }).fill(`${feedOrigin}/datafeed/key0browser0slow/feed.csv`);
      await form.getByLabel("Retailer").selectOption({ label: "Amazon" });
      await form.getByLabel("Create products for rows that match none").check();
      await form.getByRole("textbox", { name: "Schedule" }).fill("15 3 * * *");
      await form.getByRole("button", { name: "Save feed" }).click();
      await toastShows(page, "Feed saved");
      await expect.poll(() => pathname(page)).toBe("/admin/feeds");

      const listed = page.getByTestId("feed-row").filter({ hasText: "Browser URL feed" });
      await listed.waitFor();
      const text = await listed.textContent();
      expect(text).toContain(`${feedOrigin}/••••••.csv`);
      expect(text).not.toContain("key0browser0slow");
      expect(text).toContain("Amazon");
      expect(text).toContain("15 3 * * *");

      await listed.getByRole("button", { name: "Run now: Browser URL feed" }).click();
      const progress = page.getByTestId("run-progress");
      // Two rows in, the third held back by the feed server: the screen shows the run going and how far it got.
      await progress.and(page.locator('[data-status="running"]')).waitFor({ timeout: 15_000 });
      await expect.poll(async () => Number(/Rows read(\d+)/.exec((await progress.getByTestId("run-counts").textContent()) ?? "")?.[1] ?? 0), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
      await page.getByRole("heading", { name: "Importing" }).waitFor();
      releaseSlow();
      await progress.and(page.locator('[data-status="succeeded"]')).waitFor({ timeout: 30_000 });
      expect(await progress.getByTestId("run-counts").textContent()).toContain("Rows read3");
      expect(await progress.getByTestId("run-counts").textContent()).toContain("Created3");
      await listed.getByTestId("feed-last-run").getByText("Succeeded").waitFor();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
