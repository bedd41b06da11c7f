/**
 * `npm run bench:api`: seeds 50,000 products into a temporary database, starts the real server
 * (`node api/server.ts`) in its own process, and loads three read endpoints with autocannon.
 * Prints a table and writes the figures to data/bench/api.json.
 *
 * Options: --products N (default 50000), --seconds S per endpoint (default 10),
 * --connections C (default 20).
 */
import autocannon from "autocannon";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { projectRoot } from "../data/config.ts";
import { migrateDb, openDb } from "../data/db/client.ts";
import { seedCatalogue } from "../data/db/seed.ts";
import { generateCatalogue } from "../data/seed/generate.ts";

const { values } = parseArgs({
  options: {
    products: { type: "string", default: "50000" },
    seconds: { type: "string", default: "10" },
    connections: { type: "string", default: "20" },
    cache: { type: "string", default: "both" },
  },
});
const cacheModes = values.cache === "both" ? ["off", "on"] : [values.cache];
const products = Number(values.products);
const seconds = Number(values.seconds);
const connections = Number(values.connections);

const targets = [
  { name: "products: category + price sort", path: "/api/products?category=dog-food&sort=price_asc" },
  { name: "products/count", path: "/api/products/count?category=dog-food" },
  { name: "search q=royal", path: "/api/search?q=royal" },
];

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-bench-"));
const databaseFile = path.join(dir, "bench.db");
const seedStart = performance.now();
const db = openDb(databaseFile);
await migrateDb(db);
seedCatalogue(db, generateCatalogue({ products, today: new Date() }));
db.$client.close();
console.log(`seeded ${products} products in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

async function startServer(cache: string): Promise<{ port: number; stop: () => void }> {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const server = spawn(process.execPath, [path.join(projectRoot, "api/server.ts")], {
    env: { ...process.env, DATABASE_PATH: databaseFile, PORT: String(port), HOST: "127.0.0.1", API_CACHE: cache, SITE_BUILD: "never" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    server.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
    server.stdout!.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("running at")) resolve();
    });
  });
  return { port, stop: () => server.kill("SIGTERM") };
}

const results = [];
try {
  for (const cache of cacheModes) {
    const server = await startServer(cache);
    try {
      for (const target of targets) {
        const url = `http://127.0.0.1:${server.port}${target.path}`;
        await autocannon({ url, connections: 4, duration: 2 }); // warm-up
        const result = await autocannon({ url, connections, duration: seconds });
        if (result.non2xx > 0 || result.errors > 0) throw new Error(`${target.path}: ${result.non2xx} non-2xx, ${result.errors} errors`);
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
    } finally {
      server.stop();
    }
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}

console.log(`\n${products} products, ${connections} connections, ${seconds} s per endpoint, ${os.cpus().length} cores`);
console.table(results);
const out = path.join(projectRoot, "data/bench/api.json");
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(
  out,
  JSON.stringify({ date: new Date().toISOString(), products, connections, seconds, cores: os.cpus().length, results }, null, 2),
);
console.log(`written to ${path.relative(projectRoot, out)} (target: >= 2000 req/s and p99 < 50 ms each)`);
