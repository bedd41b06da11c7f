/**
 * Pack sizes on the public pages: a seeded family's product page lists its sizes smallest pack
 * first, marks the current one and the best value per kg (computed here from the database), and
 * each size is a link to its own page; a category sold by weight sorts by price per kg, and the
 * compare tray shows the per-kg price.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { openDb } from "../../data/db/client.ts";
import { formatPence } from "../../data/domain/money.ts";
import { packSizeOf, unitPriceOf } from "../../data/domain/product-quantity.ts";
import { formatUnitPrice } from "../../data/domain/unit-price.ts";
import { islandsReady, launchBrowser, openPage, seriousA11yViolations } from "./browser.ts";

const baseUrl = inject("baseUrl");
const databaseFile = inject("databaseFile");
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

interface Row {
  id: number;
  slug: string;
  name: string;
  family_key: string | null;
  best_price_per_kg_pence: number | null;
  rank: number;
}

/** Rows as the database holds them now (another test file may change prices meanwhile). */
function rows(sql: string, ...params: unknown[]): Row[] {
  const db = openDb(databaseFile, { readonly: true });
  try {
    return db.$client.prepare(sql).all(...params) as Row[];
  } finally {
    db.$client.close();
  }
}

/** A seeded family of two or more sizes, every one sold by weight, smallest pack first. */
function familyByWeight(): Row[] {
  const all = rows(
    `SELECT id, slug, name, family_key, best_price_per_kg_pence, rank FROM products
     WHERE family_key IN (SELECT family_key FROM products GROUP BY family_key HAVING count(*) > 1) ORDER BY id`,
  );
  const families = new Map<string, Row[]>();
  for (const row of all) families.set(row.family_key!, [...(families.get(row.family_key!) ?? []), row]);
  const family = [...families.values()].find((members) => members.every((row) => packSizeOf(row.name)?.unit === "kg"))!;
  expect(family).toBeDefined();
  return [...family].sort((a, b) => packSizeOf(a.name)!.amount - packSizeOf(b.name)!.amount);
}

const sizeIds = (page: Page) => page.getByTestId("size-option").evaluateAll((links) => links.map((link) => Number(link.getAttribute("data-size-id"))));
const currentId = (page: Page) => page.locator('[data-testid=size-option][aria-current="page"]').getAttribute("data-size-id").then(Number);
const bestValueIds = (page: Page) =>
  page.locator("[data-testid=size-option]:has([data-testid=size-best-value])").evaluateAll((links) => links.map((link) => Number(link.getAttribute("data-size-id"))));

describe("pack sizes", () => {
  it("lists a family's sizes smallest first, marks this one and the best value per kg, and links each size to its own page", async () => {
    const family = familyByWeight();
    const [first, second] = [family[0]!, family[1]!];
    const { page, errors, context } = await openPage(browser);
    await page.goto(`${baseUrl}/product/${first.slug}`);

    const selector = page.getByTestId("size-selector");
    expect(await selector.isVisible()).toBe(true);
    expect(await sizeIds(page)).toEqual(family.map((row) => row.id));
    expect(await page.getByTestId("size-label").allInnerTexts()).toEqual(family.map((row) => packSizeOf(row.name)!.label));
    expect(await currentId(page)).toBe(first.id);
    // The best value: the lowest stored price per kg, every size on it when tied. Another test
    // file may change prices meanwhile: the page is read again until it shows the stored state.
    await expect
      .poll(
        async () => {
          const now = familyByWeight();
          const lowest = Math.min(...now.map((row) => row.best_price_per_kg_pence ?? Number.POSITIVE_INFINITY));
          const expected = now.filter((row) => row.best_price_per_kg_pence === lowest).map((row) => row.id);
          const shown = await bestValueIds(page);
          if (shown.length > 0 && JSON.stringify(shown) === JSON.stringify(expected)) return "as stored";
          await page.reload();
          return JSON.stringify({ shown, expected });
        },
        { timeout: 60_000 },
      )
      .toBe("as stored");
    expect(await selector.getByText("Best value per kg").first().isVisible()).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Another size is its own page, at its own address, marked there as the current one.
    await page.locator(`[data-testid=size-option][data-size-id="${second.id}"]`).click();
    await page.waitForURL(`${baseUrl}/product/${second.slug}`);
    expect(await currentId(page)).toBe(second.id);
    expect(await sizeIds(page)).toEqual(family.map((row) => row.id));
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows each size's item price and its unit price under 'Show item prices only'", async () => {
    // A family where one size's best price carries a delivery charge, so the views differ (the
    // test catalogue's is sold by the litre).
    const members = rows(
      `SELECT id, slug, name, family_key, best_price_pence, best_delivery_pence FROM products
       WHERE family_key IN (SELECT family_key FROM products WHERE best_delivery_pence > 0 GROUP BY family_key)
         AND family_key IN (SELECT family_key FROM products GROUP BY family_key HAVING count(*) > 1)
       ORDER BY family_key, id`,
    ) as unknown as (Row & { best_price_pence: number | null; best_delivery_pence: number | null })[];
    const family = members.filter((row) => row.family_key === members.find((m) => packSizeOf(m.name) !== null && (m.best_delivery_pence ?? 0) > 0)?.family_key);
    expect(family.length).toBeGreaterThan(1);
    const sized = family.filter((row) => row.best_price_pence !== null).sort((a, b) => packSizeOf(a.name)!.amount - packSizeOf(b.name)!.amount);
    const texts = (page: Page, testId: string) => page.locator(`[data-testid=size-option]:has([data-testid=size-price]:not(:text("Out of stock"))) [data-testid=${testId}]`).allInnerTexts();
    const unitText = (row: (typeof sized)[number], pence: number) => formatUnitPrice(unitPriceOf(pence, packSizeOf(row.name))!);
    const { page, context, errors } = await openPage(browser);
    await page.goto(`${baseUrl}/product/${sized[0]!.slug}`);
    expect(await texts(page, "size-price")).toEqual(sized.map((row) => formatPence(row.best_price_pence!)));
    expect(await texts(page, "size-unit-price")).toEqual(sized.map((row) => unitText(row, row.best_price_pence!)));
    await page.waitForFunction(() => document.querySelector("input[data-price-view-toggle]") !== null);
    await page.getByLabel("Show item prices only").check();
    const items = sized.map((row) => row.best_price_pence! - (row.best_delivery_pence ?? 0));
    await expect.poll(() => texts(page, "size-price")).toEqual(items.map((pence) => formatPence(pence)));
    expect(await texts(page, "size-unit-price")).toEqual(sized.map((row, index) => unitText(row, items[index]!)));
    expect(errors).toEqual([]);
    await context.close();
  });

  it("has no size selector on a product alone in its family", async () => {
    const [lone] = rows("SELECT slug FROM products WHERE family_key IN (SELECT family_key FROM products GROUP BY family_key HAVING count(*) = 1) LIMIT 1");
    const { page, context } = await openPage(browser);
    await page.goto(`${baseUrl}/product/${lone!.slug}`);
    await expect.poll(() => page.locator("h1").count()).toBe(1);
    expect(await page.getByTestId("size-selector").count()).toBe(0);
    await context.close();
  });
});

const cardNames = (page: Page) => page.getByTestId("product-card").locator("h3").allTextContents();

describe("Price per kg: Low to High", () => {
  it("lists a category sold by weight by the stored price per kg, cheapest first, those without one last, ties by rank", async () => {
    const { page, errors, context } = await openPage(browser);
    await page.goto(`${baseUrl}/category/dog-food`);
    await islandsReady(page);
    await page.getByLabel("Sort by").selectOption({ label: "Price per kg: Low to High" });
    await page.waitForURL((url) => url.pathname === "/category/dog-food" && url.searchParams.get("sort") === "price_per_kg_asc");
    const expected = () =>
      rows(
        `SELECT p.id, p.name, p.best_price_per_kg_pence, p.rank FROM products p JOIN categories c ON c.id = p.category_id WHERE c.slug = 'dog-food'`,
      )
        .sort((a, b) => (a.best_price_per_kg_pence ?? Infinity) - (b.best_price_per_kg_pence ?? Infinity) || a.rank - b.rank)
        .slice(0, 15)
        .map((row) => row.name);
    expect(expected()).toHaveLength(15);
    await expect.poll(async () => JSON.stringify(await cardNames(page)), { timeout: 30_000 }).toBe(JSON.stringify(expected()));

    // The compare tray shows the compared product's best price per kg as the card does.
    const first = page.getByTestId("product-card").first();
    const perKg = await first.getByTestId("card-unit-price").innerText();
    expect(perKg).toMatch(/^£\d+\.\d{2} per kg$/);
    await first.getByRole("button", { name: /^Add .* to compare$/ }).click();
    await expect.poll(() => page.getByTestId("compare-tray").getByTestId("compare-unit-price").first().innerText()).toBe(perKg);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("is not offered where goods are not sold by weight, and dropped from such an address", async () => {
    const { page, context } = await openPage(browser);
    await page.goto(`${baseUrl}/category/dog-toys?sort=price_per_kg_asc`);
    await islandsReady(page);
    await page.waitForURL((url) => url.pathname === "/category/dog-toys" && url.search === "");
    const options = await page.getByLabel("Sort by").locator("option").allInnerTexts();
    expect(options).toContain("Price: Low to High");
    expect(options).not.toContain("Price per kg: Low to High");
    await context.close();
  });
});
