/**
 * Migration 0015 on a database that holds a catalogue: adding the legal category must keep every
 * product with its offers, history, favourites and alerts, and the search index's triggers, and
 * must refuse an unknown category from then on.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot } from "../config.ts";
import { closeDb, migrateDb, openDb, type Db } from "./client.ts";

let dir: string;
let db: Db;
const count = (table: string) => (db.$client.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-migration-15-"));
  // The migrations up to 0014, as a database made before the legal category had them.
  const before = path.join(dir, "migrations");
  const source = path.join(projectRoot, "data/migrations");
  fs.mkdirSync(path.join(before, "meta"), { recursive: true });
  const journal = JSON.parse(fs.readFileSync(path.join(source, "meta/_journal.json"), "utf8")) as { entries: { idx: number; tag: string }[] };
  journal.entries = journal.entries.filter((entry) => entry.idx <= 14);
  expect(journal.entries.at(-1)?.tag).toBe("0014_live_catalogue");
  fs.writeFileSync(path.join(before, "meta/_journal.json"), JSON.stringify(journal));
  for (const entry of journal.entries) fs.copyFileSync(path.join(source, `${entry.tag}.sql`), path.join(before, `${entry.tag}.sql`));

  db = openDb(path.join(dir, "app.db"));
  const [{ drizzle }, { migrate }] = await Promise.all([import("drizzle-orm/better-sqlite3"), import("drizzle-orm/better-sqlite3/migrator")]);
  migrate(drizzle(db.$client), { migrationsFolder: before });
  const run = (sql: string, ...params: unknown[]) => db.$client.prepare(sql).run(...params);
  run("INSERT INTO categories (id, name, slug, icon) VALUES (1, 'Flea & Worming', 'pet-health', 'shield-dog')");
  run("INSERT INTO retailers (id, key, name, logo, website, compares_prices) VALUES (1, 'amazon', 'Amazon', '/a.svg', 'https://www.amazon.co.uk', 1)");
  run("INSERT INTO products (id, name, slug, category_id, rank, best_price_pence, best_retailer_id) VALUES (1, 'Wormer Tablets', 'wormer-tablets', 1, 1, 999, 1)");
  run("INSERT INTO product_prices (product_id, retailer_id, price_pence, url) VALUES (1, 1, 999, 'https://www.amazon.co.uk/dp/1')");
  run("INSERT INTO price_history (product_id, retailer_id, price_pence) VALUES (1, 1, 999)");
  run("INSERT INTO favorites (user_id, product_id) VALUES ('user_aaaaaaaaaaaaaaaaaaaaaaaa', 1)");
  run("INSERT INTO price_alerts (user_id, product_id, target_price_pence, email) VALUES ('user_aaaaaaaaaaaaaaaaaaaaaaaa', 1, 900, 'a@example.com')");
  await migrateDb(db);
});
afterAll(() => {
  closeDb(db);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("migration 0015 (legal category)", () => {
  it("keeps the product with its offers, history, favourites and alerts, with no category", () => {
    expect([count("products"), count("product_prices"), count("price_history"), count("favorites"), count("price_alerts")]).toEqual([1, 1, 1, 1, 1]);
    expect(db.$client.prepare("SELECT legal_category, best_price_pence FROM products WHERE id = 1").get()).toEqual({ legal_category: "none", best_price_pence: 999 });
  });

  it("keeps the search index's triggers working on products", () => {
    db.$client.prepare("UPDATE products SET name = 'Quokka Wormer' WHERE id = 1").run();
    expect(db.$client.prepare("SELECT rowid FROM product_search WHERE product_search MATCH 'quokka'").all()).toEqual([{ rowid: 1 }]);
  });

  it("stores each known category and refuses any other", () => {
    const set = db.$client.prepare("UPDATE products SET legal_category = ? WHERE id = 1");
    for (const category of ["POM-V", "POM-VPS", "NFA-VPS", "AVM-GSL", "none"]) expect(set.run(category).changes).toBe(1);
    for (const bad of ["pom-v", "GSL", ""]) expect(() => set.run(bad)).toThrow(/CHECK constraint failed: products_legal_category_ck/);
    expect(() => set.run(null)).toThrow(/NOT NULL/);
    expect(db.$client.prepare("SELECT legal_category FROM products WHERE id = 1").get()).toEqual({ legal_category: "none" });
  });

  it("rebuilds the rating indexes on the rated-only sort key", () => {
    const sql = (name: string) => (db.$client.prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?").get(name) as { sql: string }).sql;
    expect(sql("products_rating_idx")).toContain('(CASE WHEN "review_count" > 0 THEN "rating" END) DESC');
    expect(sql("products_category_rating_idx")).toContain('`category_id`,(CASE WHEN "review_count" > 0 THEN "rating" END) DESC');
  });
});
