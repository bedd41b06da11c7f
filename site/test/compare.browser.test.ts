/**
 * The compare page and the way there: products added from cards, the tray closed and reopened
 * from the compare bar (category and product pages), 'Compare now' to /compare?ids= in the
 * tray's order, every row's value against the database, the best marks on the right columns,
 * removing a column, the cost per day for a saved pet, another visitor's empty tray, and a phone.
 */
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { compareDailyCost } from "../../data/domain/compare-page.ts";
import { deliveryText } from "../../data/domain/delivery.ts";
import { formatRating } from "../../data/domain/display.ts";
import { type PetProfile } from "../../data/domain/feeding.ts";
import { parseFeedingGuide } from "../../data/domain/feeding.schema.ts";
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

interface Stored {
  id: number;
  slug: string;
  name: string;
  category_slug: string;
  best_price_pence: number | null;
  best_delivery_pence: number | null;
  rating: number;
  review_count: number;
  best_retailer: string | null;
  retailers: number;
  in_stock: number;
  kcal_per_kg: number | null;
  feeding_guide: string | null;
}

const storedSql = `SELECT p.id, p.slug, p.name, c.slug AS category_slug, p.best_price_pence, p.best_delivery_pence, p.rating, p.review_count,
    r.name AS best_retailer, p.kcal_per_kg, p.feeding_guide,
    (SELECT count(DISTINCT retailer_id) FROM product_prices WHERE product_id = p.id) AS retailers,
    (SELECT count(DISTINCT retailer_id) FROM product_prices WHERE product_id = p.id AND in_stock = 1) AS in_stock
  FROM products p JOIN categories c ON c.id = p.category_id LEFT JOIN retailers r ON r.id = p.best_retailer_id`;

function readProducts(where: string, ...params: unknown[]): Stored[] {
  const db = new Database(databaseFile, { readonly: true });
  try {
    return db.prepare(`${storedSql} WHERE ${where} ORDER BY p.id`).all(...params) as Stored[];
  } finally {
    db.close();
  }
}
const bySlug = (slug: string) => readProducts("p.slug = ?", slug)[0]!;
const unitOf = (product: Stored) => (product.best_price_pence === null ? null : unitPriceOf(product.best_price_pence, packSizeOf(product.name)));
const count = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** What each row's cell must say of a product, worked out from its rows. */
function expectedCells(product: Stored): Record<string, string> {
  const unit = unitOf(product);
  return {
    price: product.best_price_pence === null ? "N/A" : formatPence(product.best_price_pence),
    unitPrice: unit === null ? (packSizeOf(product.name) === null ? "Pack size not stated" : "No price") : formatUnitPrice(unit),
    rating: product.review_count > 0 ? `${formatRating(product.rating)} out of 5` : "No reviews yet",
    retailers: count(product.retailers, "retailer"),
    stock: product.in_stock === 0 ? "Out of stock everywhere" : `In stock at ${product.in_stock} of ${count(product.retailers, "retailer")}`,
    delivery: product.best_price_pence === null ? "—" : deliveryText(product.best_delivery_pence),
  };
}

/** Columns holding the best of `values` (lowest or highest), every tie; none with fewer than two values. */
function bestColumns(values: (number | null)[], better: "lower" | "higher"): boolean[] {
  const known = values.filter((value): value is number => value !== null);
  if (known.length < 2) return values.map(() => false);
  const best = better === "lower" ? Math.min(...known) : Math.max(...known);
  return values.map((value) => value === best);
}

/** The best marks the page must show for these products, row by row, with the words of each. */
function expectedMarks(products: Stored[], costs: (number | null)[]): Record<string, { marked: boolean[]; words: string[] }> {
  const units = products.map(unitOf);
  const unitMarks = units.map((unit, index) =>
    unit === null ? false : bestColumns(units.map((other) => (other?.unit === unit.unit ? other.pence : null)), "lower")[index]!,
  );
  const unitWords = { kg: "per kg", l: "per litre", item: "per item" };
  return {
    price: { marked: bestColumns(products.map((p) => p.best_price_pence), "lower"), words: products.map(() => "Lowest price") },
    unitPrice: { marked: unitMarks, words: units.map((unit) => `Lowest ${unitWords[unit?.unit ?? "kg"]}`) },
    costPerDay: { marked: bestColumns(costs, "lower"), words: products.map(() => "Lowest cost per day") },
    rating: { marked: bestColumns(products.map((p) => (p.review_count > 0 ? p.rating : null)), "higher"), words: products.map(() => "Highest rating") },
    retailers: { marked: bestColumns(products.map((p) => p.retailers), "higher"), words: products.map(() => "Most retailers") },
  };
}

const cells = (page: Page, row: string) => page.locator(`[data-testid="compare-table"] tr[data-row="${row}"] td`);
const columnIds = async (page: Page) =>
  (await page.locator('[data-testid="compare-table"] thead th[data-product-id]').evaluateAll((cells) => cells.map((cell) => cell.getAttribute("data-product-id")))).map(Number);

/** Checks every row against the database and every best mark (and its words, and "(tie)") against the rule. */
async function expectTable(page: Page, products: Stored[], costs: (number | null)[]): Promise<number> {
  await page.getByTestId("compare-table").waitFor();
  expect(await columnIds(page)).toEqual(products.map((product) => product.id));
  for (const [index, product] of products.entries()) {
    for (const [row, text] of Object.entries(expectedCells(product))) {
      expect(await cells(page, row).nth(index).textContent(), `${row} of ${product.name}`).toContain(text);
    }
  }
  let ties = 0;
  for (const [row, { marked, words }] of Object.entries(expectedMarks(products, costs))) {
    for (const [index, best] of marked.entries()) {
      const cell = cells(page, row).nth(index);
      const label = `${row} of ${products[index]!.name}`;
      expect(await cell.getAttribute("data-best"), label).toBe(best ? "" : null);
      const text = (await cell.textContent())!;
      if (!best) {
        expect(text, label).not.toMatch(/Lowest|Highest|Most retailers/);
        continue;
      }
      const tied = marked.filter((other, otherIndex) => other && otherIndex !== index && (row !== "unitPrice" || words[otherIndex] === words[index])).length > 0;
      if (tied) ties += 1;
      expect(text, label).toContain(`${words[index]}${tied ? " (tie)" : ""}`);
      if (!tied) expect(text, label).not.toContain("(tie)");
    }
  }
  return ties;
}

const storedTray = (page: Page) => page.evaluate(() => (JSON.parse(sessionStorage.getItem("compare_tray") ?? "[]") as { id: number }[]).map((item) => item.id));

describe("compare page", () => {
  it("adds from cards, reopens the closed tray from the bar on category and product pages, and compares in the tray's order", async () => {
    const { page, errors, context } = await openPage(browser);
    await page.goto(`${baseUrl}/category/dog-food`);
    await islandsReady(page);
    const cards = page.getByTestId("product-card");
    const slugs: string[] = [];
    for (const index of [2, 0, 1]) {
      const card = cards.nth(index);
      slugs.push(decodeURIComponent((await card.locator('a[href^="/product/"]').first().getAttribute("href"))!.replace("/product/", "")));
      await card.getByRole("button", { name: /^Add .* to compare$/ }).click();
    }
    const products = slugs.map(bySlug);
    const tray = page.getByTestId("compare-tray");
    const bar = page.getByTestId("compare-bar");
    await expect.poll(() => tray.getByText("Compare Products (3/4)").isVisible()).toBe(true);

    // Closed, the tray is gone; the bar brings it back.
    await tray.getByRole("button", { name: "Close comparison" }).click();
    await expect.poll(() => tray.count()).toBe(0);
    await expect.poll(() => bar.textContent()).toContain("Comparing 3/4");
    await bar.getByRole("button", { name: "Show tray" }).click();
    await expect.poll(() => tray.getByText("Compare Products (3/4)").isVisible()).toBe(true);
    expect(await bar.getByRole("button", { name: "Hide tray" }).getAttribute("aria-expanded")).toBe("true");
    await bar.getByRole("button", { name: "Hide tray" }).click();
    await expect.poll(() => tray.count()).toBe(0);

    // On a product page (no cards, no other island awake): the bar is there, and reopens the tray.
    const other = readProducts("p.slug NOT IN (?, ?, ?)", ...slugs)[0]!;
    await page.goto(`${baseUrl}/product/${other.slug}`);
    await expect.poll(() => bar.isVisible()).toBe(true);
    expect(await bar.textContent()).toContain("Comparing 3/4");
    expect(await tray.count()).toBe(0);
    await bar.getByRole("button", { name: "Show tray" }).click();
    await expect.poll(() => tray.getByText("Compare Products (3/4)").isVisible()).toBe(true);

    // Compare now: the compare page with the tray's products in the order they were added.
    const ids = products.map((product) => product.id);
    expect(await tray.getByRole("link", { name: "Compare now" }).getAttribute("href")).toBe(`/compare?ids=${ids.join(",")}`);
    expect(await bar.getByRole("link", { name: "Compare now" }).getAttribute("href")).toBe(`/compare?ids=${ids.join(",")}`);
    await tray.getByRole("link", { name: "Compare now" }).click();
    await page.waitForURL(`${baseUrl}/compare?ids=${ids.join(",")}`);
    await expectTable(page, products, products.map(() => null));
    expect(await page.locator('meta[name="robots"]').getAttribute("content")).toBe("noindex");
    // No pet saved: the food columns invite to add one on the product's page.
    for (const [index, product] of products.entries()) {
      const link = cells(page, "costPerDay").nth(index).getByRole("link", { name: "Add your pet to see cost per day" });
      expect(await link.getAttribute("href")).toBe(`/product/${product.slug}`);
    }

    // Removing the middle column: the address and the tray follow.
    await page.getByRole("button", { name: `Remove ${products[1]!.name} from comparison` }).click();
    const rest = [products[0]!, products[2]!];
    await expect.poll(() => page.url()).toBe(`${baseUrl}/compare?ids=${rest.map((p) => p.id).join(",")}`);
    await expectTable(page, rest, rest.map(() => null));
    expect(await storedTray(page)).toEqual(rest.map((p) => p.id));
    // A reload shows what the address names.
    await page.reload();
    await expectTable(page, rest, rest.map(() => null));

    // Another visitor: no tray, no bar, and an empty compare page that leads to the categories.
    const second = await openPage(browser);
    await second.page.goto(`${baseUrl}/category/dog-food`);
    await islandsReady(second.page);
    await second.page.waitForFunction(() => [...document.querySelectorAll('astro-island[client="companion"]')].every((island) => !island.hasAttribute("ssr")));
    expect(await second.page.getByTestId("compare-bar").count()).toBe(0);
    expect(await second.page.getByTestId("compare-tray").count()).toBe(0);
    expect(await storedTray(second.page)).toEqual([]);
    await second.page.goto(`${baseUrl}/compare`);
    const empty = second.page.getByTestId("compare-empty");
    await empty.waitFor();
    expect(await second.page.getByTestId("compare-table").count()).toBe(0);
    expect(await empty.getByRole("link", { name: "Dog Food", exact: true }).getAttribute("href")).toBe("/category/dog-food");
    expect(second.page.url()).toBe(`${baseUrl}/compare`);
    expect(second.errors).toEqual([]);
    await second.context.close();

    expect(errors).toEqual([]);
    await context.close();
  });

  it("with a saved pet: each dog food's cost per day, the lowest marked; cat food and a toy say it does not apply", async () => {
    const packGrams = (product: Stored) => {
      const pack = packSizeOf(product.name);
      return pack?.unit === "kg" ? pack.amount : null;
    };
    // The cat food and the toy with the fewest retailers, so the dog foods can hold the most.
    const fewest = (slug: string) => readProducts("c.slug = ?", slug).sort((a, b) => a.retailers - b.retailers)[0]!;
    const catFood = fewest("cat-food");
    const toy = fewest("dog-toys");
    const dogFoods = readProducts("c.slug = 'dog-food' AND p.best_price_pence IS NOT NULL").filter((product) => packGrams(product) !== null);
    // Two dog foods sold by weight with as many retailers as each other, and no fewer than the
    // other two columns: a tie in the retailers row.
    const atLeast = Math.max(catFood.retailers, toy.retailers);
    const pair = dogFoods.flatMap((a, i) => dogFoods.slice(i + 1).filter((b) => b.retailers === a.retailers && a.retailers >= atLeast).map((b) => [a, b] as const))[0];
    expect(pair, "two dog foods by weight with the same number of retailers").toBeDefined();
    let [first, second] = pair!;
    if ([first, second].every((food) => food.kcal_per_kg === null && food.feeding_guide === null)) {
      // A catalogue whose foods carry no food facts yet: give these two an energy figure.
      const db = new Database(databaseFile);
      db.prepare("UPDATE products SET kcal_per_kg = ? WHERE id = ?").run(3600, first.id);
      db.prepare("UPDATE products SET kcal_per_kg = ? WHERE id = ?").run(3900, second.id);
      db.close();
      [first, second] = [bySlug(first.slug), bySlug(second.slug)];
    }
    const products = [toy, first, catFood, second];
    const pet: PetProfile = { name: "Rex", species: "dog", weightKg: 12, lifeStage: "adult", activity: "normal", neutered: false };
    const costs = products.map((product) => {
      const cost = compareDailyCost(pet, {
        species: product.category_slug === "dog-food" ? "dog" : product.category_slug === "cat-food" ? "cat" : null,
        bestPrice: product.best_price_pence === null ? null : product.best_price_pence / 100,
        packSize: packSizeOf(product.name),
        kcalPerKg: product.kcal_per_kg,
        feedingGuide: parseFeedingGuide(product.feeding_guide),
      });
      return cost.kind === "cost" ? cost : null;
    });
    expect(costs[1], "the first dog food has a cost per day").not.toBeNull();
    expect(costs[3], "the second dog food has a cost per day").not.toBeNull();

    const { page, errors, context } = await openPage(browser);
    await context.addInitScript((stored) => localStorage.setItem("pet_profile", stored), JSON.stringify(pet));
    await page.goto(`${baseUrl}/compare?ids=${products.map((p) => p.id).join(",")}`);
    const ties = await expectTable(
      page,
      products,
      costs.map((cost) => cost?.perDayPence ?? null),
    );
    expect(ties, "the retailers row has a tie at least").toBeGreaterThan(0);
    expect(await page.locator('tr[data-row="costPerDay"] th').textContent()).toBe("Cost per day for Rex");
    for (const index of [1, 3]) {
      const text = await cells(page, "costPerDay").nth(index).textContent();
      expect(text).toContain(`${formatPence(costs[index]!.perDayPence)} a day`);
      expect(text).toContain(`${costs[index]!.grams} g a day`);
    }
    expect(await cells(page, "costPerDay").nth(0).textContent()).toContain("Does not apply (not pet food)");
    expect(await cells(page, "costPerDay").nth(2).textContent()).toContain("Does not apply: food for cats");
    // The mark's words are in the cell for every reader, not a colour alone.
    const lowest = costs[1]!.perDayPence <= costs[3]!.perDayPence ? 1 : 3;
    expect(await cells(page, "costPerDay").nth(lowest).textContent()).toContain("Lowest cost per day");
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("works on a 375 px phone: no sideways page, row names stay in view, every remove button reachable; the bar's controls fit", async () => {
    const products = readProducts("p.best_price_pence IS NOT NULL").slice(0, 4);
    const { page, errors, context } = await openPage(browser, { width: 375, height: 740 });
    await context.addInitScript(
      (stored) => sessionStorage.setItem("compare_tray", stored),
      JSON.stringify(products.map((p) => ({ id: p.id, slug: p.slug, name: p.name, image: "", bestPrice: (p.best_price_pence ?? 0) / 100, bestRetailer: p.best_retailer }))),
    );
    // No ids in the address: the tray's products, and the address then names them.
    await page.goto(`${baseUrl}/compare`);
    await page.getByTestId("compare-table").waitFor();
    expect(await columnIds(page)).toEqual(products.map((p) => p.id));
    expect(page.url()).toBe(`${baseUrl}/compare?ids=${products.map((p) => p.id).join(",")}`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    const region = page.getByRole("region", { name: "Products side by side" });
    await region.evaluate((element) => (element.scrollLeft = element.scrollWidth));
    const rowName = page.locator('tr[data-row="price"] th');
    const regionBox = (await region.boundingBox())!;
    const rowNameBox = (await rowName.boundingBox())!;
    expect(Math.abs(rowNameBox.x - regionBox.x)).toBeLessThanOrEqual(2);
    for (const product of products) {
      const remove = page.getByRole("button", { name: `Remove ${product.name} from comparison` });
      await remove.scrollIntoViewIfNeeded();
      const box = (await remove.boundingBox())!;
      expect(box.x, product.name).toBeGreaterThanOrEqual(rowNameBox.x + rowNameBox.width - 1);
      expect(box.x + box.width, product.name).toBeLessThanOrEqual(375);
    }
    await page.getByRole("button", { name: `Remove ${products[3]!.name} from comparison` }).click();
    await expect.poll(() => columnIds(page)).toEqual(products.slice(0, 3).map((p) => p.id));

    await page.goto(`${baseUrl}/category/dog-food`);
    const bar = page.getByTestId("compare-bar");
    await expect.poll(() => bar.isVisible()).toBe(true);
    for (const control of [bar.getByRole("button", { name: "Show tray" }), bar.getByRole("link", { name: "Compare now" })]) {
      const box = (await control.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(375);
    }
    expect(errors).toEqual([]);
    await context.close();
  });
});
