/**
 * The product grid's HTML is complete, so it hydrates on the visitor's first touch
 * (client:interaction): at once only for a visit with compared or saved products, or an address
 * whose query string sets the view. What is tapped before it is live still happens, exactly once.
 */
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import type { Product } from "../../data/domain/catalogue.ts";
import { launchBrowser, openPage } from "./browser.ts";

const baseUrl = inject("baseUrl");
const databaseFile = inject("databaseFile");
const category = "dog-food";
const categoryUrl = `${baseUrl}/category/${category}`;
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const gridIsland = (page: Page) => page.locator('astro-island[client="interaction"]:has([data-testid="product-grid"])');
const isStatic = async (page: Page) => (await gridIsland(page).getAttribute("ssr")) !== null;

/**
 * Holds the grid's component module until `open()`: the grid cannot hydrate before, so a tap made
 * while it is held lands on the static HTML for certain. `requested` resolves when the page asks for it.
 */
async function holdGridModule(page: Page): Promise<{ open: () => void; requested: Promise<unknown> }> {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const pattern = /\/_astro\/ProductGrid\.[\w-]+\.js$/;
  await page.route(pattern, async (route) => {
    await gate;
    await route.continue();
  });
  return { open, requested: page.waitForRequest(pattern) };
}

describe("the product grid hydrates on first use", () => {
  it("a fresh visit stays static (its module only preloaded), and a Compare tap made before it is live adds the product once it is", async () => {
    const { page, errors, context } = await openPage(browser, { width: 375, height: 700 });
    const held = await holdGridModule(page);
    await page.goto(categoryUrl);
    await held.requested; // preloaded once the page was idle, without hydrating
    expect(await isStatic(page)).toBe(true);

    const card = page.getByTestId("product-card").first();
    const name = (await card.locator("h3").textContent())!.trim();
    await card.getByRole("button", { name: `Add ${name} to compare` }).click();
    expect(await isStatic(page)).toBe(true);
    expect(await page.evaluate(() => sessionStorage.getItem("compare_tray"))).toBeNull();

    held.open();
    await card.getByRole("button", { name: `${name} is in the comparison` }).waitFor();
    await page.getByTestId("compare-tray").getByText("Compare Products (1/4)").waitFor();
    const stored = await page.evaluate(() => JSON.parse(sessionStorage.getItem("compare_tray") ?? "[]") as { name: string }[]);
    expect(stored.map((item) => item.name)).toEqual([name]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("a filter chosen before it is live is applied once it is, even when only its input event was seen then", async () => {
    const { page, errors, context } = await openPage(browser);
    const held = await holdGridModule(page);
    await page.goto(categoryUrl);
    await held.requested;
    const brands = await page.locator("#filter-brand option").evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
    const brand = brands.find((value) => value !== "all")!;
    // A select reports "input" before "change"; "input" alone can finish React's hydration on
    // the spot (resetting the select), so the directive must keep the choice from it as well.
    await page.locator("#filter-brand").evaluate((select, value) => {
      (select as HTMLSelectElement).value = value;
      select.dispatchEvent(new Event("input", { bubbles: true }));
      (select as HTMLSelectElement).value = "all";
    }, brand);
    expect(await isStatic(page)).toBe(true);
    held.open();
    await page.locator('[data-testid="product-grid"] h2').first().hover();
    await page.waitForURL((url) => url.searchParams.get("brand") === brand);
    await expect.poll(() => page.locator("#filter-brand").inputValue()).toBe(brand);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("a Save tap made before it is live saves the product exactly once, and the next visit shows it saved without a touch until none is left", async () => {
    const { page, errors, context } = await openPage(browser);
    const db = new Database(databaseFile, { readonly: true });
    const held = await holdGridModule(page);
    await page.goto(categoryUrl);
    await held.requested;
    const card = page.getByTestId("product-card").first();
    const name = (await card.locator("h3").textContent())!.trim();
    await card.getByRole("button", { name: `Save ${name} to favourites` }).click();
    expect(await isStatic(page)).toBe(true);

    held.open();
    await card.getByRole("button", { name: `Remove ${name} from favourites` }).waitFor();
    const userId = await page.evaluate(() => localStorage.getItem("userId"));
    const favourites = () => db.prepare("SELECT p.name FROM favorites f JOIN products p ON p.id = f.product_id WHERE f.user_id = ?").pluck().all(userId);
    await expect.poll(favourites).toEqual([name]);
    expect(await page.evaluate(() => localStorage.getItem("favorites_saved"))).toBe("1");

    // Back later: the grid hydrates by itself and the card shows the favourite.
    await page.goto(categoryUrl);
    await page.waitForSelector('astro-island:not([ssr]) [data-testid="product-grid"]', { state: "attached" });
    await card.getByRole("button", { name: `Remove ${name} from favourites` }).waitFor();
    await card.getByRole("button", { name: `Remove ${name} from favourites` }).click();
    await card.getByRole("button", { name: `Save ${name} to favourites` }).waitFor();
    await expect.poll(favourites).toEqual([]);

    // The next page finds none left and forgets the mark; the one after stays static.
    await page.goto(categoryUrl);
    await expect.poll(() => page.evaluate(() => localStorage.getItem("favorites_saved"))).toBeNull();
    await page.goto(categoryUrl);
    await page.waitForLoadState("networkidle");
    expect(await isStatic(page)).toBe(true);
    expect(errors).toEqual([]);
    db.close();
    await context.close();
  });

  it("a View Best Deal tap made before it is live opens the retailer once and is recorded once", async () => {
    const { page, errors, context } = await openPage(browser, { consent: "accepted" });
    const held = await holdGridModule(page);
    let opened = 0;
    context.on("page", () => (opened += 1));
    await page.goto(categoryUrl);
    await held.requested;
    const viewed = page.waitForRequest((request) => request.url().endsWith("/api/recently-viewed") && request.method() === "POST");
    const popup = context.waitForEvent("page");
    await page.getByTestId("product-card").first().getByRole("link", { name: /View Best Deal/ }).click();
    await popup; // the browser followed the link at once
    expect(await isStatic(page)).toBe(true);

    held.open();
    await viewed; // the card's click handler ran on the replayed click
    const userId = await page.evaluate(() => localStorage.getItem("userId"));
    // Leaving the page flushes the click record: one row, and the replay opened no second tab.
    await page.goto(`${baseUrl}/vouchers`);
    const db = new Database(databaseFile, { readonly: true });
    const clicks = () => (db.prepare("SELECT count(*) AS n FROM user_behaviour WHERE user_id = ? AND action = 'affiliate_click'").get(userId) as { n: number }).n;
    await expect.poll(clicks).toBe(1);
    expect(opened).toBe(1);
    db.close();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("an address with a query string hydrates at once and shows the view it names", async () => {
    const { page, errors, context } = await openPage(browser, { width: 375, height: 700 });
    await page.goto(`${categoryUrl}?sort=price_asc`);
    const cheapest = (await (await fetch(`${baseUrl}/api/products?category=${category}&sort=price_asc`)).json()) as Product[];
    await expect.poll(() => page.getByTestId("product-card").locator("h3").allTextContents()).toEqual(cheapest.slice(0, 15).map((p) => p.name));
    await expect.poll(() => isStatic(page)).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });
});
