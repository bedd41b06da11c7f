/**
 * The basket, as a shopper uses it: products put in from the compare page and from favourites,
 * the cheapest split with each order's delivery, the cheapest single shop and the saving, the
 * quote following a quantity changed, affiliate links on every line, the header's count, removing,
 * the basket kept in this browser only (another visitor's is empty), a phone's width and axe.
 * Against a server of its own (a copy of the shared database) whose offers the test sets: two
 * retailers' delivery rules and three products' prices, so every figure is known.
 */
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { expectAffiliateLink, islandsReady, launchBrowser, openPage, readAffiliateData, seriousA11yViolations } from "./browser.ts";
import { startIsolatedServer, type IsolatedServer } from "./isolated-server.ts";

const adminPassword = inject("adminPassword");
const databaseFile = inject("databaseFile");
let browser: Browser;
let server: IsolatedServer;

interface Item {
  id: number;
  slug: string;
  name: string;
  image: string;
}
/** The bed (Amazon £45.00, Pets at Home £60.00), the toy (Pets at Home only, £5.00) and the lead (sold out everywhere). */
let bed: Item;
let toy: Item;
let lead: Item;

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startIsolatedServer({ databaseFile, adminPassword });
  const db = new Database(server.databaseFile);
  try {
    const retailer = (key: string) => (db.prepare("SELECT id FROM retailers WHERE key = ?").get(key) as { id: number }).id;
    const amazon = retailer("amazon");
    const petsAtHome = retailer("pets-at-home");
    // Amazon: £3.99, free from £39.00; Pets at Home: £3.99 whatever the order.
    db.prepare("UPDATE retailers SET delivery_pence = 399, free_delivery_from_pence = 3900 WHERE id = ?").run(amazon);
    db.prepare("UPDATE retailers SET delivery_pence = 399, free_delivery_from_pence = NULL WHERE id = ?").run(petsAtHome);
    const products = db.prepare("SELECT id, slug, name, image FROM products ORDER BY id LIMIT 3").all() as Item[];
    [bed, toy, lead] = products as [Item, Item, Item];
    const now = new Date().toISOString();
    const offer = db.prepare(
      "INSERT INTO product_prices (product_id, retailer_id, price_pence, url, in_stock, last_checked_at, source) VALUES (?, ?, ?, ?, ?, ?, 'manual')",
    );
    for (const product of products) db.prepare("DELETE FROM product_prices WHERE product_id = ?").run(product.id);
    offer.run(bed.id, amazon, 4500, `https://www.amazon.co.uk/dp/B0BASKET01`, 1, now);
    offer.run(bed.id, petsAtHome, 6000, `https://www.petsathome.com/product/basket-bed`, 1, now);
    offer.run(toy.id, petsAtHome, 500, `https://www.petsathome.com/product/basket-toy`, 1, now);
    offer.run(lead.id, amazon, 900, `https://www.amazon.co.uk/dp/B0BASKET03`, 0, now);
  } finally {
    db.close();
  }
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const pounds = (text: string | null) => text?.replace(/\s+/g, " ").trim();

async function basketPage(page: Page): Promise<void> {
  await page.goto(`${server.baseUrl}/basket`);
  await islandsReady(page);
}

/** The orders of a plan as shown: retailer, its lines and its delivery words. */
async function orders(page: Page, plan: string): Promise<{ retailer: string | null; lines: string[]; delivery: string | null; total: string | undefined }[]> {
  const shown = page.getByTestId(plan).getByTestId("basket-order");
  const result = [];
  for (const order of await shown.all()) {
    result.push({
      retailer: await order.getAttribute("data-retailer"),
      lines: (await order.getByTestId("order-line").allInnerTexts()).map((text) => text.split("\n")[0]!.trim()),
      delivery: await order.getByTestId("order-delivery").textContent(),
      total: pounds(await order.getByTestId("order-total").textContent()),
    });
  }
  return result;
}

describe("the basket", () => {
  it("takes the compared products, finds the cheapest split and the saving on one shop, and follows a quantity change", async () => {
    const { page, context, errors } = await openPage(browser);
    const tray = [bed, toy].map(({ id, slug, name, image }) => ({ id, slug, name, image, bestPrice: null, bestRetailer: null }));
    await context.addInitScript((stored) => sessionStorage.setItem("compare_tray", stored), JSON.stringify(tray));
    await page.goto(`${server.baseUrl}/compare`);
    await islandsReady(page);
    await page.getByRole("button", { name: "Add these 2 to your basket" }).click();
    await expect.poll(() => page.getByRole("status").filter({ hasText: "Added 2 products to your basket" }).count()).toBe(1);
    // The header's count follows at once.
    await expect.poll(() => page.locator('[data-header-count="basket"] [data-count-number]').textContent()).toBe("2");
    await page.getByRole("link", { name: "View basket" }).click();
    await page.waitForURL(`${server.baseUrl}/basket`);
    await islandsReady(page);

    // The bed at Amazon (£45.00, free over £39.00) and the toy at Pets at Home (£5.00 + £3.99): £53.99;
    // only Pets at Home has both: £60.00 + £5.00 + £3.99 = £68.99.
    await expect.poll(() => page.getByTestId("basket-summary").textContent()).toBe("Splitting your basket saves £15.00 on the cheapest single shop, Pets at Home at £68.99.");
    expect(pounds(await page.getByTestId("plan-cheapest").getByTestId("plan-total").textContent())).toBe("£53.99");
    expect(await orders(page, "plan-cheapest")).toEqual([
      { retailer: "Amazon", lines: [`1 × ${bed.name}`], delivery: "Free delivery", total: "£45.00" },
      { retailer: "Pets at Home", lines: [`1 × ${toy.name}`], delivery: "£3.99 delivery", total: "£8.99" },
    ]);
    expect(await orders(page, "plan-single")).toEqual([
      { retailer: "Pets at Home", lines: [`1 × ${bed.name}`, `1 × ${toy.name}`], delivery: "£3.99 delivery", total: "£68.99" },
    ]);

    // Every line links to its retailer's offer with the affiliate tag.
    const affiliate = readAffiliateData(server.databaseFile);
    try {
      const cheapest = page.getByTestId("plan-cheapest");
      expectAffiliateLink(await cheapest.getByRole("link", { name: /Buy at Amazon/ }).getAttribute("href"), { retailer: "Amazon", url: affiliate.offers(bed.slug).get("Amazon")! }, affiliate.ids);
      expectAffiliateLink(
        await cheapest.getByRole("link", { name: /Buy at Pets at Home/ }).getAttribute("href"),
        { retailer: "Pets at Home", url: affiliate.offers(toy.slug).get("Pets at Home")! },
        affiliate.ids,
      );
    } finally {
      affiliate.close();
    }

    // Two toys: £45.00 + (£10.00 + £3.99) = £58.99 against £60.00 + £10.00 + £3.99 = £73.99.
    await page.getByRole("group", { name: `Quantity of ${toy.name}` }).getByRole("button", { name: "One more" }).click();
    await expect.poll(async () => pounds(await page.getByTestId("plan-cheapest").getByTestId("plan-total").textContent())).toBe("£58.99");
    expect(await page.getByTestId("basket-summary").textContent()).toBe("Splitting your basket saves £15.00 on the cheapest single shop, Pets at Home at £73.99.");
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem("basket") ?? "[]") as { productId: number; quantity: number }[]);
    expect(stored.map(({ productId, quantity }) => [productId, quantity])).toEqual([
      [bed.id, 1],
      [toy.id, 2],
    ]);

    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("says what nobody stocks, keeps the basket in this browser only, and empties", async () => {
    const { page, context, errors } = await openPage(browser);
    const basket = [lead, toy].map(({ id, slug, name, image }) => ({ productId: id, slug, name, image, quantity: 1, repeat: false }));
    await context.addInitScript((stored) => {
      if (!sessionStorage.getItem("seeded")) {
        localStorage.setItem("basket", stored);
        sessionStorage.setItem("seeded", "1");
      }
    }, JSON.stringify(basket));
    await basketPage(page);
    await expect.poll(() => page.getByTestId("basket-unavailable").textContent()).toBe(`Not in stock at any retailer right now, so left out: ${lead.name}.`);
    await expect.poll(() => page.getByTestId("basket-summary").textContent()).toBe("Everything from Pets at Home is the cheapest way: £8.99 to your door.");
    // No single-shop plan beside a cheapest plan that is that shop.
    expect(await page.getByTestId("plan-single").count()).toBe(0);

    // Another visitor (another browser) has an empty basket.
    const other = await openPage(browser);
    await basketPage(other.page);
    await other.page.getByTestId("basket-empty").waitFor();
    expect(await other.page.locator('[data-header-count="basket"]').isHidden()).toBe(true);
    await other.context.close();

    await page.getByRole("button", { name: `Remove ${lead.name}` }).click();
    await page.getByRole("button", { name: `Remove ${toy.name}` }).click();
    await page.getByTestId("basket-empty").waitFor();
    expect(await page.evaluate(() => localStorage.getItem("basket"))).toBeNull();
    expect(await page.locator('[data-header-count="basket"]').isHidden()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("takes a favourite from the favourites page", async () => {
    const userId = "user_basketbrowserfavs0000000";
    const saved = await fetch(`${server.baseUrl}/api/favorites`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.baseUrl },
      body: JSON.stringify({ userId, productId: toy.id }),
    });
    expect(saved.status, await saved.text()).toBeLessThan(300);
    const { page, context, errors } = await openPage(browser);
    await context.addInitScript((id) => localStorage.setItem("userId", id), userId);
    await page.goto(`${server.baseUrl}/favorites`);
    await islandsReady(page);
    const favourite = page.getByTestId("favorite").filter({ hasText: toy.name });
    await favourite.getByRole("button", { name: "Add to basket" }).click();
    await expect.poll(() => favourite.getByRole("status").textContent()).toBe("Added 1 product to your basket. View basket");
    // A second press changes nothing and says so.
    await favourite.getByRole("button", { name: "Add to basket" }).click();
    await expect.poll(() => favourite.getByRole("status").textContent()).toBe("Already in your basket. View basket");
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem("basket") ?? "[]") as { productId: number; quantity: number; repeat: boolean }[]);
    expect(stored).toEqual([expect.objectContaining({ productId: toy.id, quantity: 1, repeat: false })]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("fits a phone: one column, nothing wider than the screen, no serious accessibility faults", async () => {
    const { page, context, errors } = await openPage(browser, { width: 375, height: 800 });
    const basket = [bed, toy].map(({ id, slug, name, image }) => ({ productId: id, slug, name, image, quantity: 1, repeat: false }));
    await context.addInitScript((stored) => localStorage.setItem("basket", stored), JSON.stringify(basket));
    await basketPage(page);
    await expect.poll(async () => pounds(await page.getByTestId("plan-cheapest").getByTestId("plan-total").textContent())).toBe("£53.99");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    const items = await page.getByTestId("basket-items").boundingBox();
    const plan = await page.getByTestId("plan-cheapest").boundingBox();
    // The basket above its quote, not beside it.
    expect(plan!.y).toBeGreaterThan(items!.y + items!.height);
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
