/**
 * `npm run bench:export`: seeds 50,000 products into a temporary database and streams the
 * admin's .xlsx product export of it to a temporary file. Prints the wall time, rows, file size
 * and the export's peak memory, and writes them to data/bench/export.json.
 *
 * The export runs in a child process of its own, so its memory figures are the export's alone,
 * not the seeding's (generating 50,000 products holds the whole catalogue in memory). The child
 * samples its RSS every 50 ms and also reports the kernel's high-water mark (maxRSS).
 *
 * Options: --products N (default 50000).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { writeProductsXlsx } from "../api/lib/products-xlsx.ts";
import { projectRoot, siteConfig } from "../data/config.ts";
import { migrateDb, openDb } from "../data/db/client.ts";
import { seedCatalogue } from "../data/db/seed.ts";
import { generateCatalogue } from "../data/seed/generate.ts";
import { benchResultsFile } from "./bench-results.ts";

const { values } = parseArgs({
  options: {
    products: { type: "string", default: "50000" },
    // Internal: run the export of this database file (the child process).
    "export-db": { type: "string" },
    "export-to": { type: "string" },
  },
});

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

interface ExportFigures {
  seconds: number;
  /** CPU time of the whole process (user + system), the compression threads included. */
  cpuSeconds: number;
  rows: number;
  fileBytes: number;
  /** RSS once the modules are loaded and the database is open, before the export starts. */
  startRssMb: number;
  /** Highest RSS seen by sampling every 50 ms. */
  sampledPeakRssMb: number;
  /** The kernel's high-water mark for the process (process.resourceUsage().maxRSS). */
  maxRssMb: number;
}

/** The child: exports `databaseFile` to `outFile` and prints its figures as JSON. */
async function exportOnce(databaseFile: string, outFile: string): Promise<ExportFigures> {
  const db = openDb(databaseFile, { readonly: true });
  const startRss = process.memoryUsage().rss;
  let peakRss = startRss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const { rows } = await writeProductsXlsx(db, fs.createWriteStream(outFile), { siteName: siteConfig.siteName });
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  db.$client.close();
  return {
    seconds: Math.round(seconds * 100) / 100,
    cpuSeconds: Math.round((cpu.user + cpu.system) / 10_000) / 100,
    rows,
    fileBytes: fs.statSync(outFile).size,
    startRssMb: mb(startRss),
    sampledPeakRssMb: mb(peakRss),
    // maxRSS is in kilobytes.
    maxRssMb: mb(process.resourceUsage().maxRSS * 1024),
  };
}

if (values["export-db"] && values["export-to"]) {
  console.log(JSON.stringify(await exportOnce(values["export-db"], values["export-to"])));
} else {
  const products = Number(values.products);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-bench-export-"));
  try {
    const databaseFile = path.join(dir, "bench.db");
    const seedStarted = performance.now();
    const db = openDb(databaseFile);
    await migrateDb(db);
    seedCatalogue(db, generateCatalogue({ products, today: new Date() }));
    // The rows the export must write: one per offer plus one per product without offers.
    const { expectedRows, offers } = db.$client
      .prepare(
        `SELECT (SELECT count(*) FROM product_prices) AS offers,
          (SELECT count(*) FROM product_prices)
            + (SELECT count(*) FROM products p WHERE NOT EXISTS (SELECT 1 FROM product_prices pp WHERE pp.product_id = p.id)) AS expectedRows`,
      )
      .get() as { expectedRows: number; offers: number };
    db.$client.close();
    console.log(`seeded ${products} products (${offers} offers) in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);

    const outFile = path.join(dir, "export.xlsx");
    const output = execFileSync(process.execPath, [fileURLToPath(import.meta.url), "--export-db", databaseFile, "--export-to", outFile], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    });
    const figures = JSON.parse(output.trim().split("\n").at(-1)!) as ExportFigures;
    if (figures.rows !== expectedRows) throw new Error(`exported ${figures.rows} rows, expected ${expectedRows}`);

    const result = {
      products,
      ...figures,
      fileMb: mb(figures.fileBytes),
      rowsPerSecond: Math.round(figures.rows / figures.seconds),
      meetsTarget: figures.seconds < 30,
    };
    console.log(`\nProduct export (.xlsx, streamed; target: 50,000 products well under 30 s without holding the workbook in memory), ${os.cpus().length} cores`);
    console.table([result]);
    const out = benchResultsFile("export.json");
    fs.writeFileSync(out, JSON.stringify({ date: new Date().toISOString(), cores: os.cpus().length, result }, null, 2));
    console.log(`written to ${path.relative(projectRoot, out)}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
