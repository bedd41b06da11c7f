/**
 * When a food's best price stops counting for its equivalents: at its current-until time it still
 * does, a millisecond later it does not; a price with no such time (set by hand) always does. And
 * which foods a species' list holds, kept until the catalogue or the freshness window changes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { foodsOfSpecies, isCurrent } from "./alternatives.ts";
import { bumpCatalogueRevision } from "./catalogue-revision.ts";
import { tempDb, type TempDb } from "./fixtures/temp-db.ts";
import type { FoodChoice } from "../domain/alternatives.ts";

const food = (currentUntil: string | null): FoodChoice => ({
  id: 1,
  species: "dog",
  familyKey: null,
  facts: { lifeStage: "adult", foodType: "dry", mainProtein: null, diets: [] },
  packGrams: 2000,
  kcalPerKg: null,
  guide: null,
  bestPricePence: 1000,
  currentUntil,
});

describe("isCurrent", () => {
  it("counts a price up to and at its current-until time, not a millisecond after", () => {
    const until = "2026-11-29T10:00:00.000Z";
    expect(isCurrent(food(until), "2026-11-29T09:59:59.999Z")).toBe(true);
    expect(isCurrent(food(until), until)).toBe(true);
    expect(isCurrent(food(until), "2026-11-29T10:00:00.001Z")).toBe(false);
  });

  it("always counts a price that does not lapse by time", () => {
    expect(isCurrent(food(null), "2099-01-01T00:00:00.000Z")).toBe(true);
  });
});

describe("foodsOfSpecies", () => {
  let temp: TempDb;
  beforeAll(async () => {
    temp = await tempDb(0);
    const sql = (text: string, ...params: unknown[]) => temp.db.$client.prepare(text).run(...params);
    const retailer = (
      temp.db.$client
        .prepare("INSERT INTO retailers (key, name, logo, website) VALUES ('testshop', 'Test Shop', '', 'https://www.example.com') RETURNING id")
        .get() as { id: number }
    ).id;
    for (const [slug, name] of [
      ["dog-food", "Dog Food"],
      ["dog-food-wet", "Wet Dog Food"],
      ["dog-treats", "Dog Treats"],
    ]) {
      sql("INSERT INTO categories (name, slug, icon, description) VALUES (?, ?, 'bone', '') ON CONFLICT(slug) DO NOTHING", name, slug);
    }
    const add = (name: string, category: string, checkedAt: string | null) => {
      const id = (
        temp.db.$client
          .prepare("INSERT INTO products (name, slug, category_id, best_price_pence, best_retailer_id) SELECT ?, ?, id, 1000, ? FROM categories WHERE slug = ? RETURNING id")
          .get(name, name.toLowerCase().replaceAll(" ", "-"), retailer, category) as { id: number }
      ).id;
      sql(
        "INSERT INTO product_prices (product_id, retailer_id, price_pence, url, last_checked_at) VALUES (?, ?, 1000, 'https://www.example.com/p', ?)",
        id,
        retailer,
        checkedAt,
      );
    };
    add("Kibble Adult Dry 2kg", "dog-food", "2026-11-28T10:00:00.000Z");
    add("Stew Adult Wet Trays 2kg", "dog-food-wet", null);
    add("Chew Sticks 200g", "dog-treats", "2026-11-28T10:00:00.000Z");
  });
  afterAll(() => temp.remove());

  it("reads a species' food and food aisles, not its treats; a price never checked does not lapse", () => {
    const foods = foodsOfSpecies(temp.db, "dog", 3_600_000);
    expect(foods.map((food) => [food.name, food.currentUntil])).toEqual([
      ["Kibble Adult Dry 2kg", "2026-11-28T11:00:00.000Z"],
      ["Stew Adult Wet Trays 2kg", null],
    ]);
  });

  it("keeps what it read until the catalogue changes or the freshness window does", () => {
    const first = foodsOfSpecies(temp.db, "dog", 3_600_000);
    expect(foodsOfSpecies(temp.db, "dog", 3_600_000)).toBe(first);
    const otherWindow = foodsOfSpecies(temp.db, "dog", 7_200_000);
    expect(otherWindow).not.toBe(first);
    expect(otherWindow[0]!.currentUntil).toBe("2026-11-28T12:00:00.000Z");
    expect(foodsOfSpecies(temp.db, "dog", 7_200_000)).toBe(otherWindow);
    bumpCatalogueRevision(temp.db);
    expect(foodsOfSpecies(temp.db, "dog", 7_200_000)).not.toBe(otherWindow);
  });
});
