/**
 * Repeat-delivery prices on the product page: the compare table's "Repeat delivery" column (each
 * offer's repeat total to the door, how it compares with one-off, its terms), the line in the
 * phone cards, the "Cheapest regular way to buy" line, and the "Show item prices only" view.
 * Expected figures are worked out here from the seeded database's rows.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser } from "playwright-core";
import { openDb } from "../../data/db/client.ts";
import { deliveryFor, totalPence } from "../../data/domain/delivery.ts";
import { formatPence } from "../../data/domain/money.ts";
import { offerListOrder } from "../../data/domain/offers.ts";
import { launchBrowser, openPage, seriousA11yViolations } from "./browser.ts";

const baseUrl = inject("baseUrl");
const databaseFile = inject("databaseFile");
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
      return saving > 0 ? `${formatPence(saving)} less than one-off` : saving === 0 ? "Same as one-off" : `${formatPence(-saving)} more than one-off (delivery applies)`;
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

    // On a phone: a repeat-delivery line in the card of each offer that has one, in the list's order.
    const phone = await openPage(browser, { width: 390, height: 844 });
    await phone.page.goto(`${baseUrl}/product/${product.slug}`);
    const cards = phone.page.locator('section[aria-labelledby="compare-heading"] ul > li');
    const cardLines = await cards.evaluateAll((items) =>
      items.map((item) => (item.querySelector("[data-testid=offer-repeat-card] [data-testid=offer-repeat-price]") as HTMLElement | null)?.innerText.trim() ?? null),
    );
    expect(cardLines).toEqual(product.offers.map((offer) => (offer.repeatTotalPence === null ? null : formatPence(offer.repeatTotalPence))));
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
