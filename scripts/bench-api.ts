/**
 * `npm run bench:api`: seeds 50,000 products into a temporary database, starts the real server
 * (`node api/server.ts`) in its own process, and loads it with autocannon:
 *  1. three read endpoints with the response cache off and on;
 *  2. with the cache on, side by side with a bare node:http server (scripts/bench-bare.ts, its
 *     own process) that returns the same bytes and headers: the ratio is what the server keeps of the bare limit
 *     (the median over three rounds, alternating which of the two runs first), and each one's
 *     CPU time per request (the steadier figure on two cores, where the load generator takes one);
 *  3. a realistic search mix with the cache off at a fixed rate: 1,000 distinct queries drawn
 *     from the seeded catalogue (brands, product words, 1-3 word prefixes), p50/p99 and errors,
 *     from a paced open-loop generator (`pacedLoad`: the figure the target is judged on) and,
 *     back to back for comparison, from autocannon's `overallRate`, both in a process of their
 *     own (a small heap, so the generator's pauses are not counted as the server's);
 *  4. the same mix in process, without HTTP: each query's own cost in `searchProducts`.
 * Prints tables and writes the figures to data/bench/api.json.
 *
 * Options: --products N (default 50000), --seconds S per run (default 10), --connections C
 * (default 20), --cache off|on|both (default both), --rate R search mix requests per second
 * (default 300), --warmup S seconds of warm-up load before each run (default 2; 0: none), --rounds N
 * of the side-by-side comparison (default 3).
 */
import autocannon from "autocannon";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { projectRoot } from "../data/config.ts";
import { migrateDb, openDb } from "../data/db/client.ts";
import { searchProducts } from "../data/db/products.ts";
import { seedCatalogue } from "../data/db/seed.ts";
import { generateCatalogue } from "../data/seed/generate.ts";
import { loadWithCpu as measureCpu, median, recordAnswer, startBareServer, type RecordedAnswer } from "./bench-bare.ts";
import { benchResultsFile } from "./bench-results.ts";

/** Run as a script (not imported for searchMixQueries). */
const isMain = process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);

const { values } = parseArgs({
  args: isMain ? process.argv.slice(2) : [],
  options: {
    products: { type: "string", default: "50000" },
    seconds: { type: "string", default: "10" },
    connections: { type: "string", default: "20" },
    cache: { type: "string", default: "both" },
    rate: { type: "string", default: "300" },
    warmup: { type: "string", default: "2" },
    rounds: { type: "string", default: "3" },
    // Internal: run the search mix load described in this file and print its figures.
    "search-mix-client": { type: "string" },
  },
});

if (!isMain) {
  // Imported: nothing runs.
} else if (values["search-mix-client"]) {
  const load = JSON.parse(fs.readFileSync(values["search-mix-client"], "utf8")) as SearchMixLoad;
  console.log(`search mix ${JSON.stringify(await searchMixLoad(load))}`);
} else {
  await runBenchmarks();
}

async function runBenchmarks(): Promise<void> {
  const cacheModes = values.cache === "both" ? ["off", "on"] : [values.cache!];
  const products = Number(values.products);
  const seconds = Number(values.seconds);
  const connections = Number(values.connections);
  const rate = Number(values.rate);
  /** Rounds of the side-by-side comparison, alternating which of the two runs first. */
  const sideBySideRounds = Number(values.rounds);
  const warmupSeconds = Number(values.warmup);
  const warmUp = async (url: string) => {
    if (warmupSeconds > 0) await autocannon({ url, connections: 4, duration: warmupSeconds });
  };

  const targets = [
    { name: "products: category + price sort", path: "/api/products?category=dog-food&sort=price_asc" },
    { name: "products/count", path: "/api/products/count?category=dog-food" },
    { name: "search q=royal", path: "/api/search?q=royal" },
  ];

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-bench-"));
  const databaseFile = path.join(dir, "bench.db");
  const seedStart = performance.now();
  const catalogue = generateCatalogue({ products, today: new Date() });
  const db = openDb(databaseFile);
  await migrateDb(db);
  seedCatalogue(db, catalogue);
  console.log(`seeded ${products} products in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);
  const mixQueries = searchMixQueries(catalogue.products, 1000);
  const searchCost = measureSearchCost(db, mixQueries);
  db.$client.close();

  /** Starts a node process and waits for its "running at" line; returns the port it printed or was given. */
  async function startProcess(args: string[], env: NodeJS.ProcessEnv, port?: number): Promise<{ port: number; pid: number; stop: () => void }> {
    const child: ChildProcess = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] });
    const printed = await new Promise<number>((resolve, reject) => {
      child.once("exit", (code) => reject(new Error(`${args[0]} exited with ${code}`)));
      const started = (chunk: Buffer) => {
        const match = /running at \D*(\d+)/.exec(chunk.toString());
        if (!match) return;
        // From here on its log lines are only drained, not read as text by this process (which
        // also runs the load generator).
        child.stdout!.off("data", started);
        child.stdout!.resume();
        resolve(Number(match[1]));
      };
      child.stdout!.on("data", started);
    });
    return { port: port ?? printed, pid: child.pid!, stop: () => child.kill("SIGTERM") };
  }

  function startServer(cache: string) {
    const port = 20000 + Math.floor(Math.random() * 20000);
    return startProcess(
      [path.join(projectRoot, "api/server.ts")],
      { DATABASE_PATH: databaseFile, PORT: String(port), HOST: "127.0.0.1", API_CACHE: cache, SITE_BUILD: "never" },
      port,
    );
  }

  async function load(url: string) {
    await warmUp(url);
    const result = await autocannon({ url, connections, duration: seconds });
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    return result;
  }

  /** `load`, also giving the CPU time `pid` spent per request during the measured run (not the warm-up), in µs. */
  async function loadWithCpu(url: string, pid: number) {
    await warmUp(url);
    const { result, cpuUs } = await measureCpu(url, pid, { connections, seconds });
    return { result, cpuUsPerRequest: cpuUs };
  }

  const results = [];
  const sideBySide = [];
  let searchMix: Record<string, unknown> | undefined;
  try {
    for (const cache of cacheModes) {
      const server = await startServer(cache);
      try {
        for (const target of targets) {
          const result = await load(`http://127.0.0.1:${server.port}${target.path}`);
          results.push({
            endpoint: target.name,
            responseCache: cache,
            requestsPerSecond: Math.round(result.requests.average),
            p50Ms: result.latency.p50,
            p99Ms: result.latency.p99,
            maxMs: result.latency.max,
            requests: result.requests.total,
            meetsTarget: result.requests.average >= 2000 && result.latency.p99 < 50,
          });
        }
        if (cache === "on") sideBySide.push(...(await compareWithBare(server.port, server.pid)));
        if (cache === "off") searchMix = await runSearchMix(server.port);
      } finally {
        server.stop();
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }

  /** Each endpoint on the server (cache on, warm) and on the bare server with its recorded answer, back to back. */
  async function compareWithBare(port: number, pid: number) {
    const recorded: RecordedAnswer[] = [];
    for (const target of targets) {
      const { status, answer } = await recordAnswer(`http://127.0.0.1:${port}`, target.path);
      if (status !== 200) throw new Error(`${target.path}: ${status}`);
      recorded.push(answer);
    }
    const bare = await startBareServer(recorded, dir);
    try {
      const rows = [];
      for (const target of targets) {
        // This machine's speed drifts by a fifth within minutes: the two are run in alternating
        // rounds (the server first, then the bare one first, ...) and judged on the median of the
        // rounds' ratios, not on one run of each that may land in different weather.
        // Each run also notes the serving process's CPU time per request: on two cores the load
        // generator takes a core of its own, so throughput also measures the scheduler, and CPU per
        // request is the steadier figure of the two.
        type Run = { result: autocannon.Result; cpuUsPerRequest: number };
        const rounds: { app: Run; limit: Run }[] = [];
        for (let round = 0; round < sideBySideRounds; round++) {
          const runApp = () => loadWithCpu(`http://127.0.0.1:${port}${target.path}`, pid);
          const runLimit = () => loadWithCpu(`http://127.0.0.1:${bare.port}${target.path}`, bare.pid);
          if (round % 2 === 0) {
            const app = await runApp();
            rounds.push({ app, limit: await runLimit() });
          } else {
            const limit = await runLimit();
            rounds.push({ app: await runApp(), limit });
          }
        }
        const ratio = median(rounds.map(({ app, limit }) => app.result.requests.average / limit.result.requests.average));
        const serverCpuUs = median(rounds.map(({ app }) => app.cpuUsPerRequest));
        const bareCpuUs = median(rounds.map(({ limit }) => limit.cpuUsPerRequest));
        rows.push({
          endpoint: target.name,
          serverRequestsPerSecond: Math.round(median(rounds.map(({ app }) => app.result.requests.average))),
          bareRequestsPerSecond: Math.round(median(rounds.map(({ limit }) => limit.result.requests.average))),
          ratio: Number(ratio.toFixed(2)),
          roundRatios: rounds.map(({ app, limit }) => (app.result.requests.average / limit.result.requests.average).toFixed(2)).join(" "),
          serverCpuUsPerRequest: Math.round(serverCpuUs),
          bareCpuUsPerRequest: Math.round(bareCpuUs),
          cpuRatio: Number((bareCpuUs / serverCpuUs).toFixed(2)),
          serverP99Ms: median(rounds.map(({ app }) => app.result.latency.p99)),
          bareP99Ms: median(rounds.map(({ limit }) => limit.result.latency.p99)),
          meetsTarget: ratio >= 0.85,
        });
      }
      return rows;
    } finally {
      bare.stop();
    }
  }

  /** The search mix (`searchMixLoad`) run from a child process against the warm server. */
  async function runSearchMix(port: number) {
    const queries = mixQueries;
    const loadFile = path.join(dir, "search-mix.json");
    const paths = queries.map((query) => `/api/search?q=${encodeURIComponent(query)}`);
    fs.writeFileSync(loadFile, JSON.stringify({ port, paths, rate, seconds, connections } satisfies SearchMixLoad));
    // The load comes from a process of its own: this one holds the 50,000-product catalogue and
    // an in-memory search index, and its garbage collection pauses (60-100 ms at this heap size)
    // delayed the reading of responses and were counted as server latency.
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), "--search-mix-client", loadFile], { stdio: ["ignore", "pipe", "inherit"] });
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    const line = /^search mix (.*)$/m.exec(output);
    if (code !== 0 || !line) throw new Error(`search mix client exited with ${code}: ${output}`);
    const { paced, autocannon: fromAutocannon } = JSON.parse(line[1]!) as Awaited<ReturnType<typeof searchMixLoad>>;
    return {
      queries: queries.length,
      targetRate: rate,
      paced,
      autocannon: fromAutocannon,
      meetsTarget: paced.p99Ms < 20 && paced.errors === 0 && paced.non2xx === 0,
    };
  }

  console.log(`\n${products} products, ${connections} connections, ${seconds} s per run, ${os.cpus().length} cores`);
  console.table(results);
  if (sideBySide.length > 0) {
    console.log("Cache on, side by side with a bare node:http server sending the same bytes (target ratio >= 0.85):");
    console.table(sideBySide);
  }
  if (searchMix) {
    console.log(`Search mix, cache off, ${rate} req/s (target p99 < 20 ms, no errors, judged on the paced generator):`);
    const { paced, autocannon: fromAutocannon } = searchMix as { paced: Record<string, unknown>; autocannon: Record<string, unknown> };
    console.table([paced, fromAutocannon]);
    console.log(`meets target: ${String(searchMix.meetsTarget)}`);
  }
  console.log("Search mix in process (searchProducts without HTTP; per query the median of 3 runs):");
  console.table([{ p50Ms: searchCost.p50Ms, p99Ms: searchCost.p99Ms, maxMs: searchCost.maxMs, meanMs: searchCost.meanMs }]);
  console.log(`slowest: ${searchCost.slowest.map(({ query, ms }) => `"${query}" ${ms} ms`).join(", ")}`);
  const out = benchResultsFile("api.json");
  fs.writeFileSync(
    out,
    JSON.stringify({ date: new Date().toISOString(), products, connections, seconds, cores: os.cpus().length, results, sideBySide, searchMix, searchCost }, null, 2),
  );
  console.log(`written to ${path.relative(projectRoot, out)} (target: >= 2000 req/s and p99 < 50 ms each)`);
}

interface SearchMixLoad {
  port: number;
  paths: string[];
  rate: number;
  seconds: number;
  connections: number;
}

/**
 * The search mix at a fixed rate, every request a different query in turn (the cache is off):
 * first from the paced generator, then from autocannon, on the same warm server.
 */
async function searchMixLoad({ port, paths, rate, seconds, connections }: SearchMixLoad) {
  const paced = await pacedLoad({ port, paths, rate, seconds, connections });
  let next = 0;
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration: seconds,
    overallRate: rate,
    requests: [
      {
        setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length]! }),
      },
    ],
  });
  return {
    paced: { generator: "paced open loop (node:http keep-alive agent), latency from each request's due time", ...paced },
    autocannon: {
      generator: "autocannon overallRate, latency from each request's send",
      requestsPerSecond: Math.round(result.requests.average),
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      maxMs: result.latency.max,
      errors: result.errors,
      non2xx: result.non2xx,
    },
  };
}

/** The value at quantile q (0..1) of ascending numbers, rounded to 0.01. */
function quantile(sorted: readonly number[], q: number): number {
  return sorted.length === 0 ? 0 : Number(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!.toFixed(2));
}

/**
 * Each query's own cost in process: `searchProducts` (index, then the page's product rows) as
 * the search route calls it, timed with performance.now(), per query the median of 3 runs after
 * one warm-up pass (which also builds the in-memory index).
 */
export function measureSearchCost(db: ReturnType<typeof openDb>, queries: readonly string[]) {
  for (const query of queries) searchProducts(db, query, { offset: 0, limit: 15 });
  const perQuery = queries.map((query) => {
    const runs = [0, 1, 2].map(() => {
      const start = performance.now();
      searchProducts(db, query, { offset: 0, limit: 15 });
      return performance.now() - start;
    });
    return { query, ms: runs.sort((a, b) => a - b)[1]! };
  });
  const sorted = perQuery.map(({ ms }) => ms).sort((a, b) => a - b);
  return {
    queries: queries.length,
    p50Ms: quantile(sorted, 0.5),
    p99Ms: quantile(sorted, 0.99),
    maxMs: quantile(sorted, 1),
    meanMs: Number((sorted.reduce((sum, ms) => sum + ms, 0) / sorted.length).toFixed(3)),
    slowest: perQuery
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 5)
      .map(({ query, ms }) => ({ query, ms: Number(ms.toFixed(2)) })),
  };
}

/**
 * An open-loop load at a fixed rate: request i is due at start + i / rate (paths taken in turn),
 * sent on one of `connections` keep-alive sockets (queued in the agent while all are busy), and
 * its latency counts from when it was due, not from when it went out: a slow answer shows in the
 * figures of the requests queued behind it too (no coordinated omission), and so does any
 * lateness of this generator's own timer. autocannon's `overallRate` instead releases each
 * connection's share of the rate in bursts and times from the actual send. The first
 * `warmupSeconds` of the schedule (default 2) open the sockets and warm both sides; they are sent
 * at the same rate and not counted.
 */
export async function pacedLoad(options: {
  port: number;
  paths: readonly string[];
  rate: number;
  seconds: number;
  connections: number;
  warmupSeconds?: number;
}) {
  const { port, paths, rate, seconds, connections } = options;
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const warmup = Math.round(rate * (options.warmupSeconds ?? 2));
  const total = warmup + Math.round(rate * seconds);
  const latencies: number[] = [];
  /** How late this generator sent each request (its own timer and the machine, not the server). */
  const lateness: number[] = [];
  let errors = 0;
  let non2xx = 0;
  const start = performance.now();
  const due = (i: number) => start + (i * 1000) / rate;
  let measuredFrom = start;
  await new Promise<void>((resolve) => {
    let sent = 0;
    let settled = 0;
    const settle = () => {
      if (++settled === total) resolve();
    };
    const release = () => {
      for (const now = performance.now(); sent < total && due(sent) <= now; sent++) {
        const dueAt = due(sent);
        const counted = sent >= warmup;
        if (sent === warmup) measuredFrom = dueAt;
        if (counted) lateness.push(now - dueAt);
        const request = http.get({ agent, host: "127.0.0.1", port, path: paths[sent % paths.length] }, (response) => {
          if (response.statusCode !== 200) non2xx++;
          response.resume();
          response.on("end", () => {
            if (counted) latencies.push(performance.now() - dueAt);
            settle();
          });
          response.on("error", () => {
            errors++;
            settle();
          });
        });
        request.on("error", () => {
          errors++;
          settle();
        });
      }
      if (sent < total) setTimeout(release, Math.max(0, due(sent) - performance.now()));
    };
    release();
  });
  const elapsed = (performance.now() - measuredFrom) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  lateness.sort((a, b) => a - b);
  return {
    requests: total - warmup,
    requestsPerSecond: Math.round(latencies.length / elapsed),
    p50Ms: quantile(latencies, 0.5),
    p99Ms: quantile(latencies, 0.99),
    maxMs: quantile(latencies, 1),
    sentLateP99Ms: quantile(lateness, 0.99),
    sentLateMaxMs: quantile(lateness, 1),
    errors,
    non2xx,
  };
}

/**
 * Distinct search texts a visitor might type, drawn from the catalogue with a fixed seed: brand
 * names, single words of product names, runs of 1-3 words of a product name whose last word is
 * cut to a prefix (as typed so far), and, one in six, a brand or a word of five letters or more
 * misspelt by one slip (a letter dropped, doubled, changed or two swapped): the texts the typo
 * correction runs for.
 */
export function searchMixQueries(products: readonly { name: string; brand: string }[], count: number): string[] {
  let state = 20_241_122;
  const random = () => (state = (state * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const words = (text: string) =>
    text
      .toLowerCase()
      .split(/[^\p{L}\p{N}']+/u)
      .filter((word) => word.length > 2 && !/\d/.test(word));
  const brands = [...new Set(products.map((product) => product.brand))];
  const vocabulary = [...new Set(products.flatMap((product) => words(product.name)))];
  const letters = "abcdefghijklmnopqrstuvwxyz";
  const misspell = (text: string) => {
    const at = 1 + Math.floor(random() * (text.length - 2));
    const slip = random();
    if (slip < 0.25) return text.slice(0, at) + text.slice(at + 1);
    if (slip < 0.5) return text.slice(0, at) + text[at] + text.slice(at);
    if (slip < 0.75) return text.slice(0, at) + pick([...letters]) + text.slice(at + 1);
    return text.slice(0, at) + text[at + 1] + text[at] + text.slice(at + 2);
  };
  const longWords = vocabulary.filter((word) => word.length >= 5 && !word.includes("'"));
  const queries = new Set<string>();
  for (let tries = 0; queries.size < count && tries < count * 100; tries++) {
    const kind = random();
    if (kind < 1 / 6) queries.add(misspell(random() < 0.5 ? pick(brands).toLowerCase() : pick(longWords)));
    else if (kind < 0.375) queries.add(pick(brands));
    else if (kind < 0.583) queries.add(pick(vocabulary));
    else {
      const name = words(pick(products).name);
      const length = Math.min(name.length, 1 + Math.floor(random() * 3));
      const start = Math.floor(random() * (name.length - length + 1));
      const run = name.slice(start, start + length);
      const last = run.pop()!;
      run.push(last.slice(0, Math.max(2, Math.ceil(last.length * (0.4 + random() * 0.6)))));
      queries.add(run.join(" "));
    }
  }
  return [...queries];
}
