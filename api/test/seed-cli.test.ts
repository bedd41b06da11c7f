/**
 * `npm run seed` as a command (a real process over a real SQLite file): a re-seed beside the
 * owner's data, `--clear-demo` with what it prints, and its bad arguments (exit 2).
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot } from "../../data/config.ts";
import { addOwnerCatalogue, type OwnerCatalogue } from "../../data/db/fixtures/owner-catalogue.ts";
import { tempDb, type TempDb } from "../../data/db/fixtures/temp-db.ts";

let temp: TempDb;
let owner: OwnerCatalogue;
beforeAll(async () => {
  temp = await tempDb(6);
  const slug = temp.db.$client.prepare("SELECT slug FROM products WHERE best_price_pence IS NOT NULL ORDER BY id LIMIT 1").pluck().get() as string;
  owner = addOwnerCatalogue(temp.db, slug);
});
afterAll(() => temp.remove());

const run = (args: string[]) =>
  spawnSync(process.execPath, [path.join(projectRoot, "scripts", "seed.ts"), ...args], {
    env: { ...process.env, DATABASE_PATH: temp.file },
    encoding: "utf8",
    timeout: 60_000,
  });
const count = (sql: string, ...params: unknown[]) => temp.db.$client.prepare(sql).pluck().get(...params) as number;

describe("npm run seed", () => {
  it("refuses --clear-demo with --products, and other bad arguments, with the usage (exit 2), changing nothing", () => {
    const products = count("SELECT count(*) FROM products");
    const both = run(["--clear-demo", "--products", "5"]);
    expect(both.status).toBe(2);
    expect(both.stderr).toContain("seed: --clear-demo and --products cannot be used together");
    expect(both.stderr).toContain("node scripts/seed.ts --clear-demo [--database PATH]");
    expect(run(["--clear-demo", "--database", ""]).status).toBe(2);
    expect(run(["--clear-demo=yes"]).status).toBe(2);
    expect(count("SELECT count(*) FROM products")).toBe(products);
    expect(count("SELECT count(*) FROM product_prices WHERE source = 'demo'")).toBeGreaterThan(0);
  });

  it("re-seeds the demo and leaves the owner's product, offers and voucher as they are", () => {
    const ownerOffers = temp.db.$client.prepare("SELECT * FROM product_prices WHERE product_id = ? ORDER BY id").all(owner.productId);
    const result = run(["--products", "4"]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Seeded 4 products, \d+ offers, \d+ price points/);
    expect(count("SELECT count(*) FROM products WHERE demo = 1")).toBe(4);
    expect(temp.db.$client.prepare("SELECT * FROM product_prices WHERE product_id = ? ORDER BY id").all(owner.productId)).toEqual(ownerOffers);
    expect(count("SELECT count(*) FROM vouchers WHERE id = ?", owner.voucherId)).toBe(1);
  });

  it("--clear-demo removes the demo and prints what went and what stayed; run again, it says there is none", () => {
    const offers = count("SELECT count(*) FROM product_prices WHERE source = 'demo'");
    const kept = count("SELECT count(*) FROM products WHERE demo = 1 AND EXISTS (SELECT 1 FROM product_prices pp WHERE pp.product_id = products.id AND pp.source <> 'demo')");
    const removed = count("SELECT count(*) FROM products WHERE demo = 1") - kept;
    const result = run(["--clear-demo", "--database", temp.file]);
    expect(result.status, result.stderr).toBe(0);
    const plural = (n: number, one: string) => `${n} ${n === 1 ? one : `${one}s`}`;
    expect(result.stdout).toMatch(
      new RegExp(
        `^Cleared the demo catalogue from .*test\\.db: removed ${plural(removed, "product")}, ${offers} offers \\(\\d+ price points\\) and 8 vouchers; ` +
          `kept ${plural(kept, "demo product")} with your own offers as yours\\n$`,
      ),
    );
    expect(count("SELECT count(*) FROM product_prices WHERE source = 'demo'")).toBe(0);
    expect(count("SELECT count(*) FROM products WHERE demo = 1")).toBe(0);
    expect(count("SELECT count(*) FROM products WHERE id = ?", owner.productId)).toBe(1);

    const again = run(["--clear-demo"]);
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/^No demo catalogue in .*test\.db: nothing removed\n$/);
  });
});
