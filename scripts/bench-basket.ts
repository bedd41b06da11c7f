/**
 * `npm run bench:basket`: how long a basket quote takes on the server. Seeds a catalogue into a
 * temporary database, adds retailers until there are 8, gives a set of products an in-stock offer
 * at each of them (seeded random prices, delivery charges and free-delivery thresholds set so
 * that splits and single shops compete), starts the real server (`npm start`'s, with the per-client
 * quote limit lifted: scripts/bench-basket-server.ts) in its own process and asks POST /api/basket/quote for baskets of 8 distinct products, each over the 8
 * retailers (the largest basket quoted exactly), one request at a time: p50, p99 and the slowest,
 * measured by the client over loopback, so each figure is the whole request. Then the quote alone
 * (`quoteBasket`, in process) over the same baskets. Target: p99 < 50 ms for 8 products over 8
 * retailers. Writes data/bench/basket.json.
 *
 * Options: --products N catalogue size (default 1000), --baskets N quotes (default 1000),
 * --warmup N quotes before measuring (default 50).
 */
import { spawn } from "node:child_process";
import os from "node:os";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { projectRoot } from "../data/config.ts";
import { migrateDb, openDb } from "../data/db/client.ts";
import { readBasketCatalogue } from "../data/db/basket.ts";
import { seedCatalogue } from "../data/db/seed.ts";
import { quoteBasket } from "../data/domain/basket.ts";
import { generateCatalogue } from "../data/seed/generate.ts";
import { mulberry32 } from "../data/domain/seeded-random.ts";
import { benchResultsFile } from "./bench-results.ts";

const { values } = parseArgs({
  options: {
    products: { type: "string", default: "1000" },
    baskets: { type: "string", default: "1000" },
    warmup: { type: "string", default: "50" },
  },
});
const products = Number(values.products);
const baskets = Number(values.baskets);
const warmup = Number(values.warmup);
const basketSize = 8;
const retailerCount = 8;
const targetP99Ms = 50;

const quantile = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
const summary = (ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  const round = (value: number) => Math.round(value * 100) / 100;
  return { quotes: sorted.length, p50Ms: round(quantile(sorted, 0.5)), p99Ms: round(quantile(sorted, 0.99)), maxMs: round(sorted.at(-1)!) };
};

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-bench-basket-"));
const databaseFile = path.join(dir, "bench.db");
try {
  const db = openDb(databaseFile);
  await migrateDb(db);
  seedCatalogue(db, generateCatalogue({ products, today: new Date() }));
  const sqlite = db.$client;
  // The same baskets and prices on every run.
  const rand = mulberry32(27);
  // Eight retailers, each with a standard charge and most with a free-delivery threshold.
  const existing = sqlite.prepare("SELECT id FROM retailers WHERE compares_prices = 1 ORDER BY id").all() as { id: number }[];
  const retailerIds = existing.map((row) => row.id).slice(0, retailerCount);
  for (let index = retailerIds.length; index < retailerCount; index++) {
    const key = `bench-shop-${index}`;
    const inserted = sqlite
      .prepare("INSERT INTO retailers (key, name, logo, website, compares_prices) VALUES (?, ?, '', ?, 1) RETURNING id")
      .get(key, `Bench Shop ${index}`, `https://${key}.example`) as { id: number };
    retailerIds.push(inserted.id);
  }
  for (const id of retailerIds) {
    sqlite
      .prepare("UPDATE retailers SET delivery_pence = ?, free_delivery_from_pence = ? WHERE id = ?")
      .run(199 + Math.floor(rand() * 4) * 100, rand() < 0.75 ? 2000 + Math.floor(rand() * 5) * 1000 : null, id);
  }
  // The products baskets are drawn from: an offer at every one of the eight retailers (and at no
  // other), in stock and just checked.
  const pool = (sqlite.prepare("SELECT id FROM products ORDER BY id LIMIT ?").all(Math.min(products, 200)) as { id: number }[]).map((row) => row.id);
  sqlite
    .prepare("DELETE FROM product_prices WHERE product_id IN (SELECT value FROM json_each(?)) AND retailer_id NOT IN (SELECT value FROM json_each(?))")
    .run(JSON.stringify(pool), JSON.stringify(retailerIds));
  const now = new Date().toISOString();
  const upsert = sqlite.prepare(
    `INSERT INTO product_prices (product_id, retailer_id, price_pence, url, in_stock, last_checked_at, stale, repeat_price_pence, free_delivery, source)
     VALUES (?, ?, ?, ?, 1, ?, 0, ?, ?, 'manual')
     ON CONFLICT (product_id, retailer_id) DO UPDATE SET price_pence = excluded.price_pence, in_stock = 1, last_checked_at = excluded.last_checked_at,
       stale = 0, repeat_price_pence = excluded.repeat_price_pence, free_delivery = excluded.free_delivery, delivery_pence = NULL, price_override = 0`,
  );
  sqlite.transaction(() => {
    for (const productId of pool) {
      const base = 500 + Math.floor(rand() * 4000);
      for (const retailerId of retailerIds) {
        const price = Math.round(base * (0.85 + rand() * 0.3));
        upsert.run(productId, retailerId, price, `https://shop.example/${retailerId}/${productId}`, now, rand() < 0.3 ? Math.round(price * 0.9) : null, rand() < 0.05 ? 1 : 0);
      }
    }
  })();
  const basketsToAsk = Array.from({ length: warmup + baskets }, () => {
    const chosen = new Set<number>();
    while (chosen.size < basketSize) chosen.add(pool[Math.floor(rand() * pool.length)]!);
    return [...chosen].map((productId) => ({ productId, quantity: 1 + Math.floor(rand() * 3), repeat: rand() < 0.2 }));
  });

  // The quote alone, in process: the same read and search the route does.
  const inProcess: number[] = [];
  for (const lines of basketsToAsk.slice(warmup)) {
    const started = performance.now();
    const catalogue = readBasketCatalogue(db, lines.map((line) => line.productId), new Date(), 24 * 3_600_000);
    const quote = quoteBasket({ lines, offers: catalogue.offers, retailers: catalogue.retailers });
    inProcess.push(performance.now() - started);
    if (!quote.exact || quote.cheapest === null) throw new Error("a bench basket was not quoted exactly");
  }
  db.$client.close();

  const port = 20000 + Math.floor(Math.random() * 20000);
  const server = spawn(process.execPath, [path.join(projectRoot, "scripts/bench-basket-server.ts")], {
    env: { ...process.env, DATABASE_PATH: databaseFile, PORT: String(port), HOST: "127.0.0.1", SITE_BUILD: "never", REFRESH_CRON: "off", LOG_LEVEL: "warn" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("exit", (code) => reject(new Error(`the server exited with ${code}`)));
      server.stdout!.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("running at")) resolve();
      });
    });
    const url = `http://127.0.0.1:${port}/api/basket/quote`;
    const over: number[] = [];
    for (const [index, lines] of basketsToAsk.entries()) {
      const started = performance.now();
      const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json", origin: `http://127.0.0.1:${port}` }, body: JSON.stringify({ lines }) });
      const answer = (await response.json()) as { exact?: boolean; error?: string };
      const ms = performance.now() - started;
      if (response.status !== 200) throw new Error(`quote answered ${response.status}: ${answer.error}`);
      if (index >= warmup) over.push(ms);
    }
    const http = summary(over);
    const alone = summary(inProcess);
    console.log(`${baskets} baskets of ${basketSize} products over ${retailerCount} retailers (catalogue of ${products} products)`);
    console.log(`POST /api/basket/quote, one at a time over loopback: p50 ${http.p50Ms} ms, p99 ${http.p99Ms} ms, slowest ${http.maxMs} ms`);
    console.log(`the read and quote alone, in process: p50 ${alone.p50Ms} ms, p99 ${alone.p99Ms} ms, slowest ${alone.maxMs} ms`);
    console.log(`meets target (p99 < ${targetP99Ms} ms): ${http.p99Ms < targetP99Ms}`);
    fs.writeFileSync(
      benchResultsFile("basket.json"),
      JSON.stringify({ date: new Date().toISOString(), cores: os.cpus().length, products, basketSize, retailers: retailerCount, http, inProcess: alone, targetP99Ms }, null, 2),
    );
    console.log(`written to ${path.relative(process.cwd(), benchResultsFile("basket.json"))}`);
  } finally {
    server.kill("SIGTERM");
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
