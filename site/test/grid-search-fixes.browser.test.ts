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

describe("search page", () => {
  it("shows the text searched for in the header's search box, without waiting for its island", async () => {
    const { page, context } = await openPage(browser);
    // The results island is kept from loading: the box must be filled without it.
    const html = await (await fetch(`${baseUrl}/search`)).text();
    const island = /<astro-island[^>]*component-url="([^"]+)"[^>]*SearchResults/.exec(html) ?? /<astro-island[^>]*SearchResults[^>]*component-url="([^"]+)"/.exec(html);
    expect(island, "the search results island").not.toBeNull();
    await page.route(`${baseUrl}${island![1]}`, (route) => route.abort());
    await page.goto(`${baseUrl}/search?q=royal%20canin`);
    await expect.poll(() => page.locator("#search-desktop").inputValue()).toBe("royal canin");
    expect(await page.locator("#search-mobile").inputValue()).toBe("royal canin");
    // The island never ran: its static HTML (no text yet) is still there.
    expect(await page.locator("h1").textContent()).toBe("Search");
    await context.close();
  });

  it("keeps the header's search box filled once the results are live, and leaves it empty elsewhere", async () => {
    const { page, context } = await openPage(browser);
    await page.goto(`${baseUrl}/search?q=royal+canin`);
    await islandsReady(page);
    await expect.poll(() => page.locator("h1").textContent()).toBe('Search Results for "royal canin"');
    expect(await page.locator("#search-desktop").inputValue()).toBe("royal canin");
    await page.goto(`${baseUrl}/category/dog-food?q=royal`);
    expect(await page.locator("#search-desktop").inputValue()).toBe("");
    await context.close();
  });

  it("sorts and filters the results with the grid's filters, kept in the address", async () => {
    const { page, errors, context } = await openPage(browser);
    await page.goto(`${baseUrl}/search?q=cat`);
    await islandsReady(page);
    const byRelevance = await getJson<{ products: Product[]; total: number }>("/api/search?q=cat");
    await expect.poll(() => cardNames(page)).toEqual(byRelevance.products.map((p) => p.name));
    expect(await page.getByLabel("Sort by").inputValue()).toBe("relevance");

    await page.getByLabel("Sort by").selectOption("price_asc");
    await page.waitForURL(`${baseUrl}/search?q=cat&sort=price_asc`);
    const cheapest = await getJson<{ products: Product[]; total: number }>("/api/search?q=cat&sort=price_asc");
    expect(cheapest.products.map((p) => p.name)).not.toEqual(byRelevance.products.map((p) => p.name));
    await expect.poll(() => cardNames(page)).toEqual(cheapest.products.map((p) => p.name));

    const brand = cheapest.products.find((p) => p.brand)!.brand!;
    await page.getByLabel("Brand").selectOption(brand);
    await page.waitForURL((url) => url.pathname === "/search" && url.searchParams.get("q") === "cat" && url.searchParams.get("brand") === brand && url.searchParams.get("sort") === "price_asc");
    const ofBrand = await getJson<{ products: Product[]; total: number }>(`/api/search?q=cat&brand=${encodeURIComponent(brand)}&sort=price_asc`);
    expect(ofBrand.total).toBeGreaterThan(0);
    await expect.poll(() => cardNames(page)).toEqual(ofBrand.products.map((p) => p.name));
    await expect.poll(() => page.getByText(`Found ${ofBrand.total} product(s) (Page 1 of ${Math.ceil(ofBrand.total / 15)})`).isVisible()).toBe(true);

    await page.goBack();
    await page.waitForURL(`${baseUrl}/search?q=cat&sort=price_asc`);
    await expect.poll(() => cardNames(page)).toEqual(cheapest.products.map((p) => p.name));
    await page.getByRole("button", { name: "Reset Filters" }).click();
    await page.waitForURL(`${baseUrl}/search?q=cat`);
    await expect.poll(() => cardNames(page)).toEqual(byRelevance.products.map((p) => p.name));
    expect(errors).toEqual([]);
    await context.close();
  });

  it("reads the filters from the address and drops those it cannot use", async () => {
    const { page, context } = await openPage(browser);
    await page.goto(`${baseUrl}/search?q=cat&category=cat-food&priceRange=bogus&sort=nope`);
    await islandsReady(page);
    await page.waitForURL(`${baseUrl}/search?q=cat&category=cat-food`);
    const expected = await getJson<{ products: Product[] }>("/api/search?q=cat&category=cat-food");
    await expect.poll(() => cardNames(page)).toEqual(expected.products.map((p) => p.name));
    expect(expected.products.every((p) => p.category.slug === "cat-food")).toBe(true);
    expect(await page.getByLabel("Category").inputValue()).toBe("cat-food");
    await context.close();
  });
});
