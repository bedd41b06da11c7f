/**
 * Feed imports and a veterinary medicine's legal category, over a real SQLite file: a new product
 * takes the row's category; a prescription-only one (POM-V, POM-VPS) is never among the run's
 * featured products and takes no featured place; a matched product without a category takes the
 * feed's, one already set keeps its own; a category no one knows is a malformed row.
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
  temp = await tempDb(20, at);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-legal-import-"));
});
afterAll(() => {
  temp.remove();
  fs.rmSync(dir, { recursive: true, force: true });
});

const header = "product_name,search_price,merchant_name,merchant_deep_link,category_name,brand_name,ean,legal_category";
let page = 0;
/** A row of Zooplus's, in the flea and worming category unless told. */
const row = (name: string, category: string, ean = "", feedCategory = "Flea & Worming") =>
  [name, "9.99", "Zooplus UK", `https://www.zooplus.co.uk/p/${++page}`, feedCategory, "Vetcare", ean, category].join(",");

function writeFeed(name: string, rows: string[]): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, [header, ...rows].join("\n") + "\n");
  return file;
}

const product = (name: string) =>
  temp.db.$client.prepare("SELECT id, legal_category AS legal, is_featured AS featured FROM products WHERE name = ?").get(name) as
    | { id: number; legal: string; featured: number }
    | undefined;

describe("legal category on import", () => {
  it("gives new products their row's category; features the first 2 products that are not prescription-only, skipping those that are", async () => {
    const file = writeFeed("new.csv", [
      row("Vetcare Wormer Tablets 4 pack", "POM-V"),
      row("Vetcare Flea Spot On 3 pack", "NFA-VPS"),
      row("Vetcare Wormer Paste 1 tube", "POM-VPS"),
      row("Vetcare Flea Collar Small", "AVM-GSL"),
      row("Vetcare Flea Comb", ""),
    ]);
    const summary = await importFeed(temp.db, readFeed(file), { source: { name: "vet", createProducts: true }, featuredFirst: 2, now: () => at });
    expect(summary).toMatchObject({ created: 5, rejected: 0 });
    expect(
      ["Vetcare Wormer Tablets 4 pack", "Vetcare Flea Spot On 3 pack", "Vetcare Wormer Paste 1 tube", "Vetcare Flea Collar Small", "Vetcare Flea Comb"].map((name) => {
        const { legal, featured } = product(name)!;
        return [legal, featured];
      }),
    ).toEqual([
      ["POM-V", 0],
      ["NFA-VPS", 1],
      ["POM-VPS", 0],
      ["AVM-GSL", 1],
      ["none", 0],
    ]);
  });

  it("refuses a row whose category is not one we know as malformed, and imports the rest", async () => {
    const file = writeFeed("unknown.csv", [row("Vetcare Ear Drops 10ml", "Prescription"), row("Vetcare Eye Wipes 50 pack", "AVM-GSL")]);
    const summary = await importFeed(temp.db, readFeed(file), { source: { name: "vet", createProducts: true }, now: () => at });
    expect(summary).toMatchObject({ created: 1, rejected: 1, refused: { malformed: 1 } });
    expect(summary.errors).toContain('line 2: legal category "Prescription" is not one of POM-V, POM-VPS, NFA-VPS, AVM-GSL (not imported)');
    expect(product("Vetcare Ear Drops 10ml")).toBeUndefined();
    expect(product("Vetcare Eye Wipes 50 pack")?.legal).toBe("AVM-GSL");
  });

  it("gives a matched product without a category the feed's, unfeaturing a prescription-only one; never replaces a category already set", async () => {
    const run = (sql: string, ...params: unknown[]) => temp.db.$client.prepare(sql).run(...params);
    const seeded = temp.db.$client.prepare("SELECT id FROM products WHERE gtin IS NULL AND name NOT LIKE 'Vetcare%' ORDER BY id LIMIT 3").all() as { id: number }[];
    const [plain, featured, set] = seeded.map((entry) => entry.id) as [number, number, number];
    // Barcodes to match by; all three featured; one with a category set by hand.
    run("UPDATE products SET gtin = '5012345678900', is_featured = 1 WHERE id = ?", plain);
    run("UPDATE products SET gtin = '5012345678917', is_featured = 1 WHERE id = ?", featured);
    run("UPDATE products SET gtin = '5012345678924', is_featured = 1, legal_category = 'NFA-VPS' WHERE id = ?", set);
    const file = writeFeed("matched.csv", [
      row("Anything 1", "AVM-GSL", "5012345678900"),
      row("Anything 2", "POM-V", "5012345678917"),
      row("Anything 3", "POM-V", "5012345678924"),
    ]);
    const summary = await importFeed(temp.db, readFeed(file), { source: { name: "vet", createProducts: false }, now: () => at });
    expect(summary).toMatchObject({ created: 0, existing: 3, rejected: 0 });
    const stored = (id: number) => temp.db.$client.prepare("SELECT legal_category AS legal, is_featured AS featured FROM products WHERE id = ?").get(id);
    expect([stored(plain), stored(featured), stored(set)]).toEqual([
      { legal: "AVM-GSL", featured: 1 },
      { legal: "POM-V", featured: 0 },
      { legal: "NFA-VPS", featured: 1 },
    ]);
    // The changed products' pages are rebuilt, and the audit log says what happened (two took a category).
    expect(summary.change.productIds).toEqual(expect.arrayContaining([plain, featured]));
    expect(temp.db.$client.prepare("SELECT summary FROM audit_log WHERE summary LIKE 'Took the feed''s legal%' ORDER BY id DESC LIMIT 1").get()).toEqual({
      summary: "Took the feed's legal category for 2 products without one",
    });

    // Again: every category is set; nothing changes.
    const again = await importFeed(temp.db, readFeed(file), { source: { name: "vet", createProducts: false }, now: () => at });
    expect(again.change.productIds).toEqual([]);
  });
});
