/**
 * `npm run bench:refresh`: the price refresh against fixture retailer sites on loopback. Seeds a
 * demo catalogue into a temporary database, points every offer at one of five local "retailer"
 * servers (one per compared retailer) that answer realistic product pages (~26 KB of HTML with
 * JSON-LD; about a third of the prices move between runs) and a robots.txt (a few rules, no
 * Crawl-delay, none matching a product page), then runs the refresh as `npm run refresh` does,
 * robots.txt obeyed, with the per-site delay off so the figure is the pipeline's own capacity
 * (robots.txt, fetch, extract, write). Prints offers/s and writes data/bench/refresh.json.
 *
 * With the production per-site delay (REFRESH_HOST_DELAY_MS, default 1500 ms) a site is read at
 * most once per delay, so a run over S sites is bounded at S / delay offers per second.
 *
 * Options: --products N (default 2000), --concurrency N (default 4).
 */
import fs from "node:fs";
import { createServer, type Server } from "node:http";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { refreshPrices } from "../api/jobs/price-refresh.ts";
import { allowLoopbackForTests } from "../api/lib/guarded-fetch.ts";
import { createPageReader } from "../api/lib/page-price.ts";
import { projectRoot } from "../data/config.ts";
import { migrateDb, openDb } from "../data/db/client.ts";
import { seedCatalogue } from "../data/db/seed.ts";
import { generateCatalogue } from "../data/seed/generate.ts";
import { benchResultsFile } from "./bench-results.ts";

const { values } = parseArgs({ options: { products: { type: "string", default: "2000" }, concurrency: { type: "string", default: "4" } } });

/** A product page shaped like a real retailer's: navigation, JSON-LD, decoys, footer. */
function page(id: number, pence: number): string {
  const price = (pence / 100).toFixed(2);
  const filler = Array.from({ length: 120 }, (_, i) => `<li class="nav-item"><a href="/c/${i}">Category ${i}</a></li>`).join("");
  const related = Array.from({ length: 12 }, (_, i) => `<div class="tile"><span class="price">from £${(3 + i).toFixed(2)}</span></div>`).join("");
  const ld = JSON.stringify({
    "@context": "https://schema.org",
    "@type": "Product",
    name: `Product ${id}`,
    sku: String(id),
    offers: { "@type": "Offer", price, priceCurrency: "GBP", availability: "https://schema.org/InStock" },
  });
  return `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><title>Product ${id}</title><script type="application/ld+json">${ld}</script></head><body><nav><ul>${filler}</ul></nav><main><h1>Product ${id}</h1><p class="price">£${price}</p><p class="rrp"><s>£${(pence / 50).toFixed(2)}</s></p>${"<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p>".repeat(300)}</main><aside>${related}</aside></body></html>`;
}

/** A robots.txt like a shop's: its checkout, account and search pages closed to crawlers. */
const robotsTxt = ["User-agent: *", "Disallow: /basket", "Disallow: /checkout", "Disallow: /account/", "Disallow: /*?q=", "Allow: /p/", "", "User-agent: GPTBot", "Disallow: /", ""].join("\n");

const products = Number(values.products);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-bench-refresh-"));
const servers: Server[] = [];
try {
  const databaseFile = path.join(dir, "bench.db");
  const db = openDb(databaseFile);
  await migrateDb(db);
  seedCatalogue(db, generateCatalogue({ products, today: new Date() }));

  // Each offer's current price at its site, keyed by path; a third move by up to 10% per run.
  const prices = new Map<string, number>();
  const retailers = db.$client.prepare("SELECT id FROM retailers WHERE compares_prices = 1 ORDER BY id").all() as { id: number }[];
  const origins = new Map<number, string>();
  for (const retailer of retailers) {
    const server = createServer((request, response) => {
      const pence = prices.get(request.url ?? "");
      if (request.url === "/robots.txt") response.writeHead(200, { "content-type": "text/plain" }).end(robotsTxt);
      else if (pence === undefined) response.writeHead(404).end();
      else response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page(retailer.id, pence));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    servers.push(server);
    origins.set(retailer.id, `http://127.0.0.1:${(server.address() as { port: number }).port}`);
  }
  const offers = db.$client.prepare("SELECT id, retailer_id, price_pence FROM product_prices").all() as { id: number; retailer_id: number; price_pence: number }[];
  // Read from their pages before (not the demo's invented prices, which the refresh leaves alone).
  const setUrl = db.$client.prepare("UPDATE product_prices SET url = ?, source = 'page' WHERE id = ?");
  db.$client.transaction(() => {
    for (const offer of offers) {
      const pathName = `/p/${offer.id}`;
      setUrl.run(`${origins.get(offer.retailer_id)}${pathName}`, offer.id);
      prices.set(pathName, offer.id % 3 === 0 ? Math.round(offer.price_pence * 0.93) : offer.price_pence);
    }
  })();

  console.log(`Refreshing ${offers.length.toLocaleString("en-GB")} offers of ${products.toLocaleString("en-GB")} products at ${servers.length} sites...`);
  const cpuBefore = process.cpuUsage();
  const summary = await refreshPrices({
    db,
    reader: createPageReader({ allowance: allowLoopbackForTests() }),
    concurrency: Number(values.concurrency),
    hostDelayMs: 0,
  });
  const cpu = process.cpuUsage(cpuBefore);
  db.$client.close();
  const seconds = summary.durationMs / 1000;
  const result = {
    products,
    offers: offers.length,
    sites: servers.length,
    concurrency: Number(values.concurrency),
    pageKb: Math.round(page(1, 1299).length / 1024),
    seconds: Math.round(seconds * 100) / 100,
    cpuSeconds: Math.round((cpu.user + cpu.system) / 10_000) / 100,
    offersPerSecond: Math.round(summary.checked / seconds),
    checked: summary.checked,
    changed: summary.changed,
    held: summary.held,
    failed: summary.failed,
    blocked: summary.blocked,
    backedOff: summary.backedOff,
    maxRssMb: Math.round((process.resourceUsage().maxRSS / 1024) * 10) / 10,
  };
  console.log(
    `${summary.checked} checked (${summary.changed} changed, ${summary.held} held, ${summary.failed} failed, ${summary.blocked} blocked, ${summary.backedOff} backed off) ` +
      `in ${result.seconds} s: ${result.offersPerSecond} offers/s`,
  );
  const out = benchResultsFile("refresh.json");
  fs.writeFileSync(out, JSON.stringify({ date: new Date().toISOString(), cores: os.cpus().length, result }, null, 2) + "\n");
  console.log(`Written to ${path.relative(projectRoot, out)}`);
} finally {
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  fs.rmSync(dir, { recursive: true, force: true });
}
