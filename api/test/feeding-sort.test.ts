/**
 * GET /api/products?sort=cost_per_day with the pet's body: food of the category by what a day
 * costs that pet at the best price to the door, ties by rank, unknown costs last; bad pet
 * parameters are a 400. And the food facts every product carries (kcalPerKg, feedingGuide, foodFor).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Product } from "../../data/domain/catalogue.ts";
import { recomputeBestPrices } from "../../data/db/offers.ts";
import { costPerDayPence, type PetBody } from "../../data/domain/feeding.ts";
import { parseFeedingGuide } from "../../data/domain/feeding.schema.ts";
import { foodPackGrams, petQueryParams } from "../../data/domain/food.ts";
import { packSizeOf } from "../../data/domain/product-quantity.ts";
import { startTestServer, type TestServer } from "./server.ts";

type Costed = Product & { costPerDay: number | null };

let api: TestServer;
const tenKgDog: PetBody = { species: "dog", weightKg: 10, lifeStage: "adult", activity: "normal", neutered: false };
/** Dog foods given boundary data: two alike at £45.99 per 12 kg to the door (a tie), one with no food facts. */
const edge = { betterRanked: 0, worseRanked: 0, noFacts: 0 };

beforeAll(async () => {
  api = await startTestServer({ products: 300 });
  const sqlite = api.db.$client;
  const dogFoods = sqlite
    .prepare("SELECT p.id FROM products p JOIN categories c ON c.id = p.category_id WHERE c.slug = 'dog-food' ORDER BY p.rank")
    .pluck()
    .all() as number[];
  // The best-ranked dog food loses its facts: it must still come after every costed food.
  edge.noFacts = dogFoods[0]!;
  sqlite.prepare("UPDATE products SET kcal_per_kg = NULL, feeding_guide = NULL WHERE id = ?").run(edge.noFacts);
  // The twins: the better-ranked one has the higher id, so only the rank puts it first.
  const worse = dogFoods.findIndex((id, index) => index > 1 && dogFoods.slice(1, index).some((better) => better > id));
  edge.worseRanked = dogFoods[worse]!;
  edge.betterRanked = dogFoods.slice(1, worse).find((better) => better > edge.worseRanked)!;
  const twin = sqlite.prepare("UPDATE products SET name = ?, kcal_per_kg = 3800, feeding_guide = NULL WHERE id = ?");
  twin.run("Tiebreak Kibble Two Adult Dry Dog Food 12kg", edge.worseRanked);
  twin.run("Tiebreak Kibble One Adult Dry Dog Food 12kg", edge.betterRanked);
  // Every offer in stock at £45.99 and up, delivered free: the best total is £45.99.
  const price = sqlite.prepare(
    "UPDATE product_prices SET price_pence = 4599 + 100 * (SELECT count(*) FROM product_prices o WHERE o.product_id = product_prices.product_id AND o.id < product_prices.id), in_stock = 1, price_override = 0, delivery_pence = 0, stale = 0 WHERE product_id = ?",
  );
  for (const id of [edge.betterRanked, edge.worseRanked]) price.run(id);
  recomputeBestPrices(api.db, [edge.betterRanked, edge.worseRanked]);
});
afterAll(() => api.close());

const query = (pet: PetBody, more = "category=dog-food") => `${more}&sort=cost_per_day&${new URLSearchParams(petQueryParams(pet))}`;

async function all(pathQuery: string): Promise<Costed[]> {
  const result: Costed[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await api.json<Costed[]>(`/api/products?${pathQuery}&limit=100&offset=${offset}`);
    result.push(...page);
    if (page.length < 100) return result;
  }
}

describe("GET /api/products?sort=cost_per_day", () => {
  it("lists the category's foods cheapest a day first, ties by rank, unknown costs last by rank", async () => {
    const list = await all(query(tenKgDog));
    const count = (await api.json<{ count: number }>("/api/products/count?category=dog-food")).count;
    expect(list).toHaveLength(count);
    expect(new Set(list.map((p) => p.category.slug))).toEqual(new Set(["dog-food"]));

    const known = list.filter((p) => p.costPerDay !== null);
    const unknown = list.filter((p) => p.costPerDay === null);
    expect(list).toEqual([...known, ...unknown]);
    expect(known.length).toBeGreaterThan(20);
    for (let i = 1; i < known.length; i++) {
      const [before, after] = [known[i - 1]!, known[i]!];
      expect(before.costPerDay! <= after.costPerDay!, `${before.name} before ${after.name}`).toBe(true);
      if (before.costPerDay === after.costPerDay) expect(before.rank).toBeLessThan(after.rank);
    }
    expect(unknown.map((p) => p.rank)).toEqual(unknown.map((p) => p.rank).toSorted((a, b) => a - b));
    expect(unknown.map((p) => p.id)).toContain(edge.noFacts);

    // The worked example: 110 × 10^0.75 = 618.58 kcal ÷ 3,800 kcal/kg = 163 g a day;
    // 163 g × £45.99 ÷ 12,000 g = 62.47p → £0.62 a day; equal, so by rank.
    const one = list.findIndex((p) => p.id === edge.betterRanked);
    const two = list.findIndex((p) => p.id === edge.worseRanked);
    expect(list[one]!.costPerDay).toBe(0.62);
    expect(list[two]!.costPerDay).toBe(0.62);
    expect(one).toBeLessThan(two);
    expect(list[one]!.rank).toBeLessThan(list[two]!.rank);
    expect(list[one]!.id).toBeGreaterThan(list[two]!.id);
  });

  it("gives each product the cost its food facts, pack and best price give for the pet", async () => {
    // A pet body no other test asks for, so the answer is worked out here, not read from the response cache.
    const pet: PetBody = { species: "dog", weightKg: 23.75, lifeStage: "senior", activity: "active", neutered: false };
    const list = await all(query(pet));
    const rows = api.db.$client
      .prepare("SELECT id, name, best_price_pence AS best, kcal_per_kg AS kcal, feeding_guide AS guide FROM products")
      .all() as { id: number; name: string; best: number | null; kcal: number | null; guide: string | null }[];
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const product of list) {
      const row = byId.get(product.id)!;
      const pence = costPerDayPence(pet, { kcalPerKg: row.kcal, guide: parseFeedingGuide(row.guide) }, foodPackGrams(packSizeOf(row.name)), row.best);
      expect(product.costPerDay, product.name).toBe(pence === null ? null : pence / 100);
    }
    // Both methods are in the list: foods with a guide and foods with energy only (puppy food, the two renamed twins).
    expect(list.some((p) => byId.get(p.id)!.guide === null && byId.get(p.id)!.kcal !== null && p.costPerDay !== null)).toBe(true);
    expect(list.some((p) => byId.get(p.id)!.guide !== null && p.costPerDay !== null)).toBe(true);
  });

  it("pages through the same order", async () => {
    const whole = await all(query(tenKgDog));
    const pages = [
      ...(await api.json<Costed[]>(`/api/products?${query(tenKgDog)}&limit=15&offset=0`)),
      ...(await api.json<Costed[]>(`/api/products?${query(tenKgDog)}&limit=15&offset=15`)),
    ];
    expect(pages.map((p) => p.id)).toEqual(whole.slice(0, 30).map((p) => p.id));
  });

  it("answers each pet body on its own: neutered, the same dog eats 141 g, 54p a day", async () => {
    const neutered = await all(query({ ...tenKgDog, neutered: true }));
    // 95 × 10^0.75 = 534.22 kcal ÷ 3,800 = 141 g; 141 × 4599 ÷ 12000 = 54.04p.
    expect(neutered.find((p) => p.id === edge.betterRanked)!.costPerDay).toBe(0.54);
    const entire = await all(query(tenKgDog));
    expect(entire.find((p) => p.id === edge.betterRanked)!.costPerDay).toBe(0.62);
  });

  it("sorts cat food for a cat", async () => {
    const cat: PetBody = { species: "cat", weightKg: 4, lifeStage: "adult", activity: "normal", neutered: true };
    const list = await all(query(cat, "category=cat-food"));
    const known = list.filter((p) => p.costPerDay !== null);
    expect(known.length).toBeGreaterThan(10);
    expect(known.map((p) => p.costPerDay)).toEqual(known.map((p) => p.costPerDay).toSorted((a, b) => a! - b!));
    // Complementary tins (no facts) come last.
    expect(list.filter((p) => /^(Applaws|Encore) /.test(p.name)).every((p) => p.costPerDay === null)).toBe(true);
  });

  it.each([
    ["a species that is not dog or cat", query(tenKgDog).replace("species=dog", "species=fish"), "species must be one of dog, cat"],
    ["a weight that is not a number", query(tenKgDog).replace("weightKg=10", "weightKg=ten"), "weightKg must be a weight in kg, like 12.5"],
    ["a weight below 0.5 kg", query(tenKgDog).replace("weightKg=10", "weightKg=0.4"), "weightKg: At least 0.5 kg"],
    ["a 20 kg cat", query({ species: "cat", weightKg: 20, lifeStage: "adult", activity: "normal", neutered: false }, "category=cat-food"), "weightKg: At most 15 kg for a cat"],
    ["a kitten dog", query(tenKgDog).replace("lifeStage=adult", "lifeStage=kitten"), "lifeStage: A dog cannot be a kitten"],
    ["an unknown activity", query(tenKgDog).replace("activity=normal", "activity=lazy"), "activity must be one of less-active, normal, active"],
    ["neutered not true or false", query(tenKgDog).replace("neutered=false", "neutered=yes"), "neutered must be true or false"],
    ["a missing part of the pet", query(tenKgDog).replace("&lifeStage=adult", ""), "sort=cost_per_day needs the pet's lifeStage"],
    ["no category", query(tenKgDog, "limit=15"), "sort=cost_per_day needs a dog food category"],
    ["a category that is not food", query(tenKgDog, "category=dog-treats"), "sort=cost_per_day needs a dog food category"],
    ["another species' food", query(tenKgDog, "category=cat-food"), "sort=cost_per_day needs a dog food category"],
    ["the pet without the sort", `category=dog-food&sort=price_asc&${new URLSearchParams(petQueryParams(tenKgDog))}`, "species is only taken with sort=cost_per_day"],
    ["a pet's name", `${query(tenKgDog)}&name=Rex`, 'Unknown query parameter "name"'],
    ["the weight twice", `${query(tenKgDog)}&weightKg=11`, "weightKg must be given once"],
  ])("refuses %s with a 400", async (_, pathQuery, message) => {
    const response = await api.get(`/api/products?${pathQuery}`);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toContain(message);
  });
});

describe("food facts on products", () => {
  it("a food's detail carries its kcal per kg, its guide as rows and the species it feeds; a treat none", async () => {
    const food = await api.json<Product>(`/api/products/${(await all("category=dog-food")).find((p) => p.name.startsWith("Lily's Kitchen Adult Dry"))!.slug}`);
    expect(food.foodFor).toBe("dog");
    expect(food.kcalPerKg).toBe(3620);
    expect(food.feedingGuide!.rows[0]).toEqual({ weightKg: 5, gramsPerDay: 100 });
    const [treat] = await api.json<Product[]>("/api/products?category=dog-treats&limit=1");
    const detail = await api.json<Product>(`/api/products/${treat!.slug}`);
    expect(detail).toMatchObject({ foodFor: null, kcalPerKg: null, feedingGuide: null });
  });

  it("a damaged stored guide counts as none", async () => {
    api.db.$client.prepare("UPDATE products SET feeding_guide = '{\"rows\": [' WHERE id = ?").run(edge.noFacts);
    const slug = api.db.$client.prepare("SELECT slug FROM products WHERE id = ?").pluck().get(edge.noFacts) as string;
    // Read straight from the database (no catalogue write happened to drop the cache, and this product was not read yet).
    expect((await api.json<Product>(`/api/products/${slug}`)).feedingGuide).toBeNull();
  });
});

describe("food facts through the admin's product writes", () => {
  const guide = { rows: [{ weightKg: 5, gramsPerDay: 95 }, { weightKg: 10, gramsPerDay: 160 }, { weightKg: 20, gramsPerDay: 270 }] };
  const stored = (id: number) =>
    api.db.$client.prepare("SELECT kcal_per_kg, feeding_guide FROM products WHERE id = ?").get(id) as { kcal_per_kg: number | null; feeding_guide: string | null };
  const dogFoodId = () => api.db.$client.prepare("SELECT id FROM categories WHERE slug = 'dog-food'").pluck().get() as number;
  const body = (more: Record<string, unknown> = {}) => ({
    name: "Food Facts Test Adult Dry Dog Food 12kg",
    description: "",
    image: "",
    brand: "Test",
    categoryId: dogFoodId(),
    rating: 4,
    reviewCount: 1,
    retailerLinks: [],
    ...more,
  });

  it("stores a food's kcal per kg and feeding guide, keeps them when left out, clears them with null, and audits the change", async () => {
    const created = await api.admin("POST", "/api/products", body({ kcalPerKg: 3800, feedingGuide: guide }));
    expect(created.status).toBe(201);
    const { id, slug } = (await created.json()) as { id: number; slug: string };
    expect(stored(id)).toEqual({ kcal_per_kg: 3800, feeding_guide: JSON.stringify(guide) });
    const admin = (await (await api.admin("GET", `/api/admin/products/${id}`)).json()) as { kcalPerKg: number | null; feedingGuide: unknown };
    expect([admin.kcalPerKg, admin.feedingGuide]).toEqual([3800, guide]);
    expect(await api.json<Product>(`/api/products/${slug}`)).toMatchObject({ kcalPerKg: 3800, feedingGuide: guide });

    // Left out (an older form, an import): kept.
    expect((await api.admin("PUT", `/api/products/${id}`, body({ name: "Food Facts Test Adult Dry Dog Food 12kg Renamed" }))).status).toBe(200);
    expect(stored(id)).toEqual({ kcal_per_kg: 3800, feeding_guide: JSON.stringify(guide) });

    // Changed, on the bounds, then cleared.
    expect((await api.admin("PUT", `/api/products/${id}`, body({ kcalPerKg: 9000, feedingGuide: null }))).status).toBe(200);
    expect(stored(id)).toEqual({ kcal_per_kg: 9000, feeding_guide: null });
    const audit = api.db.$client.prepare("SELECT summary FROM audit_log WHERE entity = 'product' AND entity_id = ? ORDER BY id DESC LIMIT 1").pluck().get(id) as string;
    expect(audit).toContain("kcalPerKg");
    expect(audit).toContain("feedingGuide");
    expect((await api.admin("PUT", `/api/products/${id}`, body({ kcalPerKg: 100 }))).status).toBe(200);
    expect(stored(id).kcal_per_kg).toBe(100);
    expect((await api.admin("PUT", `/api/products/${id}`, body({ kcalPerKg: null }))).status).toBe(200);
    expect(stored(id)).toEqual({ kcal_per_kg: null, feeding_guide: null });
    expect((await api.admin("DELETE", `/api/products/${id}`)).status).toBe(204);
  });

  it("refuses kcal off its bounds or not whole, and a guide that does not rise, and stores nothing", async () => {
    const id = (await (await api.admin("POST", "/api/products", body({ name: "Food Facts Bad Input Dog Food 2kg", kcalPerKg: 3500, feedingGuide: guide }))).json()) as { id: number };
    const before = stored(id.id);
    const cases: [Record<string, unknown>, string][] = [
      [{ kcalPerKg: 99 }, "kcalPerKg must be a whole number from 100 to 9,000"],
      [{ kcalPerKg: 9001 }, "kcalPerKg must be a whole number from 100 to 9,000"],
      [{ kcalPerKg: 3800.5 }, "kcalPerKg must be a whole number from 100 to 9,000"],
      [{ kcalPerKg: "3800" }, "kcalPerKg must be a whole number from 100 to 9,000"],
      [{ feedingGuide: { rows: [{ weightKg: 5, gramsPerDay: 95 }] } }, "feedingGuide.rows: At least two rows"],
      [{ feedingGuide: { rows: [{ weightKg: 10, gramsPerDay: 160 }, { weightKg: 5, gramsPerDay: 170 }] } }, "feedingGuide.rows.1.weightKg: Body weights must rise row by row"],
      [{ feedingGuide: { rows: [{ weightKg: 5, gramsPerDay: 95 }, { weightKg: 10, gramsPerDay: 90 }] } }, "feedingGuide.rows.1.gramsPerDay: Daily grams must not fall as weight rises"],
    ];
    for (const [more, error] of cases) {
      const response = await api.admin("PUT", `/api/products/${id.id}`, body({ name: "Food Facts Bad Input Dog Food 2kg", ...more }));
      expect([response.status, ((await response.json()) as { error: string }).error], JSON.stringify(more)).toEqual([400, error]);
      const created = await api.admin("POST", "/api/products", body({ name: "Food Facts Never Stored 2kg", ...more }));
      expect(created.status, JSON.stringify(more)).toBe(400);
    }
    expect(stored(id.id)).toEqual(before);
    expect(api.db.$client.prepare("SELECT count(*) FROM products WHERE name = 'Food Facts Never Stored 2kg'").pluck().get()).toBe(0);
  });
});
