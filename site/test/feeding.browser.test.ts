/**
 * Feeding cost on the public pages: the product page's pet form (kept in this browser, not
 * another), grams a day with how they were worked out, £ a day and a month at each in-stock
 * offer to the door, the cheapest way to feed the pet for a month; and the dog-food category
 * sorted by cost per day for the saved pet. Expected figures are worked out here from the
 * database with the domain's formulas.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import type { ProductJson as Product } from "../../data/domain/catalogue-json.ts";
import { openDb } from "../../data/db/client.ts";
import { cheapestWayToFeed, costPerDayPence, dailyGrams, describeMethod, feedingCost, type FoodFacts, type PetBody } from "../../data/domain/feeding.ts";
import { parseFeedingGuide } from "../../data/domain/feeding.schema.ts";
import { foodPackGrams } from "../../data/domain/food.ts";
import { formatPence, toPence } from "../../data/domain/money.ts";
import { packSizeOf } from "../../data/domain/product-quantity.ts";
import type { ProductSizeJson as ProductSize } from "../../data/domain/catalogue-json.ts";
import { launchBrowser, openPage } from "./browser.ts";

const baseUrl = inject("baseUrl");
const databaseFile = inject("databaseFile");
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

interface FoodRow {
  id: number;
  slug: string;
  name: string;
  rank: number;
  category: string;
  best: number | null;
  kcal: number | null;
  guide: string | null;
}

function foodRows(): FoodRow[] {
  const db = openDb(databaseFile);
  try {
    return db.$client
      .prepare(
        `SELECT p.id, p.slug, p.name, p.rank, c.slug AS category, p.best_price_pence AS best, p.kcal_per_kg AS kcal, p.feeding_guide AS guide
         FROM products p JOIN categories c ON c.id = p.category_id WHERE c.slug IN ('dog-food', 'cat-food') ORDER BY p.rank`,
      )
      .all() as FoodRow[];
  } finally {
    db.$client.close();
  }
}

const factsOf = (row: FoodRow): FoodFacts => ({ kcalPerKg: row.kcal, guide: parseFeedingGuide(row.guide) });
/** Rex as the form is filled in: a neutered 10 kg adult dog of normal activity. */
const rex: PetBody = { species: "dog", weightKg: 10, lifeStage: "adult", activity: "normal", neutered: true };

/** Whether the page has loaded the panel's code (it loads when the panel nears the screen). */
const panelCodeLoaded = (page: Page) =>
  page.evaluate(() => performance.getEntriesByType("resource").some((entry) => /mount-feeding-cost/.test(entry.name)));

/**
 * Scrolls the static panel into view and waits for the React panel mounted over it (the static
 * one has no data-testid). While the panel is far below the screen its code has not loaded.
 */
async function panelReady(page: Page): Promise<void> {
  const panel = page.locator("[data-feeding-cost]");
  await page.waitForLoadState("load");
  // Far below the screen (a reload may restore a scrolled position), nothing of the panel has loaded.
  const farBelow = await panel.evaluate((element) => element.getBoundingClientRect().top > innerHeight + 400);
  if (farBelow) expect(await panelCodeLoaded(page)).toBe(false);
  await panel.scrollIntoViewIfNeeded();
  await page.waitForSelector('[data-testid="feeding-cost"]', { state: "attached" });
  expect(await panelCodeLoaded(page)).toBe(true);
}

describe("feeding cost", () => {
  it("works out grams, £ a day and a month per offer and the cheapest month for the saved pet; kept on reload, not in another browser", async () => {
    const rows = foodRows();
    // A dry dog food with a guide, sold at two or more retailers in stock, that comes in other sizes in stock too.
    let product: (Product & { sizes: ProductSize[] }) | undefined;
    let row: FoodRow | undefined;
    for (const candidate of rows.filter((r) => r.category === "dog-food" && r.guide !== null && foodPackGrams(packSizeOf(r.name)) !== null)) {
      const detail = (await (await fetch(`${baseUrl}/api/products/${candidate.slug}`)).json()) as Product & { sizes: ProductSize[] };
      const inStockSizes = detail.sizes.filter((size) => size.id !== detail.id && size.packGrams !== null && size.bestPrice !== null);
      if (detail.prices.filter((offer) => offer.inStock && !offer.stale).length >= 2 && inStockSizes.length > 0) {
        [product, row] = [detail, candidate];
        break;
      }
    }
    expect(product).toBeDefined();
    const food = factsOf(row!);
    const packGrams = foodPackGrams(packSizeOf(row!.name))!;
    const daily = dailyGrams(rex, food)!;
    const offers = product!.prices
      .filter((offer) => offer.inStock && !offer.stale)
      .map((offer) => ({ retailer: offer.retailer.name, totalPence: toPence(offer.total)!, repeatTotalPence: toPence(offer.repeatTotal) }));
    const otherSizes = product!.sizes
      .filter((size) => size.id !== product!.id && size.packGrams !== null && size.bestPrice !== null)
      .map((size) => ({ label: size.label, retailer: size.bestRetailer!, packGrams: size.packGrams!, totalPence: toPence(size.bestPrice)! }));
    // Every way to buy it: this pack at each retailer (one-off or repeat), each other size at its best price.
    const ways = [
      ...offers.map((offer) => ({ label: product!.packSize!.label, retailer: offer.retailer, packGrams, totalPence: offer.totalPence, repeatTotalPence: offer.repeatTotalPence })),
      ...otherSizes.map((size) => ({ ...size, repeatTotalPence: null })),
    ];
    const cheapest = cheapestWayToFeed(rex, food, ways.map((way, index) => ({ key: String(index), packGrams: way.packGrams, totalPence: way.totalPence, repeatTotalPence: way.repeatTotalPence })))!;
    const cheapestWay = ways[Number(cheapest.option.key)]!;

    const { page, errors } = await openPage(browser);
    await page.goto(`${baseUrl}/product/${product!.slug}`);
    await panelReady(page);
    const panel = page.getByTestId("feeding-cost");
    // The species is preset to the food's.
    expect(await panel.getByLabel("Dog").isChecked()).toBe(true);

    // Bad input: errors beside their fields, nothing stored.
    await panel.getByLabel("Weight (kg)").fill("heavy");
    await panel.getByRole("button", { name: "Save pet" }).click();
    await expect.poll(() => panel.locator("#pet-name-error").innerText()).toBe("Give your pet a name");
    expect(await panel.locator("#pet-weightKg-error").innerText()).toBe("Enter a weight in kg");
    expect(await page.evaluate(() => localStorage.getItem("pet_profile"))).toBeNull();

    await panel.getByLabel("Pet's name").fill("Rex");
    await panel.getByLabel("Weight (kg)").fill("10");
    await panel.getByLabel("Life stage").selectOption("adult");
    await panel.getByLabel("Activity").selectOption("normal");
    await panel.getByLabel("Neutered").check();
    await panel.getByRole("button", { name: "Save pet" }).click();

    const expectFigures = async (target: Page) => {
      const box = target.getByTestId("feeding-cost");
      await expect.poll(() => box.getByTestId("feeding-grams").innerText()).toBe(`Rex eats about ${daily.grams} g a day`);
      expect(await box.getByTestId("feeding-method").innerText()).toBe(describeMethod(daily));
      // The guide's figure for a normal adult, scaled to a neutered dog's need (95/110).
      expect(describeMethod(daily)).toBe("Based on the feeding guide for a 10 kg dog, adjusted to 86% for a neutered adult dog, normal activity");
      const shown = await box.locator("[data-testid=feeding-offers] tbody tr").evaluateAll((trs) =>
        trs.map((tr) => [tr.getAttribute("data-retailer"), tr.querySelector("[data-testid=feeding-per-day]")!.textContent, tr.querySelector("[data-testid=feeding-per-month]")!.textContent]),
      );
      expect(shown).toEqual(
        offers.map((offer) => {
          const cost = feedingCost({ grams: daily.grams, packGrams, totalPence: offer.totalPence })!;
          return [offer.retailer, formatPence(cost.perDayPence), formatPence(cost.perMonthPence)];
        }),
      );
      // The other sizes, smallest first, at their best price to the door.
      const sizesShown = await box.locator("[data-testid=feeding-sizes] tbody tr").evaluateAll((trs) =>
        trs.map((tr) => [tr.getAttribute("data-size"), tr.querySelector("[data-testid=feeding-size-per-day]")!.textContent]),
      );
      expect(sizesShown).toEqual(
        otherSizes.map((size) => [size.label, formatPence(feedingCost({ grams: daily.grams, packGrams: size.packGrams, totalPence: size.totalPence })!.perDayPence)]),
      );
      expect(await box.getByTestId("feeding-cheapest").innerText()).toBe(
        `The cheapest way to feed Rex for a month: ${cheapestWay.label} at ${cheapestWay.retailer}${cheapest.repeat ? " on repeat delivery" : ""}, ${formatPence(cheapest.perMonthPence)} incl. delivery`,
      );
    };
    await expectFigures(page);
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem("pet_profile")))!)).toEqual({ name: "Rex", ...rex });

    await page.reload();
    await panelReady(page);
    await expectFigures(page);

    // Another visitor has no pet: the form, no figures.
    const other = await openPage(browser);
    await other.page.goto(`${baseUrl}/product/${product!.slug}`);
    await panelReady(other.page);
    await expect.poll(() => other.page.getByTestId("feeding-cost").getByLabel("Pet's name").isVisible()).toBe(true);
    expect(await other.page.getByTestId("feeding-grams").count()).toBe(0);

    // A cat food tells Rex's owner whom it is for.
    const catFood = rows.find((r) => r.category === "cat-food" && r.kcal !== null && foodPackGrams(packSizeOf(r.name)) !== null)!;
    await page.goto(`${baseUrl}/product/${catFood.slug}`);
    await panelReady(page);
    await expect.poll(() => page.getByTestId("feeding-other-species").innerText()).toBe("This food is for cats; Rex is a dog.");

    // The dog-food category sorted by cost per day for Rex, cheapest first (ties by rank, unknown last).
    const expected = rows
      .filter((r) => r.category === "dog-food")
      .map((r) => ({ r, pence: costPerDayPence(rex, factsOf(r), foodPackGrams(packSizeOf(r.name)), r.best) }))
      .sort((a, b) => (a.pence ?? Infinity) - (b.pence ?? Infinity) || a.r.rank - b.r.rank || a.r.id - b.r.id);
    await page.goto(`${baseUrl}/category/dog-food?sort=cost_per_day`);
    const cards = page.getByTestId("product-card");
    await expect.poll(() => cards.first().getByTestId("card-cost-per-day").count()).toBe(1);
    expect(await page.getByLabel("Sort by").inputValue()).toBe("cost_per_day");
    expect(await page.getByLabel("Sort by").locator("option:checked").innerText()).toBe("Cost per Day: Low to High");
    expect(new URL(page.url()).search).toBe("?sort=cost_per_day");
    const count = await cards.count();
    expect(count).toBe(Math.min(15, expected.length));
    expect(await cards.locator("h3").allInnerTexts()).toEqual(expected.slice(0, count).map((e) => e.r.name));
    expect(await cards.first().getByTestId("card-cost-per-day").innerText()).toBe(`${formatPence(expected[0]!.pence!)} a day for Rex`);

    // Without a pet the address falls back to best sellers and the option is not offered.
    await other.page.goto(`${baseUrl}/category/dog-food?sort=cost_per_day`);
    await other.page.waitForURL((url) => url.pathname === "/category/dog-food" && url.search === "");
    expect(await other.page.getByLabel("Sort by").locator("option[value=cost_per_day]").count()).toBe(0);
    expect(await other.page.getByTestId("card-cost-per-day").count()).toBe(0);
    await other.context.close();

    // Forget pet: the form again, nothing stored.
    await page.goto(`${baseUrl}/product/${product!.slug}`);
    await panelReady(page);
    await page.getByTestId("feeding-cost").getByRole("button", { name: "Forget pet" }).click();
    await expect.poll(() => page.getByTestId("feeding-cost").getByLabel("Pet's name").isVisible()).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem("pet_profile"))).toBeNull();
    expect(errors).toEqual([]);
  });
});
