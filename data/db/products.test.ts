import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateDb, openDb, type Db } from "./client.ts";
import { productListSql, searchProducts } from "./products.ts";
import { SearchIndex, searchTerms, toFtsQuery, toWholeWordQueries } from "../domain/search.ts";
import { seedCatalogue } from "./seed.ts";
import { generateCatalogue } from "../seed/generate.ts";
import { sortKeys, sortOffered } from "../domain/sorting.ts";
import { foodSpeciesOf } from "../domain/food.ts";

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
    for (const filters of [{}, { category: "dog-food" }] as { category?: string }[]) {
      // Price per kg is offered only within a category sold by weight.
      if (!sortOffered(sort, filters.category)) continue;
      const { sql, params } = productListSql(filters, sort);
      expect(plan(sql, params)).not.toContain("TEMP B-TREE");
    }
  });
});

describe("Highest Rated", () => {
  /**
   * Products of one new category: reviewed ones by rating, equal ratings by review count then
   * rank; products without reviews after all of them by rank, whatever rating their row holds
   * (the 4.5 default, or a 5 left behind).
   */
  const ratingCategory = "rating-order";
  const expected = ["four-many-rank30", "four-many-rank60", "four-few", "three", "one", "unreviewed-five", "unreviewed-default", "unreviewed-zero"];
  beforeAll(() => {
    const { id: categoryId } = db.$client
      .prepare("INSERT INTO categories (name, slug, icon) VALUES ('Rating order', ?, 'star') RETURNING id")
      .get(ratingCategory) as { id: number };
    const insert = db.$client.prepare("INSERT INTO products (name, slug, brand, category_id, rating, review_count, rank) VALUES (?, ?, 'Ratewell', ?, ?, ?, ?)");
    // Inserted out of order, so neither id nor insertion order can produce the expected one.
    for (const [slug, rating, reviews, rank] of [
      ["unreviewed-five", 5, 0, 1],
      ["three", 3, 10, 5],
      ["unreviewed-zero", 0, 0, 3],
      ["four-few", 4, 5, 2],
      ["four-many-rank60", 4, 20, 60],
      ["one", 1, 1, 4],
      ["four-many-rank30", 4, 20, 30],
      ["unreviewed-default", 4.5, 0, 2],
    ] as const) {
      insert.run(slug, slug, categoryId, rating, reviews, rank);
    }
  });

  const ratedSlugs = (offset = 0, limit = 20) => {
    const { sql, params } = productListSql({ category: ratingCategory }, "rating_desc");
    return (db.$client.prepare(sql).all(...params, limit, offset) as { slug: string }[]).map((row) => row.slug);
  };

  it("ranks every reviewed product above every product without reviews, a 5 without reviews below a reviewed 3.0 and 1.0", () => {
    expect(ratedSlugs()).toEqual(expected);
  });

  it("orders a page boundary the same way (pages are slices of one order)", () => {
    expect([...ratedSlugs(0, 5), ...ratedSlugs(5, 5)]).toEqual(expected);
  });

  it("reads the rating sort in its index's order, with and without a category", () => {
    const all = productListSql({}, "rating_desc");
    expect(plan(all.sql, all.params)).toMatch(/USING INDEX products_rating_idx/);
    const inCategory = productListSql({ category: ratingCategory }, "rating_desc");
    expect(plan(inCategory.sql, inCategory.params)).toMatch(/USING INDEX products_category_rating_idx/);
    expect(plan(inCategory.sql, inCategory.params)).not.toContain("TEMP B-TREE");
  });
});

describe("product search", () => {
  /**
   * The reference: FTS5's own matching; for a species' name alone ("cat", "dogs"), the products of
   * that species' food categories (cat-food and its sub-aisles) first; then the products holding
   * fewest of the words not as a whole word of the name or category (FTS5 column-filtered
   * matching), then bm25, rank, id.
   */
  function ftsSearch(text: string, offset: number, limit: number) {
    const match = toFtsQuery(text)!;
    const wholeWords = toWholeWordQueries(text);
    const tier = wholeWords.map(() => "(s.rowid NOT IN (SELECT rowid FROM product_search WHERE product_search MATCH ?))").join(" + ");
    const species = ({ dog: "dog", dogs: "dog", cat: "cat", cats: "cat" } as Record<string, string>)[text.trim().toLowerCase()];
    const speciesTier = species ? `(c.slug NOT IN ('${species}-food') AND c.slug NOT LIKE '${species}-food-%'), ` : "";
    const total = (db.$client.prepare("SELECT count(*) AS n FROM product_search WHERE product_search MATCH ?").get(match) as { n: number }).n;
    const ids = (
      db.$client
        .prepare(
          `SELECT s.rowid AS id FROM product_search s JOIN products p ON p.id = s.rowid JOIN categories c ON c.id = p.category_id WHERE product_search MATCH ?
           ORDER BY ${speciesTier}${tier}, bm25(product_search, 10.0, 6.0, 3.0, 1.0), p.rank, p.id LIMIT ? OFFSET ?`,
        )
        .all(match, ...wholeWords, limit, offset) as { id: number }[]
    ).map((row) => row.id);
    return { ids, total };
  }

  /** Brands, words of names, and 1-3 word runs of names with the last word cut short. */
  function typicalQueries(): string[] {
    const rows = db.$client.prepare("SELECT name, brand FROM products ORDER BY id").all() as { name: string; brand: string }[];
    const queries = new Set<string>(["royal", "hill's", "dog food", "do", "a", "pack of", "cat litter 10"]);
    rows.forEach((row, i) => {
      const words = searchTerms(row.name);
      if (i % 10 === 0) queries.add(row.brand);
      if (i % 3 === 0) queries.add(words[i % words.length]!);
      const run = words.slice(i % 3, (i % 3) + 1 + (i % 3));
      if (run.length > 0) queries.add([...run.slice(0, -1), run.at(-1)!.slice(0, 3)].join(" "));
    });
    return [...queries];
  }

  it("ranks in memory exactly as FTS5 does: species food, whole-word tier, bm25 with the column weights, then rank", () => {
    const rows = db.$client
      .prepare(
        "SELECT s.rowid AS id, p.rank, s.name, s.brand, s.category, s.description, c.slug FROM product_search s JOIN products p ON p.id = s.rowid JOIN categories c ON c.id = p.category_id",
      )
      .all() as { id: number; rank: number; name: string; brand: string; category: string; description: string; slug: string }[];
    const index = new SearchIndex(
      rows.map((row) => ({ id: row.id, rank: row.rank, columns: [row.name, row.brand, row.category, row.description], foodFor: foodSpeciesOf(row.slug) })),
    );
    const queries = [...typicalQueries(), "cat", "Cats", "dog", "dogs"];
    expect(queries.length).toBeGreaterThan(100);
    for (const query of queries) {
      for (const [offset, limit] of [
        [0, 15],
        [15, 15],
        [0, 100],
        [150, 150], // beyond the short list: every match sorted
      ] as const) {
        expect(index.search(searchTerms(query), offset, limit), `${query} ${offset}`).toEqual(ftsSearch(query, offset, limit));
      }
    }
  });

  it("ranks 'cat' with the products whose category or name holds the word before one matched by a brand prefix, in FTS5 and in memory", async () => {
    const search = () => searchProducts(db, "cat", { offset: 0, limit: 100 }).products;
    search(); // the in-memory index is built; the change below makes FTS5 answer until it is rebuilt
    // A best seller matched by "cat" only as the start of its name's and brand's first word.
    const id = (db.$client.prepare("SELECT id FROM products WHERE rank = 3").get() as { id: number }).id;
    db.$client
      .prepare("UPDATE products SET name = 'Catsanio Clumping Litter 10L', brand = 'Catsanio', description = 'Clumps fast.', category_id = (SELECT id FROM categories WHERE slug = 'small-animal') WHERE id = ?")
      .run(id);
    const wholeWord = (product: { name: string; category: { name: string } }) => /\bcat\b/i.test(`${product.name} ${product.category.name}`);
    const check = (products: ReturnType<typeof search>) => {
      const at = products.findIndex((product) => product.id === id);
      expect(at).toBeGreaterThan(0);
      expect(products.slice(0, at).every(wholeWord)).toBe(true);
      expect(products.filter(wholeWord).length).toBe(at);
      // Within the whole-word tier, equally good matches go by rank: the tier is ordered by score, then rank.
      expect({ ids: products.map((product) => product.id), total: products.length }).toEqual(ftsSearch("cat", 0, 100));
    };
    const fromFts = search();
    check(fromFts);
    await new Promise((resolve) => setTimeout(resolve, 1200)); // the index is rebuilt a second after the change
    const fromIndex = search();
    check(fromIndex);
    expect(fromIndex.map((product) => product.id)).toEqual(fromFts.map((product) => product.id));
  });

  it("lists a species' food first for its name alone ('cat', 'dogs'), then its other matches as before; a longer search is unchanged", async () => {
    const slugOf = new Map(
      (db.$client.prepare("SELECT p.id, c.slug FROM products p JOIN categories c ON c.id = p.category_id").all() as { id: number; slug: string }[]).map((row) => [row.id, row.slug]),
    );
    const order = (text: string) => searchProducts(db, text, { offset: 0, limit: 100 }).products.map((product) => product.id);
    await new Promise((resolve) => setTimeout(resolve, 1200)); // the in-memory index answers, not FTS5 after the tests' changes
    for (const [text, food] of [
      ["cat", "cat-food"],
      ["Cats", "cat-food"],
      ["dog", "dog-food"],
    ] as const) {
      const ids = order(text);
      const foods = ids.filter((id) => slugOf.get(id) === food);
      expect(foods.length, text).toBeGreaterThan(2);
      // Every food product comes before every other match: the food block is the list's start.
      expect(ids.slice(0, foods.length), text).toEqual(foods);
      // Other categories' matches come after.
      expect(ids.length, text).toBeGreaterThan(foods.length);
      expect({ ids, total: ids.length }, text).toEqual(ftsSearch(text, 0, 100));
    }
    // Cat litter no longer ranks above cat food for "cat"; with more words the shopper said what they want.
    const cat = order("cat");
    expect(slugOf.get(cat[0]!)).toBe("cat-food");
    expect(slugOf.get(order("cat litter")[0]!)).toBe("cat-litter");
    // A word that only starts like a species ("catnip") or a species among other words is not favoured.
    const catnip = order("catnip");
    expect(catnip.length).toBeGreaterThan(0);
    expect(catnip).toEqual(ftsSearch("catnip", 0, 100).ids);
  });

  it("answers with FTS5's results, before and right after a change", () => {
    for (const query of typicalQueries().slice(0, 40)) {
      const result = searchProducts(db, query, { offset: 0, limit: 15 });
      expect({ ids: result.products.map((product) => product.id), total: result.total }, query).toEqual(ftsSearch(query, 0, 15));
    }
    const id = (db.$client.prepare("SELECT id FROM products WHERE rank = 5").get() as { id: number }).id;
    db.$client.prepare("UPDATE products SET name = 'Zephyrine Quokka Biscuits' WHERE id = ?").run(id);
    expect(searchProducts(db, "zephyr quok", { offset: 0, limit: 15 }).products.map((product) => product.id)).toEqual([id]);
    db.$client.prepare("DELETE FROM product_prices WHERE product_id = ?").run(id);
    db.$client.prepare("DELETE FROM price_history WHERE product_id = ?").run(id);
    db.$client.prepare("DELETE FROM products WHERE id = ?").run(id);
    expect(searchProducts(db, "zephyr", { offset: 0, limit: 15 })).toEqual({ products: [], total: 0 });
  });
});
