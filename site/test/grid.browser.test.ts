import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser } from "playwright-core";
import type { Product } from "../../data/domain/catalogue.ts";
import { islandsReady, launchBrowser, openPage } from "./browser.ts";

const baseUrl = inject("baseUrl");
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const cardNames = (page: import("playwright-core").Page) => page.getByTestId("product-card").locator("h3").allTextContents();

describe("product grid", () => {
  it("filters by brand and sort, keeps them in the URL, and resets", async () => {
    const { page, errors, context } = await openPage(browser);
    await page.goto(baseUrl);
    await islandsReady(page);
    const brands = (await (await fetch(`${baseUrl}/api/brands`)).json()) as string[];
    const brand = brands.includes("Royal Canin") ? "Royal Canin" : brands[0]!;
    await page.getByLabel("Brand").selectOption(brand);
    await page.waitForURL((url) => url.searchParams.get("brand") === brand);
    const expected = (await (await fetch(`${baseUrl}/api/products?brand=${encodeURIComponent(brand)}`)).json()) as Product[];
    await expect.poll(() => cardNames(page)).toEqual(expected.map((p) => p.name));

    await page.getByLabel("Sort by").selectOption("price_asc");
    await page.waitForURL((url) => url.searchParams.get("sort") === "price_asc" && url.searchParams.get("brand") === brand);
    const cheapest = (await (await fetch(`${baseUrl}/api/products?brand=${encodeURIComponent(brand)}&sort=price_asc`)).json()) as Product[];
    await expect.poll(() => cardNames(page)).toEqual(cheapest.map((p) => p.name));

    await page.getByRole("button", { name: "Reset Filters" }).first().click();
    await page.waitForURL((url) => url.search === "");
    await expect.poll(() => page.getByTestId("product-card").count()).toBe(15);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("filters by price range and shows the empty state with Reset Filters", async () => {
    const { page, context } = await openPage(browser);
    await page.goto(`${baseUrl}/category/dog-food?priceRange=100-&brand=Whiskas`);
    await islandsReady(page);
    await expect.poll(() => page.getByText("No products match your current filters. Try adjusting your search criteria.").isVisible()).toBe(true);
    await page.getByRole("main").getByRole("button", { name: "Reset Filters" }).last().click();
    await page.waitForURL((url) => url.pathname === "/category/dog-food" && url.search === "");
    await expect.poll(() => page.getByTestId("product-card").count()).toBeGreaterThan(0);
    await context.close();
  });

  it("pages with Previous and Next, page 1 left out of the URL, and a filter change goes back to page 1", async () => {
    const { page, context } = await openPage(browser);
    await page.goto(baseUrl);
    await islandsReady(page);
    const previous = page.getByRole("navigation", { name: "Pagination" }).getByRole("button", { name: "Previous" });
    const next = page.getByRole("navigation", { name: "Pagination" }).getByRole("button", { name: "Next" });
    expect(await previous.isDisabled()).toBe(true);
    const firstPage = await cardNames(page);
    await next.click();
    await page.waitForURL((url) => url.searchParams.get("page") === "2");
    const secondExpected = (await (await fetch(`${baseUrl}/api/products?offset=15&limit=15`)).json()) as Product[];
    await expect.poll(() => cardNames(page)).toEqual(secondExpected.map((p) => p.name));
    expect(secondExpected.map((p) => p.name)).not.toEqual(firstPage);
    await expect(page.getByText("Page 2 of").isVisible()).resolves.toBe(true);
    await previous.click();
    await page.waitForURL((url) => !url.searchParams.has("page"));
    await next.click();
    await page.waitForURL((url) => url.searchParams.get("page") === "2");
    await page.getByLabel("Sort by").selectOption("rating_desc");
    await page.waitForURL((url) => url.searchParams.get("sort") === "rating_desc" && !url.searchParams.has("page"));
    await context.close();
  });

  it("disables Next on the last page", async () => {
    const { page, context } = await openPage(browser);
    const { count } = (await (await fetch(`${baseUrl}/api/products/count`)).json()) as { count: number };
    const last = Math.ceil(count / 15);
    await page.goto(`${baseUrl}/?page=${last}`);
    await islandsReady(page);
    await expect.poll(() => page.getByText(`Page ${last} of ${last}`).isVisible()).toBe(true);
    expect(await page.getByRole("navigation", { name: "Pagination" }).getByRole("button", { name: "Next" }).isDisabled()).toBe(true);
    await context.close();
  });
});
