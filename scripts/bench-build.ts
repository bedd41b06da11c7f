/**
 * `npm run bench:build`: seeds 1,000, 10,000 and 50,000 products into temporary databases, runs
 * the real site build for each (the build worker the server and `npm run build` use), and prints
 * pages per second, the build's phase timings, its peak memory (RSS) and the release's size on
 * disk (du: blocks taken, compressed forms included), then the JavaScript and CSS each kind of
 * page ships (gzip), and the server's CPU time per request for a product page and the home page in
 * each stored form. Figures go to data/bench/build.json.
 *
 * Options: --sizes 1000,10000,50000 --requests 2000 (measured requests per serving figure)
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { parseArgs } from "node:util";
import zlib from "node:zlib";
import { H3 } from "h3";
import { createSiteHandler } from "../api/http/site.ts";
import { createAstroBuilder } from "../api/site-build/builder.ts";
import { readStored } from "../api/site-build/output.ts";
import { readPackedPages } from "../api/site-build/page-pack.ts";
import { projectRoot } from "../data/config.ts";
import { migrateDb, openDb } from "../data/db/client.ts";
import { defaultHistoryDays, loadProductPages } from "../data/db/product-pages.ts";
import { seedCatalogue } from "../data/db/seed.ts";
import { generateCatalogue } from "../data/seed/generate.ts";
import { benchResultsFile } from "./bench-results.ts";

const { values } = parseArgs({ options: { sizes: { type: "string", default: "1000,10000,50000" }, requests: { type: "string", default: "2000" } } });
const sizes = values.sizes.split(",").map(Number);
const servingRequests = Number(values.requests);
/**
 * Runs a full site build, sampling each build process's high-water RSS (VmHWM) and CPU time
 * (user + system: the figure that a busy shared machine disturbs least) until it ends: of every
 * thread, and of the main threads alone (rendering; compression and file writes run beside it).
 * A large build runs in two processes at once: CPU times are their sum; `peakRssMb` is the sum of
 * their peaks (an upper bound of what they held together), `peakRssTogetherMb` the most they held
 * at one time (their current RSS summed at each sample).
 */
async function build(
  databaseFile: string,
  outDir: string,
): Promise<{
  seconds: number;
  processes: number;
  cpuSeconds: number;
  mainThreadCpuSeconds: number;
  peakRssMb: number;
  peakRssTogetherMb: number;
  pages: number;
}> {
  const builder = createAstroBuilder({ quiet: true, keepWarm: false });
  const running = builder.full({ databaseFile, outDir });
  const seen = new Map<number, { peakKb: number; ticks: number; mainThreadTicks: number }>();
  // Fields after the command name: utime and stime are the 12th and 13th.
  const ticks = (stat: string) => {
    const fields = fs.readFileSync(stat, "utf8").split(") ")[1]!.split(" ");
    return Number(fields[11]) + Number(fields[12]);
  };
  let peakTogetherKb = 0;
  const sample = setInterval(() => {
    let togetherKb = 0;
    // The workers start once the builder takes the job, not at once.
    for (const pid of builder.pids) {
      try {
        const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
        togetherKb += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
        const last = seen.get(pid);
        seen.set(pid, {
          peakKb: Math.max(last?.peakKb ?? 0, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0)),
          ticks: ticks(`/proc/${pid}/stat`),
          mainThreadTicks: ticks(`/proc/${pid}/task/${pid}/stat`),
        });
      } catch {
        // The process has exited between two samples.
      }
    }
    peakTogetherKb = Math.max(peakTogetherKb, togetherKb);
  }, 100);
  const outcome = await running.finally(() => clearInterval(sample));
  if (!outcome.ok) throw new Error(`build failed:\n${outcome.log}`);
  // Astro's own phase timings (Vite bundling, static route generation) are in its log.
  const phases = outcome.log.replace(/\x1b\[[0-9;]*m/g, "").split("\n").filter((line) => /\b(?:built|Completed)\b in /.test(line));
  for (const line of phases) console.log(`  ${line.trim()}`);
  const ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" })) || 100;
  const total = (pick: (each: { peakKb: number; ticks: number; mainThreadTicks: number }) => number) =>
    [...seen.values()].reduce((sum, each) => sum + pick(each), 0);
  return {
    seconds: outcome.durationMs / 1000,
    processes: seen.size,
    cpuSeconds: Math.round((total((each) => each.ticks) / ticksPerSecond) * 10) / 10,
    mainThreadCpuSeconds: Math.round((total((each) => each.mainThreadTicks) / ticksPerSecond) * 10) / 10,
    peakRssMb: Math.round(total((each) => each.peakKb) / 1024),
    peakRssTogetherMb: Math.round(peakTogetherKb / 1024),
    pages: outcome.pages,
  };
}

/** What a folder takes on disk (allocated blocks, as `du` counts them), in MB. */
const diskUsageMb = (dir: string) => Math.round(Number(execFileSync("du", ["-sk", dir], { encoding: "utf8" }).split("\t")[0]) / 1024);

const gzipSize = (file: string) => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;

/**
 * The JS a page loads up front: its module scripts and island URLs, followed through static
 * imports. Chunks reached only by dynamic import() and the islands that hydrate on demand
 * (client:toast, client:companion, client:interaction) are counted separately as `lazyJs`.
 */
async function pageAssets(outDir: string, pagePath: string): Promise<{ js: number; lazyJs: number; css: number; jsFiles: number }> {
  // Product pages are stored as brotli only, packed.
  const html = (await readStored(outDir, pagePath))!.toString("utf8");
  const seeds = new Set<string>();
  /** Islands that hydrate only on demand (the first toast; another island hydrating; the first touch): their code is lazy. */
  const onDemand = new Set<string>();
  for (const [, src] of html.matchAll(/<script[^>]+type="module"[^>]+src="([^"]+)"/g)) seeds.add(src!);
  for (const [island] of html.matchAll(/<astro-island\b[^>]*>/g)) {
    const lazy = /\sclient="(?:toast|companion|interaction)"/.test(island);
    for (const [, src] of island.matchAll(/(?:component-url|renderer-url|before-hydration-url)="([^"]+)"/g)) if (src) (lazy ? onDemand : seeds).add(src);
  }
  for (const [, body] of html.matchAll(/<script type="module">([\s\S]*?)<\/script>/g)) {
    for (const [, spec] of body!.matchAll(/(?:import|from)\s*\(?\s*"([^"]+\.js)"/g)) seeds.add(spec!);
  }
  /** Files reached from `entries` through static imports, and the targets of their dynamic imports. */
  const closure = (entries: Iterable<string>) => {
    const files = new Set<string>();
    const dynamic = new Set<string>();
    const queue = [...entries];
    while (queue.length) {
      const url = queue.pop()!;
      const file = path.join(outDir, url);
      if (files.has(url) || !fs.existsSync(file)) continue;
      files.add(url);
      const source = fs.readFileSync(file, "utf8");
      const resolve = (spec: string) => path.posix.join(path.posix.dirname(url), spec);
      for (const [, spec] of source.matchAll(/(?:from\s*|import\s*)["'`](\.{1,2}\/[^"'`]+\.js)["'`]/g)) queue.push(resolve(spec!));
      for (const [, spec] of source.matchAll(/import\(\s*["'`](\.{1,2}\/[^"'`]+\.js)["'`]\s*\)/g)) dynamic.add(resolve(spec!));
    }
    return { files, dynamic };
  };
  let inlineBytes = 0;
  for (const [, body] of html.matchAll(/<script(?![^>]*src=)(?![^>]*application\/ld\+json)[^>]*>([\s\S]*?)<\/script>/g)) inlineBytes += zlib.gzipSync(body!).length;
  const upfront = closure(seeds);
  const lazyFiles = [...closure([...upfront.dynamic, ...onDemand]).files].filter((url) => !upfront.files.has(url));
  const sum = (urls: Iterable<string>) => [...urls].reduce((total, url) => total + gzipSize(path.join(outDir, url)), 0);
  const js = sum(upfront.files) + inlineBytes;
  const lazyJs = sum(lazyFiles);
  const seen = upfront.files;
  const css = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g)].reduce((sum, [, href]) => sum + gzipSize(path.join(outDir, href!)), 0);
  const kb = (bytes: number) => Math.round(bytes / 102.4) / 10;
  return { js: kb(js), lazyJs: kb(lazyJs), css: kb(css), jsFiles: seen.size };
}

/**
 * The server's CPU time per request for a page (the site handler in process, no network): the
 * mean over `count` requests after a warm-up, sending the stored form as it is, recompressing a
 * brotli-only page as gzip for a client that takes gzip only, or decompressing it for a client
 * that accepts no compression.
 */
async function serveCost(outDir: string, pathname: string, acceptEncoding: string | null, count = servingRequests) {
  const app = new H3().all("/**", createSiteHandler(() => outDir));
  const headers: Record<string, string> = acceptEncoding ? { "accept-encoding": acceptEncoding } : {};
  const once = async () => {
    const response = await app.request(pathname, { headers });
    return { bytes: (await response.arrayBuffer()).byteLength, encoding: response.headers.get("content-encoding") ?? "identity" };
  };
  for (let i = 0; i < Math.min(200, count); i++) await once();
  const cpu = process.cpuUsage();
  const started = performance.now();
  let sent = { bytes: 0, encoding: "" };
  for (let i = 0; i < count; i++) sent = await once();
  const used = process.cpuUsage(cpu);
  const round = (value: number) => Math.round(value * 10) / 10;
  return {
    pathname,
    acceptEncoding: acceptEncoding ?? "(none)",
    sent: `${sent.encoding}, ${round(sent.bytes / 1024)} KB`,
    cpuUsPerRequest: Math.round((used.user + used.system) / count),
    wallUsPerRequest: Math.round(((performance.now() - started) * 1000) / count),
  };
}

const results = [];
let serving: Awaited<ReturnType<typeof serveCost>>[] = [];
let assets: Record<string, Awaited<ReturnType<typeof pageAssets>>> = {};
/**
 * Each size's folder (database and release), removed once every size is measured: removing tens
 * of thousands of files keeps the disk busy (and, on a disk mounted with discard, its journal)
 * well after the call returns, which slowed the next size's file creation.
 */
const dirs: string[] = [];
try {
  for (const products of sizes) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-bench-build-"));
    dirs.push(dir);
    const databaseFile = path.join(dir, "bench.db");
    const db = openDb(databaseFile);
    await migrateDb(db);
    seedCatalogue(db, generateCatalogue({ products, today: new Date() }));
    // The product pages' bulk read (every product, its offers and its price history), as the build does it.
    const readStarted = performance.now();
    loadProductPages(db, { now: new Date(), historyDays: defaultHistoryDays });
    const pageDataMs = Math.round(performance.now() - readStarted);
    db.$client.close();
    // The seeded database goes to disk now, not by the kernel's write-back during the build.
    execFileSync("sync");
    const outDir = path.join(dir, "site");
    const { seconds, processes, cpuSeconds, mainThreadCpuSeconds, peakRssMb, peakRssTogetherMb, pages } = await build(databaseFile, outDir);
    const diskMb = diskUsageMb(outDir);
    const pagesPerSecond = Math.round(pages / seconds);
    results.push({
      products,
      pages,
      seconds: Math.round(seconds * 10) / 10,
      processes,
      cpuSeconds,
      mainThreadCpuSeconds,
      pagesPerSecond,
      peakRssMb,
      peakRssTogetherMb,
      diskMb,
      pageDataMs,
    });
    console.log(
      `${products} products: ${pages} pages in ${seconds.toFixed(1)} s in ${processes} process(es) (${pagesPerSecond} pages/s, ${cpuSeconds} s of CPU, ${mainThreadCpuSeconds} s on the main thread), peak RSS ${peakRssMb} MB (the processes' peaks summed; ${peakRssTogetherMb} MB at once), ${diskMb} MB on disk; product page data read in ${pageDataMs} ms`,
    );
    if (Object.keys(assets).length === 0) {
      const productSlug = readPackedPages(outDir)!.paths().sort()[0]!.replace(/^product\/|\.html$/g, "");
      assets = {
        home: await pageAssets(outDir, "index.html"),
        category: await pageAssets(outDir, "category/dog-food/index.html"),
        product: await pageAssets(outDir, `product/${productSlug}.html`),
        search: await pageAssets(outDir, "search/index.html"),
        vouchers: await pageAssets(outDir, "vouchers/index.html"),
        "privacy-policy": await pageAssets(outDir, "privacy-policy/index.html"),
      };
      const productPath = `/product/${productSlug}/`;
      serving = [
        await serveCost(outDir, productPath, "gzip, deflate, br, zstd"),
        await serveCost(outDir, productPath, "gzip, deflate"),
        await serveCost(outDir, productPath, null),
        await serveCost(outDir, "/", "gzip, deflate, br, zstd"),
        await serveCost(outDir, "/", "gzip, deflate"),
        await serveCost(outDir, "/", null),
      ];
    }
  }
} finally {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
}

console.log(`\nBuild (targets: 50,000 products under 45 s, held under 1.2 GB at once (peakRssTogetherMb); page data read well under a second at 1,000), ${os.cpus().length} cores`);
console.table(results);
console.log("Shipped per page, KB gzip (targets: legal pages < 10 KB JS and no React; product <= 80; home and category <= 100; CSS <= 30)");
console.table(assets);
console.log("Serving a page: the site handler's CPU time per request (in process, no network)");
console.table(serving);
const out = benchResultsFile("build.json");
fs.writeFileSync(out, JSON.stringify({ date: new Date().toISOString(), cores: os.cpus().length, results, assets, serving }, null, 2));
console.log(`written to ${path.relative(projectRoot, out)}`);
