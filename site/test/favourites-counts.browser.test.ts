/**
 * Favourites remember their price, and the header counts what the visitor keeps: a shopper saves
 * two products (a card's heart and a product page's Save button), the price of one falls through
 * the admin API, the favourites page says how each moved since saving, and the header's badges
 * follow every save, removal, new and deleted alert. Another visitor sees no badges, and a fresh
 * visitor's pages ask the server nothing.
 */
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from "vitest";
import type { Browser, Page } from "playwright-core";
import type { ProductJson as Product } from "../../data/domain/catalogue-json.ts";
import { alertsPath, categoryPath, favoritesPath, productPath } from "../../data/domain/paths.ts";
import { randomIdAlphabet, randomIdLength } from "../../data/domain/visitor-id.ts";
import { islandsReady, launchBrowser, openPage } from "./browser.ts";

const baseUrl = inject("baseUrl");
const adminPassword = inject("adminPassword");
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

function newVisitorId(): string {
  return `user_${Array.from({ length: randomIdLength }, () => randomIdAlphabet[Math.floor(Math.random() * randomIdAlphabet.length)]).join("")}`;
}

/** The header's favourites and alerts links (their names carry the counts). */
const favouritesLink = (page: Page) => page.locator("header").locator(`a[href="${favoritesPath}"][title="Favourites"]`);
const alertsLink = (page: Page) => page.locator("header").locator(`a[href="${alertsPath}"][title="Price alerts"]`);

/** The link's accessible name and what its badge shows ("" when hidden). */
async function badge(link: ReturnType<typeof favouritesLink>): Promise<{ name: string; shown: string }> {
  const name = (await link.evaluate((a) => {
    // The accessible name as a screen reader gets it: text of the visible (not hidden) parts.
    const parts: string[] = [];
    const walk = (node: Node) => {
      if (node instanceof HTMLElement && (node.hidden || node.getAttribute("aria-hidden") === "true")) return;
      if (node.nodeType === Node.TEXT_NODE) parts.push(node.textContent ?? "");
      node.childNodes.forEach(walk);
    };
    walk(a);
    return parts.join(" ").replace(/\s+/g, " ").trim();
  })) as string;
  const count = link.locator("[data-header-count]");
  const shown = (await count.isVisible()) ? ((await count.locator("[data-count-number]").textContent()) ?? "") : "";
  return { name, shown };
}

async function adminSession(): Promise<string> {
  const response = await fetch(`${baseUrl}/api/admin/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ password: adminPassword }) });
  expect(response.status).toBe(200);
  return /^[^;]+/.exec(response.headers.get("set-cookie") ?? "")![0];
}

/** Lowers the best offer's item price by `pence` through the admin's product edit (the catalogue writer). */
async function lowerBestPrice(product: Product, pence: number): Promise<void> {
  const cookie = await adminSession();
  const form = (await (await fetch(`${baseUrl}/api/admin/products/${product.id}`, { headers: { cookie } })).json()) as {
    retailerLinks: { retailerId: number; price: number; priceOverride: boolean; manualPrice: number | null }[];
  } & Record<string, unknown>;
  const retailerLinks = form.retailerLinks.map((link) =>
    link.retailerId === product.bestRetailerId ? { ...link, price: Math.round(link.price * 100 - pence) / 100 } : link,
  );
  const { id: _id, ...body } = form;
  const saved = await fetch(`${baseUrl}/api/products/${product.id}`, {
    method: "PUT",
    headers: { cookie, "content-type": "application/json" },
    body: JSON.stringify({ ...body, retailerLinks }),
  });
  expect(saved.status, await saved.clone().text()).toBe(200);
}

describe("favourites' price since saving, and the header's counts", () => {
  it("follows one visitor's saves and alerts; another visitor sees none; a fresh visitor asks nothing", async () => {
    // Two products priced to the door under every free-delivery threshold, with no manual price: a
    // £1.50 cut of the best offer's item price is exactly £1.50 off the best price to the door.
    const candidates = (await (await fetch(`${baseUrl}/api/products?category=dog-food&limit=40`)).json()) as Product[];
    const [first, second] = candidates.filter((p) => p.bestPrice !== null && p.bestPrice >= 5 && p.bestPrice < 30 && p.bestRetailerId !== null);
    expect(first && second).toBeTruthy();

    const { page, context, errors } = await openPage(browser);
    const countRequests: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/visitor-counts")) countRequests.push(request.url());
    });

    // A fresh visitor: no badges and not one request for counts.
    await page.goto(baseUrl + categoryPath("dog-food"));
    await page.waitForLoadState("networkidle");
    expect(countRequests).toEqual([]);
    expect(await badge(favouritesLink(page))).toEqual({ name: "Favourites", shown: "" });
    expect(await badge(alertsLink(page))).toEqual({ name: "Price alerts", shown: "" });
    const before = { favourites: await favouritesLink(page).boundingBox(), alerts: await alertsLink(page).boundingBox(), header: await page.locator("header").boundingBox() };

    // Saved from a card: 1.
    await islandsReady(page);
    await page.getByRole("button", { name: `Save ${first!.name} to favourites` }).first().click();
    await expect.poll(() => badge(favouritesLink(page))).toEqual({ name: "1 favourite", shown: "1" });
    // The badge sits over the icon: nothing in the header moved.
    expect(await favouritesLink(page).boundingBox()).toEqual(before.favourites);
    expect(await alertsLink(page).boundingBox()).toEqual(before.alerts);
    expect(await page.locator("header").boundingBox()).toEqual(before.header);

    // Another page reads the count on load; saved there with the product page's own button: 2.
    await page.goto(baseUrl + productPath(second!.slug));
    await expect.poll(() => badge(favouritesLink(page))).toEqual({ name: "1 favourite", shown: "1" });
    const save = page.locator("button[data-favorite-button]");
    await expect.poll(() => save.isEnabled()).toBe(true);
    await save.click();
    await expect.poll(() => badge(favouritesLink(page))).toEqual({ name: "2 favourites", shown: "2" });

    // Another visitor (an id of their own) sees no badges; a fresh one asks nothing at all.
    const other = await openPage(browser);
    const otherId = newVisitorId();
    await other.context.addInitScript((id) => localStorage.setItem("userId", id), otherId);
    const answered = other.page.waitForResponse((response) => response.url().includes(`/api/visitor-counts?userId=${otherId}`));
    await other.page.goto(baseUrl + categoryPath("dog-food"));
    expect(await (await answered).json()).toEqual({ favorites: 0, alerts: 0 });
    expect(await badge(favouritesLink(other.page))).toEqual({ name: "Favourites", shown: "" });
    expect(await badge(alertsLink(other.page))).toEqual({ name: "Price alerts", shown: "" });
    await other.context.close();

    // The first product's best price falls by £1.50; the favourites page says so, in words.
    await lowerBestPrice(first!, 150);
    // Other test files share this catalogue: the price goes back when this test ends.
    onTestFinished(() => lowerBestPrice(first!, -150));
    await page.goto(baseUrl + favoritesPath);
    const item = (product: Product) => page.getByTestId("favorite").filter({ has: page.getByRole("link", { name: product.name, exact: true }) });
    await expect.poll(() => item(first!).getByTestId("price-move").textContent(), { timeout: 15_000 }).toBe("Down £1.50 since you saved it");
    expect(await item(first!).getByTestId("price-move").getAttribute("data-direction")).toBe("down");
    expect(await item(second!).getByTestId("price-move").textContent()).toBe("Same price as when you saved it");
    // Colour as well as words: green for a fall, grey for no change.
    const colour = (product: Product) => item(product).getByTestId("price-move").evaluate((el) => getComputedStyle(el).color);
    expect(await colour(first!)).not.toBe(await colour(second!));

    // Both removed: the badge goes.
    for (const product of [first!, second!]) {
      await item(product).getByRole("button", { name: `Remove ${product.name}` }).click();
      await page.getByRole("alertdialog").getByRole("button", { name: "Remove" }).click();
      await expect.poll(() => item(product).count()).toBe(0);
    }
    await expect.poll(() => badge(favouritesLink(page))).toEqual({ name: "Favourites", shown: "" });

    // Alerts likewise: 1, 2, then none after deleting both.
    for (const [index, product] of [first!, second!].entries()) {
      await page.goto(baseUrl + productPath(product.slug));
      const form = page.locator("[data-price-alert]");
      await form.getByLabel("Email address").fill("shopper@example.co.uk");
      await form.getByLabel("Target price (£)").fill("1");
      const submit = form.getByRole("button", { name: "Create Price Alert" });
      await expect.poll(() => submit.isEnabled()).toBe(true);
      await submit.click();
      const expected = index === 0 ? "1 price alert" : "2 price alerts";
      await expect.poll(() => badge(alertsLink(page))).toEqual({ name: expected, shown: String(index + 1) });
    }
    await page.goto(baseUrl + alertsPath);
    page.on("dialog", (dialog) => void dialog.accept());
    for (const product of [first!, second!]) {
      const remove = page.getByRole("button", { name: `Delete the alert for ${product.name}` }).locator("visible=true");
      await remove.click();
      await expect.poll(() => remove.count()).toBe(0);
    }
    await expect.poll(() => badge(alertsLink(page))).toEqual({ name: "Price alerts", shown: "" });
    expect(await badge(favouritesLink(page))).toEqual({ name: "Favourites", shown: "" });
    expect(errors).toEqual([]);
    await context.close();
  });
});
