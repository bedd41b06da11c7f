/**
 * Seeds the database with the deterministic demo catalogue (data/seed/generate.ts).
 *
 *   node scripts/seed.ts [--products N] [--database PATH]
 *
 * N defaults to 480 (1 to 200000). The database is DATABASE_PATH or data/pawprice.db unless
 * --database is given. Re-running keeps surviving products' ids and visitor data. Exit codes:
 * 0 done, 1 seeding failed, 2 bad arguments. It never prompts, so it is safe in scripts.
 */
import path from "node:path";
import { databasePath } from "../data/config.ts";
import { parseOptions, runCommand, UsageError, withDatabase } from "./cli.ts";
import { seedCatalogue } from "../data/db/seed.ts";
import { defaultProductCount, generateCatalogue } from "../data/seed/generate.ts";

const maxProducts = 200_000;
const usage = "Usage: node scripts/seed.ts [--products N] [--database PATH]";

interface SeedArgs {
  products: number;
  database: string;
}

function parseSeedArgs(argv: string[]): SeedArgs | "help" {
  const values = parseOptions(argv, {
    products: { type: "string" },
    database: { type: "string" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) return "help";

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
  return { products, database };
}

async function seed(args: SeedArgs): Promise<number> {
  const started = performance.now();
  return withDatabase(args.database, (db) => {
    const catalogue = generateCatalogue({ products: args.products, today: new Date() });
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
