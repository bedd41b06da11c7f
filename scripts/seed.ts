/**
 * Seeds the database with the deterministic demo catalogue (data/seed/generate.ts), or removes it.
 *
 *   node scripts/seed.ts [--products N] [--database PATH]
 *   node scripts/seed.ts --clear-demo [--database PATH]
 *
 * N defaults to 480 (1 to 200000). The database is DATABASE_PATH or data/pawprice.db unless
 * --database is given. Re-running keeps surviving products' ids and visitor data, and replaces
 * only the demo: the owner's products, offers and vouchers stay. --clear-demo removes the demo
 * (data/db/demo.ts) and prints what went and what stayed. Exit codes: 0 done, 1 failed, 2 bad
 * arguments. It never prompts, so it is safe in scripts.
 */
import path from "node:path";
import { databasePath } from "../data/config.ts";
import { parseOptions, runCommand, UsageError, withDatabase } from "./cli.ts";
import { seedCatalogue } from "../data/db/seed.ts";
import { clearDemoCatalogue } from "../data/db/demo.ts";
import { defaultProductCount, generateCatalogue } from "../data/seed/generate.ts";

const maxProducts = 200_000;
const usage = "Usage: node scripts/seed.ts [--products N] [--database PATH]\n       node scripts/seed.ts --clear-demo [--database PATH]";

type SeedArgs = { clearDemo: false; products: number; database: string } | { clearDemo: true; database: string };

function parseSeedArgs(argv: string[]): SeedArgs | "help" {
  const values = parseOptions(argv, {
    products: { type: "string" },
    database: { type: "string" },
    "clear-demo": { type: "boolean" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) return "help";
  if (values["clear-demo"] && values.products !== undefined) throw new UsageError("--clear-demo and --products cannot be used together");

  let products = defaultProductCount;
  if (values.products !== undefined) {
    const text = values.products.trim();
    products = /^\d+$/.test(text) ? Number(text) : Number.NaN;
    if (!Number.isSafeInteger(products) || products < 1 || products > maxProducts) {
      throw new UsageError(`--products must be a whole number from 1 to ${maxProducts}, got "${values.products}"`);
    }
  }
  if (values.database !== undefined && values.database.trim() === "") throw new UsageError("--database must not be empty");
  const database = values.database !== undefined ? path.resolve(values.database) : databasePath();
  return values["clear-demo"] ? { clearDemo: true, database } : { clearDemo: false, products, database };
}

const plural = (count: number, one: string) => `${count} ${count === 1 ? one : `${one}s`}`;

async function seed(args: SeedArgs): Promise<number> {
  const started = performance.now();
  if (args.clearDemo) {
    return withDatabase(args.database, (db) => {
      const { value } = clearDemoCatalogue(db);
      if (value.products + value.keptProducts + value.offers + value.vouchers === 0) {
        console.log(`No demo catalogue in ${args.database}: nothing removed`);
        return 0;
      }
      console.log(
        `Cleared the demo catalogue from ${args.database}: removed ${plural(value.products, "product")}, ${plural(value.offers, "offer")} ` +
          `(${plural(value.historyPoints, "price point")}) and ${plural(value.vouchers, "voucher")}; ` +
          `kept ${plural(value.keptProducts, "demo product")} with your own offers as yours`,
      );
      return 0;
    });
  }
  const products = args.products;
  return withDatabase(args.database, (db) => {
    const catalogue = generateCatalogue({ products, today: new Date() });
    const counts = seedCatalogue(db, catalogue);
    const seconds = ((performance.now() - started) / 1000).toFixed(2);
    console.log(
      `Seeded ${counts.products} products, ${counts.offers} offers, ${counts.historyPoints} price points, ` +
        `${catalogue.categories.length} categories, ${catalogue.retailers.length} retailers and ` +
        `${catalogue.vouchers.length} vouchers into ${args.database} in ${seconds} s`,
    );
    return 0;
  });
}

process.exitCode = await runCommand("seed", usage, parseSeedArgs, seed);
