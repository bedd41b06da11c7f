import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser } from "playwright-core";
import { islandsReady, launchBrowser, openPage } from "./browser.ts";

const baseUrl = inject("baseUrl");
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("search", () => {
  it("searches from the header, trims and encodes the text, and lists the results", async () => {
    const { page, errors, context } = await openPage(browser);
    await page.goto(baseUrl);
    await islandsReady(page);
    await page.locator("#search-desktop").fill("  royal canin  ");
    await page.locator("#search-desktop").press("Enter");
    await page.waitForURL(`${baseUrl}/search?q=royal%20canin`);
    const { total } = (await (await fetch(`${baseUrl}/api/search?q=royal%20canin`)).json()) as { total: number };
    expect(total).toBeGreaterThan(0);
    await expect.poll(() => page.locator("h1").textContent()).toBe('Search Results for "royal canin"');
    const pages = Math.ceil(total / 15);
    await expect.poll(() => page.getByText(`Found ${total} product(s) (Page 1 of ${pages})`).isVisible()).toBe(true);
    await expect(page.getByTestId("product-card").count()).resolves.toBe(Math.min(15, total));
    const paging = page.getByRole("navigation", { name: "Pagination" });
    await expect(paging.count()).resolves.toBe(pages > 1 ? 1 : 0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("searches from the phone layout's search box at 375 px", async () => {
    const { page, context } = await openPage(browser, { width: 375, height: 800 });
    await page.goto(baseUrl);
    expect(await page.locator("#search-desktop").isVisible()).toBe(false);
    await page.locator("#search-mobile").fill("kong");
    await page.locator("#search-mobile").press("Enter");
    await page.waitForURL(`${baseUrl}/search?q=kong`);
    await context.close();
  });

  it("does nothing when the search text is empty after trimming", async () => {
    const { page, context } = await openPage(browser);
    await page.goto(`${baseUrl}/vouchers`);
    await islandsReady(page);
    // Every navigation the page starts from here (even one a later navigation cancels).
    const navigations: string[] = [];
    page.on("request", (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) navigations.push(request.url());
    });
    await page.locator("#search-desktop").fill("   ");
    await page.locator("#search-desktop").press("Enter");
    // A real search afterwards must be the first and only navigation.
    await page.locator("#search-desktop").fill("kong");
    await page.locator("#search-desktop").press("Enter");
    await page.waitForURL(`${baseUrl}/search?q=kong`);
    expect(navigations).toEqual([`${baseUrl}/search?q=kong`]);
    await context.close();
  });

  it("shows the empty state for a search with no results", async () => {
    const { page, context } = await openPage(browser);
    await page.goto(`${baseUrl}/search?q=zzqxjunk`);
    await islandsReady(page);
    await expect.poll(() => page.getByText("No products found").isVisible()).toBe(true);
    await expect(page.getByText("No products match your search... Try different keywords or browse our categories.").isVisible()).resolves.toBe(true);
    await expect(page.getByRole("navigation", { name: "Pagination" }).count()).resolves.toBe(0);
    await context.close();
  });

  it("pages through results, updating the address", async () => {
    const { page, context } = await openPage(browser);
    await page.goto(`${baseUrl}/search?q=dog`);
    await islandsReady(page);
    const { total } = (await (await fetch(`${baseUrl}/api/search?q=dog`)).json()) as { total: number };
    expect(total).toBeGreaterThan(15);
    await page.getByRole("button", { name: "Next Page" }).click();
    await page.waitForURL(`${baseUrl}/search?q=dog&page=2`);
    await expect.poll(() => page.getByText(`(Page 2 of ${Math.ceil(total / 15)})`).isVisible()).toBe(true);
    await page.getByRole("button", { name: "Previous Page" }).click();
    await page.waitForURL(`${baseUrl}/search?q=dog`);
    await context.close();
  });
});
