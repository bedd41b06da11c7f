/**
 * The demo catalogue in a real browser on a 375 px phone: the line at the top of the public pages
 * (readable, contrast at least 4.5:1, no sideways scrolling, no serious accessibility faults), and
 * the dashboard's card removing the demo after the confirmation. The removal runs on a server of
 * its own (isolated-server.ts): the other browser test files need the demo catalogue.
 */
import Database from "better-sqlite3";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, openPage, seriousA11yViolations } from "./browser.ts";
import { startIsolatedServer, type IsolatedServer } from "./isolated-server.ts";

const baseUrl = inject("baseUrl");
const adminPassword = inject("adminPassword");
const databaseFile = inject("databaseFile");
const phone = { width: 375, height: 800 };

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

/** A CSS colour as sRGB channels, as the browser paints it (Tailwind's colours are oklch). */
async function painted(locator: Locator, property: "color" | "backgroundColor"): Promise<[number, number, number]> {
  return locator.evaluate((element, name) => {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 1;
    const context = canvas.getContext("2d")!;
    context.fillStyle = getComputedStyle(element)[name];
    context.fillRect(0, 0, 1, 1);
    const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
    return [r!, g!, b!] as [number, number, number];
  }, property);
}

/** WCAG 2 contrast ratio of two sRGB colours. */
function contrast(a: [number, number, number], b: [number, number, number]): number {
  const luminance = (rgb: [number, number, number]) => {
    const [r, g, b] = rgb.map((channel) => {
      const c = channel / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

describe("the demo line on public pages", () => {
  it("is the first thing on the home page and a product page at 375 px: one quiet line, readable, fitting the screen", async () => {
    const slug = (() => {
      const db = new Database(databaseFile, { readonly: true });
      try {
        return db.prepare("SELECT slug FROM products WHERE demo = 1 AND best_price_pence IS NOT NULL ORDER BY rank LIMIT 1").pluck().get() as string;
      } finally {
        db.close();
      }
    })();
    const { page, context, errors } = await openPage(browser, phone);
    for (const path of ["/", `/product/${slug}`]) {
      await page.goto(`${baseUrl}${path}`);
      const notice = page.locator("[data-demo-notice]");
      await notice.waitFor();
      expect(await notice.innerText(), path).toBe("Demo catalogue: illustrative prices — not real offers.");
      expect(await notice.getAttribute("role"), path).toBe("note");
      const box = (await notice.boundingBox())!;
      // At the top, the page's width, and slim: at most two lines of small text.
      expect(box, path).toMatchObject({ x: 0, y: 0, width: phone.width });
      expect(box.height, path).toBeLessThanOrEqual(56);
      const text = notice.locator("p");
      expect(contrast(await painted(text, "color"), await painted(notice, "backgroundColor")), path).toBeGreaterThanOrEqual(4.5);
      expect(await noSidewaysScroll(page), path).toBe(true);
      expect(await seriousA11yViolations(page), path).toEqual([]);
    }
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("the dashboard's demo card", () => {
  let isolated: IsolatedServer;
  beforeAll(async () => {
    isolated = await startIsolatedServer({ databaseFile, adminPassword });
  }, 60_000);
  afterAll(() => isolated?.stop());

  const count = (sql: string) => {
    const db = new Database(isolated.databaseFile, { readonly: true });
    try {
      return db.prepare(sql).pluck().get() as number;
    } finally {
      db.close();
    }
  };
  const demoOffers = () => count("SELECT count(*) FROM product_prices WHERE source = 'demo'");

  it("shows the steps to go live at 375 px and removes the demo only after the confirmation, saying what went", async () => {
    const { page, context, errors } = await openPage(browser, phone);
    await page.goto(`${isolated.baseUrl}/admin/login`);
    await page.getByLabel("Password").fill(adminPassword);
    await page.getByRole("button", { name: "Login" }).click();
    await page.waitForURL((url) => url.pathname === "/admin");

    const card = page.getByTestId("demo-catalogue");
    await card.getByRole("heading", { name: "You are running the demo catalogue" }).waitFor();
    expect(await card.getByRole("listitem").count()).toBe(4);
    for (const name of ["Add your affiliate IDs", "Feeds", "Add your own products and offers"]) expect(await card.getByRole("link", { name }).isVisible(), name).toBe(true);
    await page.getByTestId("build-status").waitFor();
    expect(await noSidewaysScroll(page)).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);

    const before = demoOffers();
    expect(before).toBeGreaterThan(0);
    const messages: string[] = [];
    // Dismissed: nothing happens.
    page.once("dialog", (dialog) => {
      messages.push(dialog.message());
      void dialog.dismiss();
    });
    await card.getByRole("button", { name: "Remove demo catalogue" }).click();
    await expect.poll(() => messages.length).toBe(1);
    expect(messages[0]).toMatch(/^Remove the demo catalogue\?\n\nRemoves [\d,]+ demo products, [\d,]+ demo offers with their price history and 8 demo vouchers\.\n\nKeeps .*your own products, retailers, categories, affiliate IDs and subscribers\./);
    expect(messages[0]).toContain(`${before.toLocaleString("en-GB")} demo offers`);
    expect(demoOffers()).toBe(before);
    expect(await card.isVisible()).toBe(true);

    page.once("dialog", (dialog) => void dialog.accept());
    await card.getByRole("button", { name: "Remove demo catalogue" }).click();
    await page.getByTestId("toast").filter({ hasText: "Demo catalogue removed" }).waitFor({ timeout: 20_000 });
    expect(await page.getByTestId("toast").innerText()).toContain(`${before.toLocaleString("en-GB")} offers and 8 vouchers`);
    await card.waitFor({ state: "detached" });
    expect(demoOffers()).toBe(0);
    // The counts were read again: only the owner's products are left.
    const products = count("SELECT count(*) FROM products");
    expect(products).toBe(count("SELECT count(*) FROM products WHERE demo = 0"));
    await expect.poll(async () => page.getByTestId("dashboard-counts").locator("dd").first().innerText()).toBe(products.toLocaleString("en-GB"));
    expect(errors).toEqual([]);
    await context.close();
  });
});
