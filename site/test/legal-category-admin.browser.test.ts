/**
 * A product's legal category in the admin's product form: loaded from the database, chosen in its
 * select (a prescription-only category clears and disables Featured), saved, loaded again as
 * saved, and shown on the rebuilt public page as "Prescription needed" with no saving and no
 * price-alert form; then put back through the same form.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { openDb } from "../../data/db/client.ts";
import { launchBrowser, openPage, toastShows } from "./browser.ts";

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

function read<T>(sql: string, ...params: unknown[]): T {
  const db = openDb(databaseFile);
  try {
    return db.$client.prepare(sql).get(...params) as T;
  } finally {
    db.$client.close();
  }
}

/** Waits until the served page of `slug` says (or no longer says) "Prescription needed". */
async function publishedAsPrescriptionOnly(slug: string, expected: boolean): Promise<void> {
  await expect
    .poll(
      async () => {
        const response = await fetch(`${baseUrl}/product/${slug}`);
        return response.ok && (await response.text()).includes('data-testid="prescription-needed"');
      },
      { timeout: rebuildTimeout, interval: 1000 },
    )
    .toBe(expected);
}

describe("legal category in the admin's product form", () => {
  it("loads, saves and publishes a POM-V product as a plain price list, and puts it back", async () => {
    // In stock with a was price the history supports, not featured: the last such product, as other files take the first ones.
    const product = read<{ id: number; slug: string }>(
      "SELECT id, slug FROM products WHERE original_price_pence > best_price_pence AND is_featured = 0 AND legal_category = 'none' ORDER BY id DESC LIMIT 1",
    );
    const stored = () => read<{ legal: string; featured: number }>("SELECT legal_category AS legal, is_featured AS featured FROM products WHERE id = ?", product.id);
    expect(stored()).toEqual({ legal: "none", featured: 0 });

    const { page, context } = await openPage(browser);
    await page.goto(`${baseUrl}/admin/login`);
    await page.getByLabel("Password").fill(adminPassword);
    await page.getByRole("button", { name: "Login" }).click();
    await page.waitForURL((url) => url.pathname === "/admin");
    await page.goto(`${baseUrl}/admin/products/edit/${product.id}`);
    const form = page.getByTestId("product-form");
    const legal = form.getByLabel("Legal category");
    const featured = form.getByLabel("Featured product", { exact: true });
    await expect.poll(() => legal.inputValue()).toBe("none");
    expect(await featured.isEnabled()).toBe(true);

    // Featured first, then POM-V: Featured is cleared and cannot be ticked again.
    await featured.check();
    await legal.selectOption("POM-V");
    expect(await featured.isChecked()).toBe(false);
    expect(await featured.isDisabled()).toBe(true);
    await form.getByRole("button", { name: "Update Product" }).click();
    await toastShows(page, "Product updated successfully and is now live on the website!");
    expect(stored()).toEqual({ legal: "POM-V", featured: 0 });

    // Loaded again as saved.
    await page.goto(`${baseUrl}/admin/products/edit/${product.id}`);
    await expect.poll(() => form.getByLabel("Legal category").inputValue()).toBe("POM-V");
    expect(await form.getByLabel("Featured product", { exact: true }).isDisabled()).toBe(true);

    // The rebuilt public page: "Prescription needed" by the price, no saving, no alert form.
    await publishedAsPrescriptionOnly(product.slug, true);
    const visitor = await openPage(browser);
    await visitor.page.goto(`${baseUrl}/product/${product.slug}`);
    const bestPrice = visitor.page.locator("section", { has: visitor.page.locator("#best-price-heading") });
    await expect.poll(() => bestPrice.getByTestId("prescription-needed").textContent()).toBe(
      "Prescription needed: the retailer supplies it only against a prescription from a vet (POM-V).",
    );
    expect(await visitor.page.getByText(/Save \d+%/).count()).toBe(0);
    expect(await visitor.page.getByRole("heading", { name: "Get a Price Drop Alert" }).count()).toBe(0);
    await visitor.context.close();

    // Put back for the other test files, through the same form.
    await form.getByLabel("Legal category").selectOption("none");
    await form.getByRole("button", { name: "Update Product" }).click();
    await toastShows(page, "Product updated successfully and is now live on the website!");
    expect(stored()).toEqual({ legal: "none", featured: 0 });
    await publishedAsPrescriptionOnly(product.slug, false);
    await context.close();
  }, 2 * rebuildTimeout + 60_000);
});
