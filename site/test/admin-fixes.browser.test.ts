/**
 * What a site owner tripped over in the admin area, and texts, in a real browser against the
 * real server: every admin screen fits a 375 px phone, with each list's Edit and Delete in view;
 * a category icon typed in any case; the product list keeps its search through an edit, shows a
 * new product's creation time and formats review counts; an unsubscribe link that changes nothing
 * until its button is pressed; the vouchers page's retailer filter. Writes go to a server of
 * their own (isolated-server.ts), so the other files never meet them.
 */
import fs from "node:fs";
import path from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openDb } from "../../data/db/client.ts";
import { signToken } from "../../api/lib/tokens.ts";
import { islandsReady, launchBrowser, openPage, seriousA11yViolations } from "./browser.ts";
import { startIsolatedServer, type IsolatedServer } from "./isolated-server.ts";

const baseUrl = inject("baseUrl");
const databaseFile = inject("databaseFile");
const adminPassword = inject("adminPassword");
const phone = 375;

let browser: Browser;
let isolated: IsolatedServer;
beforeAll(async () => {
  browser = await launchBrowser();
  isolated = await startIsolatedServer({ databaseFile, adminPassword });
});
afterAll(async () => {
  await browser?.close();
  await isolated?.stop();
});

async function logIn(page: Page, server: string): Promise<void> {
  await page.goto(`${server}/admin/login`);
  await page.getByLabel("Password").fill(adminPassword);
  await page.getByRole("button", { name: "Login" }).click();
  await page.waitForURL((url) => url.pathname === "/admin");
  await page.getByRole("heading", { level: 1, name: "Admin Dashboard" }).waitFor();
}

function read<T>(file: string, sql: string, ...params: unknown[]): T[] {
  const db = openDb(file);
  try {
    return db.$client.prepare(sql).all(...params) as T[];
  } finally {
    db.$client.close();
  }
}

const pathAndQuery = (page: Page) => {
  const url = new URL(page.url());
  return url.pathname + url.search;
};

/** The widest elements of the page, to say what sticks out when a screen is too wide. */
const widest = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll("body *")]
      .map((element) => ({ element, right: element.getBoundingClientRect().right }))
      .filter(({ right }) => right > window.innerWidth)
      .slice(0, 5)
      .map(({ element, right }) => `${element.tagName.toLowerCase()}.${element.className.toString().slice(0, 60)} right=${Math.round(right)}`),
  );

/**
 * Whether a control can be seen and pressed where it is, without scrolling sideways: wholly
 * inside the window's width, and what the browser finds at its centre is the control (not
 * clipped by a scrolling table). The page is scrolled up or down to it, never sideways.
 */
async function reachable(control: Locator): Promise<boolean> {
  return control.evaluate((element) => {
    const before = element.getBoundingClientRect();
    window.scrollBy(0, before.top - window.innerHeight / 2);
    const box = element.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return box.width > 0 && box.left >= 0 && box.right <= window.innerWidth && hit !== null && element.contains(hit);
  });
}

describe("admin on a 375 px phone", () => {
  it("fits every screen into the width, and each list's Edit and Delete are in view without scrolling sideways", async () => {
    // What a live shop has and a fresh catalogue lacks: outbound clicks on products with long
    // names (the analytics' top products), a long subscriber address, a long voucher text.
    const db = openDb(isolated.databaseFile);
    const products = db.$client.prepare("SELECT id, category_id, best_retailer_id FROM products ORDER BY length(name) DESC, id LIMIT 10").all() as {
      id: number;
      category_id: number;
      best_retailer_id: number | null;
    }[];
    const click = db.$client.prepare(
      "INSERT INTO user_behaviour (user_id, product_id, action, category_id, retailer_id, metadata) VALUES (?, ?, 'affiliate_click', ?, ?, '{\"retailer\":\"Amazon\"}')",
    );
    for (const [index, product] of products.entries()) {
      for (let n = 0; n <= index; n++) click.run(`user_${"c".repeat(23)}${n % 10}`, product.id, product.category_id, product.best_retailer_id);
    }
    db.$client.prepare("INSERT INTO email_subscribers (email) VALUES (?)").run(`a.very.long.address.${"x".repeat(40)}@subscribers.example.co.uk`);
    db.$client.prepare("UPDATE vouchers SET description = description || ' - ' || ? WHERE id = (SELECT min(id) FROM vouchers)").run("terms-and-conditions-apply-".repeat(4));
    const first = (sql: string) => (db.$client.prepare(sql).get() as { id: number }).id;
    const productId = first("SELECT id FROM products ORDER BY length(name) DESC LIMIT 1");
    const categoryId = first("SELECT id FROM categories ORDER BY length(name) DESC LIMIT 1");
    const retailerId = first("SELECT id FROM retailers ORDER BY length(website) DESC LIMIT 1");
    const voucherId = first("SELECT min(id) AS id FROM vouchers");
    db.$client.close();
    const screens: [string, string | RegExp][] = [
      ["/admin", "Admin Dashboard"],
      ["/admin/products", "Products"],
      ["/admin/products/new", "Add New Product"],
      [`/admin/products/edit/${productId}`, /^Edit Product: /],
      ["/admin/price-review", "Price Review"],
      ["/admin/categories", "Categories"],
      ["/admin/categories/new", "Add New Category"],
      [`/admin/categories/edit/${categoryId}`, /^Edit Category: /],
      ["/admin/retailers", "Retailers"],
      ["/admin/retailers/new", "Add New Retailer"],
      [`/admin/retailers/edit/${retailerId}`, /^Edit Retailer: /],
      ["/admin/vouchers", "Vouchers"],
      ["/admin/vouchers/new", "Add New Voucher"],
      [`/admin/vouchers/edit/${voucherId}`, /^Edit Voucher: /],
      ["/admin/affiliate-links", "Affiliate Links"],
      ["/admin/email-subscribers", "Email Subscribers"],
      ["/admin/analytics", "Analytics"],
      ["/admin/amazon-import", "Amazon Import"],
      ["/admin/feeds", "Feeds"],
      ["/admin/feeds/new", "Add feed"],
      ["/admin/machine-tokens", "Machine tokens"],
    ];
    const { page, context, errors } = await openPage(browser, { width: phone, height: 800 });
    await logIn(page, isolated.baseUrl);
    /** Opens a screen and waits until its data is shown. */
    const open = async (screen: string, heading: string | RegExp) => {
      await page.goto(`${isolated.baseUrl}${screen}`);
      await page.getByRole("heading", { level: 1, name: heading }).waitFor();
      await expect.poll(() => page.getByRole("status").filter({ hasText: /^Loading/ }).count()).toBe(0);
    };
    const tooWide: string[] = [];
    for (const [screen, heading] of screens) {
      await open(screen, heading);
      if (screen === "/admin/analytics") await page.getByText("Top clicked products").waitFor();
      if (screen === "/admin") await page.getByTestId("build-status").waitFor();
      if (screen === "/admin/products/new") await page.getByRole("button", { name: "Add offer" }).click();
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      if (width > phone) tooWide.push(`${screen}: ${width} px (${(await widest(page)).join("; ")})`);
    }
    expect(tooWide).toEqual([]);

    // Each list, its first and last entries: Edit and Delete are in view and can be pressed.
    const lists: [string, string, string][] = [
      ["/admin/categories", "Categories", "SELECT name AS label FROM categories ORDER BY name COLLATE NOCASE, id"],
      ["/admin/retailers", "Retailers", "SELECT name AS label FROM retailers ORDER BY name COLLATE NOCASE, id"],
      ["/admin/vouchers", "Vouchers", "SELECT code AS label FROM vouchers ORDER BY expiry_date, id"],
    ];
    for (const [screen, heading, sql] of lists) {
      const labels = read<{ label: string }>(isolated.databaseFile, sql).map((row) => row.label);
      await open(screen, heading);
      for (const label of [labels[0]!, labels.at(-1)!]) {
        const edit = page.getByRole("link", { name: `Edit ${label}`, exact: true });
        const remove = page.getByRole("button", { name: `Delete ${label}`, exact: true });
        expect(await edit.count(), `${screen} Edit ${label}`).toBe(1);
        expect(await reachable(edit), `${screen} Edit ${label}`).toBe(true);
        expect(await reachable(remove), `${screen} Delete ${label}`).toBe(true);
      }
      expect(await seriousA11yViolations(page), `${screen} at ${phone} px`).toEqual([]);
      // The phone list opens the entry's form.
      await page.getByRole("link", { name: `Edit ${labels[0]!}`, exact: true }).click();
      await page.getByRole("heading", { level: 1, name: new RegExp(`^Edit \\w+: ${labels[0]!.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`) }).waitFor();
    }
    // The product list's phone cards: each product's actions are in view.
    await open("/admin/products", "Products");
    const firstCard = page.getByTestId("product-card-admin").first();
    await firstCard.waitFor();
    expect(await reachable(firstCard.getByRole("button", { name: /^Actions for / }))).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("admin fixes on a server of their own", () => {
  it("takes a category icon in any case, stores it by its own name, and says under the field when it is unknown", async () => {
    const { page, context } = await openPage(browser);
    await logIn(page, isolated.baseUrl);
    const categories = () => read<{ name: string; icon: string }>(isolated.databaseFile, "SELECT name, icon FROM categories ORDER BY id");
    const before = categories();

    await page.goto(`${isolated.baseUrl}/admin/categories/new`);
    await page.getByLabel("Category Name").fill("Tortoise Care");
    const icon = page.getByLabel("Icon");
    // The hint names the icons; the field offers them as a list.
    expect(await icon.getAttribute("placeholder")).toBe("PawPrint");
    const options = await icon.evaluate((element) => [...((element as HTMLInputElement).list?.options ?? [])].map((option) => option.value));
    expect(options).toEqual(["paw-print", "bone", "fish", "baseball", "house", "shield-dog", "scissors", "whistle", "rabbit", "bird", "heart", "toy", "bed"]);

    await icon.fill("Turtle");
    await page.getByRole("button", { name: "Create Category" }).click();
    const problem = "Icon must be one of paw-print, bone, fish, baseball, house, shield-dog, scissors, whistle, rabbit, bird, heart, toy, bed";
    await expect.poll(() => icon.evaluate((element) => document.getElementById(element.getAttribute("aria-describedby")!.split(" ").at(-1)!)?.textContent)).toBe(problem);
    expect(await icon.getAttribute("aria-invalid")).toBe("true");
    expect(categories()).toEqual(before);

    // The hint's own spelling, "Bone", is a known icon.
    await icon.fill("Bone");
    await page.getByRole("button", { name: "Create Category" }).click();
    await page.getByRole("heading", { level: 1, name: "Categories" }).waitFor();
    expect(categories()).toEqual([...before, { name: "Tortoise Care", icon: "bone" }]);
    await context.close();
  });

  it("keeps the product list's search through an edit, shows a new product's creation time and review counts with separators", async () => {
    const { page, context, errors } = await openPage(browser);
    await logIn(page, isolated.baseUrl);
    const name = `Fix Test Kibble ${Date.now()}`;
    const [category] = read<{ id: number }>(isolated.databaseFile, "SELECT id FROM categories WHERE slug = 'dog-food'");
    const created = await page.request.post(`${isolated.baseUrl}/api/products`, {
      data: { name, categoryId: category!.id, rating: 4.5, reviewCount: 9753, description: "Made by the admin fixes test." },
    });
    expect(created.status()).toBe(201);

    // Page 1 of the search: the list's address carries it.
    await page.goto(`${isolated.baseUrl}/admin/products`);
    await page.getByLabel("Search products").fill(name);
    await page.getByRole("button", { name: "Search", exact: true }).click();
    const search = `/admin/products?q=${encodeURIComponent(name).replace(/%20/g, "+")}`;
    await expect.poll(() => pathAndQuery(page)).toBe(search);
    const row = page.getByTestId("product-row").filter({ hasText: name });
    await row.waitFor();
    const cells = await row.locator("td").allTextContents();
    expect(cells[4]).toContain("(9,753)");
    expect(await row.getByRole("img", { name: /^Rated / }).getAttribute("aria-label")).toBe("Rated 4.5 out of 5 from 9,753 reviews");
    // Created, never edited: when it was created, not "Never".
    expect(cells[6]).toBe("Created just now");

    // Edit from the row's menu, save: back on the same search.
    await row.getByRole("button", { name: `Actions for ${name}` }).click();
    await page.getByRole("menuitem", { name: "Edit" }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get("q")).toBe(name);
    expect(await page.getByRole("link", { name: "Back to Products" }).getAttribute("href")).toBe(search);
    await page.getByTestId("product-form").getByLabel("Description").fill("Edited by the admin fixes test.");
    await page.getByRole("button", { name: "Update Product" }).click();
    await expect.poll(() => pathAndQuery(page)).toBe(search);
    expect(await page.getByLabel("Search products").inputValue()).toBe(name);
    await expect.poll(async () => (await row.locator("td").allTextContents())[6]).toBe("Just now");
    expect(await page.getByTestId("product-row").count()).toBe(1);

    // Cancel returns to the search too.
    await row.getByRole("button", { name: `Actions for ${name}` }).click();
    await page.getByRole("menuitem", { name: "Edit" }).click();
    await page.getByRole("link", { name: "Cancel" }).click();
    await expect.poll(() => pathAndQuery(page)).toBe(search);

    // What the Featured flag does, said where it is set.
    await page.goto(`${isolated.baseUrl}/admin/products/new`);
    const featured = page.getByLabel("Featured product");
    expect(await featured.evaluate((element) => document.getElementById(element.getAttribute("aria-describedby")!)?.textContent)).toBe(
      "Of the featured products, the best-selling one is the example deal beside the home page's heading. Grids and search keep their own order.",
    );
    expect(errors).toEqual([]);
    await context.close();
  });

  it("an unsubscribe link opened in a browser changes nothing until its button is pressed", async () => {
    // The server's signing key: made on first use, in its own folder.
    await fetch(`${isolated.baseUrl}/api/alerts/unsubscribe?token=x`);
    const secret = fs.readFileSync(path.join(isolated.dir, "secrets", "app-secret"), "utf8").trim();
    const db = openDb(isolated.databaseFile);
    const [product] = db.$client.prepare("SELECT id FROM products ORDER BY rank LIMIT 1").all() as { id: number }[];
    const insert = db.$client.prepare(
      "INSERT INTO price_alerts (user_id, product_id, email, target_price_pence, confirmed_at) VALUES (?, ?, ?, 100, '2026-01-01T00:00:00.000Z') RETURNING id",
    );
    const alertId = (insert.get(`user_${"u".repeat(24)}`, product!.id, "leaving@example.com") as { id: number }).id;
    const otherId = (insert.get(`user_${"v".repeat(24)}`, product!.id, "staying@example.com") as { id: number }).id;
    db.$client.close();
    const active = () => read<{ id: number; is_active: number }>(isolated.databaseFile, "SELECT id, is_active FROM price_alerts WHERE id IN (?, ?) ORDER BY id", alertId, otherId);

    const { page, context, errors } = await openPage(browser);
    const link = `${isolated.baseUrl}/api/alerts/unsubscribe?token=${signToken("alert-unsubscribe", alertId, secret)}`;
    await page.goto(link);
    await page.getByRole("heading", { name: "Switch off this price alert?" }).waitFor();
    await page.reload();
    expect(active()).toEqual([
      { id: alertId, is_active: 1 },
      { id: otherId, is_active: 1 },
    ]);
    await page.getByRole("button", { name: "Switch off price alert" }).click();
    await page.getByRole("heading", { name: "Price alert switched off" }).waitFor();
    expect(active()).toEqual([
      { id: alertId, is_active: 0 },
      { id: otherId, is_active: 1 },
    ]);
    // A link changed in the mail: a page that says so, and nothing changes.
    const response = await page.goto(link.slice(0, -2));
    expect(response?.status()).toBe(400);
    await page.getByRole("heading", { name: "Invalid unsubscribe link" }).waitFor();
    expect(await page.getByRole("button").count()).toBe(0);
    expect(active()[1]).toEqual({ id: otherId, is_active: 1 });
    // The browser logs the refused link (400); nothing else went wrong.
    expect(errors.filter((error) => !error.includes("400"))).toEqual([]);
    await context.close();
  });
});

describe("vouchers page", () => {
  it("filters by exactly Amazon, Pets at Home, Jollyes, Zooplus, Viovet, Fetch and Petplanet, in that order", async () => {
    const { page, context } = await openPage(browser);
    await page.goto(`${baseUrl}/vouchers`);
    await islandsReady(page);
    const filter = page.getByLabel("Retailer");
    expect(await filter.locator("option").allTextContents()).toEqual(["All retailers", "Amazon", "Pets at Home", "Jollyes", "Zooplus", "Viovet", "Fetch", "Petplanet"]);
    // The list hydrates on first use: point at it, as a shopper would.
    await page.getByTestId("voucher").first().hover();
    await page.waitForSelector("astro-island:not([ssr]) #voucher-retailer", { state: "attached" });
    // Petplanet's voucher is entered as "Pet Planet".
    await filter.selectOption("Petplanet");
    await expect.poll(() => page.getByTestId("voucher").allTextContents()).toEqual([expect.stringContaining("PLANET8")]);
    await filter.selectOption("Fetch");
    await page.getByText("No vouchers right now for this retailer. Check back soon.").waitFor();
    await context.close();
  });
});
