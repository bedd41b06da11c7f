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

describe("brand filter of a view", () => {
  type BrandCount = { brand: string; count: number };
  const optionTexts = (page: Page) => page.locator("#filter-brand option").allTextContents();
  const labels = (brands: BrandCount[]) => ["All brands", ...brands.map((b) => `${b.brand} (${b.count})`)];

  it("lists only Dog Food's brands with their counts, in the static page already, and counts as the grid does", async () => {
    const { page, errors, context } = await openPage(browser);
    const dogFood = await getJson<BrandCount[]>("/api/brands/counts?category=dog-food");
    const catFood = await getJson<BrandCount[]>("/api/brands/counts?category=cat-food");
    const catOnly = catFood.map((b) => b.brand).filter((brand) => !dogFood.some((d) => d.brand === brand));
    expect(catOnly.length).toBeGreaterThan(0);
    // The first paint: the grid has not hydrated (a fresh visit waits for a touch).
    await page.goto(`${baseUrl}/category/dog-food`);
    expect(await page.locator('astro-island[ssr] [data-testid="product-grid"]').count()).toBe(1);
    const shown = await optionTexts(page);
    expect(shown).toEqual(labels(dogFood));
    for (const brand of catOnly) expect(shown.some((text) => text.startsWith(`${brand} (`))).toBe(false);
    for (const { brand, count } of dogFood) {
      expect((await getJson<{ count: number }>(`/api/products/count?category=dog-food&brand=${encodeURIComponent(brand)}`)).count, brand).toBe(count);
    }
    expect(dogFood.reduce((sum, b) => sum + b.count, 0)).toBe((await getJson<{ count: number }>("/api/products/count?category=dog-food")).count);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("narrows the list to the other filters, and keeps the chosen brand listed with 0", async () => {
    const { page, errors, context } = await openPage(browser);
    await page.goto(`${baseUrl}/category/dog-food`);
    await islandsReady(page);
    await page.locator("#filter-price").selectOption("10-25");
    await page.waitForURL((url) => url.searchParams.get("priceRange") === "10-25");
    const inRange = await getJson<BrandCount[]>("/api/brands/counts?category=dog-food&minPrice=10&maxPrice=25");
    expect(inRange.length).toBeGreaterThan(0);
    await expect.poll(() => optionTexts(page)).toEqual(labels(inRange));
    const { brand, count } = inRange[0]!;
    expect((await getJson<{ count: number }>(`/api/products/count?category=dog-food&minPrice=10&maxPrice=25&brand=${encodeURIComponent(brand)}`)).count).toBe(count);

    await page.getByLabel("Brand").selectOption(brand);
    await page.waitForURL((url) => url.searchParams.get("brand") === brand);
    await expect.poll(() => page.getByTestId("product-card").count()).toBe(Math.min(count, 15));
    // A price range without that brand's products: the list is the range's, the chosen brand stays with 0.
    let empty: string | undefined;
    for (const range of ["100-", "50-100", "0-10", "25-50"]) {
      const [min, max] = range.split("-");
      const scope = `category=dog-food&minPrice=${min}${max ? `&maxPrice=${max}` : ""}`;
      if ((await getJson<{ count: number }>(`/api/products/count?${scope}&brand=${encodeURIComponent(brand)}`)).count === 0) {
        empty = range;
        const others = (await getJson<BrandCount[]>(`/api/brands/counts?${scope}`)).filter((b) => b.brand !== brand);
        await page.locator("#filter-price").selectOption(range);
        await page.waitForURL((url) => url.searchParams.get("priceRange") === range && url.searchParams.get("brand") === brand);
        const expected = [...others, { brand, count: 0 }].sort((a, b) => a.brand.localeCompare(b.brand, "en", { sensitivity: "base" }));
        await expect.poll(() => optionTexts(page)).toEqual(labels(expected));
        expect(await page.getByLabel("Brand").inputValue()).toBe(brand);
        await expect.poll(() => page.getByText("No products match your current filters. Try adjusting your search criteria.").isVisible()).toBe(true);
        break;
      }
    }
    expect(empty, `a price range without ${brand} in Dog Food`).toBeDefined();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("lists the brands of the search results on the search page", async () => {
    const { page, context } = await openPage(browser);
    await page.goto(`${baseUrl}/search?q=cat`);
    await islandsReady(page);
    const ofSearch = await getJson<BrandCount[]>("/api/brands/counts?q=cat");
    expect(ofSearch.length).toBeGreaterThan(0);
    await expect.poll(() => optionTexts(page)).toEqual(labels(ofSearch));
    await page.getByLabel("Category").selectOption("cat-food");
    await page.waitForURL(`${baseUrl}/search?q=cat&category=cat-food`);
    await expect.poll(() => optionTexts(page)).toEqual(labels(await getJson<BrandCount[]>("/api/brands/counts?q=cat&category=cat-food")));
    await context.close();
  });
});
