/**
 * Repeat-delivery prices on the product page: the compare table's "Repeat delivery" column (each
 * offer's repeat total to the door, how it compares with one-off, its terms), the line in the
 * phone cards, the "Cheapest regular way to buy" line, and the "Show item prices only" view.
 * Expected figures are worked out here from the seeded database's rows.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { openDb } from "../../data/db/client.ts";
import { deliveryFor, totalPence } from "../../data/domain/delivery.ts";
import { formatPence } from "../../data/domain/money.ts";
import { offerListOrder } from "../../data/domain/offers.ts";
import { launchBrowser, openPage, seriousA11yViolations, toastShows } from "./browser.ts";

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

interface OfferRow {
  product_id: number;
  slug: string;
  rank: number;
  best_price_pence: number | null;
  retailer_id: number;
  retailer: string;
  item: number;
  in_stock: number;
  stale: number;
  delivery_pence: number | null;
  free_delivery: number;
  rule_delivery_pence: number | null;
  rule_free_from_pence: number | null;
  repeat_price_pence: number | null;
  repeat_terms: string | null;
}

interface Expected {
  retailerId: number;
  retailer: { name: string };
  inStock: boolean;
  stale: boolean;
  /** Pounds, as offerListOrder compares them. */
  total: number;
  totalPence: number;
  itemPence: number;
  repeatPence: number | null;
  repeatTotalPence: number | null;
  terms: string | null;
}

/** Every product's offers as the seeded database holds them, with totals worked out from the delivery rule. */
function readProducts(): Map<number, { slug: string; rank: number; bestPricePence: number | null; offers: Expected[] }> {
  const db = openDb(databaseFile);
  try {
    const rows = db.$client
      .prepare(
        `SELECT p.id AS product_id, p.slug, p.rank, p.best_price_pence, pp.retailer_id, r.name AS retailer,
           CASE WHEN pp.price_override = 1 AND pp.manual_price_pence IS NOT NULL THEN pp.manual_price_pence ELSE pp.price_pence END AS item,
           pp.in_stock, pp.stale, pp.delivery_pence, pp.free_delivery, r.delivery_pence AS rule_delivery_pence,
           r.free_delivery_from_pence AS rule_free_from_pence, pp.repeat_price_pence, pp.repeat_terms
         FROM product_prices pp JOIN products p ON p.id = pp.product_id JOIN retailers r ON r.id = pp.retailer_id`,
      )
      .all() as OfferRow[];
    const products = new Map<number, { slug: string; rank: number; bestPricePence: number | null; offers: Expected[] }>();
    for (const row of rows) {
      const delivery = (item: number) =>
        deliveryFor(item, { deliveryPence: row.delivery_pence, freeDelivery: row.free_delivery === 1 }, { standardPence: row.rule_delivery_pence, freeFromPence: row.rule_free_from_pence });
      const total = totalPence(row.item, delivery(row.item));
      const product = products.get(row.product_id) ?? { slug: row.slug, rank: row.rank, bestPricePence: row.best_price_pence, offers: [] };
      product.offers.push({
        retailerId: row.retailer_id,
        retailer: { name: row.retailer },
        inStock: row.in_stock === 1,
        stale: row.stale === 1,
        total: total / 100,
        totalPence: total,
        itemPence: row.item,
        repeatPence: row.repeat_price_pence,
        repeatTotalPence: row.repeat_price_pence === null ? null : totalPence(row.repeat_price_pence, delivery(row.repeat_price_pence)),
        terms: row.repeat_terms,
      });
      products.set(row.product_id, product);
    }
    for (const product of products.values()) product.offers.sort(offerListOrder);
    return products;
  } finally {
    db.$client.close();
  }
}

const squash = (text: string) => text.replace(/\s+/g, " ").trim();

describe("repeat delivery on the product page", () => {
  it("shows each offer's repeat total beside its one-off prices, its terms, and the cheapest regular way to buy", async () => {
    // A product (best seller first) with offers both with and without a repeat price, one repeat
    // order paying delivery (so its total differs from its item price), and whose cheapest regular
    // way is a repeat order strictly below every one-off total.
    const candidates = [...readProducts().values()].sort((a, b) => a.rank - b.rank);
    const product = candidates.find((p) => {
      const current = p.offers.filter((offer) => offer.inStock && !offer.stale);
      if (p.bestPricePence === null || !p.offers.some((o) => o.repeatPence === null) || current.length === 0) return false;
      if (!p.offers.some((o) => o.repeatTotalPence !== null && o.repeatTotalPence !== o.repeatPence)) return false;
      const repeatLow = Math.min(...current.map((o) => o.repeatTotalPence ?? Number.POSITIVE_INFINITY));
      return repeatLow < Math.min(...current.map((o) => o.totalPence));
    })!;
    expect(product).toBeDefined();
    // The cheapest regular way, worked out here: the lowest current in-stock repeat total, lower retailer id on a tie.
    const winner = product.offers
      .filter((o) => o.inStock && !o.stale && o.repeatTotalPence !== null)
      .sort((a, b) => a.repeatTotalPence! - b.repeatTotalPence! || a.retailerId - b.retailerId)[0]!;

    const { page, context, errors } = await openPage(browser);
    await page.goto(`${baseUrl}/product/${product.slug}`);
    const table = page.locator('section[aria-labelledby="compare-heading"] table');
    expect(await table.locator("thead th").allInnerTexts()).toContain("REPEAT DELIVERY");
    const readRows = () =>
      table.locator("tbody tr").evaluateAll((rows) =>
        rows.map((row) => ({
          retailer: row.querySelector("th > span > span")?.textContent?.trim() ?? "",
          repeat: (row.querySelector("[data-testid=offer-repeat-price]") as HTMLElement | null)?.innerText.trim() ?? null,
          comparison: (row.querySelector("[data-testid=offer-repeat-comparison]") as HTMLElement | null)?.innerText.trim() ?? null,
          terms: row.querySelector("[data-testid=offer-repeat-terms]")?.textContent?.trim() ?? null,
          none: row.querySelector("[data-testid=offer-repeat]")?.textContent?.includes("No repeat delivery") ?? false,
        })),
      );
    const comparison = (offer: Expected) => {
      const saving = offer.totalPence - offer.repeatTotalPence!;
      if (saving > 0) return `${formatPence(saving)} less than one-off`;
      if (saving === 0) return "Same as one-off";
      return `${formatPence(-saving)} more than one-off${offer.repeatPence! <= offer.itemPence ? " (delivery applies)" : ""}`;
    };
    // Row by row, in the table's order (in stock first, cheapest one-off total first).
    expect(await readRows()).toEqual(
      product.offers.map((offer) => ({
        retailer: offer.retailer.name,
        repeat: offer.repeatTotalPence === null ? null : formatPence(offer.repeatTotalPence),
        comparison: offer.repeatTotalPence === null ? null : comparison(offer),
        terms: offer.repeatPence === null ? null : offer.terms,
        none: offer.repeatPence === null,
      })),
    );

    // The best price stays the one-off best; the line beside the table names the repeat order.
    expect(await page.getByTestId("best-price").locator(":scope > span").first().innerText()).toBe(formatPence(product.bestPricePence!));
    const line = page.getByTestId("cheapest-regular-way");
    expect(squash(await line.innerText())).toBe(
      `Cheapest regular way to buy: ${formatPence(winner.repeatTotalPence!)} to your door with repeat delivery at ${winner.retailer.name}, ${formatPence(
        product.bestPricePence! - winner.repeatTotalPence!,
      )} less than the best one-off price.`,
    );

    // Terms fold out on demand.
    const firstWithTerms = table.locator("tbody tr").filter({ has: page.getByTestId("offer-repeat-terms") }).first();
    expect(await firstWithTerms.getByTestId("offer-repeat-terms").isVisible()).toBe(false);
    await firstWithTerms.locator("summary").click();
    await expect.poll(() => firstWithTerms.getByTestId("offer-repeat-terms").isVisible()).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // "Show item prices only": the repeat item price, and the line's item price.
    await page.waitForFunction(() => document.querySelector("input[data-price-view-toggle]") !== null);
    await page.getByLabel("Show item prices only").check();
    await expect
      .poll(async () => (await readRows()).map((row) => row.repeat))
      .toEqual(product.offers.map((offer) => (offer.repeatPence === null ? null : formatPence(offer.repeatPence))));
    expect(squash(await line.innerText())).toBe(`Cheapest regular way to buy: ${formatPence(winner.repeatPence!)} item price with repeat delivery at ${winner.retailer.name}.`);
    await page.getByLabel("Show item prices only").uncheck();
    expect(errors).toEqual([]);
    await context.close();

    // On a phone, where each row is a card: a repeat-delivery line, labelled, in the card of each
    // offer that has one, in the table's order; no line (not even the dash) in the others.
    const phone = await openPage(browser, { width: 390, height: 844 });
    await phone.page.goto(`${baseUrl}/product/${product.slug}`);
    const cards = phone.page.locator('section[aria-labelledby="compare-heading"] table tbody tr');
    const cardLines = await cards.evaluateAll((rows) =>
      rows.map((row) => {
        const cell = row.querySelector("[data-testid=offer-repeat]") as HTMLElement;
        return cell.checkVisibility() ? cell.innerText.replace(/\s+/g, " ").trim() : null;
      }),
    );
    expect(cardLines).toEqual(
      product.offers.map((offer) =>
        offer.repeatTotalPence === null ? null : expect.stringMatching(new RegExp(`^Repeat delivery: ${formatPence(offer.repeatTotalPence).replace(".", "\\.")} `)),
      ),
    );
    expect(await phone.page.getByTestId("cheapest-regular-way").isVisible()).toBe(true);
    await phone.context.close();
  });

  it("shows no repeat column or line for a product without repeat prices", async () => {
    const product = [...readProducts().values()].sort((a, b) => a.rank - b.rank).find((p) => p.offers.every((o) => o.repeatPence === null))!;
    expect(product).toBeDefined();
    const { page, context } = await openPage(browser);
    await page.goto(`${baseUrl}/product/${product.slug}`);
    const table = page.locator('section[aria-labelledby="compare-heading"] table');
    expect(await table.locator("thead th").allInnerTexts()).not.toContain("REPEAT DELIVERY");
    expect(await page.getByTestId("offer-repeat").count()).toBe(0);
    expect(await page.getByTestId("cheapest-regular-way").count()).toBe(0);
    await context.close();
  });
});

describe("repeat delivery in the admin's product form", () => {
  it("saves a repeat price and terms per offer row, refuses one above the one-off price, and the rebuilt page shows it", async () => {
    // The second-lowest-ranked product with no repeat price at its first retailer and no override
    // (other files read the best sellers; the lowest-ranked one is another test's).
    const products = [...readProducts().values()].sort((a, b) => b.rank - a.rank).slice(1);
    const db = openDb(databaseFile);
    let target: { id: number; slug: string; retailerId: number; retailer: string; pricePence: number } | undefined;
    try {
      for (const product of products) {
        const first = db.$client
          .prepare(
            `SELECT pp.product_id AS id, pp.retailer_id AS retailerId, r.name AS retailer, pp.price_pence AS pricePence, pp.repeat_price_pence AS repeat, pp.price_override AS override
             FROM product_prices pp JOIN retailers r ON r.id = pp.retailer_id JOIN products p ON p.id = pp.product_id WHERE p.slug = ? ORDER BY pp.retailer_id LIMIT 1`,
          )
          .get(product.slug) as { id: number; retailerId: number; retailer: string; pricePence: number; repeat: number | null; override: number };
        if (first.repeat === null && first.override === 0 && first.pricePence > 200) {
          target = { id: first.id, slug: product.slug, retailerId: first.retailerId, retailer: first.retailer, pricePence: first.pricePence };
          break;
        }
      }
    } finally {
      db.$client.close();
    }
    expect(target).toBeDefined();
    const { id, slug, retailerId, pricePence } = target!;
    const stored = () => {
      const reader = openDb(databaseFile);
      try {
        return reader.$client
          .prepare("SELECT repeat_price_pence AS repeat, repeat_terms AS terms FROM product_prices WHERE product_id = ? AND retailer_id = ?")
          .get(id, retailerId) as { repeat: number | null; terms: string | null };
      } finally {
        reader.$client.close();
      }
    };

    const { page, context } = await openPage(browser);
    await page.goto(`${baseUrl}/admin/login`);
    await page.getByLabel("Password").fill(adminPassword);
    await page.getByRole("button", { name: "Login" }).click();
    await page.waitForURL((url) => url.pathname === "/admin");
    await page.goto(`${baseUrl}/admin/products/edit/${id}`);
    const form = page.getByTestId("product-form");
    const row = form.getByTestId("offer-row").nth(0);
    await row.getByLabel("Repeat delivery price (£)").waitFor();
    expect(await row.getByLabel("Repeat delivery price (£)").inputValue()).toBe("");

    // Above the one-off price: refused, nothing stored.
    await row.getByLabel("Repeat delivery price (£)").fill(((pricePence + 1) / 100).toFixed(2));
    await row.getByLabel("Repeat delivery terms").fill("Test scheme: 5% off; cancel any time");
    await form.getByRole("button", { name: "Update Product" }).click();
    // The message sits under the field in the admin's words, never the API's field name.
    await expect.poll(() => row.getByLabel("Repeat delivery price (£)").getAttribute("aria-invalid")).toBe("true");
    await expect.poll(() => row.textContent()).toContain("Repeat delivery price must not be above the one-off price");
    expect(await form.textContent()).not.toContain("repeatPrice");
    expect(stored()).toEqual({ repeat: null, terms: null });

    const repeatPence = pricePence - 100;
    await row.getByLabel("Repeat delivery price (£)").fill((repeatPence / 100).toFixed(2));
    await form.getByRole("button", { name: "Update Product" }).click();
    await toastShows(page, "Product updated successfully and is now live on the website!");
    expect(stored()).toEqual({ repeat: repeatPence, terms: "Test scheme: 5% off; cancel any time" });

    // The edit form loads them back.
    await page.goto(`${baseUrl}/admin/products/edit/${id}`);
    await form.getByTestId("offer-row").nth(0).getByLabel("Repeat delivery terms").waitFor();
    await expect.poll(() => form.getByTestId("offer-row").nth(0).getByLabel("Repeat delivery price (£)").inputValue()).toBe(String(repeatPence / 100));
    expect(await form.getByTestId("offer-row").nth(0).getByLabel("Repeat delivery terms").inputValue()).toBe("Test scheme: 5% off; cancel any time");
    await context.close();

    // The rebuilt public page has the column with the terms.
    await expect
      .poll(
        async () => {
          const response = await fetch(`${baseUrl}/product/${slug}`);
          return response.ok ? (await response.text()).includes("Test scheme: 5% off; cancel any time") : false;
        },
        { timeout: rebuildTimeout, interval: 1000 },
      )
      .toBe(true);
  }, rebuildTimeout + 60_000);
});
