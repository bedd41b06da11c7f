/**
 * Prices to the door on the public pages: the product page's table and headline, the visitor's
 * "item prices only" choice (kept per browser, not shared with another visitor, acting on product
 * pages only: cards elsewhere keep prices to the door), and a product out of stock at every retailer.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import type { ProductJson as Product } from "../../data/domain/catalogue-json.ts";
import { openDb } from "../../data/db/client.ts";
import { recomputeBestPrices } from "../../data/db/offers.ts";
import { bumpCatalogueRevision } from "../../data/db/catalogue-revision.ts";
import { unitPriceOf } from "../../data/domain/product-quantity.ts";
import { formatUnitPrice } from "../../data/domain/unit-price.ts";
import { islandsReady, launchBrowser, openPage } from "./browser.ts";

const baseUrl = inject("baseUrl");
const databaseFile = inject("databaseFile");
const adminPassword = inject("adminPassword");
/** The server rebuilds after a catalogue change; on a busy 2-core machine that can take a while. */
const rebuildTimeout = 180_000;
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const pounds = (price: number) => `£${price.toFixed(2)}`;

async function allProducts(): Promise<Product[]> {
  const products: Product[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = (await (await fetch(`${baseUrl}/api/products?limit=100&offset=${offset}`)).json()) as Product[];
    products.push(...page);
    if (page.length < 100) return products;
  }
}

const headline = (page: Page) => page.getByTestId("best-price").locator(":scope > span").first().innerText();

describe("price to the door", () => {
  it("shows the total with its item price and delivery; 'Show item prices only' is remembered in this browser and not another, and leaves cards at the total", async () => {
    // A product whose best price carries a delivery charge, so total and item price differ.
    const product = (await allProducts()).find((p) => p.bestDelivery !== null && p.bestDelivery > 0 && p.bestPrice !== null)!;
    expect(product).toBeDefined();
    const best = product.prices.find((offer) => offer.retailerId === product.bestRetailerId)!;
    const { page, context, errors } = await openPage(browser);
    await page.goto(`${baseUrl}/product/${product.slug}`);
    expect(await headline(page)).toBe(pounds(product.bestPrice!));
    expect(await page.getByTestId("best-price-breakdown").innerText()).toContain(`${pounds(best.price)} item + ${pounds(best.delivery!)} delivery`);

    const toggle = page.getByLabel("Show item prices only");
    await page.waitForFunction(() => document.querySelector("input[data-price-view-toggle]") !== null);
    await toggle.check();
    await expect.poll(() => headline(page)).toBe(pounds(best.price));
    // The table's total column is hidden in this view; the item column stays.
    expect(await page.locator("[data-testid=offer-total]").first().isVisible()).toBe(false);

    await page.reload();
    expect(await headline(page)).toBe(pounds(best.price));
    expect(await toggle.isChecked()).toBe(true);
    // The choice acts on product pages only: a category grid card in this browser still shows the
    // price to the door, the API's best price, for a product whose delivery makes it differ from the item price.
    await page.goto(`${baseUrl}/category/${product.category.slug}`);
    await islandsReady(page);
    expect(await page.evaluate(() => document.documentElement.getAttribute("data-price-view"))).toBe("item");
    const slugs = await page.getByTestId("product-card").locator("h3 a").evaluateAll((links) => links.map((link) => link.getAttribute("href")!.replace("/product/", "")));
    const charged: Product[] = [];
    for (const slug of slugs) {
      const live = (await (await fetch(`${baseUrl}/api/products/${slug}`)).json()) as Product;
      if (live.bestPrice !== null && (live.bestDelivery ?? 0) > 0) charged.push(live);
    }
    expect(charged.length).toBeGreaterThan(0);
    const card = page.getByTestId("product-card").filter({ has: page.getByRole("heading", { name: charged[0]!.name, exact: true }) });
    await expect
      .poll(async () => {
        const live = (await (await fetch(`${baseUrl}/api/products/${charged[0]!.slug}`)).json()) as Product;
        const shown = card.getByTestId("card-best-price");
        return (await shown.isVisible()) ? `${await shown.innerText()} against ${pounds(live.bestPrice!)}` : "hidden";
      })
      .toBe(`${pounds(charged[0]!.bestPrice!)} against ${pounds(charged[0]!.bestPrice!)}`);
    expect(await card.innerText()).toContain("Best price to your door");
    expect(await card.innerText()).not.toContain("Item price");

    // A second visitor sees prices to the door.
    const other = await openPage(browser);
    await other.page.goto(`${baseUrl}/product/${product.slug}`);
    expect(await headline(other.page)).toBe(pounds(product.bestPrice!));
    expect(await other.page.getByLabel("Show item prices only").isChecked()).toBe(false);
    await other.context.close();

    // Unticked: back to totals.
    await page.goto(`${baseUrl}/product/${product.slug}`);
    await page.waitForFunction(() => (document.querySelector("input[data-price-view-toggle]") as HTMLInputElement | null)?.checked === true);
    await toggle.uncheck();
    await expect.poll(() => headline(page)).toBe(pounds(product.bestPrice!));
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows the price per kg of every offer's total beside it, in the headline and on the product's card", async () => {
    const product = (await allProducts()).find((p) => p.packSize?.unit === "kg" && p.bestPrice !== null && p.prices.length > 1)!;
    expect(product).toBeDefined();
    const perKg = (pounds: number) => formatUnitPrice(unitPriceOf(Math.round(pounds * 100), product.packSize)!);
    const { page, context } = await openPage(browser);
    await page.goto(`${baseUrl}/product/${product.slug}`);
    expect(await page.getByTestId("best-unit-price").innerText()).toBe(perKg(product.bestPrice!));
    const table = page.locator('section[aria-labelledby="compare-heading"] table');
    expect(await table.locator("thead th").allInnerTexts()).toContain("PER KG");
    expect(await table.locator("[data-testid=offer-unit]").allInnerTexts()).toEqual(product.prices.map((offer) => perKg(offer.total)));
    // The card against the best price when it is shown: other test files share this catalogue and
    // may change prices meanwhile. This product's card, named exactly: another size's name may hold
    // this one's ("... 20L (Pack of 2)").
    const card = page.getByTestId("product-card").filter({ has: page.getByRole("heading", { name: product.name, exact: true }) });
    await expect
      .poll(async () => {
        await page.goto(`${baseUrl}/search?q=${encodeURIComponent(product.name)}`);
        const shown = await card.getByTestId("card-unit-price").innerText();
        const live = (await (await fetch(`${baseUrl}/api/products/${product.slug}`)).json()) as Product;
        return shown === perKg(live.bestPrice!) ? "matches" : `${shown} against ${perKg(live.bestPrice!)}`;
      })
      .toBe("matches");
    await context.close();
  });

  it("says 'Out of stock at every retailer' with the last price seen, and labels each offer in words", async () => {
    // The lowest-ranked product, so the lists other tests read stay as they were on their first pages.
    const product = (await allProducts()).sort((a, b) => b.rank - a.rank).find((p) => p.bestPrice !== null)!;
    const db = openDb(databaseFile);
    try {
      db.$client.transaction(() => {
        db.$client.prepare("UPDATE product_prices SET in_stock = 0 WHERE product_id = ?").run(product.id);
        recomputeBestPrices(db, [product.id]);
        bumpCatalogueRevision(db);
      })();
    } finally {
      db.$client.close();
    }
    const lowest = Math.min(...product.prices.map((offer) => offer.total));
    const { page, context } = await openPage(browser);
    await expect
      .poll(
        async () => {
          await page.goto(`${baseUrl}/product/${product.slug}`);
          return page.getByTestId("out-of-stock-everywhere").count();
        },
        { timeout: rebuildTimeout, interval: 1000 },
      )
      .toBe(1);
    // Its card (search results come from the API at once) says the same, never "N/A at Unknown".
    await page.goto(`${baseUrl}/search?q=${encodeURIComponent(product.name)}`);
    const card = page.getByTestId("product-card").filter({ has: page.getByRole("heading", { name: product.name, exact: true }) });
    await expect.poll(async () => (await card.getByTestId("card-out-of-stock").innerText()).replace(/\s+/g, " ")).toBe(`Out of stock at every retailer Last seen at ${pounds(lowest)}`);
    expect(await card.innerText()).not.toContain("N/A");
    await page.goto(`${baseUrl}/product/${product.slug}`);
    const box = page.locator('section[aria-labelledby="best-price-heading"]');
    expect(await box.innerText()).toContain(`Last seen at ${pounds(lowest)} to your door`);
    expect(await box.innerText()).not.toContain("N/A");
    const table = page.locator('section[aria-labelledby="compare-heading"] table');
    expect(await table.getByText("Out of stock", { exact: true }).count()).toBe(product.prices.length);
    // Screen readers hear it beside each price too.
    expect(await table.locator("[data-testid=offer-total] .sr-only").allTextContents()).toEqual(product.prices.map(() => " (out of stock)"));
    await context.close();
  }, rebuildTimeout + 30_000);

  it("gives the best price its own check time, the one its row shows, not another offer's", async () => {
    // The second-lowest-ranked product with two offers in stock: its best offer was confirmed three
    // hours ago, every other offer five minutes ago.
    const product = (await allProducts()).sort((a, b) => b.rank - a.rank).filter((p) => p.bestPrice !== null && p.prices.filter((o) => o.inStock).length >= 2)[1]!;
    const best = product.prices.find((offer) => offer.retailerId === product.bestRetailerId)!;
    const bestChecked = new Date(Date.now() - 3 * 3600_000 - 60_000).toISOString();
    const othersChecked = new Date(Date.now() - 5 * 60_000).toISOString();
    const db = openDb(databaseFile);
    try {
      db.$client.transaction(() => {
        db.$client.prepare("UPDATE product_prices SET last_checked_at = ? WHERE product_id = ?").run(othersChecked, product.id);
        db.$client.prepare("UPDATE product_prices SET last_checked_at = ? WHERE product_id = ? AND retailer_id = ?").run(bestChecked, product.id, best.retailerId);
        bumpCatalogueRevision(db);
      })();
    } finally {
      db.$client.close();
    }
    const { page, context, errors } = await openPage(browser);
    const checked = page.getByTestId("best-price-checked");
    await expect
      .poll(
        async () => {
          await page.goto(`${baseUrl}/product/${product.slug}`);
          return (await checked.count()) === 1 ? checked.innerText() : "";
        },
        { timeout: rebuildTimeout, interval: 1000 },
      )
      .toMatch(new RegExp(`^Checked 3 hours ago at ${best.retailer.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\(\\d{1,2} \\w+ \\d{4} at \\d{2}:\\d{2}\\)\\.$`));
    // The same time as the best offer's row; the fresher rows say their own.
    const ages = page.locator('section[aria-labelledby="compare-heading"] table [data-price-age]');
    await expect.poll(async () => (await ages.allInnerTexts()).sort()).toEqual(
      product.prices.map((offer) => (offer.retailerId === best.retailerId ? "Checked 3 hours ago" : "Checked 5 minutes ago")).sort(),
    );
    expect(await page.locator(`table [data-price-age="${bestChecked}"]`).innerText()).toBe("Checked 3 hours ago");
    expect(errors).toEqual([]);
    await context.close();
  }, rebuildTimeout + 30_000);

  it("lets the site owner set a retailer's delivery rule on /admin/retailers", async () => {
    // eBay: its listings state their own postage, so a rule changes no price other tests read.
    const retailers = (await (await fetch(`${baseUrl}/api/retailers`)).json()) as { id: number; key: string; deliveryCharge: number | null }[];
    const ebay = retailers.find((retailer) => retailer.key === "ebay")!;
    expect(ebay.deliveryCharge).toBeNull();
    const { page, context, errors } = await openPage(browser);
    await page.goto(`${baseUrl}/admin/login`);
    await page.getByLabel("Password").fill(adminPassword);
    await page.getByRole("button", { name: "Login" }).click();
    await page.waitForURL((url) => url.pathname === "/admin");
    const edit = async (charge: string, freeFrom: string) => {
      await page.goto(`${baseUrl}/admin/retailers/edit/${ebay.id}`);
      await page.getByLabel("Delivery charge (£)").fill(charge);
      await page.getByLabel("Free delivery from (£)").fill(freeFrom);
      await page.getByRole("button", { name: "Update Retailer" }).click();
      await page.waitForURL((url) => url.pathname === "/admin/retailers");
    };
    try {
      await edit("2.49", "30");
      const row = page.getByTestId("retailer-row").filter({ hasText: "eBay" });
      await expect.poll(() => row.getByTestId("retailer-delivery").innerText()).toBe("Delivery: £2.49, free on orders of £30.00 or more");
      const stored = (await (await fetch(`${baseUrl}/api/retailers/${ebay.id}`)).json()) as { deliveryCharge: number | null; freeDeliveryFrom: number | null };
      expect(stored).toMatchObject({ deliveryCharge: 2.49, freeDeliveryFrom: 30 });
      // The form shows the stored rule; a bad amount is refused with the API's message and changes nothing.
      await page.goto(`${baseUrl}/admin/retailers/edit/${ebay.id}`);
      await expect.poll(() => page.getByLabel("Delivery charge (£)").inputValue()).toBe("2.49");
      expect(await page.getByLabel("Free delivery from (£)").inputValue()).toBe("30.00");
      await page.getByLabel("Delivery charge (£)").fill("2.499");
      await page.getByRole("button", { name: "Update Retailer" }).click();
      await page.getByTestId("toast").filter({ hasText: "deliveryCharge must be an amount of at least 0 with at most two decimals" }).waitFor({ timeout: 20_000 });
      expect(((await (await fetch(`${baseUrl}/api/retailers/${ebay.id}`)).json()) as { deliveryCharge: number }).deliveryCharge).toBe(2.49);
    } finally {
      await edit("", "");
    }
    const cleared = (await (await fetch(`${baseUrl}/api/retailers/${ebay.id}`)).json()) as { deliveryCharge: number | null; freeDeliveryFrom: number | null };
    expect(cleared).toMatchObject({ deliveryCharge: null, freeDeliveryFrom: null });
    expect(errors.filter((error) => !error.includes("400"))).toEqual([]);
    await context.close();
  });
});
