/**
 * Imports a product source into the catalogue, as the admin's Import button does, through the
 * catalogue writer. A running server notices the write and rebuilds the pages.
 *
 *   npm run import -- [--source sample|awin|amazon] [--file feed.csv[.gz]] [--create-products]
 *
 * --file reads a feed file in the Awin CSV layout (plain or gzip) as source "file" (or as the
 * named --source); it creates products only with --create-products. Exit codes: 0 imported (rows
 * may have been skipped, each reported), 1 the source could not be read, 2 bad arguments.
 */
import path from "node:path";
import { databasePath, pricePipelineConfig } from "../data/config.ts";
import { readFeed } from "../data/feeds/awin-feed.ts";
import { importFeed } from "../api/jobs/product-import.ts";
import { openSource, productSources, defaultImportSource } from "../api/product-sources.ts";
import { parseOptions, runCommand, UsageError, withDatabase } from "./cli.ts";

interface Args {
  source: string;
  file: string | null;
  createProducts: boolean;
}

const usage = "Usage: npm run import -- [--source sample|awin|amazon] [--file feed.csv[.gz]] [--create-products]";

function parse(argv: string[]): Args | "help" {
  const values = parseOptions(argv, {
    source: { type: "string" },
    file: { type: "string" },
    "create-products": { type: "boolean" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) return "help";
  const file = values.file ?? null;
  const source = values.source ?? (file ? "file" : defaultImportSource());
  if (!file && !productSources().has(source)) throw new UsageError(`unknown source "${source}" (known: ${[...productSources().keys()].join(", ")})`);
  if (values["create-products"] && !file) throw new UsageError("--create-products applies to --file (configure a source's own setting otherwise)");
  return { source, file, createProducts: values["create-products"] ?? false };
}

async function run(args: Args): Promise<number> {
  const started = Date.now();
  return withDatabase(databasePath(), async (db) => {
    const configured = productSources().get(args.source);
    const items = args.file ? await readFeed(path.resolve(args.file)) : await openSource(configured!);
    const createProducts = args.file ? args.createProducts : configured!.createProducts;
    const summary = await importFeed(db, items, {
      source: { name: args.source, createProducts },
      policy: pricePipelineConfig().holdPolicy,
      onProgress: (rows) => console.log(`  ${rows.toLocaleString("en-GB")} rows read`),
      progressEvery: 50_000,
    });
    for (const message of summary.errors.slice(0, 20)) console.log(`  ${message}`);
    if (summary.totalErrors > 20) console.log(`  ... and ${summary.totalErrors - 20} more`);
    const seconds = (Date.now() - started) / 1000;
    console.log(
      `Imported ${summary.created} products from ${args.source}: ${summary.rows} rows, ${summary.existing} already existed, ${summary.offersAdded} offers added, ` +
        `${summary.pricesChanged} prices changed, ${summary.held} held for review, ${summary.unmatched} unmatched, ${summary.rejected} rejected, in ${seconds.toFixed(1)} s`,
    );
    return 0;
  });
}

process.exitCode = await runCommand("import", usage, parse, run);
