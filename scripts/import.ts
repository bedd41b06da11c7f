/**
 * Imports a product source into the catalogue, as the admin's Import and Run now buttons do:
 * through the one import job (api/jobs/feed-import.ts), so the run is stored with its counters
 * and result, and a source already importing (here or in the server) is refused. A running
 * server notices the write and rebuilds the pages.
 *
 *   npm run import -- [--source sample|awin|amazon|<feed source name or id>]
 *   npm run import -- --file feed.csv[.gz] [--create-products] [--retailer <key>] [--layout <layout>]
 *
 * --source names a configured source or one of the admin's feed sources (/admin/feeds). --file
 * reads a feed file as source "file"; it creates products only with --create-products, rows
 * naming no merchant are offers of --retailer, and --layout says how to read it (default: detect).
 * Exit codes: 0 imported (rows may have been skipped, each reported), 1 the source could not be
 * read or is importing already, 2 bad arguments.
 */
import path from "node:path";
import { databasePath, feedConfig, pricePipelineConfig } from "../data/config.ts";
import { getFeedSource, listFeedSources, type FeedSource } from "../data/db/feed-sources.ts";
import { feedLayoutChoices, refusalLabels, refusedTotal, type FeedLayoutChoice, type RefusalReason, type RunCounters } from "../data/domain/feed-sources.ts";
import { readFeed } from "../data/feeds/read-feed.ts";
import type { Db } from "../data/db/client.ts";
import { claimImport, executeImport, type ImportTarget } from "../api/jobs/feed-import.ts";
import { createFeedImports } from "../api/feed-imports.ts";
import { defaultImportSource, productSources } from "../api/product-sources.ts";
import { parseOptions, runCommand, UsageError, withDatabase } from "./cli.ts";

interface Args {
  source: string;
  file: string | null;
  createProducts: boolean;
  retailer: string | null;
  layout: FeedLayoutChoice;
}

const usage = [
  "Usage: npm run import -- [--source sample|awin|amazon|<feed source name or id>]",
  `       npm run import -- --file feed.csv[.gz] [--create-products] [--retailer <key>] [--layout ${feedLayoutChoices.join("|")}]`,
].join("\n");

function parse(argv: string[]): Args | "help" {
  const values = parseOptions(argv, {
    source: { type: "string" },
    file: { type: "string" },
    "create-products": { type: "boolean" },
    retailer: { type: "string" },
    layout: { type: "string" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) return "help";
  const file = values.file ?? null;
  if (!file) {
    for (const option of ["create-products", "retailer", "layout"] as const) {
      if (values[option] !== undefined) throw new UsageError(`--${option} applies to --file (configure a source's own settings otherwise)`);
    }
  }
  if (file && values.source !== undefined) throw new UsageError("give --file or --source, not both");
  const layout = values.layout ?? "auto";
  if (!(feedLayoutChoices as string[]).includes(layout)) throw new UsageError(`unknown layout "${layout}" (known: ${feedLayoutChoices.join(", ")})`);
  if (layout === "mapped") throw new UsageError("a mapped layout needs a column mapping: add the feed as a source in /admin/feeds and run it with --source");
  const retailer = values.retailer?.trim() ?? null;
  if (retailer !== null && !/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(retailer)) throw new UsageError(`--retailer must be a retailer's key (e.g. pets-at-home), not "${retailer}"`);
  return { source: file ? "file" : (values.source ?? defaultImportSource()), file, createProducts: values["create-products"] ?? false, retailer, layout: layout as FeedLayoutChoice };
}

/** An admin feed source by its name or id. */
function findFeedSource(db: Db, ref: string): FeedSource | null {
  if (/^[1-9]\d{0,15}$/.test(ref)) return getFeedSource(db, Number(ref));
  return listFeedSources(db).find((source) => source.name.toLowerCase() === ref.toLowerCase()) ?? null;
}

function fileTarget(args: Args & { file: string }): ImportTarget {
  const file = path.resolve(args.file);
  return {
    key: `file:${file}`,
    sourceId: null,
    label: `File ${path.basename(file)}`,
    tagName: "file",
    createProducts: args.createProducts,
    open: async () => readFeed(file, { layout: args.layout, retailerKey: args.retailer }),
  };
}

const count = (n: number) => n.toLocaleString("en-GB");

function progressLine(counters: RunCounters): string {
  return `  ${count(counters.rowsRead)} rows read: ${count(counters.matched)} matched, ${count(counters.created)} created, ${count(refusedTotal(counters.refused))} refused`;
}

async function run(args: Args): Promise<number> {
  const started = Date.now();
  return withDatabase(databasePath(), async (db) => {
    const config = feedConfig();
    const imports = createFeedImports({ db, uploadsDir: config.uploadsDir, uploadMaxBytes: config.uploadMaxBytes, catalogueChanged: () => {}, schedules: false, log: () => {} });
    try {
      let target: ImportTarget;
      if (args.file) target = fileTarget({ ...args, file: args.file });
      else if (productSources().has(args.source)) target = imports.configuredTarget(args.source);
      else {
        const source = findFeedSource(db, args.source);
        if (!source) {
          const known = [...productSources().keys(), ...listFeedSources(db).map((feed) => feed.name)];
          console.error(`import: unknown source "${args.source}" (known: ${known.join(", ")})\n${usage}`);
          return 2;
        }
        target = imports.targetOf(source);
      }
      if (args.retailer && !db.$client.prepare("SELECT 1 FROM retailers WHERE key = ?").get(args.retailer)) throw new Error(`--retailer "${args.retailer}" is not a known retailer`);

      const claimed = claimImport(db, target, "cli");
      console.log(`Import run ${claimed.id}: ${target.label}`);
      let printed = 0;
      const result = await executeImport(db, claimed.id, target, {
        policy: pricePipelineConfig().holdPolicy,
        // A running server notices this process's writes by itself (SQLite's data_version).
        catalogueChanged: () => {},
        log: () => {},
        onProgress: (counters) => {
          if (Date.now() - printed < 2000) return;
          printed = Date.now();
          console.log(progressLine(counters));
        },
      });
      if (result.status === "failed") throw new Error(result.error ?? "the import failed");
      for (const message of result.messages.slice(0, 20)) console.log(`  ${message}`);
      if (result.totalMessages > 20) console.log(`  ... and ${count(result.totalMessages - 20)} more`);
      for (const [reason, refused] of Object.entries(result.refused)) console.log(`  refused, ${refusalLabels[reason as RefusalReason].toLowerCase()}: ${count(refused ?? 0)}`);
      const seconds = (Date.now() - started) / 1000;
      console.log(
        `Imported ${result.created} products from ${args.source}: ${result.rowsRead} rows, ${result.matched} already existed, ${result.offersAdded} offers added, ` +
          `${result.pricesChanged} prices changed, ${result.held} held for review, ${result.unmatched} unmatched, ${refusedTotal(result.refused)} rejected, in ${seconds.toFixed(1)} s`,
      );
      return 0;
    } finally {
      await imports.stop();
    }
  });
}

process.exitCode = await runCommand("import", usage, parse, run);
