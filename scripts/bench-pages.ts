/**
 * `npm run bench:pages`: how fast the public pages are on a phone. Seeds the demo catalogue into
 * a temporary database, builds the site into a temporary releases folder (the build the server
 * and `npm run build` use), serves it with the real server (api/server.ts, SITE_BUILD=never) and
 * runs Lighthouse's mobile preset (simulated slow 4G and 4x CPU slowdown) with Debian's Chromium
 * on the home page, the largest category, the product with the most offers, /vouchers and
 * /privacy-policy. Each page runs --runs times; the table shows the median run (by performance
 * score) and the HTML document's own size. Figures go to data/bench/pages.json.
 *
 * Before Lighthouse, what serving a page costs the server: CPU time per request of the real
 * server against a bare node:http server (scripts/bench-bare.ts, its own process) sending
 * the same bytes and headers, both read from /proc/<pid>/stat over autocannon runs per page
 * (--connections, default 20; a browser's Accept-Encoding), in rounds alternating which runs
 * first; the table gives the median CPU per request of each and the median of the rounds' ratios
 * of the bare server's CPU per request to the server's (target >= 0.85), with each round's ratio.
 *
 * Options: --products 480 --runs 3 --chrome /usr/bin/chromium --only home,product (page names)
 * --lhr-dir DIR (each run's full Lighthouse JSON, for diagnosis: LCP element, critical chain, LCP breakdown)
 * --cpu-only (no Lighthouse) --no-cpu (no CPU comparison) --cpu-seconds 10 --cpu-rounds 5 --cpu-warmup 2 --connections 20
 * --keep DIR (keep the catalogue and site there; a later run with it reuses them)
 * --server-script FILE (another checkout's api/server.ts, to compare servers over the same site)
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import zlib from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import lighthouse, { type Result } from "lighthouse";
import { buildRelease } from "../api/jobs/site-rebuild.ts";
import { createAstroBuilder } from "../api/site-build/builder.ts";
import { createReleaseStore } from "../api/site-build/releases.ts";
import { projectRoot } from "../data/config.ts";
import { migrateDb, openDb } from "../data/db/client.ts";
import { seedCatalogue } from "../data/db/seed.ts";
import { categoryPath, productPath } from "../data/domain/paths.ts";
import { defaultProductCount, generateCatalogue } from "../data/seed/generate.ts";
import { loadWithCpu, median, recordAnswer, startBareServer, type CpuRun, type RecordedAnswer } from "./bench-bare.ts";
import { benchResultsFile } from "./bench-results.ts";

const { values } = parseArgs({
  options: {
    products: { type: "string", default: String(defaultProductCount) },
    runs: { type: "string", default: "3" },
    chrome: { type: "string", default: "/usr/bin/chromium" },
    only: { type: "string" },
    "lhr-dir": { type: "string" },
    "cpu-only": { type: "boolean", default: false },
    "no-cpu": { type: "boolean", default: false },
    "cpu-seconds": { type: "string", default: "10" },
    "cpu-rounds": { type: "string", default: "5" },
    "cpu-warmup": { type: "string", default: "2" },
    connections: { type: "string", default: "20" },
    keep: { type: "string" },
    "server-script": { type: "string" },
  },
});
const runs = Number(values.runs);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

// --keep DIR: the seeded database and built site stay in DIR, and a later run with the same DIR
// uses them as they are (e.g. to measure another checkout's server with --server-script).
const kept = values.keep ? path.resolve(values.keep) : null;
const dir = kept ?? fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-bench-pages-"));
const reuse = kept !== null && fs.existsSync(path.join(dir, "bench.db"));
const databaseFile = path.join(dir, "bench.db");
const releasesDir = path.join(dir, "releases");

console.log(reuse ? `Using the catalogue and site kept in ${dir}` : `Seeding ${values.products} products and building the site…`);
fs.mkdirSync(dir, { recursive: true });
const db = openDb(databaseFile);
if (!reuse) {
  await migrateDb(db);
  seedCatalogue(db, generateCatalogue({ products: Number(values.products), today: new Date() }));
}
const largestCategory = db.$client
  .prepare("SELECT c.slug FROM categories c JOIN products p ON p.category_id = c.id GROUP BY c.id ORDER BY count(*) DESC, c.id LIMIT 1")
  .pluck()
  .get() as string;
const mostOffered = db.$client
  .prepare("SELECT p.slug FROM products p JOIN product_prices o ON o.product_id = p.id GROUP BY p.id ORDER BY count(*) DESC, p.id LIMIT 1")
  .pluck()
  .get() as string;
if (!reuse) {
  const build = await buildRelease(
    { db, store: createReleaseStore(releasesDir), builder: createAstroBuilder({ quiet: true, keepWarm: false }), log: () => {} },
    "full",
  );
  if (!build.ok) throw new Error(`site build failed:\n${build.record?.logTail}`);
}
db.$client.close();

const allPages = [
  { name: "home", path: "/" },
  { name: "category", path: categoryPath(largestCategory) },
  { name: "product", path: productPath(mostOffered) },
  { name: "vouchers", path: "/vouchers" },
  { name: "privacy", path: "/privacy-policy" },
];
const only = values.only?.split(",");
const pages = only ? allPages.filter((page) => only.includes(page.name)) : allPages;

const port = await freePort();
const server = spawn(process.execPath, [values["server-script"] ? path.resolve(values["server-script"]) : path.join(projectRoot, "api/server.ts")], {
  env: {
    ...process.env,
    DATABASE_PATH: databaseFile,
    SITE_RELEASES_DIR: releasesDir,
    SITE_BUILD: "never",
    PORT: String(port),
    HOST: "127.0.0.1",
    ALERT_CHECK_INTERVAL_MINUTES: "0",
    MAIL_OUTBOX: path.join(dir, "outbox"),
    SECRETS_DIR: path.join(dir, "secrets"),
    SMTP_URL: "",
  },
  stdio: ["ignore", "pipe", "inherit"],
});
await new Promise<void>((resolve, reject) => {
  server.once("exit", (code) => reject(new Error(`server exited with code ${code}`)));
  const started = (chunk: Buffer) => {
    if (!chunk.toString().includes("running at")) return;
    // From here on its log lines are only drained (as a log collector would read them), not read
    // as text by this process, which also runs the load generator.
    server.stdout!.off("data", started);
    server.stdout!.resume();
    resolve();
  };
  server.stdout!.on("data", started);
});
const baseUrl = `http://127.0.0.1:${port}`;

/** What a browser sends. */
const browserEncoding = "gzip, deflate, br, zstd";

/**
 * Each page on the server and on a bare node:http server sending its recorded answer, in rounds
 * that alternate which of the two runs first (this machine is shared and its speed drifts within
 * minutes): each round's two runs are back to back, so a round's ratio compares the two under the
 * same load, and the figure is the median of the rounds' ratios, with every round's ratio shown.
 * Each one is warmed up before its first run only (later runs find it warm), so the time goes to
 * counted rounds.
 */
async function compareCpu(pagesToLoad: { name: string; path: string }[], serverPid: number) {
  const headers = { "accept-encoding": browserEncoding };
  const load = { connections: Number(values.connections), seconds: Number(values["cpu-seconds"]), headers };
  const warmupSeconds = Number(values["cpu-warmup"]);
  const rounds = Number(values["cpu-rounds"]);
  const recorded: RecordedAnswer[] = [];
  for (const page of pagesToLoad) {
    const { status, answer } = await recordAnswer(baseUrl, page.path, headers);
    if (status !== 200) throw new Error(`${page.path}: ${status}`);
    recorded.push(answer);
  }
  const bare = await startBareServer(recorded, dir);
  const rows = [];
  try {
    for (const page of pagesToLoad) {
      const runs: { server: CpuRun; bare: CpuRun }[] = [];
      for (let round = 0; round < rounds; round++) {
        const warm = { ...load, warmupSeconds: round === 0 ? warmupSeconds : 0 };
        const runServer = () => loadWithCpu(baseUrl + page.path, serverPid, warm);
        const runBare = () => loadWithCpu(`http://127.0.0.1:${bare.port}${page.path}`, bare.pid, warm);
        if (round % 2 === 0) {
          const server = await runServer();
          runs.push({ server, bare: await runBare() });
        } else {
          const limit = await runBare();
          runs.push({ server: await runServer(), bare: limit });
        }
      }
      const ratios = runs.map((run) => run.bare.cpuUs / run.server.cpuUs);
      const ratio = median(ratios);
      const row = {
        page: page.name,
        bytes: Buffer.from(recorded.find((answer) => answer.path === page.path)!.body, "base64").length,
        serverCpuUsPerRequest: Math.round(median(runs.map((run) => run.server.cpuUs))),
        bareCpuUsPerRequest: Math.round(median(runs.map((run) => run.bare.cpuUs))),
        cpuRatio: Number(ratio.toFixed(2)),
        roundRatios: ratios.map((value) => value.toFixed(2)).join(" "),
        serverRequestsPerSecond: Math.round(median(runs.map((run) => run.server.requestsPerSecond))),
        bareRequestsPerSecond: Math.round(median(runs.map((run) => run.bare.requestsPerSecond))),
        meetsTarget: ratio >= 0.85,
      };
      rows.push(row);
      console.log(
        `  ${page.name}: ${row.serverCpuUsPerRequest} µs a request against ${row.bareCpuUsPerRequest} µs bare, ratio ${row.cpuRatio} (rounds ${row.roundRatios}; load ${loadAverage()})`,
      );
    }
  } finally {
    bare.stop();
  }
  return rows;
}

/** The machine's load average over the last minute, five and fifteen minutes. */
const loadAverage = () => os.loadavg().map((value) => value.toFixed(2)).join(" ");

// The server goes with this process, whatever ends it.
process.on("exit", () => server.kill("SIGTERM"));
const cpu = values["no-cpu"] ? [] : await compareCpu(pages, server.pid!);
if (cpu.length > 0) {
  console.log(`\nCPU per request, the server against a bare node:http server sending the same bytes (${values.connections} connections, target ratio >= 0.85):`);
  console.table(cpu);
  const cpuFile = benchResultsFile("pages-cpu.json");
  const figures = {
    date: new Date().toISOString(),
    products: Number(values.products),
    connections: Number(values.connections),
    cpuSeconds: Number(values["cpu-seconds"]),
    rounds: Number(values["cpu-rounds"]),
    cores: os.cpus().length,
    loadAverage: loadAverage(),
    pages: cpu,
  };
  fs.writeFileSync(cpuFile, `${JSON.stringify(figures, null, 2)}\n`);
}

interface PageFigures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  transferBytes: number;
}

const score = (lhr: Result, category: string) => Math.round((lhr.categories[category]?.score ?? 0) * 100);
const numeric = (lhr: Result, audit: string) => lhr.audits[audit]?.numericValue ?? Number.NaN;

function figures(lhr: Result): PageFigures {
  return {
    performance: score(lhr, "performance"),
    accessibility: score(lhr, "accessibility"),
    bestPractices: score(lhr, "best-practices"),
    seo: score(lhr, "seo"),
    fcpMs: Math.round(numeric(lhr, "first-contentful-paint")),
    lcpMs: Math.round(numeric(lhr, "largest-contentful-paint")),
    tbtMs: Math.round(numeric(lhr, "total-blocking-time")),
    cls: Math.round(numeric(lhr, "cumulative-layout-shift") * 1000) / 1000,
    transferBytes: Math.round(numeric(lhr, "total-byte-weight")),
  };
}

/** Lighthouse's opportunities and diagnostics that cost something on this page, for the report. */
function findings(lhr: Result): string[] {
  const performanceAudits = lhr.categories.performance?.auditRefs.map((ref) => ref.id) ?? [];
  return performanceAudits
    .map((id) => lhr.audits[id]!)
    .filter((audit) => audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode !== "informative")
    .map((audit) => `${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ""}`);
}

const lighthouseRuns = !values["cpu-only"];
const chrome = lighthouseRuns
  ? await chromeLauncher.launch({ chromePath: values.chrome, chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu"] })
  : null;
const results: { name: string; path: string; htmlBytes: number; htmlGzipBytes: number; median: PageFigures; runs: PageFigures[]; findings: string[] }[] = [];
try {
  for (const page of lighthouseRuns ? pages : []) {
    const html = Buffer.from(await (await fetch(baseUrl + page.path)).arrayBuffer());
    const pageRuns: { figures: PageFigures; findings: string[] }[] = [];
    for (let attempt = 0; pageRuns.length < runs; attempt++) {
      // Lighthouse's defaults are the mobile preset: a Moto G Power screen, slow 4G, 4x CPU slowdown.
      const outcome = await lighthouse(baseUrl + page.path, { port: chrome!.port, output: "json", logLevel: "error" });
      if (!outcome) throw new Error(`Lighthouse gave no result for ${page.path}`);
      // A run Lighthouse could not complete (e.g. no paint seen on a starved machine) scores 0: run it again.
      if (outcome.lhr.runtimeError) {
        console.log(`  ${page.name}: run failed (${outcome.lhr.runtimeError.code}), again`);
        if (attempt >= runs * 2) throw new Error(`Lighthouse keeps failing on ${page.path}: ${outcome.lhr.runtimeError.message}`);
        continue;
      }
      pageRuns.push({ figures: figures(outcome.lhr), findings: findings(outcome.lhr) });
      if (values["lhr-dir"]) {
        fs.mkdirSync(values["lhr-dir"], { recursive: true });
        fs.writeFileSync(path.join(values["lhr-dir"], `${page.name}-${pageRuns.length}.json`), JSON.stringify(outcome.lhr));
      }
    }
    pageRuns.sort((a, b) => a.figures.performance - b.figures.performance || b.figures.lcpMs - a.figures.lcpMs);
    const median = pageRuns[Math.floor(pageRuns.length / 2)]!;
    results.push({
      ...page,
      htmlBytes: html.length,
      htmlGzipBytes: zlib.gzipSync(html).length,
      median: median.figures,
      runs: pageRuns.map((run) => run.figures),
      findings: median.findings,
    });
    console.log(`  ${page.name} ${page.path}: performance ${pageRuns.map((run) => run.figures.performance).join(", ")}`);
  }
} finally {
  chrome?.kill();
  server.kill("SIGTERM");
}

if (lighthouseRuns) {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;
  console.log(`\nMedian of ${runs} Lighthouse run(s) per page (mobile preset, simulated throttling):\n`);
  console.log("| page | performance | FCP | LCP | TBT | CLS | transfer | HTML (gzip) | a11y | best practices | SEO |");
  console.log("|---|---|---|---|---|---|---|---|---|---|---|");
  for (const { name, median, htmlBytes, htmlGzipBytes } of results) {
    console.log(
      `| ${name} | ${median.performance} | ${seconds(median.fcpMs)} | ${seconds(median.lcpMs)} | ${median.tbtMs} ms | ${median.cls} | ${kb(median.transferBytes)} | ` +
        `${kb(htmlBytes)} (${kb(htmlGzipBytes)}) | ${median.accessibility} | ${median.bestPractices} | ${median.seo} |`,
    );
  }
  for (const { name, findings: pageFindings } of results) {
    if (pageFindings.length > 0) console.log(`\n${name}: ${pageFindings.join("; ")}`);
  }

  const outFile = benchResultsFile("pages.json");
  fs.writeFileSync(outFile, JSON.stringify({ date: new Date().toISOString(), products: Number(values.products), runs, pages: results }, null, 2) + "\n");
  console.log(`\nWritten to ${path.relative(projectRoot, outFile)}`);
}
if (!kept) fs.rmSync(dir, { recursive: true, force: true });
