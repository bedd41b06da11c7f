import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateDb, openDb, type Db } from "./client.ts";
import { productListSql } from "./products.ts";
import { seedCatalogue } from "./seed.ts";
import { generateCatalogue } from "../seed/generate.ts";
import { sortKeys } from "../domain/sorting.ts";

let dir: string;
let db: Db;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-plans-"));
  db = openDb(path.join(dir, "test.db"));
  await migrateDb(db);
  seedCatalogue(db, generateCatalogue({ products: 200, today: new Date() }));
});
afterAll(() => {
  db.$client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const plan = (sql: string, params: unknown[]) =>
  (db.$client.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params, 15, 0) as { detail: string }[]).map((row) => row.detail).join(" | ");

describe("product page queries", () => {
  it.each(sortKeys)("read %s pages in index order, with or without a category (no sort of the whole set)", (sort) => {
    for (const filters of [{}, { category: "dog-food" }]) {
      const { sql, params } = productListSql(filters, sort);
      expect(plan(sql, params)).not.toContain("TEMP B-TREE");
    }
  });
});
