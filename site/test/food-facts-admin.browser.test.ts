/**
 * A food's energy (kcal per kg) and feeding guide in the admin's product form: loaded from the
 * database, checked before sending (kcal bounds, a guide line that is not a weight and grams),
 * refused by the server with nothing stored (weights that do not rise; the message in plain words
 * under the field, never the API's path), saved, and used on the rebuilt public page, whose feeding panel then estimates from the new energy.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Locator, Page } from "playwright-core";
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

/** The text of a control's description: its hint and the message under it (aria-describedby). */
const description = (control: Locator) =>
  control.evaluate((element) =>
    (element.getAttribute("aria-describedby") ?? "")
      .split(" ")
      .map((id) => document.getElementById(id)?.textContent ?? "")
      .join(" "),
  );

describe("food facts in the admin's product form", () => {
  it("loads, checks, saves and publishes a food's kcal per kg and feeding guide", async () => {
    // A dog food with both facts, low in the ranking and not the lowest few (other files use those).
    const food = read<{ id: number; slug: string; kcal: number; guide: string }>(
      `SELECT p.id, p.slug, p.kcal_per_kg AS kcal, p.feeding_guide AS guide FROM products p JOIN categories c ON c.id = p.category_id
       WHERE c.slug = 'dog-food' AND p.kcal_per_kg IS NOT NULL AND p.feeding_guide IS NOT NULL AND p.best_price_pence IS NOT NULL
       ORDER BY p.rank DESC LIMIT 1 OFFSET 3`,
    );
    const stored = () => read<{ kcal: number | null; guide: string | null }>("SELECT kcal_per_kg AS kcal, feeding_guide AS guide FROM products WHERE id = ?", food.id);
    const before = stored();
    const guideRows = (JSON.parse(food.guide) as { rows: { weightKg: number; gramsPerDay: number }[] }).rows;

    const { page, context } = await openPage(browser);
    await page.goto(`${baseUrl}/admin/login`);
    await page.getByLabel("Password").fill(adminPassword);
    await page.getByRole("button", { name: "Login" }).click();
    await page.waitForURL((url) => url.pathname === "/admin");
    await page.goto(`${baseUrl}/admin/products/edit/${food.id}`);
    const form = page.getByTestId("product-form");
    const kcal = form.getByLabel("Energy (kcal per kg)");
    const guide = form.getByLabel("Feeding guide");
    const update = form.getByRole("button", { name: "Update Product" });
    await expect.poll(() => kcal.inputValue()).toBe(String(food.kcal));
    expect(await guide.inputValue()).toBe(guideRows.map((row) => `${row.weightKg} kg: ${row.gramsPerDay} g`).join("\n"));

    // Checked in the form: nothing is sent. Each problem shows under its field (as the field's
    // description) and by the Save button, which names the field.
    const summary = form.getByTestId("save-summary");
    await kcal.fill("99");
    await update.click();
    await expect.poll(() => description(kcal)).toContain("Energy must be a whole number of kcal per kg from 100 to 9,000");
    await expect.poll(() => summary.textContent()).toBe("Not saved: check Energy (kcal per kg)");
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("product-kcal");
    await kcal.fill("4000");
    await guide.fill("5 kg: 95 g\n10 kg");
    await update.click();
    await expect.poll(() => description(guide)).toContain("Line 2: write a body weight and daily grams, e.g. 5 kg: 95 g");
    // Refused by the server: weights that fall. A blank line between, as people type: the message names the typed line.
    await guide.fill("10 kg: 160 g\n\n5 kg: 170 g");
    await update.click();
    await expect.poll(() => description(guide)).toContain("Line 3: Weight must be a number of kg above 0 and at most 100, and more than on the line above");
    await expect.poll(() => summary.textContent()).toBe("Not saved: check Feeding guide");
    expect(await guide.getAttribute("aria-invalid")).toBe("true");
    // No API path anywhere: not under the field, not in the summary, not in a toast.
    const shown = await page.evaluate(() => document.body.innerText);
    expect(shown).not.toMatch(/feedingGuide|rows\.\d|weightKg/);
    expect(await page.getByTestId("toast").count()).toBe(0);
    expect(stored()).toEqual(before);
    // The summary's button takes the admin to the field.
    await kcal.focus();
    await summary.getByRole("button", { name: "check Feeding guide" }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("product-guide");

    // Saved: the new energy, no guide.
    await guide.fill("");
    await update.click();
    await toastShows(page, "Product updated successfully and is now live on the website!");
    expect(stored()).toEqual({ kcal: 4000, guide: null });

    // The rebuilt page's feeding panel estimates a saved 10 kg dog's food from 4,000 kcal per kg.
    const visitor = await openPage(browser);
    await visitor.page.addInitScript(() =>
      localStorage.setItem("pet_profile", JSON.stringify({ name: "Rex", species: "dog", weightKg: 10, lifeStage: "adult", activity: "normal", neutered: false })),
    );
    await expect
      .poll(
        async () => {
          const response = await fetch(`${baseUrl}/product/${food.slug}`);
          // The panel's props sit in an attribute: quotes as &quot;.
          return response.ok && /kcalPerKg(?:"|&quot;):4000\b/.test(await response.text());
        },
        { timeout: rebuildTimeout, interval: 1000 },
      )
      .toBe(true);
    await visitor.page.goto(`${baseUrl}/product/${food.slug}`);
    // The panel mounts as it nears the screen.
    await visitor.page.getByRole("heading", { name: "Feeding Cost" }).scrollIntoViewIfNeeded();
    const method = visitor.page.getByTestId("feeding-method");
    await expect.poll(() => method.textContent(), { timeout: 20_000 }).toBe(
      "Estimated from energy: 619 kcal a day (FEDIAF maintenance for a 10 kg adult dog, normal activity) and 4,000 kcal per kg of food",
    );
    await visitor.context.close();

    // Put the food's facts back for the other test files, through the same write path.
    await page.evaluate(
      async ({ id, kcalPerKg, feedingGuide }) => {
        const product = (await (await fetch(`/api/admin/products/${id}`)).json()) as Record<string, unknown>;
        const body = JSON.stringify({ ...product, kcalPerKg, feedingGuide });
        const response = await fetch(`/api/products/${id}`, { method: "PUT", headers: { "content-type": "application/json" }, body });
        if (!response.ok) throw new Error(await response.text());
      },
      { id: food.id, kcalPerKg: food.kcal, feedingGuide: { rows: guideRows } },
    );
    expect(stored()).toEqual(before);
    await context.close();
  }, rebuildTimeout + 60_000);

  it("states a food's life stage, type, main protein and diets, which the cheaper-equivalents list then uses over the name's", async () => {
    // Not the dearest per kg of its kind: alternatives.browser.test.ts shows that one's list meanwhile.
    const food = read<{ id: number; slug: string; name: string }>(
      `SELECT p.id, p.slug, p.name FROM products p JOIN categories c ON c.id = p.category_id
       WHERE c.slug = 'dog-food' AND p.name LIKE '%Adult Dry Dog Food Chicken%' AND p.best_price_pence IS NOT NULL
       ORDER BY p.best_price_per_kg_pence, p.id LIMIT 1`,
    );
    const stated = () =>
      read<Record<string, string>>("SELECT life_stage, food_type, main_protein, special_diets FROM products WHERE id = ?", food.id);
    expect(stated()).toEqual({ life_stage: "", food_type: "", main_protein: "", special_diets: "" });
    const facts = async () => ((await (await fetch(`${baseUrl}/api/products/${food.slug}/alternatives`)).json()) as { food: { facts: string[] } }).food.facts;
    // Nothing stated: read from the name.
    expect(await facts()).toEqual(["Adult", "Dry", "Chicken"]);

    const { page, context } = await openPage(browser);
    await page.goto(`${baseUrl}/admin/login`);
    await page.getByLabel("Password").fill(adminPassword);
    await page.getByRole("button", { name: "Login" }).click();
    await page.waitForURL((url) => url.pathname === "/admin");
    await page.goto(`${baseUrl}/admin/products/edit/${food.id}`);
    const form = page.getByTestId("product-form");
    const lifeStage = form.getByLabel("Life stage");
    await expect.poll(() => lifeStage.inputValue()).toBe("");
    expect(await description(lifeStage)).toContain("Left blank, it is read from the product's name");
    await lifeStage.selectOption({ label: "Senior" });
    await form.getByLabel("Main protein").selectOption({ label: "Turkey" });
    const diets = form.getByRole("group", { name: "Special diets" });
    await diets.getByLabel("Sensitive").check();
    await diets.getByLabel("Grain-free").check();
    await form.getByRole("button", { name: "Update Product" }).click();
    await toastShows(page, "Product updated successfully and is now live on the website!");
    // Stored as chosen, the diets in their fixed order; the type left to the name.
    expect(stated()).toEqual({ life_stage: "senior", food_type: "", main_protein: "turkey", special_diets: "grain-free,sensitive" });
    await expect.poll(facts, { timeout: 20_000 }).toEqual(["Senior", "Dry", "Turkey", "Grain-free", "Sensitive"]);

    // Back to nothing stated, through the form.
    await page.goto(`${baseUrl}/admin/products/edit/${food.id}`);
    await expect.poll(() => lifeStage.inputValue()).toBe("senior");
    expect(await diets.getByLabel("Grain-free").isChecked()).toBe(true);
    await lifeStage.selectOption({ label: "Not stated" });
    await form.getByLabel("Main protein").selectOption({ label: "Not stated" });
    await diets.getByLabel("Sensitive").uncheck();
    await diets.getByLabel("Grain-free").uncheck();
    await form.getByRole("button", { name: "Update Product" }).click();
    await toastShows(page, "Product updated successfully and is now live on the website!");
    expect(stated()).toEqual({ life_stage: "", food_type: "", main_protein: "", special_diets: "" });
    await context.close();
  });
});
