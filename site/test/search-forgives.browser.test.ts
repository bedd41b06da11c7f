/**
 * Search that forgives a typo, as a shopper sees it: "wiskas" shows Whiskas and says so; a search
 * that finds a little offers "Did you mean ...?", whose link searches again with the correction;
 * the empty state's categories as links; at 1280 and 375 px, with axe. Against a server of its own
 * (a copy of the shared database), whose one product the test renames to make a rare misspelling.
 */
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { islandsReady, launchBrowser, openPage, seriousA11yViolations } from "./browser.ts";
import { startIsolatedServer, type IsolatedServer } from "./isolated-server.ts";

const adminPassword = inject("adminPassword");
const databaseFile = inject("databaseFile");
let browser: Browser;
let server: IsolatedServer;

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startIsolatedServer({ databaseFile, adminPassword });
  const db = new Database(server.databaseFile);
  try {
    // One product named with a misspelling only it uses.
    db.prepare("UPDATE products SET name = 'Whiskaz Ceramic Travel Bowl' WHERE id = (SELECT id FROM products WHERE name NOT LIKE '%Whiskas%' ORDER BY id LIMIT 1)").run();
  } finally {
    db.close();
  }
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

interface Answer {
  total: number;
  products: { name: string }[];
  suggestion: { q: string; label: string; total: number; applied: boolean } | null;
}
const search = async (q: string) => (await (await fetch(`${server.baseUrl}/api/search?q=${encodeURIComponent(q)}`)).json()) as Answer;
const cardNames = (page: Page) => page.getByTestId("product-card").locator("h3").allTextContents();

describe("search that forgives", () => {
  for (const width of [1280, 375]) {
    it(`shows a misspelt brand's products and says what it searched for instead (${width} px)`, async () => {
      const whiskas = await search("whiskas");
      expect(whiskas.total).toBeGreaterThan(0);
      const { page, context, errors } = await openPage(browser, { width, height: 900 });
      await page.goto(`${server.baseUrl}/search?q=wiskas`);
      await islandsReady(page);
      await expect.poll(() => page.getByTestId("search-corrected").textContent()).toBe('No products match "wiskas". Showing results for Whiskas.');
      await expect.poll(() => page.getByText(`Found ${whiskas.total} product(s)`, { exact: false }).isVisible()).toBe(true);
      const names = await cardNames(page);
      expect(names).toEqual(whiskas.products.map((product) => product.name).slice(0, names.length));
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) expect(name).toMatch(/Whiskas/);
      expect(await seriousA11yViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it("offers 'Did you mean ...?' beside a search that finds a little, and its link searches for the correction", async () => {
    await expect.poll(async () => (await search("whiskaz")).suggestion?.q, { timeout: 10_000 }).toBe("whiskas");
    const { page, context, errors } = await openPage(browser);
    await page.goto(`${server.baseUrl}/search?q=whiskaz`);
    await islandsReady(page);
    await expect.poll(() => page.getByTestId("did-you-mean").textContent()).toBe("Did you mean Whiskas?");
    expect(await cardNames(page)).toEqual(["Whiskaz Ceramic Travel Bowl"]);
    await page.getByTestId("did-you-mean").getByRole("link", { name: "Whiskas" }).click();
    await page.waitForURL(`${server.baseUrl}/search?q=whiskas`);
    await expect.poll(() => page.locator("h1").textContent()).toBe('Search Results for "whiskas"');
    await expect.poll(async () => (await cardNames(page)).length).toBeGreaterThan(1);
    expect(await page.getByTestId("did-you-mean").count()).toBe(0);
    // Back to the misspelling: its own result and the suggestion again.
    await page.goBack();
    await expect.poll(() => cardNames(page)).toEqual(["Whiskaz Ceramic Travel Bowl"]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("lists the categories as links when nothing matches and nothing is close", async () => {
    const { page, context } = await openPage(browser, { width: 375, height: 800 });
    await page.goto(`${server.baseUrl}/search?q=qwxzvbn`);
    await islandsReady(page);
    const empty = page.getByTestId("search-empty");
    await empty.waitFor();
    const db = new Database(server.databaseFile, { readonly: true });
    const categories = db.prepare("SELECT name, slug FROM categories ORDER BY name").all() as { name: string; slug: string }[];
    db.close();
    const links = empty.getByRole("list", { name: "Our categories" }).getByRole("link");
    expect((await links.allTextContents()).sort()).toEqual(categories.map((category) => category.name).sort());
    const hrefs = await links.evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute("href")));
    expect(hrefs.sort()).toEqual(categories.map((category) => `/category/${category.slug}`).sort());
    expect(await seriousA11yViolations(page)).toEqual([]);
    await context.close();
  });
});
