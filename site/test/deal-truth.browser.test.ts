/**
 * Deal truth on the public pages: the product page's deal panel (typical price, deal badge,
 * lowest in 90 days) checked against figures this test works out itself from the database's
 * price history; a was-price shown only where the best offer's retailer's history allows it (28
 * whole days in a row within six months, nothing higher since), and the panel saying so; and a drop alert made
 * through the product page's form, stored with its kind and percent and listed on /my-alerts in
 * words, on the desktop table and the 375 px cards.
 */
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser } from "playwright-core";
import { islandsReady, launchBrowser, openPage } from "./browser.ts";

const baseUrl = inject("baseUrl");
const databaseFile = inject("databaseFile");
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const dayMs = 86_400_000;
const pounds = (pence: number) => `£${(pence / 100).toFixed(2)}`;

interface Facts {
  slug: string;
  name: string;
  best: number | null;
  typical: number | null;
  isDeal: boolean;
  isLowest: boolean;
  was: number | null;
  /** The best offer's own claimed was-price (item), if any. */
  claimedWas: number | null;
}

/** The day (YYYY-MM-DD) `months` calendar months before `day`, on the month's last day when it has no such day. */
function monthsBack(day: string, months: number): string {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  const first = new Date(Date.UTC(year, month - 1 - months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  return new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), Math.min(date, last))).toISOString().slice(0, 10);
}

/**
 * Every product's deal facts, worked out here from the rows: each day of the 90 ending today, a
 * current retailer's price is its last recorded item price before the day ends plus the delivery
 * that price carries (the offer's own, else free when marked, else free from the retailer's
 * threshold, else its charge); today is the offers as they are (in stock and not stale only).
 * The was-price: the best offer's retailer's price on each whole day it charged one price all day
 * (the same conversion), the most recent run of 28 such days or more above today's price that
 * ended no more than six calendar months ago, with no higher price from it since.
 */
function factsFromDatabase(): Facts[] {
  const db = new Database(databaseFile, { readonly: true });
  try {
    const products = db.prepare("SELECT id, slug, name, best_price_pence, best_retailer_id FROM products ORDER BY id").all() as {
      id: number;
      slug: string;
      name: string;
      best_price_pence: number | null;
      best_retailer_id: number | null;
    }[];
    const offers = db
      .prepare(
        `SELECT pp.product_id, pp.retailer_id, CASE WHEN pp.price_override = 1 AND pp.manual_price_pence IS NOT NULL THEN pp.manual_price_pence ELSE pp.price_pence END AS price,
           pp.original_price_pence AS claimed, pp.in_stock, pp.stale, pp.delivery_pence, pp.free_delivery, r.delivery_pence AS charge, r.free_delivery_from_pence AS free_from
         FROM product_prices pp JOIN retailers r ON r.id = pp.retailer_id`,
      )
      .all() as {
      product_id: number;
      retailer_id: number;
      price: number;
      claimed: number | null;
      in_stock: number;
      stale: number;
      delivery_pence: number | null;
      free_delivery: number;
      charge: number | null;
      free_from: number | null;
    }[];
    const history = db.prepare("SELECT product_id, retailer_id, price_pence, recorded_at FROM price_history ORDER BY recorded_at, id").all() as {
      product_id: number;
      retailer_id: number;
      price_pence: number;
      recorded_at: string;
    }[];
    const todayStart = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
    return products.map((product) => {
      const mine = offers.filter((offer) => offer.product_id === product.id);
      const total = (offer: (typeof mine)[number], item: number) =>
        item + (offer.delivery_pence ?? (offer.free_delivery === 1 ? 0 : offer.free_from !== null && item >= offer.free_from ? 0 : (offer.charge ?? 0)));
      const daily: (number | null)[] = [];
      for (let day = 89; day >= 0; day--) {
        const dayEnd = new Date(todayStart - day * dayMs + dayMs).toISOString();
        const prices = mine.flatMap((offer) => {
          if (day === 0) return offer.in_stock === 1 && offer.stale === 0 ? [total(offer, offer.price)] : [];
          const last = history.filter((row) => row.product_id === product.id && row.retailer_id === offer.retailer_id && row.recorded_at < dayEnd).at(-1);
          return last === undefined ? [] : [total(offer, last.price_pence)];
        });
        daily.push(prices.length === 0 ? null : Math.min(...prices));
      }
      const priced = daily.filter((price): price is number => price !== null).sort((a, b) => a - b);
      const today = daily[89]!;
      const middle = priced.length >> 1;
      const typical = priced.length < 14 ? null : priced.length % 2 ? priced[middle]! : Math.floor((priced[middle - 1]! + priced[middle]! + 1) / 2);
      const bestOffer = mine.find((offer) => offer.retailer_id === product.best_retailer_id);
      let was: number | null = null;
      if (bestOffer !== undefined && today !== null) {
        const rows = history
          .filter((row) => row.product_id === product.id && row.retailer_id === bestOffer.retailer_id)
          .map((row) => ({ time: Date.parse(row.recorded_at), total: total(bestOffer, row.price_pence) }));
        const lastDayAllowed = Date.parse(`${monthsBack(new Date(todayStart).toISOString().slice(0, 10), 6)}T00:00:00Z`);
        // Whole days from 27 days before the last one allowed up to yesterday: the one price charged all day, else null.
        const days: { start: number; held: number | null; top: number | null }[] = [];
        for (let start = lastDayAllowed - 27 * dayMs; start <= todayStart; start += dayMs) {
          const atStart = rows.filter((row) => row.time <= start).at(-1);
          const during = rows.filter((row) => row.time > start && row.time < start + dayMs).map((row) => row.total);
          const charged = [...(atStart ? [atStart.total] : []), ...during, ...(start === todayStart ? [today] : [])];
          const held = start < todayStart && atStart !== undefined && charged.every((price) => price === atStart.total) ? atStart.total : null;
          days.push({ start, held, top: charged.length === 0 ? null : Math.max(...charged) });
        }
        let highestSince = 0;
        for (let i = days.length - 1; i >= 0 && was === null; ) {
          const { held, top, start } = days[i]!;
          if (held === null) {
            highestSince = Math.max(highestSince, top ?? 0);
            i--;
            continue;
          }
          if (start < lastDayAllowed) break;
          let first = i;
          while (first > 0 && days[first - 1]!.held === held) first--;
          if (i - first + 1 >= 28 && held > today && highestSince <= held) was = held;
          highestSince = Math.max(highestSince, held);
          i = first - 1;
        }
      }
      return {
        slug: product.slug,
        name: product.name,
        best: product.best_price_pence,
        typical,
        isDeal: today !== null && typical !== null && today * 100 <= typical * 95,
        isLowest: today !== null && daily[0] !== null && today === priced[0],
        was,
        claimedWas: bestOffer?.claimed ?? null,
      };
    });
  } finally {
    db.close();
  }
}

describe("the deal panel", () => {
  it("shows the typical price, the deal badge and 'Lowest price in 90 days' exactly as the history says, and a was-price only where it is supported", async () => {
    const all = factsFromDatabase();
    // The seed has deals, products priced as usual, and supported and unsupported was-prices.
    const deal = all.find((facts) => facts.isDeal && facts.typical !== null)!;
    const usual = all.find((facts) => !facts.isDeal && facts.typical !== null && facts.best !== null)!;
    const supported = all.find((facts) => facts.was !== null)!;
    const unsupported = all.find((facts) => facts.was === null && facts.best !== null && facts.claimedWas !== null && facts.claimedWas > facts.best)!;
    expect([deal, usual, supported, unsupported].every(Boolean), "the seed has each case").toBe(true);

    const { page, errors, context } = await openPage(browser);
    for (const facts of [deal, usual, supported, unsupported]) {
      await page.goto(`${baseUrl}/product/${facts.slug}`);
      const panel = page.getByTestId("deal-truth");
      if (facts.typical === null) {
        expect(await panel.getByTestId("deal-typical").count(), facts.slug).toBe(0);
      } else {
        expect(await panel.getByTestId("deal-typical").innerText(), facts.slug).toBe(`Typical price ${pounds(facts.typical)}`);
        expect(await panel.getByTestId("deal-method").innerText()).toContain("middle of each day's lowest price to your door over the last 90 days");
        expect(await panel.getByTestId("deal-method").innerText()).toContain(
          'A "was" price is shown only when the retailer with today\'s best price charged it, to your door, for at least 28 days in a row',
        );
      }
      expect(await panel.getByTestId("deal-badge").count(), `${facts.slug} deal badge`).toBe(facts.isDeal ? 1 : 0);
      expect(await panel.getByTestId("deal-lowest-90").count(), `${facts.slug} lowest in 90 days`).toBe(facts.isLowest ? 1 : 0);
      const struck = page.getByTestId("best-price").locator("s");
      const save = page.getByTestId("best-price").getByText(/^Save \d+%$/);
      if (facts.was === null) {
        expect(await struck.count(), `${facts.slug} has no was-price`).toBe(0);
        expect(await save.count(), `${facts.slug} has no saving`).toBe(0);
      } else {
        expect(await struck.innerText(), `${facts.slug} was-price`).toBe(pounds(facts.was));
        // The saving is floored, never rounded up: 6.7% off says "Save 6%".
        expect(await save.innerText()).toBe(`Save ${Math.floor(((facts.was - facts.best!) * 100) / facts.was)}%`);
      }
    }
    // The claimed was-price of the unsupported case is nowhere on its page.
    await page.goto(`${baseUrl}/product/${unsupported.slug}`);
    expect(await page.locator("main s").count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("a drop alert from the product page", () => {
  it("is stored with kind drop and its percent, and /my-alerts says what it waits for, on the table and the phone cards", async () => {
    const product = factsFromDatabase().filter((facts) => facts.best !== null && facts.best > 500).at(-1)!;
    const { page, errors, context } = await openPage(browser);
    await page.goto(`${baseUrl}/product/${product.slug}`);
    await islandsReady(page);
    await page.locator("#price-alert").scrollIntoViewIfNeeded();
    await page.waitForSelector("#price-alert [data-price-alert][data-enhanced]", { state: "attached" });
    const form = page.getByTestId("price-alert-form");
    // In stock: no "back in stock" choice; a drop is offered.
    expect(await form.getByLabel("It's back in stock").count()).toBe(0);
    await form.getByLabel("The price drops by a percentage").check();
    await expect.poll(() => form.getByLabel("Drop of at least (%)").isVisible()).toBe(true);
    expect(await form.getByLabel("Target price (£)").isVisible()).toBe(false);
    await form.getByLabel("Email address").fill("drop-owner@example.co.uk");
    await form.getByLabel("Drop of at least (%)").fill("12.5");
    await form.getByRole("button", { name: "Create Price Alert" }).click();
    await expect.poll(() => form.getByText("Please enter a whole percent from 1 to 99").isVisible()).toBe(true);
    await form.getByLabel("Drop of at least (%)").fill("15");
    await form.getByRole("button", { name: "Create Price Alert" }).click();
    await expect.poll(() => page.getByTestId("alert-pending").isVisible()).toBe(true);

    const userId = await page.evaluate(() => localStorage.getItem("userId"));
    const db = new Database(databaseFile, { readonly: true });
    const rows = db
      .prepare("SELECT kind, drop_percent, target_price_pence, reference_price_pence FROM price_alerts WHERE user_id = ? AND product_id = (SELECT id FROM products WHERE slug = ?)")
      .all(userId, product.slug);
    db.close();
    expect(rows).toEqual([{ kind: "drop", drop_percent: 15, target_price_pence: null, reference_price_pence: product.best }]);

    const condition = `A drop of 15% from ${pounds(product.best!)}, to ${pounds(Math.floor((product.best! * 85) / 100))} or less`;
    await page.goto(`${baseUrl}/my-alerts`);
    await islandsReady(page);
    const row = page.getByTestId("alerts-table").locator("tbody tr");
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.getByTestId("alert-condition").innerText()).toBe(condition);
    expect(await row.innerText()).toContain("Waiting for you to confirm your e-mail");

    await page.setViewportSize({ width: 375, height: 700 });
    const card = page.getByTestId("alert-card");
    await expect.poll(() => card.isVisible()).toBe(true);
    expect(await card.getByTestId("alert-condition").innerText()).toBe(condition);
    expect(await card.innerText()).toContain("Alert when");
    expect(await page.evaluate(() => document.documentElement.scrollWidth), "no sideways scrolling").toBeLessThanOrEqual(375);
    expect(errors).toEqual([]);
    await context.close();
  });
});
