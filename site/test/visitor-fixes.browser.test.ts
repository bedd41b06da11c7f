/**
 * Fixes of things visitors saw: each test drives the page as a shopper does and checks where the
 * effect lands (what is drawn, what is under the finger, what the database holds).
 */
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import type { ProductJson as Product } from "../../data/domain/catalogue-json.ts";
import { randomIdAlphabet, randomIdLength } from "../../data/domain/visitor-id.ts";
import { islandsReady, launchBrowser, openPage } from "./browser.ts";

const baseUrl = inject("baseUrl");
const databaseFile = inject("databaseFile");
let browser: Browser;
let products: Product[];
beforeAll(async () => {
  browser = await launchBrowser();
  products = (await (await fetch(`${baseUrl}/api/products?limit=40`)).json()) as Product[];
});
afterAll(() => browser?.close());

/** A fresh anonymous visitor id, of the shape the browser makes. */
function newVisitorId(): string {
  return `user_${Array.from({ length: randomIdLength }, () => randomIdAlphabet[Math.floor(Math.random() * randomIdAlphabet.length)]).join("")}`;
}

/** Whether the element under the centre of `selector`'s first match is that element or inside it. */
async function hitAtCentre(page: Page, selector: string): Promise<{ hit: boolean; found: string }> {
  return page.evaluate((selector) => {
    const target = document.querySelector(selector)!;
    const box = target.getBoundingClientRect();
    const found = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    return { hit: found !== null && target.contains(found), found: found?.outerHTML.slice(0, 120) ?? "nothing" };
  }, selector);
}

async function newsletterReady(page: Page): Promise<void> {
  await page.getByTestId("newsletter").scrollIntoViewIfNeeded();
  await page.waitForSelector("astro-island:not([ssr]) [data-testid=newsletter]", { state: "attached" });
}

describe("newsletter block", () => {
  it("draws the e-mail box as a light field with dark, readable text, placeholder and a visible focus ring", async () => {
    const { page, context } = await openPage(browser);
    await page.goto(baseUrl);
    await newsletterReady(page);
    const input = page.getByTestId("newsletter").getByLabel("Email address");
    await input.focus();
    await input.pressSequentially("reader@example.co.uk");
    expect(await input.inputValue()).toBe("reader@example.co.uk");
    const colours = await input.evaluate((element) => {
      // Any CSS colour (Tailwind writes oklch) as sRGB, through a canvas pixel.
      const canvas = document.createElement("canvas");
      canvas.width = canvas.height = 1;
      const context = canvas.getContext("2d", { willReadFrequently: true })!;
      const rgba = (colour: string) => {
        context.clearRect(0, 0, 1, 1);
        context.fillStyle = colour;
        context.fillRect(0, 0, 1, 1);
        return [...context.getImageData(0, 0, 1, 1).data];
      };
      const style = getComputedStyle(element);
      return {
        field: rgba(style.backgroundColor),
        text: rgba(style.color),
        placeholder: rgba(getComputedStyle(element, "::placeholder").color),
        outline: rgba(style.outlineColor),
        outlineStyle: style.outlineStyle,
        section: rgba(getComputedStyle(element.closest("section")!).backgroundColor),
      };
    });
    // What the visitor sees behind the text: the field's own colour over the section's.
    const over = ([r, g, b, a]: number[], [br, bg, bb]: number[]) => [r!, g!, b!].map((c, i) => (c * a! + [br!, bg!, bb!][i]! * (255 - a!)) / 255);
    const luminance = (rgb: number[]) =>
      rgb.map((c) => c / 255).map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)).reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i]!, 0);
    const contrast = (a: number[], b: number[]) => {
      const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
      return (light! + 0.05) / (dark! + 0.05);
    };
    const field = over(colours.field, colours.section);
    const section = colours.section.slice(0, 3);
    expect(contrast(field, section), "field against the block").toBeGreaterThan(3);
    expect(contrast(over(colours.text, field), field), "typed text").toBeGreaterThanOrEqual(4.5);
    expect(contrast(over(colours.placeholder, field), field), "placeholder").toBeGreaterThanOrEqual(4.5);
    expect(colours.outlineStyle, "focus ring").not.toBe("none");
    expect(contrast(over(colours.outline, section), section), "focus ring against the block").toBeGreaterThanOrEqual(3);
    await context.close();
  });

  it("shows an address the server refuses as a plain sentence, without the field's name", async () => {
    const { page, context } = await openPage(browser);
    await page.goto(baseUrl);
    await newsletterReady(page);
    const block = page.getByTestId("newsletter");
    // The form checks only that something was typed; the server checks the format.
    await block.getByLabel("Email address").fill("not-an-email");
    await block.getByRole("button", { name: "Subscribe" }).click();
    const toast = page.getByTestId("toast");
    await expect.poll(() => toast.textContent()).toContain("Please enter a valid email address");
    expect(await toast.textContent()).toBe("Subscription failedPlease enter a valid email address");
    await context.close();
  });
});

describe("product cards at 375 px", () => {
  it("the Save heart of every discounted card is what a tap at its centre hits, and the tap saves", async () => {
    const { page, context } = await openPage(browser, { width: 375, height: 700 });
    await page.goto(baseUrl);
    await islandsReady(page);
    const discounted = page.getByTestId("product-card").filter({ hasText: /Save \d+%/ });
    const count = await discounted.count();
    expect(count).toBeGreaterThan(0);
    for (let i = 0; i < count; i++) {
      const card = discounted.nth(i);
      await card.scrollIntoViewIfNeeded();
      const id = `heart-${i}`;
      await card.getByTestId("save-toggle").evaluate((element, id) => (element.id = id), id);
      const { hit, found } = await hitAtCentre(page, `#${id}`);
      expect(hit, `card ${i}: a tap on the heart lands on ${found}`).toBe(true);
    }
    // Tap the first one where the finger goes: its centre.
    const toggle = discounted.first().getByTestId("save-toggle");
    await discounted.first().scrollIntoViewIfNeeded();
    const box = (await toggle.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await expect.poll(() => toggle.getAttribute("aria-pressed")).toBe("true");
    await expect.poll(() => page.getByTestId("toast").textContent()).toContain("Added to favorites");
    await context.close();
  });
});

describe("/my-alerts at 375 px", () => {
  it("shows each alert as a card with Delete on screen, and Delete removes the alert", async () => {
    const visitor = newVisitorId();
    const product = products.find((p) => p.bestPrice !== null && p.bestPrice > 3)!;
    const response = await fetch(`${baseUrl}/api/price-alerts`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ userId: visitor, productId: product.id, email: "phone-owner@example.co.uk", targetPrice: 1 }),
    });
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: number };
    const db = new Database(databaseFile, { readonly: true });
    const stored = () => (db.prepare("SELECT count(*) AS n FROM price_alerts WHERE id = ?").get(id) as { n: number }).n;
    expect(stored()).toBe(1);

    const { page, errors, context } = await openPage(browser, { width: 375, height: 700 });
    await context.addInitScript((visitor) => localStorage.setItem("userId", visitor), visitor);
    await page.goto(`${baseUrl}/my-alerts`);
    const card = page.getByTestId("alert-card");
    await expect.poll(() => card.count()).toBe(1);
    const text = await card.textContent();
    for (const part of [product.name, "£1.00", `£${product.bestPrice!.toFixed(2)}`, "Waiting for you to confirm your e-mail"]) expect(text).toContain(part);
    const remove = card.getByRole("button", { name: `Delete the alert for ${product.name}` });
    const box = (await remove.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, "Delete's right edge").toBeLessThanOrEqual(375);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), "no sideways scrolling").toBeLessThanOrEqual(375);
    expect(await remove.isVisible()).toBe(true);

    page.once("dialog", (dialog) => void dialog.accept());
    await remove.click();
    await expect.poll(stored).toBe(0);
    await expect.poll(() => page.getByText("No Price Alerts Set").isVisible()).toBe(true);
    db.close();
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("compare tray at 1280 px", () => {
  it("shows readable names and leaves the compare bar's button uncovered", async () => {
    const { page, errors, context } = await openPage(browser, { width: 1280, height: 900 });
    await page.goto(baseUrl);
    await islandsReady(page);
    const cards = page.getByTestId("product-card");
    for (const i of [0, 1]) await cards.nth(i).getByRole("button", { name: /^Add .* to compare$/ }).click();
    const tray = page.getByTestId("compare-tray");
    await expect.poll(() => tray.getByText("Compare Products (2/4)").isVisible()).toBe(true);

    const names = tray.locator("li a");
    expect(await names.count()).toBe(2);
    for (const link of await names.all()) {
      const name = (await link.textContent())!;
      expect(name.length).toBeGreaterThan(24);
      expect(await link.getAttribute("title")).toBe(name);
      // One line of the link holds at least the name's first 24 characters, in its own font.
      const fits = await link.evaluate((element, name) => {
        const probe = document.createElement("span");
        probe.style.cssText = `font: ${getComputedStyle(element).font}; white-space: nowrap; position: absolute; visibility: hidden;`;
        probe.textContent = name.slice(0, 24);
        document.body.append(probe);
        const needed = probe.getBoundingClientRect().width;
        probe.remove();
        return { needed, width: element.getBoundingClientRect().width };
      }, name);
      expect(fits.width, `room for "${name.slice(0, 24)}"`).toBeGreaterThanOrEqual(fits.needed);
    }

    for (const control of [page.getByTestId("compare-bar").getByRole("link", { name: "Compare now" }), page.getByTestId("compare-bar").getByRole("button", { name: "Hide tray" })]) {
      await control.evaluate((element) => (element.id = "bar-control"));
      const { hit, found } = await hitAtCentre(page, "#bar-control");
      expect(hit, `the bar's ${await control.textContent()} is covered by ${found}`).toBe(true);
      await control.evaluate((element) => element.removeAttribute("id"));
    }
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("home with products in the compare tray", () => {
  it("hydrates without a mismatch (React error #418) and the tray shows both products", async () => {
    const items = products.slice(0, 2).map(({ id, slug, name, image, bestPrice, bestRetailer }) => ({ id, slug, name, image, bestPrice, bestRetailer: bestRetailer?.name ?? null }));
    const { page, errors, context } = await openPage(browser, { width: 1280, height: 900 });
    // The tray is kept for the visit, in session storage: as if added on an earlier page.
    await context.addInitScript((stored) => sessionStorage.setItem("compare_tray", stored), JSON.stringify(items));
    for (const load of [() => page.goto(baseUrl), () => page.reload()]) {
      await load();
      // Such a visit hydrates the grid by itself (its cards mark the compared products), and the bar.
      await page.waitForSelector('astro-island:not([ssr]) [data-testid="product-grid"]', { state: "attached" });
      const bar = page.getByTestId("compare-bar");
      await expect.poll(() => bar.textContent()).toContain("Comparing 2/4");
      expect(errors.filter((error) => /418|hydrat/i.test(error))).toEqual([]);
      await bar.getByRole("button", { name: "Show tray" }).click();
      const tray = page.getByTestId("compare-tray");
      await expect.poll(() => tray.locator("li").count()).toBe(2);
      expect(await tray.textContent()).toContain("Compare Products (2/4)");
      for (const item of items) expect(await tray.textContent()).toContain(item.name);
    }
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("vouchers", () => {
  it("a 'Load more vouchers' click made before the island has loaded loads more once it has", async () => {
    const { page, errors, context } = await openPage(browser);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const module = /\/_astro\/Vouchers\.[\w-]+\.js$/;
    await page.route(module, async (route) => {
      await gate;
      await route.continue();
    });
    await page.goto(baseUrl);
    const section = page.locator("#vouchers");
    await section.scrollIntoViewIfNeeded();
    const vouchers = section.getByTestId("voucher");
    expect(await vouchers.count()).toBe(3);
    await section.getByRole("button", { name: "Load more vouchers" }).click();
    const island = section.locator("astro-island");
    // The click landed on the static HTML: the island's module is still held.
    expect(await island.getAttribute("ssr")).not.toBeNull();
    expect(await vouchers.count()).toBe(3);

    open();
    await expect.poll(() => vouchers.count()).toBe(6);
    expect(await island.getAttribute("ssr")).toBeNull();
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("recently viewed", () => {
  it("says how many retailers have an offer for each product", async () => {
    const db = new Database(databaseFile, { readonly: true });
    const offerCounts = db
      .prepare("SELECT p.slug, p.name, count(DISTINCT pp.retailer_id) AS retailers FROM products p JOIN product_prices pp ON pp.product_id = p.id GROUP BY p.id")
      .all() as { slug: string; name: string; retailers: number }[];
    const compared = (db.prepare("SELECT count(*) AS n FROM retailers WHERE compares_prices = 1").get() as { n: number }).n;
    db.close();
    // A product offered by fewer retailers than the site compares: the old text claimed all of them.
    const product = offerCounts.find((row) => row.retailers === 2) ?? offerCounts.find((row) => row.retailers < compared)!;
    expect(product.retailers).toBeLessThan(compared);

    const { page, errors, context } = await openPage(browser);
    const recorded = page.waitForResponse((response) => response.url().endsWith("/api/recently-viewed") && response.request().method() === "POST");
    await page.goto(`${baseUrl}/product/${product.slug}`);
    expect((await recorded).status()).toBe(204);

    await page.goto(baseUrl);
    const tile = page.getByTestId("recently-viewed").getByRole("listitem").filter({ hasText: product.name });
    await expect.poll(() => tile.textContent()).toContain(`Compared across ${product.retailers} retailers`);

    // A product only one retailer sells reads in the singular (the seed has none: the answer says one).
    await page.route("**/api/recently-viewed?*", async (route) => {
      const response = await route.fetch();
      const items = (await response.json()) as { retailerCount: number }[];
      await route.fulfill({ response, json: items.map((item) => ({ ...item, retailerCount: 1 })) });
    });
    await page.reload();
    await expect.poll(() => tile.textContent()).toContain("Compared across 1 retailer");
    expect(await tile.textContent()).not.toContain("1 retailers");
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("price alert form", () => {
  it("creates no alert for a target the price has reached already, says so with the deal, and creates one for a lower target", async () => {
    const product = products.find((p) => p.bestPrice !== null && p.bestPrice > 3)!;
    const price = `£${product.bestPrice!.toFixed(2)}`;
    const { page, errors, context } = await openPage(browser);
    const posts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && new URL(request.url()).pathname === "/api/price-alerts") posts.push(request.postData() ?? "");
    });
    await page.goto(`${baseUrl}/product/${product.slug}`);
    await page.locator("#price-alert").scrollIntoViewIfNeeded();
    await page.waitForSelector("#price-alert [data-price-alert][data-enhanced]", { state: "attached" });
    const form = page.getByTestId("price-alert-form");
    const reached = page.getByTestId("alert-already-reached");
    await form.getByLabel("Email address").fill("reached@example.co.uk");

    await form.getByLabel("Target price (£)").fill((product.bestPrice! + 1).toFixed(2));
    await form.getByRole("button", { name: "Create Price Alert" }).click();
    await expect.poll(() => reached.isVisible()).toBe(true);
    expect(await reached.locator("[data-reached-message]").textContent()).toBe(`The price is already ${price} — below your target.`);
    // The deal is the page's own Buy Now link: same retailer link, same affiliate tag.
    const deal = reached.getByRole("link", { name: /Buy Now/ });
    const buyNow = page.locator('[aria-labelledby="best-price-heading"] a[data-affiliate]');
    expect(await deal.getAttribute("href")).toBe(await buyNow.getAttribute("href"));
    expect(await deal.getAttribute("rel")).toBe("sponsored noopener");
    expect(await deal.isVisible()).toBe(true);

    // The current price itself counts as reached.
    await form.getByLabel("Target price (£)").fill(product.bestPrice!.toFixed(2));
    expect(await reached.isVisible(), "hidden while the target is changed").toBe(false);
    await form.getByRole("button", { name: "Create Price Alert" }).click();
    await expect.poll(() => reached.locator("[data-reached-message]").textContent()).toBe(`The price is already ${price} — your target price.`);
    expect(await reached.isVisible()).toBe(true);

    const userId = await page.evaluate(() => localStorage.getItem("userId"));
    const db = new Database(databaseFile, { readonly: true });
    const alerts = () => db.prepare("SELECT target_price_pence AS target FROM price_alerts WHERE user_id = ? AND product_id = ?").all(userId, product.id);
    expect(posts).toEqual([]);
    expect(alerts()).toEqual([]);

    const lower = Math.floor((product.bestPrice! - 1) * 100);
    await form.getByLabel("Target price (£)").fill((lower / 100).toFixed(2));
    await form.getByRole("button", { name: "Create Price Alert" }).click();
    await expect.poll(() => page.getByTestId("alert-pending").isVisible()).toBe(true);
    expect(await reached.isVisible()).toBe(false);
    expect(alerts()).toEqual([{ target: lower }]);
    expect(posts).toHaveLength(1);
    db.close();
    expect(errors).toEqual([]);
    await context.close();
  });
});
