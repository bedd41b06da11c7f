/**
 * `npm run bench:import`: generates a 200 MB affiliate feed (Awin CSV layout, gzip optional) and a
 * 200 MB Google Merchant Center XML feed (RSS 2.0, one shop: zooplus), and imports each into its
 * own temporary database seeded with the demo catalogue, through the same code as `npm run
 * import`. Prints items/s and the import's peak memory for each, and writes them to
 * data/bench/import.json and data/bench/import-google-xml.json (import-gzip.json,
 * import-create.json, ... for the variants).
 *
 * Each import runs in a child process of its own, so its memory figures are the import's alone:
 * it samples its RSS every 50 ms and reports the kernel's high-water mark (maxRSS). The feeds are
 * streamed, so memory must not grow with the feed's size.
 *
 * Options: --mb N (feed size, default 200), --gzip, --create-products (rows that match nothing
 * create products; default off, as for a price feed), --format csv|google-xml|both (default both).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { importFeed } from "../api/jobs/product-import.ts";
import { projectRoot } from "../data/config.ts";
import { migrateDb, openDb } from "../data/db/client.ts";
import { seedCatalogue } from "../data/db/seed.ts";
import { readFeed } from "../data/feeds/read-feed.ts";
import { writeGeneratedFeed } from "../data/feeds/generate-feed.ts";
import { defaultProductCount, generateCatalogue } from "../data/seed/generate.ts";
import { benchResultsFile } from "./bench-results.ts";

const { values } = parseArgs({
  options: {
    mb: { type: "string", default: "200" },
    gzip: { type: "boolean", default: false },
    "create-products": { type: "boolean", default: false },
    format: { type: "string", default: "both" },
    // Internal: the child process imports this feed into this database (for this retailer).
    "import-db": { type: "string" },
    "import-feed": { type: "string" },
    "import-retailer": { type: "string" },
  },
});

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

interface ImportFigures {
  seconds: number;
  rows: number;
  rowsPerSecond: number;
  created: number;
  existing: number;
  pricesChanged: number;
  held: number;
  unmatched: number;
  rejected: number;
  startRssMb: number;
  sampledPeakRssMb: number;
  maxRssMb: number;
}

async function importOnce(databaseFile: string, feedFile: string, createProducts: boolean, retailerKey: string | null): Promise<ImportFigures> {
  const db = openDb(databaseFile);
  const startRss = process.memoryUsage().rss;
  let peakRss = startRss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
  const started = performance.now();
  const summary = await importFeed(db, readFeed(feedFile, { retailerKey }), { source: { name: "bench", createProducts } });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  db.$client.close();
  return {
    seconds: Math.round(seconds * 100) / 100,
    rows: summary.rows,
    rowsPerSecond: Math.round(summary.rows / seconds),
    created: summary.created,
    existing: summary.existing,
    pricesChanged: summary.pricesChanged,
    held: summary.held,
    unmatched: summary.unmatched,
    rejected: summary.rejected,
    startRssMb: mb(startRss),
    sampledPeakRssMb: mb(peakRss),
    maxRssMb: mb(process.resourceUsage().maxRSS * 1024),
  };
}

/** The feeds a run benchmarks: today's Awin CSV, and a Google Merchant Center XML feed of one shop. */
const formats = {
  csv: { generated: "awin-csv", file: "feed.csv", retailer: null, label: "Awin CSV", out: "import" },
  "google-xml": { generated: "google-xml", file: "feed.xml", retailer: "zooplus", label: "Google Merchant XML", out: "import-google-xml" },
} as const;

if (values["import-db"] && values["import-feed"]) {
  console.log(JSON.stringify(await importOnce(values["import-db"], values["import-feed"], values["create-products"], values["import-retailer"] ?? null)));
} else {
  const feedMb = Number(values.mb);
  const chosen = values.format === "both" ? (["csv", "google-xml"] as const) : [values.format as keyof typeof formats];
  if (chosen.some((format) => !(format in formats))) throw new Error(`--format must be csv, google-xml or both, not ${values.format}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-bench-import-"));
  try {
    const seededFile = path.join(dir, "seeded.db");
    const seeded = openDb(seededFile);
    await migrateDb(seeded);
    seedCatalogue(seeded, generateCatalogue({ products: defaultProductCount, today: new Date() }));
    seeded.$client.close();

    for (const name of chosen) {
      const format = formats[name];
      const feedFile = path.join(dir, values.gzip ? `${format.file}.gz` : format.file);
      console.log(`Generating a ${feedMb} MB ${format.label} feed${values.gzip ? " (gzip)" : ""}...`);
      const generated = await writeGeneratedFeed(feedFile, { bytes: feedMb * 1024 * 1024, gzip: values.gzip, format: format.generated });
      console.log(`  ${generated.rows.toLocaleString("en-GB")} items, ${mb(fs.statSync(feedFile).size)} MB on disk`);

      // Each feed is imported into its own copy of the seeded catalogue.
      const databaseFile = path.join(dir, `${name}.db`);
      fs.copyFileSync(seededFile, databaseFile);
      console.log(`Importing (${values["create-products"] ? "creating products" : "price feed: matching only"})...`);
      const args = [fileURLToPath(import.meta.url), "--import-db", databaseFile, "--import-feed", feedFile];
      if (format.retailer !== null) args.push("--import-retailer", format.retailer);
      if (values["create-products"]) args.push("--create-products");
      const output = execFileSync(process.execPath, args, { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 });
      const figures = JSON.parse(output.trim().split("\n").at(-1)!) as ImportFigures;
      const result = { format: name, feedMb, gzip: values.gzip, createProducts: values["create-products"], feedRows: generated.rows, ...figures };
      console.log(
        `${format.label}: ${figures.rows.toLocaleString("en-GB")} items in ${figures.seconds} s: ${figures.rowsPerSecond.toLocaleString("en-GB")} items/s; ` +
          `peak RSS ${figures.maxRssMb} MB (sampled ${figures.sampledPeakRssMb} MB, ${figures.startRssMb} MB at start); ` +
          `${figures.created} created, ${figures.existing} matched, ${figures.unmatched} unmatched, ${figures.rejected} rejected`,
      );
      const out = benchResultsFile(`${format.out}${values.gzip ? "-gzip" : ""}${values["create-products"] ? "-create" : ""}.json`);
      fs.writeFileSync(out, JSON.stringify({ date: new Date().toISOString(), cores: os.cpus().length, result }, null, 2) + "\n");
      console.log(`Written to ${path.relative(projectRoot, out)}`);
      fs.rmSync(feedFile, { force: true });
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
