/**
 * "Similar food, cheaper per day" on a food's page: per kg for a visitor with no pet, a day for a
 * saved pet (its body sent, never its name), each equivalent cheaper than the food and the list
 * cheapest first, as the API answers; none for a product that is not a food; a phone's width and axe.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { openDb } from "../../data/db/client.ts";
import type { AlternativesResponse } from "../../api/http/responses.ts";
import { formatPrice } from "../../data/domain/display.ts";
import { launchBrowser, openPage, seriousA11yViolations } from "./browser.ts";

const baseUrl = inject("baseUrl");
const databaseFile = inject("databaseFile");
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const rex = { name: "Rex", species: "dog", weightKg: 20, lifeStage: "adult", activity: "normal", neutered: true };
const rexQuery = "species=dog&weightKg=20&lifeStage=adult&activity=normal&neutered=true";

/** The dearest adult dry chicken dog food per kg in stock: it has cheaper equivalents if any food does. */
function dearFood(): string {
  const db = openDb(databaseFile);
  try {
    return db.$client
      .prepare(
        `SELECT p.slug FROM products p JOIN categories c ON c.id = p.category_id
         WHERE c.slug = 'dog-food' AND p.name LIKE '%Adult Dry Dog Food Chicken%' AND p.best_price_pence IS NOT NULL
         ORDER BY p.best_price_per_kg_pence DESC, p.id LIMIT 1`,
      )
      .pluck()
      .get() as string;
  } finally {
    db.$client.close();
  }
}

async function listShown(page: Page): Promise<void> {
  const section = page.getByTestId("alternatives");
  await section.scrollIntoViewIfNeeded();
  await page.getByTestId("alternatives-basis").waitFor();
}

const answerFor = async (slug: string, query = ""): Promise<AlternativesResponse> =>
  (await (await fetch(`${baseUrl}/api/products/${slug}/alternatives${query ? `?${query}` : ""}`)).json()) as AlternativesResponse;

describe("similar food, cheaper per day", () => {
  it("lists the equivalents per kg with no pet, and a day for the saved pet, as the API ranks them; the pet's name never leaves the browser", async () => {
    const slug = dearFood();
    const perKg = await answerFor(slug);
    const perDay = await answerFor(slug, rexQuery);
    expect(perKg.alternatives.length).toBeGreaterThan(0);
    expect(perDay.alternatives.length).toBeGreaterThan(0);

    const { page, context, errors } = await openPage(browser);
    const asked: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/alternatives")) asked.push(request.url());
    });
    await page.goto(`${baseUrl}/product/${slug}/`);
    await listShown(page);
    await expect.poll(() => page.getByTestId("alternatives-basis").textContent()).toContain(`This food costs ${formatPrice(perKg.cost!)} per kg.`);
    const names = await page.getByTestId("alternative").locator("a").allTextContents();
    expect(names).toEqual(perKg.alternatives.map((alternative) => alternative.product.name));
    const first = page.getByTestId("alternative").first();
    expect(await first.textContent()).toContain(`${formatPrice(perKg.alternatives[0]!.cost)} per kg`);
    expect(await first.locator("a").getAttribute("href")).toBe(perKg.alternatives[0]!.product.url);

    // The visitor saves Rex: the list ranks by his cost a day.
    await page.evaluate((pet) => localStorage.setItem("pet_profile", JSON.stringify(pet)), rex);
    await page.reload();
    await listShown(page);
    await expect.poll(() => page.getByTestId("alternatives-basis").textContent()).toContain(`For Rex: this food costs ${formatPrice(perDay.cost!)} a day.`);
    expect(await page.getByTestId("alternative").locator("a").allTextContents()).toEqual(perDay.alternatives.map((alternative) => alternative.product.name));
    expect(await page.getByTestId("alternative").first().textContent()).toContain(`${formatPrice(perDay.alternatives[0]!.cost)} a day`);
    // The pet's body went with the request, never its name.
    expect(asked.some((url) => url.includes(rexQuery))).toBe(true);
    expect(asked.some((url) => url.includes("Rex"))).toBe(false);
    expect(errors).toEqual([]);
    await context.close();

    // Another visitor has no pet: per kg again.
    const other = await openPage(browser);
    await other.page.goto(`${baseUrl}/product/${slug}/`);
    await listShown(other.page);
    await expect.poll(() => other.page.getByTestId("alternatives-basis").textContent()).toContain("per kg");
    await other.context.close();
  });

  it("shows nothing of it on a product that is not a food", async () => {
    const db = openDb(databaseFile);
    const toy = db.$client
      .prepare("SELECT p.slug FROM products p JOIN categories c ON c.id = p.category_id WHERE c.slug NOT LIKE '%-food%' AND p.legal_category = 'none' LIMIT 1")
      .pluck()
      .get() as string;
    db.$client.close();
    const { page, context } = await openPage(browser);
    await page.goto(`${baseUrl}/product/${toy}/`);
    await page.getByRole("heading", { level: 1 }).waitFor();
    expect(await page.getByTestId("alternatives").count()).toBe(0);
    await context.close();
  });

  it("reads well on a phone, with no serious accessibility fault", async () => {
    const { page, context, errors } = await openPage(browser, { width: 375, height: 800 });
    await page.goto(`${baseUrl}/product/${dearFood()}/`);
    await listShown(page);
    await page.getByTestId("alternative").first().waitFor();
    // The list fits the screen: nothing wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
