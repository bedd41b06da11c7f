import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser } from "playwright-core";
import type { ProductJson as Product } from "../../data/domain/catalogue-json.ts";
import type { Page } from "playwright-core";
import { expectAffiliateLink, islandsReady, launchBrowser, openPage, readAffiliateData } from "./browser.ts";
import { confirmationLink, mailsTo } from "./outbox.ts";

const baseUrl = inject("baseUrl");
const databaseFile = inject("databaseFile");
const outboxDir = inject("outboxDir");
let browser: Browser;
let products: Product[];
beforeAll(async () => {
  browser = await launchBrowser();
  products = (await (await fetch(`${baseUrl}/api/products?limit=40`)).json()) as Product[];
});
afterAll(() => browser?.close());

const inStock = () => products.find((p) => p.bestPrice !== null && p.bestPrice > 3)!;

/** Scrolls to the product page's alert form and waits until its script has taken it over. */
async function alertFormReady(page: Page): Promise<void> {
  await page.locator("#price-alert").scrollIntoViewIfNeeded();
  await page.waitForSelector("#price-alert [data-price-alert][data-enhanced]", { state: "attached" });
}

/** The module scripts a page runs up front: its script tags, their static imports, and islands that hydrate on load or idle. */
async function upFrontScripts(pathname: string): Promise<Map<string, string>> {
  const html = await (await fetch(baseUrl + pathname)).text();
  const scripts = new Map<string, string>();
  const visit = async (url: string): Promise<void> => {
    if (scripts.has(url)) return;
    const text = await (await fetch(baseUrl + url)).text();
    scripts.set(url, text);
    for (const [, spec] of text.matchAll(/(?:import|from)\s*["']([^"']+\.js)["']/g)) await visit(new URL(spec!, baseUrl + url).pathname);
  };
  for (const [, src] of html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)) await visit(src!);
  for (const [island] of html.matchAll(/<astro-island\b[^>]*>/g)) {
    if (!/client="(load|idle|only)"/.test(island)) continue;
    for (const [, url] of island.matchAll(/(?:component|renderer)-url="([^"]+)"/g)) await visit(url!);
  }
  return scripts;
}

describe("favourites", () => {
  it("saves on the product page, shows it on /favorites with a note, and removes it through the dialog", async () => {
    const product = inStock();
    const { page, errors, context } = await openPage(browser);
    await page.goto(`${baseUrl}/product/${product.slug}`);
    await islandsReady(page);
    const button = page.getByTestId("favorite-button").first();
    await expect.poll(() => button.isEnabled()).toBe(true);
    expect(await button.textContent()).toContain("Save");
    await button.click();
    await expect.poll(() => button.textContent()).toContain("Saved");
    await expect.poll(() => page.getByTestId("toast").textContent()).toContain("Added to favorites");

    // The state survives a reload (it comes from the is-favorite check).
    await page.reload();
    await islandsReady(page);
    await expect.poll(() => page.getByTestId("favorite-button").first().textContent()).toContain("Saved");

    await page.goto(`${baseUrl}/favorites`);
    await islandsReady(page);
    await expect(page.locator("h1").textContent()).resolves.toBe("My Favorites");
    const card = page.getByTestId("favorite");
    await expect.poll(() => card.count()).toBe(1);
    expect(await card.textContent()).toContain(product.name);
    const buyNow = card.getByRole("link", { name: /Buy Now/ });
    expect(await buyNow.getAttribute("rel")).toBe("sponsored noopener");
    // Buy Now goes to the best offer, tagged by the affiliate rules.
    const affiliate = readAffiliateData(databaseFile);
    expectAffiliateLink(await buyNow.getAttribute("href"), affiliate.bestOffer(product.slug), affiliate.ids);
    affiliate.close();

    await card.getByRole("button", { name: "Add a note" }).click();
    await card.getByLabel("Your notes:").fill("For Biscuit's birthday");
    await card.getByRole("button", { name: "Save note" }).click();
    await expect.poll(() => card.textContent()).toContain("Your notes: For Biscuit's birthday");

    await card.getByRole("button", { name: `Remove ${product.name}` }).click();
    const dialog = page.getByRole("alertdialog");
    await expect(dialog.getByText("Remove from Favorites?").isVisible()).resolves.toBe(true);
    await expect(dialog.getByText("Are you sure you want to remove this item from your favorites? This action cannot be undone.").isVisible()).resolves.toBe(true);
    await dialog.getByRole("button", { name: "Remove" }).click();
    await expect.poll(() => page.getByText("Your Favorites List is Empty").isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId("toast").textContent()).toContain("Item removed from favorites");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("saves and unsaves from a product card, the same favourites as the product page", async () => {
    const { page, context } = await openPage(browser);
    await page.goto(baseUrl);
    await islandsReady(page);
    const card = page.getByTestId("product-card").first();
    const name = (await card.locator("h3").textContent())!;
    const toggle = card.getByTestId("save-toggle");
    await toggle.click();
    await expect.poll(() => toggle.getAttribute("aria-pressed")).toBe("true");
    const userId = await page.evaluate(() => localStorage.getItem("userId"));
    const db = new Database(databaseFile, { readonly: true });
    const saved = () => (db.prepare("SELECT count(*) AS n FROM favorites f JOIN products p ON p.id = f.product_id WHERE f.user_id = ? AND p.name = ?").get(userId, name) as { n: number }).n;
    expect(saved()).toBe(1);
    await toggle.click();
    await expect.poll(() => toggle.getAttribute("aria-pressed")).toBe("false");
    expect(saved()).toBe(0);
    db.close();
    await context.close();
  });
});

/** The alert form's starting target for a price: 5% below it, rounded down to a whole 10p, as the field shows it. */
const suggestedTarget = (pounds: number) => ((Math.floor((Math.round(pounds * 100) * 95) / 1000) * 10) / 100).toFixed(2);

describe("price alerts", () => {
  it("validates, creates an alert that waits for confirmation, lists it as such on /my-alerts and deletes it", async () => {
    const product = inStock();
    const email = "pending-owner@example.co.uk";
    const { page, errors, context } = await openPage(browser);
    await page.goto(`${baseUrl}/product/${product.slug}`);
    await islandsReady(page);
    await alertFormReady(page);
    const form = page.getByTestId("price-alert-form");
    // The default target is 5% below the current best price, rounded down to a whole 10p: a target the form accepts.
    expect(await form.getByLabel("Target price (£)").inputValue()).toBe(suggestedTarget(product.bestPrice!));

    await form.getByLabel("Email address").fill("not-an-email");
    await form.getByLabel("Target price (£)").fill("abc");
    await form.getByRole("button", { name: "Create Price Alert" }).click();
    await expect(form.getByText("Please enter a valid email address").isVisible()).resolves.toBe(true);
    await expect(form.getByText("Please enter a valid price").isVisible()).resolves.toBe(true);
    await form.getByLabel("Target price (£)").fill("0");
    await form.getByRole("button", { name: "Create Price Alert" }).click();
    await expect(form.getByText("Please enter a valid price").isVisible()).resolves.toBe(true);

    const target = Math.max(0.01, Math.floor((product.bestPrice! - 1) * 100) / 100);
    await form.getByLabel("Email address").fill(email);
    await form.getByLabel("Target price (£)").fill(target.toFixed(2));
    await form.getByRole("button", { name: "Create Price Alert" }).click();
    // A new address is confirmed first (double opt-in): the form says to check the inbox.
    const pending = page.getByTestId("alert-pending");
    await expect.poll(() => pending.isVisible()).toBe(true);
    expect(await pending.textContent()).toContain(
      `Check your inboxWe've sent a link to ${email} to confirm your price alert. We won't e-mail you about prices until you confirm.`,
    );
    await expect.poll(() => page.getByTestId("toast").textContent()).toContain("Confirm your e-mail address to switch the price alert on.");
    await page.getByRole("button", { name: "Create Another Alert" }).click();
    await expect(page.getByTestId("price-alert-form").isVisible()).resolves.toBe(true);

    await page.getByRole("link", { name: "View all your price alerts" }).click();
    await page.waitForURL(`${baseUrl}/my-alerts`);
    await islandsReady(page);
    await expect(page.locator("h1").textContent()).resolves.toBe("Your Price Alerts");
    const row = page.getByTestId("alerts-table").locator("tbody tr");
    await expect.poll(() => row.count()).toBe(1);
    const text = await row.textContent();
    expect(text).toContain(product.name);
    expect(text).toContain("Waiting for you to confirm your e-mail");
    expect(text).toContain(`£${target.toFixed(2)}`);

    page.once("dialog", (dialog) => {
      expect(dialog.message()).toBe("Are you sure you want to delete this price alert?");
      void dialog.accept();
    });
    await row.getByRole("button", { name: /Delete/ }).click();
    await expect.poll(() => page.getByText("No Price Alerts Set").isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId("toast").textContent()).toContain("Your price alert has been removed successfully.");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("mails only a confirmation first; the link switches the alert on, its price mail goes, and the next alert is active at once", async () => {
    const product = inStock();
    const other = products.find((p) => p.bestPrice !== null && p.id !== product.id)!;
    const email = "owner@example.co.uk";
    const { page, errors, context } = await openPage(browser);
    await page.goto(`${baseUrl}/product/${product.slug}`);
    // Target = best price, already met. The form offers the deal instead of such an alert, so it is
    // created as an API client can, for this browser's visitor id.
    const status = await page.evaluate(
      ({ productId, email, targetPrice }) =>
        fetch("/api/price-alerts", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ userId: localStorage.getItem("userId"), productId, email, targetPrice }),
        }).then((response) => response.status),
      { productId: product.id, email, targetPrice: product.bestPrice! },
    );
    expect(status).toBe(201);

    // One mail, the confirmation; no price mail although the target is met.
    const link = await confirmationLink(outboxDir, email, baseUrl);
    expect(mailsTo(outboxDir, email)).toHaveLength(1);

    await page.goto(link);
    await expect(page.locator("h1").textContent()).resolves.toBe("E-mail address confirmed");
    expect(await page.locator("body").textContent()).toContain(`We'll e-mail ${email} when the price drops for: ${product.name}`);
    // Switched on, the alert's target is met: its price mail goes straight away (the outbox).
    await expect.poll(() => mailsTo(outboxDir, email).filter((mail) => mail.subject.startsWith("Price drop")).length, { timeout: 10_000 }).toBe(1);
    await page.goto(`${baseUrl}/my-alerts`);
    await expect.poll(() => page.getByTestId("alerts-table").textContent()).toContain("Price reached!");

    // The same browser's next alert for the confirmed address needs no new confirmation.
    await page.goto(`${baseUrl}/product/${other.slug}`);
    await alertFormReady(page);
    await page.getByTestId("price-alert-form").getByLabel("Email address").fill(email);
    await page.getByTestId("price-alert-form").getByLabel("Target price (£)").fill((Math.floor(other.bestPrice! * 50) / 100).toFixed(2));
    await page.getByTestId("price-alert-form").getByRole("button", { name: "Create Price Alert" }).click();
    await expect.poll(() => page.getByTestId("alert-created").isVisible()).toBe(true);
    await expect(page.getByText("Price Alert Created!").isVisible()).resolves.toBe(true);
    await expect.poll(() => page.getByTestId("toast").textContent()).toContain(`We'll notify you when ${other.name} drops to your target price.`);
    expect(mailsTo(outboxDir, email).filter((mail) => mail.subject.startsWith("Confirm"))).toHaveLength(1);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("product page without React up front", () => {
  it("runs no React until a toast; the first toast hydrates the toast island", async () => {
    const product = inStock();
    const scripts = await upFrontScripts(`/product/${product.slug}`);
    expect(scripts.size).toBeGreaterThan(0);
    // React's client carries this internal name; none of the page's own scripts may pull it in.
    const withReact = [...scripts].filter(([, text]) => text.includes("__CLIENT_INTERNALS_DO_NOT_USE")).map(([url]) => url);
    expect(withReact).toEqual([]);

    const { page, errors, context } = await openPage(browser);
    await page.goto(`${baseUrl}/product/${product.slug}`);
    await page.waitForLoadState("networkidle");
    const toaster = page.locator('astro-island[client="toast"]');
    expect(await toaster.getAttribute("ssr")).not.toBeNull();
    const button = page.getByTestId("favorite-button");
    await expect.poll(() => button.isEnabled()).toBe(true);
    await button.click();
    await expect.poll(() => page.getByTestId("toast").textContent()).toContain("Added to favorites");
    expect(await toaster.getAttribute("ssr")).toBeNull();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("keeps the Save button disabled and unchanged while the change is under way", async () => {
    const product = inStock();
    const { page, context } = await openPage(browser);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/favorites", async (route) => {
      if (route.request().method() === "POST") await held;
      await route.continue();
    });
    await page.goto(`${baseUrl}/product/${product.slug}`);
    const button = page.getByTestId("favorite-button");
    await expect.poll(() => button.isEnabled()).toBe(true);
    expect(await button.getAttribute("aria-pressed")).toBe("false");
    expect(await button.getAttribute("aria-label")).toBe(`Save ${product.name} to favourites`);
    // Pressed with the keyboard: busy while the change is under way, yet the focus stays on it.
    await button.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => button.getAttribute("aria-disabled")).toBe("true");
    expect(await button.getAttribute("aria-pressed")).toBe("false");
    expect(await button.evaluate((element) => element === document.activeElement)).toBe(true);
    release();
    await expect.poll(() => button.getAttribute("aria-pressed")).toBe("true");
    await expect.poll(() => button.getAttribute("aria-disabled")).toBe(null);
    expect(await button.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await button.textContent()).toContain("Saved");
    expect(await button.getAttribute("aria-label")).toBe(`Remove ${product.name} from favourites`);
    await context.close();
  });

  it("ties each validation message to its field, clears it once fixed, and shows the form busy while sending", async () => {
    const product = inStock();
    const { page, context } = await openPage(browser);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/price-alerts", async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${baseUrl}/product/${product.slug}`);
    await alertFormReady(page);
    const form = page.getByTestId("price-alert-form");
    const email = form.getByLabel("Email address");
    const target = form.getByLabel("Target price (£)");
    const submit = form.locator('button[type="submit"]');
    expect(await email.getAttribute("aria-invalid")).toBeNull();

    await email.fill("not-an-email");
    await target.fill("1.234");
    await submit.click();
    expect(await email.getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator(`#${await email.getAttribute("aria-describedby")}`).textContent()).toBe("Please enter a valid email address");
    expect(await target.getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator(`#${await target.getAttribute("aria-describedby")}`).textContent()).toBe("Please enter a valid price");

    await email.fill("busy-form@example.co.uk");
    await submit.click();
    expect(await email.getAttribute("aria-invalid")).toBeNull();
    expect(await email.getAttribute("aria-describedby")).toBeNull();
    expect(await form.getByText("Please enter a valid email address").isVisible()).toBe(false);
    expect(await target.getAttribute("aria-invalid")).toBe("true");

    await target.fill("£2.50");
    await submit.click();
    await expect.poll(() => submit.textContent()).toContain("Creating alert...");
    expect(await submit.isDisabled()).toBe(true);
    release();
    const pending = page.getByTestId("alert-pending");
    await expect.poll(() => pending.isVisible()).toBe(true);
    expect(await form.isVisible()).toBe(false);
    await page.getByRole("button", { name: "Create Another Alert" }).click();
    // The form comes back with the default target and a ready button.
    expect(await target.inputValue()).toBe(suggestedTarget(product.bestPrice!));
    expect(await submit.textContent()).toContain("Create Price Alert");
    expect(await submit.isEnabled()).toBe(true);
    await context.close();
  });
});

describe("load failures", () => {
  it("shows 'Failed to load your price alerts' with Try Again, which recovers", async () => {
    const { page, context } = await openPage(browser);
    await page.route("**/api/price-alerts?*", (route) => route.fulfill({ status: 503, body: "{\"error\":\"down\"}" }));
    await page.goto(`${baseUrl}/my-alerts`);
    await expect.poll(() => page.getByText("Failed to load your price alerts").isVisible()).toBe(true);
    await page.unroute("**/api/price-alerts?*");
    await page.getByRole("button", { name: "Try Again" }).click();
    await expect.poll(() => page.getByText("No Price Alerts Set").isVisible()).toBe(true);
    expect(await page.getByRole("link", { name: "Browse Products" }).getAttribute("href")).toBe("/");
    await context.close();
  });

  it("tells the visitor when favourites cannot be loaded", async () => {
    const { page, context } = await openPage(browser);
    await page.route("**/api/favorites?*", (route) => route.fulfill({ status: 503, body: "{\"error\":\"down\"}" }));
    await page.goto(`${baseUrl}/favorites`);
    await expect.poll(() => page.getByTestId("toast").textContent()).toContain("Failed to load your favorites. Please try again.");
    await context.close();
  });
});

describe("recently viewed", () => {
  it("shows a visited product on the home page", async () => {
    const product = products[7]!;
    const { page, context } = await openPage(browser);
    await page.goto(baseUrl);
    await islandsReady(page);
    // A new visitor has viewed nothing: the strip shows its skeleton while loading, then goes away.
    await expect.poll(() => page.getByTestId("recently-viewed").count()).toBe(0);
    await page.goto(`${baseUrl}/product/${product.slug}`);
    await page.waitForLoadState("networkidle");
    await page.goto(baseUrl);
    await islandsReady(page);
    const strip = page.getByTestId("recently-viewed");
    await expect.poll(() => strip.count()).toBe(1);
    await expect.poll(() => strip.getByRole("link").first().getAttribute("href")).toBe(`/product/${product.slug}`);
    expect(await strip.textContent()).toContain(product.name);
    await context.close();
  });
});
