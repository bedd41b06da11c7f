/**
 * The admin area in a real browser against the real server: the login and its guard, a
 * product's whole life (created with two offers, listed, its price edited and seen on the rebuilt
 * public page, deleted and gone), logout, and the layout at desktop and phone widths.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, openPage, seriousA11yViolations, toastShows, type TrackedPage } from "./browser.ts";
import { confirmationLink } from "./outbox.ts";

const baseUrl = inject("baseUrl");
const outboxDir = inject("outboxDir");
const adminPassword = inject("adminPassword");
/** Where the layout screenshots go, for a person to look at. */
const screenshotDir = path.join(os.tmpdir(), "pawprice-admin-screens");
/** A site rebuild after an edit takes seconds; on a busy 2-core machine, allow a few minutes. */
const rebuildTimeout = 180_000;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const pathname = (page: Page) => new URL(page.url()).pathname;

async function logIn(page: Page): Promise<void> {
  await page.goto(`${baseUrl}/admin/login`);
  await page.getByLabel("Password").fill(adminPassword);
  await page.getByRole("button", { name: "Login" }).click();
  await page.waitForURL((url) => url.pathname === "/admin");
  await page.getByRole("heading", { level: 1, name: "Admin Dashboard" }).waitFor();
}

describe("admin login", () => {
  it("guards the admin routes and accepts only the right password", async () => {
    const { page, context, errors } = await openPage(browser);
    // Signed out, a deep admin link ends on the login screen.
    await page.goto(`${baseUrl}/admin/products`);
    await expect.poll(() => pathname(page)).toBe("/admin/login");
    await page.getByRole("heading", { name: "Admin Login" }).waitFor();
    expect(await page.locator('meta[name="robots"]').getAttribute("content")).toContain("noindex");

    await page.getByRole("button", { name: "Login" }).click();
    await expect.poll(() => page.getByText("Password is required").isVisible()).toBe(true);

    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Login" }).click();
    await toastShows(page, "Invalid password");
    expect(pathname(page)).toBe("/admin/login");

    await page.getByLabel("Password").fill(adminPassword);
    await page.getByRole("button", { name: "Login" }).click();
    await toastShows(page, "Login successful");
    await expect.poll(() => pathname(page)).toBe("/admin");
    const counts = page.getByTestId("dashboard-counts");
    await counts.waitFor();
    expect(await counts.textContent()).toMatch(/Products\d+Categories\d+Retailers\d+/);
    // The browser was refused once (401), which it logs; nothing else went wrong.
    expect(errors.filter((error) => !error.includes("401"))).toEqual([]);
    await context.close();
  });
});

describe("admin products", () => {
  let tracked: TrackedPage;
  let page: Page;
  const name = `Browser Test Kibble ${Date.now()}`;
  let slug = "";

  beforeAll(async () => {
    tracked = await openPage(browser);
    page = tracked.page;
    // Every delete asks the browser first; the test answers yes and checks the question.
    page.on("dialog", (dialog) => {
      expect(dialog.message()).toBe(`Are you sure you want to delete "${name}"?`);
      void dialog.accept();
    });
    await logIn(page);
  });
  afterAll(() => tracked?.context.close());

  it("creates a product with two offers and lists it", async () => {
    await page.getByRole("link", { name: "Add New Product" }).first().click();
    await expect.poll(() => pathname(page)).toBe("/admin/products/new");
    const form = page.getByTestId("product-form");
    await form.waitFor();

    // Name and category are required.
    await form.getByRole("button", { name: "Create Product" }).click();
    await toastShows(page, "Please fill in product name and category.");

    // A category and a brand the other browser tests do not count, so their pages and the API
    // agree while this product exists.
    const brand = ((await (await fetch(`${baseUrl}/api/brands`)).json()) as string[])[0]!;
    await form.getByLabel("Product name").fill(name);
    await form.getByLabel(/^Category\b/).selectOption({ label: "Reptile Supplies" });
    await form.getByLabel("Brand").fill(brand);
    await form.getByLabel("Description").fill("A product made by the admin browser test.");

    for (let i = 0; i < 2; i++) await form.getByRole("button", { name: "Add offer" }).click();
    const rows = form.getByTestId("offer-row");
    await expect.poll(() => rows.count()).toBe(2);
    const first = rows.nth(0);
    const second = rows.nth(1);
    // No URL and no override: the price cannot be typed yet.
    expect(await first.getByLabel("Price (£)", { exact: true }).isDisabled()).toBe(true);
    await first.getByLabel("Retailer").selectOption({ label: "Amazon" });
    await first.getByLabel("Product URL").fill("https://www.amazon.co.uk/dp/B0TEST0001");
    await first.getByLabel("Price (£)", { exact: true }).fill("12.49");
    expect(await first.textContent()).toContain("Using extracted price: £12.49");
    await second.getByLabel("Retailer").selectOption({ label: "Zooplus" });
    await second.getByLabel("Product URL").fill("https://www.zooplus.co.uk/shop/dogs/test-kibble");
    await second.getByLabel("Price (£)", { exact: true }).fill("13.99");
    await second.getByLabel("Original price (£)").fill("15.99");
    // Override on: the manual price is what shoppers pay, and the row says so.
    await second.getByLabel("Override Price").check();
    expect(await second.textContent()).toContain("ACTIVE");
    await second.getByLabel("Manual price (£)").fill("11.75");
    await expect.poll(() => second.textContent()).toContain("Override active - using custom price of £11.75");
    await second.getByLabel("Override Price").uncheck();
    await second.getByLabel("Free delivery").check();

    await form.getByRole("button", { name: "Create Product" }).click();
    await toastShows(page, "Product created successfully!");
    await expect.poll(() => pathname(page)).toBe("/admin/products");

    await page.getByLabel("Search products").fill(name);
    await page.getByRole("button", { name: "Search", exact: true }).click();
    const row = page.getByTestId("product-row").filter({ hasText: name });
    await row.waitFor();
    expect(await page.getByTestId("product-row").count()).toBe(1);
    const cells = await row.locator("td").allTextContents();
    expect(cells[1]).toBe("Reptile Supplies");
    // Best price to the door: Amazon's £12.49 carries its £2.99 standard delivery (£15.48), Zooplus's
    // £13.99 is delivered free.
    expect(cells[2]).toBe("Zooplus");
    expect(cells[3]).toBe("£13.99");
    // Created, never edited: when it was created.
    expect(cells[6]).toBe("Created just now");
    slug = (await row.locator('a[href^="/product/"]').getAttribute("href"))!.replace("/product/", "");
    expect(slug).toBe(name.toLowerCase().replace(/ /g, "-"));
  });

  it("exports the products as a spreadsheet", async () => {
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export Excel" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/-products-\d{4}-\d{2}-\d{2}\.xlsx$/);
    // An .xlsx is a zip archive.
    expect(fs.readFileSync((await file.path())!).subarray(0, 2).toString()).toBe("PK");
    await toastShows(page, "Products have been exported to Excel successfully.");
  });

  it("edits a price and the rebuilt public page shows it", async () => {
    const row = page.getByTestId("product-row").filter({ hasText: name });
    await row.getByRole("button", { name: `Actions for ${name}` }).click();
    await page.getByRole("menuitem", { name: "Edit" }).click();
    await expect.poll(() => pathname(page)).toMatch(/^\/admin\/products\/edit\/\d+$/);
    const form = page.getByTestId("product-form");
    const first = form.getByTestId("offer-row").nth(0);
    await first.getByLabel("Price (£)", { exact: true }).waitFor();
    expect(await first.getByLabel("Price (£)", { exact: true }).inputValue()).toBe("12.49");
    expect(await form.getByLabel("Slug").inputValue()).toBe(slug);
    await first.getByLabel("Price (£)", { exact: true }).fill("9.37");
    await form.getByRole("button", { name: "Update Product" }).click();
    await toastShows(page, "Product updated successfully and is now live on the website!");
    await expect.poll(() => pathname(page)).toBe("/admin/products");
    await page.getByLabel("Search products").fill(name);
    await page.getByRole("button", { name: "Search", exact: true }).click();
    // £9.37 + £2.99 delivery = £12.36 to the door, below Zooplus's £13.99.
    await expect.poll(async () => (await row.locator("td").allTextContents()).slice(3, 7)).toEqual(["£12.36", expect.anything(), expect.anything(), "Just now"]);

    // The server rebuilds the changed pages; poll the public page until it carries the new price.
    await expect
      .poll(
        async () => {
          const response = await fetch(`${baseUrl}/product/${slug}`);
          return response.ok ? (await response.text()).includes("£9.37") : false;
        },
        { timeout: rebuildTimeout, interval: 1000 },
      )
      .toBe(true);
  }, rebuildTimeout + 30_000);

  it("deletes the product and its public page goes", async () => {
    await page.getByLabel("Search products").fill(name);
    await page.getByRole("button", { name: "Search", exact: true }).click();
    const row = page.getByTestId("product-row").filter({ hasText: name });
    await row.getByRole("button", { name: `Actions for ${name}` }).click();
    await page.getByRole("menuitem", { name: "Delete" }).click();
    await toastShows(page, "The product has been permanently removed from the website.");
    await expect.poll(() => row.count()).toBe(0);
    await expect
      .poll(async () => (await fetch(`${baseUrl}/product/${slug}`)).status, { timeout: rebuildTimeout, interval: 1000 })
      .toBe(404);
    expect(tracked.errors).toEqual([]);
  }, rebuildTimeout + 30_000);
});

describe("admin categories, affiliate IDs and subscribers", () => {
  let tracked: TrackedPage;
  let page: Page;
  const dialogs: string[] = [];

  beforeAll(async () => {
    tracked = await openPage(browser);
    page = tracked.page;
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.accept();
    });
    await logIn(page);
  });
  afterAll(() => tracked?.context.close());

  it("saves and loads a category's description; refuses to delete a category with products", async () => {
    await page.goto(`${baseUrl}/admin/categories`);
    const row = page.getByTestId("category-row").filter({ hasText: "Reptile Supplies" });
    await row.getByRole("link", { name: "Edit Reptile Supplies" }).click();
    await page.getByRole("heading", { level: 1, name: "Edit Category: Reptile Supplies" }).waitFor();
    const description = `Vivariums, heating and food for reptiles (${Date.now()})`;
    await page.getByLabel("Description").fill(description);
    await page.getByRole("button", { name: "Update Category" }).click();
    await toastShows(page, "Category updated successfully");
    await expect.poll(() => pathname(page)).toBe("/admin/categories");
    await row.getByRole("link", { name: "Edit Reptile Supplies" }).click();
    await expect.poll(() => page.getByLabel("Description").inputValue()).toBe(description);
    await page.getByRole("link", { name: "Back to Categories" }).click();

    await row.getByRole("button", { name: "Delete Reptile Supplies" }).click();
    await toastShows(page, "Failed to delete category");
    expect(dialogs.at(-1)).toBe('Are you sure you want to delete the category "Reptile Supplies"?');
    expect(await row.count()).toBe(1);
  });

  it("requires every affiliate ID and saves them on the server", async () => {
    await page.goto(`${baseUrl}/admin/affiliate-links`);
    const amazon = page.getByLabel("Amazon Affiliate ID");
    await expect.poll(() => amazon.inputValue()).not.toBe("");
    const stored = await amazon.inputValue();
    await amazon.fill("");
    await page.getByRole("button", { name: "Save Affiliate IDs" }).click();
    await expect.poll(() => page.getByText("Amazon affiliate ID is required").isVisible()).toBe(true);
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("AMAZON");
    // The same IDs saved again: every outbound link the other tests check stays as it is.
    await amazon.fill(stored);
    await page.getByRole("button", { name: "Save Affiliate IDs" }).click();
    await toastShows(page, "Your affiliate IDs have been successfully saved.");
    expect(await page.getByText("Amazon affiliate ID is required").count()).toBe(0);
    for (const programme of ["Amazon Associates UK", "AWIN (Pets at Home)", "eBay Partner Network"]) {
      await page.getByRole("link", { name: programme }).waitFor();
    }
  });

  it("lists a new subscriber as awaiting confirmation, then active once confirmed; exports the confirmed addresses and removes one", async () => {
    const email = `admin-test-${Date.now()}@example.co.uk`;
    expect((await fetch(`${baseUrl}/api/subscribers`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email }) })).status).toBe(201);
    await page.goto(`${baseUrl}/admin/email-subscribers`);
    const item = page.getByTestId("subscriber").filter({ hasText: email });
    await item.waitFor();
    expect(await item.textContent()).toMatch(/Subscribed less than a minute ago.*Source: website.*Awaiting confirmation/);
    // Follows the link in the confirmation mail, as the subscriber would.
    expect((await fetch(await confirmationLink(outboxDir, email, baseUrl))).status).toBe(200);
    await page.reload();
    await item.waitFor();
    expect(await item.textContent()).toMatch(/Subscribed less than a minute ago.*Source: website.*Active$/);

    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export Emails" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe("email-subscribers.txt");
    const lines = fs.readFileSync((await file.path())!, "utf8").trim().split("\n");
    expect(lines).toContain(email);
    for (const line of lines) expect(line).toMatch(/^[^\s@]+@[^\s@]+$/);
    await toastShows(page, "Email list exported successfully");

    await item.getByRole("button", { name: `Delete ${email}` }).click();
    await toastShows(page, "Email subscriber removed successfully");
    await expect.poll(() => item.count()).toBe(0);
    // The refused category delete (409) is logged by the browser; nothing else went wrong.
    expect(tracked.errors.filter((error) => !error.includes("status of 409"))).toEqual([]);
  });
});

describe("admin navigation and logout", () => {
  it("moves between screens with back and forward, then logs out and is guarded again", async () => {
    const { page, context, errors } = await openPage(browser);
    await logIn(page);
    await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Categories" }).click();
    await page.getByRole("heading", { level: 1, name: "Categories" }).waitFor();
    expect(pathname(page)).toBe("/admin/categories");
    await page.getByRole("link", { name: "Add New Category" }).click();
    await page.getByRole("heading", { level: 1, name: "Add New Category" }).waitFor();
    expect(await page.getByLabel("Icon").getAttribute("placeholder")).toBe("PawPrint");
    await page.goBack();
    await page.getByRole("heading", { level: 1, name: "Categories" }).waitFor();
    await page.goForward();
    await page.getByRole("heading", { level: 1, name: "Add New Category" }).waitFor();
    // A reload of a deep admin address opens the same screen.
    await page.reload();
    await page.getByRole("heading", { level: 1, name: "Add New Category" }).waitFor();

    await page.getByRole("button", { name: "Logout" }).click();
    await expect.poll(() => pathname(page)).toBe("/admin/login");
    await page.goto(`${baseUrl}/admin/categories`);
    await expect.poll(() => pathname(page)).toBe("/admin/login");
    expect((await page.request.get(`${baseUrl}/api/admin/session`)).status()).toBe(401);
    expect(errors.filter((error) => !error.includes("401"))).toEqual([]);
    await context.close();
  });
});

describe("admin layout", () => {
  const screens = [
    { name: "dashboard", path: "/admin", ready: "Admin Dashboard" },
    { name: "products", path: "/admin/products", ready: "Products" },
    { name: "product-form", path: "/admin/products/new", ready: "Add New Product" },
  ];

  it.each([1280, 375])("fits the screens into %i px without sideways scrolling or serious accessibility faults", async (width) => {
    fs.mkdirSync(screenshotDir, { recursive: true });
    const { page, context } = await openPage(browser, { width, height: 900 });
    await logIn(page);
    for (const screen of screens) {
      await page.goto(`${baseUrl}${screen.path}`);
      await page.getByRole("heading", { level: 1, name: screen.ready }).waitFor();
      // Phones get product cards, wider screens the table.
      if (screen.name === "products") await page.getByTestId(width < 768 ? "product-card-admin" : "product-row").first().waitFor();
      if (screen.name === "product-form") await page.getByRole("button", { name: "Add offer" }).click();
      if (screen.name === "dashboard") await page.getByTestId("build-status").waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth), `${screen.name} at ${width} px`).toBe(false);
      expect(await seriousA11yViolations(page), `${screen.name} at ${width} px`).toEqual([]);
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: path.join(screenshotDir, `${screen.name}-${width}.png`), fullPage: true });
    }
    await context.close();
  });

  it("has no serious accessibility faults on any other screen", async () => {
    const { page, context } = await openPage(browser);
    await page.goto(`${baseUrl}/admin/login`);
    await page.getByRole("heading", { level: 1, name: "Admin Login" }).waitFor();
    expect(await seriousA11yViolations(page), "login").toEqual([]);
    await logIn(page);
    const others = [
      ["/admin/categories", "Categories"],
      ["/admin/categories/new", "Add New Category"],
      ["/admin/retailers", "Retailers"],
      ["/admin/retailers/new", "Add New Retailer"],
      ["/admin/vouchers", "Vouchers"],
      ["/admin/vouchers/new", "Add New Voucher"],
      ["/admin/affiliate-links", "Affiliate Links"],
      ["/admin/email-subscribers", "Email Subscribers"],
      ["/admin/analytics", "Analytics"],
      ["/admin/amazon-import", "Amazon Import"],
      ["/admin/price-review", "Price Review"],
      ["/admin/feeds", "Feeds"],
      ["/admin/feeds/new", "Add feed"],
    ] as const;
    for (const [screenPath, heading] of others) {
      await page.goto(`${baseUrl}${screenPath}`);
      await page.getByRole("heading", { level: 1, name: heading, exact: true }).waitFor();
      await page.getByRole("status").filter({ hasText: /^Loading/ }).waitFor({ state: "detached" });
      expect(await seriousA11yViolations(page), screenPath).toEqual([]);
    }
    await page.goto(`${baseUrl}/admin/amazon-import`);
    await page.getByRole("button", { name: "Import Products" }).waitFor();
    await context.close();
  });
});
