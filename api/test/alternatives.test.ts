/**
 * GET /api/products/:slug/alternatives over a real server and SQLite file: a food's cheaper
 * equivalents for a pet (or per kg without one), from prices that may be compared now (in stock,
 * current), with the facts the admin states taking over the name's; bad pets refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { offerUrl } from "../../data/db/fixtures/temp-db.ts";
import type { AlternativesResponse } from "../http/responses.ts";
import { startTestServer, type TestServer } from "./server.ts";

let api: TestServer;
let amazon: number;
let dogFood: number;
let catFood: number;
const slugs: Record<string, string> = {};

const sql = (text: string, ...params: unknown[]) => api.db.$client.prepare(text).run(...params);

type AlternativesAnswer = AlternativesResponse;

async function createFood(name: string, price: number, options: { categoryId?: number; kcalPerKg?: number | null; stated?: Record<string, string>; inStock?: boolean } = {}) {
  const response = await api.admin("POST", "/api/products", {
    name,
    description: "",
    image: "",
    brand: "Equivalents",
    categoryId: options.categoryId ?? dogFood,
    rating: 4,
    reviewCount: 1,
    kcalPerKg: options.kcalPerKg === undefined ? 3800 : options.kcalPerKg,
    ...options.stated,
    retailerLinks: [
      {
        retailerId: amazon,
        affiliateUrl: offerUrl(api.db, amazon, name.toLowerCase().replaceAll(/[^a-z0-9]+/g, "-")),
        price,
        originalPrice: null,
        inStock: options.inStock ?? true,
        priceOverride: false,
        manualPrice: null,
        freeDelivery: true,
      },
    ],
  });
  expect(response.status, await response.clone().text()).toBe(201);
  const { id, slug } = (await response.json()) as { id: number; slug: string };
  slugs[name] = slug;
  return id;
}

const get = (path: string) => fetch(`${api.baseUrl}${path}`);
async function alternatives(name: string, query = ""): Promise<AlternativesAnswer> {
  const response = await get(`/api/products/${slugs[name]}/alternatives${query}`);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as AlternativesAnswer;
}
const names = (answer: AlternativesAnswer) => answer.alternatives.map((alternative) => alternative.product.name);
const pet = "?species=dog&weightKg=10&lifeStage=adult&activity=normal&neutered=false";

beforeAll(async () => {
  api = await startTestServer({ products: 1 });
  // Only the foods made here: the seeded product goes, with its offers.
  api.db.$client.exec("DELETE FROM products");
  amazon = (api.db.$client.prepare("SELECT id FROM retailers WHERE key = 'amazon'").get() as { id: number }).id;
  dogFood = (api.db.$client.prepare("SELECT id FROM categories WHERE slug = 'dog-food'").get() as { id: number }).id;
  catFood = (api.db.$client.prepare("SELECT id FROM categories WHERE slug = 'cat-food'").get() as { id: number }).id;
  // Free delivery: each total to the door is its price. 2 kg bags of 3,800 kcal/kg: 163 g a day for a 10 kg adult dog.
  await createFood("Tester Adult Dry Dog Food Chicken 2kg", 20);
  await createFood("Budget Adult Dry Dog Food Chicken 2kg", 15);
  await createFood("Value Adult Dry Dog Food Chicken 2kg", 18);
  await createFood("Dense Adult Dry Dog Food Chicken 2kg", 21, { kcalPerKg: 4500 });
  await createFood("Pricey Adult Dry Dog Food Chicken 2kg", 25);
  await createFood("Lamb Adult Dry Dog Food 2kg", 10);
  await createFood("Puppy Dry Dog Food Chicken 2kg", 10);
  await createFood("Adult Wet Dog Food Chicken Trays 2kg", 10);
  await createFood("Sold Out Adult Dry Dog Food Chicken 2kg", 10, { inStock: false });
  await createFood("Stale Adult Dry Dog Food Chicken 2kg", 10);
  sql("UPDATE product_prices SET stale = 1 WHERE product_id = (SELECT id FROM products WHERE slug = ?)", slugs["Stale Adult Dry Dog Food Chicken 2kg"]);
  // An old check, past the freshness window but not yet swept as stale: not current either.
  await createFood("Unchecked Adult Dry Dog Food Chicken 2kg", 10);
  sql(
    "UPDATE product_prices SET last_checked_at = '2020-01-01T00:00:00.000Z' WHERE product_id = (SELECT id FROM products WHERE slug = ?)",
    slugs["Unchecked Adult Dry Dog Food Chicken 2kg"],
  );
  // Set by hand long ago: a price under the admin's override never lapses by time.
  await createFood("Override Adult Dry Dog Food Duck 2kg", 19);
  sql(
    "UPDATE product_prices SET price_override = 1, manual_price_pence = 1900, last_checked_at = '2020-01-01T00:00:00.000Z' WHERE product_id = (SELECT id FROM products WHERE slug = ?)",
    slugs["Override Adult Dry Dog Food Duck 2kg"],
  );
  await createFood("Dear Adult Dry Dog Food Duck 2kg", 30);
  // Its best offer went out of stock after the best price was worked out: not on sale.
  await createFood("Gone Adult Dry Dog Food Duck 2kg", 9);
  sql("UPDATE product_prices SET in_stock = 0 WHERE product_id = (SELECT id FROM products WHERE slug = ?)", slugs["Gone Adult Dry Dog Food Duck 2kg"]);
  // Its name says nothing of its type or protein; the admin states them.
  await createFood("Mystery Recipe Dog Food 2kg", 12, { stated: { lifeStage: "adult", foodType: "dry", mainProtein: "chicken" } });
  // The name says lamb, the admin says chicken: the admin wins.
  await createFood("Restated Lamb Adult Dry Dog Food 2kg", 13, { stated: { mainProtein: "chicken" } });
  await createFood("Adult Dry Cat Food Chicken 2kg", 5, { categoryId: catFood });
});
afterAll(() => api.close());

describe("GET /api/products/:slug/alternatives", () => {
  it("lists the cheaper equivalents a day for the pet, cheapest first, leaving out other types, stages, proteins, species and prices not current", async () => {
    const answer = await alternatives("Tester Adult Dry Dog Food Chicken 2kg", pet);
    expect(answer.food).toMatchObject({ species: "dog", facts: ["Adult", "Dry", "Chicken"] });
    expect(answer.basis).toBe("day");
    // £20.00 for 2 kg, 163 g a day: £1.63.
    expect(answer.cost).toBe(1.63);
    // Mystery £12 (98p a day), Restated £13 (106p), Budget £15 (122p), Value £18 (147p); four at most, so Dense (£21, 137 g: 144p) is fifth.
    expect(names(answer)).toEqual([
      "Mystery Recipe Dog Food 2kg",
      "Restated Lamb Adult Dry Dog Food 2kg",
      "Budget Adult Dry Dog Food Chicken 2kg",
      "Dense Adult Dry Dog Food Chicken 2kg",
    ]);
    expect(answer.alternatives[0]).toMatchObject({ bestPrice: 12, retailer: "Amazon", cost: 0.98, saving: 0.65, score: 0.399, matched: ["Adult", "Dry", "Chicken"] });
    expect(answer.alternatives[0]!.reason).toBe("Also Adult · Dry · Chicken, and cheaper a day for your pet");
    expect(answer.alternatives[0]!.product.url).toBe(`/product/${slugs["Mystery Recipe Dog Food 2kg"]}`);
    // Current prices checked just now expire a day after their check.
    expect(Date.parse(answer.alternatives[0]!.expiresAt!)).toBeGreaterThan(Date.now());
  });

  it("ranks per kg without a pet, where the denser food no longer wins", async () => {
    const answer = await alternatives("Tester Adult Dry Dog Food Chicken 2kg");
    expect(answer.basis).toBe("kg");
    expect(answer.cost).toBe(10);
    expect(names(answer)).toEqual([
      "Mystery Recipe Dog Food 2kg",
      "Restated Lamb Adult Dry Dog Food 2kg",
      "Budget Adult Dry Dog Food Chicken 2kg",
      "Value Adult Dry Dog Food Chicken 2kg",
    ]);
    expect(answer.alternatives.map((alternative) => alternative.cost)).toEqual([6, 6.5, 7.5, 9]);
  });

  it("counts a price under the admin's override however long ago it was checked; never an offer out of stock", async () => {
    // Per kg against £15.00: Override £9.50; Gone (£4.50 a kg, out of stock) never shows.
    const answer = await alternatives("Dear Adult Dry Dog Food Duck 2kg");
    expect(names(answer)).toEqual(["Override Adult Dry Dog Food Duck 2kg"]);
    expect(names(answer)).toContain("Override Adult Dry Dog Food Duck 2kg");
    expect(names(answer)).not.toContain("Gone Adult Dry Dog Food Duck 2kg");
    // The recommendation lapses with the one price of the two that does: the dear food's own, a day after its check.
    expect(Date.parse(answer.alternatives[0]!.expiresAt!)).toBeGreaterThan(Date.now());
  });

  it("has none for the cheapest of its kind, and none for a product that is not a food", async () => {
    expect((await alternatives("Mystery Recipe Dog Food 2kg", pet)).alternatives).toEqual([]);
    // A chew named like a food, in a category that is not a diet.
    const treats = (api.db.$client.prepare("SELECT id FROM categories WHERE slug = 'dog-treats'").get() as { id: number }).id;
    await createFood("Adult Dry Chicken Chews 2kg", 30, { categoryId: treats });
    const response = await get(`/api/products/${slugs["Adult Dry Chicken Chews 2kg"]}/alternatives`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ food: null, basis: null, cost: null, alternatives: [] });
    // Nor is it ever another food's equivalent.
    expect(names(await alternatives("Tester Adult Dry Dog Food Chicken 2kg"))).not.toContain("Adult Dry Chicken Chews 2kg");
  });

  it("follows an admin's change of a fact at once", async () => {
    const id = (api.db.$client.prepare("SELECT id FROM products WHERE slug = ?").get(slugs["Value Adult Dry Dog Food Chicken 2kg"]) as { id: number }).id;
    const product = (await (await api.admin("GET", `/api/admin/products/${id}`)).json()) as Record<string, unknown>;
    const response = await api.admin("PUT", `/api/products/${id}`, { ...product, foodType: "wet" });
    expect(response.status, await response.clone().text()).toBe(200);
    expect(api.db.$client.prepare("SELECT food_type FROM products WHERE id = ?").pluck().get(id)).toBe("wet");
    expect(names(await alternatives("Tester Adult Dry Dog Food Chicken 2kg"))).not.toContain("Value Adult Dry Dog Food Chicken 2kg");
  });

  it.each([
    ["a partial pet", "?species=dog&weightKg=10", "species needs the pet's lifeStage, activity, neutered"],
    ["a weight out of bounds", "?species=dog&weightKg=300&lifeStage=adult&activity=normal&neutered=false", "weightKg"],
    ["a puppy cat", "?species=cat&weightKg=3&lifeStage=puppy&activity=normal&neutered=false", "lifeStage"],
    ["a cat for dog food", "?species=cat&weightKg=4&lifeStage=adult&activity=normal&neutered=true", "species: this is dog food, not cat food"],
    ["an unknown parameter", "?budget=5", "this endpoint takes species, weightKg, lifeStage, activity, neutered"],
  ])("refuses %s with a 400 naming the fault", async (_, query, error) => {
    const response = await get(`/api/products/${slugs["Tester Adult Dry Dog Food Chicken 2kg"]}/alternatives${query}`);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toContain(error);
  });

  it("answers 404 for a product that does not exist and 400 for a slug that cannot be one", async () => {
    expect((await get("/api/products/no-such-food/alternatives")).status).toBe(404);
    expect((await get("/api/products/Not_A_Slug/alternatives")).status).toBe(400);
  });
});
