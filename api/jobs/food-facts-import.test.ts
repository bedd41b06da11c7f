/**
 * Feed imports and a food's special diets, over a real SQLite file: a new food takes the diets
 * its maker claims in the feed's description (grain-free, hypoallergenic, sensitive), stated on the
 * product in their fixed order; a product that is not a food takes none, whatever its description.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importFeed } from "./product-import.ts";
import { tempDb, type TempDb } from "../../data/db/fixtures/temp-db.ts";
import { readFeed } from "../../data/feeds/read-feed.ts";

let temp: TempDb;
let dir: string;
const at = new Date("2026-11-20T03:00:00.000Z");

beforeAll(async () => {
  temp = await tempDb(5, at);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-diet-import-"));
});
afterAll(() => {
  temp.remove();
  fs.rmSync(dir, { recursive: true, force: true });
});

const header = "product_name,search_price,merchant_name,merchant_deep_link,category_name,brand_name,description";
let page = 0;
const row = (name: string, feedCategory: string, description: string) =>
  [name, "19.99", "Zooplus UK", `https://www.zooplus.co.uk/p/${++page}`, feedCategory, "Wildbowl", JSON.stringify(description)].join(",");

const stated = (name: string) => temp.db.$client.prepare("SELECT special_diets FROM products WHERE name = ?").pluck().get(name);

describe("special diets on import", () => {
  it("states a new food's diets from its description, and none for what is not a food", async () => {
    const file = path.join(dir, "diets.csv");
    fs.writeFileSync(
      file,
      [
        header,
        row("Wildbowl Adult Dry Dog Food Duck 2kg", "Dog Food", "A sensitive recipe, grain free, for adult dogs."),
        row("Wildbowl Adult Dry Cat Food Salmon 2kg", "Cat Food", "Complete food with rice."),
        row("Wildbowl Duck Chews 200g", "Dog Treats", "Grain free, hypoallergenic chews."),
      ].join("\n") + "\n",
    );
    const summary = await importFeed(temp.db, readFeed(file), { source: { name: "wildbowl", createProducts: true }, now: () => at });
    expect(summary).toMatchObject({ created: 3, rejected: 0 });
    expect(stated("Wildbowl Adult Dry Dog Food Duck 2kg")).toBe("grain-free,sensitive");
    expect(stated("Wildbowl Adult Dry Cat Food Salmon 2kg")).toBe("");
    expect(stated("Wildbowl Duck Chews 200g")).toBe("");
  });
});
