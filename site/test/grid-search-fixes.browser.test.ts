/**
 * The grid and search fixes: bad or out-of-range query values give a real page under a canonical
 * address; the search page has the grid's filters and fills the header's search box; the brand
 * filter lists only the brands of the current view, with counts.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import type { Product } from "../../data/domain/catalogue.ts";
import { islandsReady, launchBrowser, openPage } from "./browser.ts";

const baseUrl = inject("baseUrl");
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const getJson = async <T>(path: string): Promise<T> => (await (await fetch(`${baseUrl}${path}`)).json()) as T;
const cardNames = (page: Page) => page.getByTestId("product-card").locator("h3").allTextContents();

describe("query values the grid cannot show", () => {
  it("shows the last page for a page past it, and the address says which", async () => {
    const { page, errors, context } = await openPage(browser);
    const { count } = await getJson<{ count: number }>("/api/products/count");
    const last = Math.ceil(count / 15);
    expect(last).toBeLessThan(40);
    await page.goto(`${baseUrl}/?page=40`);
    await islandsReady(page);
    await page.waitForURL((url) => url.pathname === "/" && url.search === `?page=${last}`);
    await expect.poll(() => page.getByText(`Page ${last} of ${last}`).isVisible()).toBe(true);
    const expected = await getJson<Product[]>(`/api/products?offset=${(last - 1) * 15}&limit=15`);
    expect(expected.length).toBeGreaterThan(0);
    await expect.poll(() => cardNames(page)).toEqual(expected.map((p) => p.name));
    expect(errors).toEqual([]);
    await context.close();
  });

  it("ignores an unknown sort on a category page and drops it from the address", async () => {
    const { page, errors, context } = await openPage(browser);
    await page.goto(`${baseUrl}/category/dog-food?sort=bogus`);
    await islandsReady(page);
    await page.waitForURL((url) => url.pathname === "/category/dog-food" && url.search === "");
    const { count } = await getJson<{ count: number }>("/api/products/count?category=dog-food");
    expect(count).toBeGreaterThan(0);
    await expect.poll(() => page.getByText(`${count} products`, { exact: true }).isVisible()).toBe(true);
    const expected = await getJson<Product[]>("/api/products?category=dog-food");
    await expect.poll(() => cardNames(page)).toEqual(expected.map((p) => p.name));
    expect(errors).toEqual([]);
    await context.close();
  });

  it("keeps the valid values of a mixed query and makes a page 0 page 1", async () => {
    const { page, context } = await openPage(browser);
    await page.goto(`${baseUrl}/category/dog-food?page=0&sort=price_asc&priceRange=cheap&brand=all`);
    await islandsReady(page);
    await page.waitForURL((url) => url.pathname === "/category/dog-food" && url.search === "?sort=price_asc");
    const expected = await getJson<Product[]>("/api/products?category=dog-food&sort=price_asc");
    await expect.poll(() => cardNames(page)).toEqual(expected.map((p) => p.name));
    await context.close();
  });

  it("shows the last page of search results for a page past it", async () => {
    const { page, context } = await openPage(browser);
    const { total } = await getJson<{ total: number }>("/api/search?q=dog");
    const last = Math.ceil(total / 15);
    await page.goto(`${baseUrl}/search?q=dog&page=99`);
    await islandsReady(page);
    await page.waitForURL(`${baseUrl}/search?q=dog${last > 1 ? `&page=${last}` : ""}`);
    await expect.poll(() => page.getByText(`Found ${total} product(s) (Page ${last} of ${last})`).isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId("product-card").count()).toBe(total - (last - 1) * 15);
    await context.close();
  });
});
