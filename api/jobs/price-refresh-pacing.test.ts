/**
 * The refresh's manners towards retailer sites: at most `concurrency` sites read at once, one
 * request at a time per site, and at least `hostDelayMs` between two requests to one site.
 * Fixture sites on loopback record when each request arrived and how many were in flight.
 */
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refreshPrices } from "./price-refresh.ts";
import { createProduct } from "../../data/db/catalogue-writer/products.ts";
import { tempDb, type TempDb } from "../../data/db/fixtures/temp-db.ts";
import { productInput } from "../../data/domain/catalogue-input.ts";
import { allowLoopbackForTests } from "../lib/guarded-fetch.ts";
import { createPageReader } from "../lib/page-price.ts";

interface Site {
  server: Server;
  origin: string;
  /** Arrival times (ms) of each request, robots.txt included. */
  arrivals: number[];
  paths: string[];
}

let temp: TempDb;
const sites: Site[] = [];
let inFlight = 0;
let maxInFlight = 0;
/** Per site, the most requests it had in flight at once. */
const maxPerSite = new Map<Site, number>();

const page = (pence: number) =>
  `<!doctype html><html><head><script type="application/ld+json">{"@type":"Product","name":"x","offers":{"@type":"Offer","price":"${(pence / 100).toFixed(2)}","priceCurrency":"GBP"}}</script></head><body></body></html>`;

beforeAll(async () => {
  temp = await tempDb();
  const category = (temp.db.$client.prepare("INSERT INTO categories (name, slug, icon) VALUES ('Dog Food', 'dog-food', 'bone') RETURNING id").get() as { id: number }).id;
  const retailerIds: number[] = [];
  for (const key of ["one", "two", "three"]) {
    retailerIds.push(
      (temp.db.$client.prepare(`INSERT INTO retailers (key, name, logo, website, compares_prices, hosts) VALUES (?, ?, '', 'https://example.com', 1, '["127.0.0.1"]') RETURNING id`).get(key, `Shop ${key}`) as { id: number }).id,
    );
    const site: Site = { server: createServer(), origin: "", arrivals: [], paths: [] };
    let here = 0;
    site.server.on("request", (request, response) => {
      site.arrivals.push(performance.now());
      site.paths.push(request.url ?? "");
      inFlight += 1;
      here += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      maxPerSite.set(site, Math.max(maxPerSite.get(site) ?? 0, here));
      // Each page takes a while, so overlapping requests would be seen.
      setTimeout(() => {
        inFlight -= 1;
        here -= 1;
        if (request.url === "/robots.txt") response.writeHead(404).end();
        else response.writeHead(200, { "content-type": "text/html" }).end(page(1000));
      }, 60);
    });
    await new Promise<void>((resolve) => site.server.listen(0, "127.0.0.1", resolve));
    site.origin = `http://127.0.0.1:${(site.server.address() as { port: number }).port}`;
    sites.push(site);
  }
  // Three products with an offer at each of the three sites.
  for (const n of [1, 2, 3]) {
    createProduct(
      temp.db,
      productInput.parse({
        name: `Paced Kibble ${n}`,
        categoryId: category,
        retailerLinks: retailerIds.map((retailerId, index) => ({ retailerId, affiliateUrl: `${sites[index]!.origin}/p/${n}`, price: 10 })),
      }),
    );
  }
});

afterAll(async () => {
  for (const site of sites) site.server.closeAllConnections();
  await Promise.all(sites.map((site) => new Promise((resolve) => site.server.close(resolve))));
  temp.remove();
});

function reset(): void {
  for (const site of sites) {
    site.arrivals.length = 0;
    site.paths.length = 0;
  }
  maxInFlight = 0;
  maxPerSite.clear();
}

const reader = createPageReader({ allowance: allowLoopbackForTests() });

describe("refresh pacing", () => {
  it("reads at most `concurrency` sites at once, one request at a time per site, with the delay between a site's requests", async () => {
    reset();
    const summary = await refreshPrices({ db: temp.db, reader, concurrency: 2, hostDelayMs: 150 });
    expect(summary.checked).toBe(9);
    expect(maxInFlight).toBe(2);
    for (const site of sites) {
      // robots.txt first (read once, then kept for 24 hours), then the three pages.
      expect(site.paths).toEqual(["/robots.txt", "/p/1", "/p/2", "/p/3"]);
      expect(maxPerSite.get(site)).toBe(1);
      // Each request starts after the previous one's 60 ms answer plus the 150 ms pause.
      for (let i = 1; i < site.arrivals.length; i += 1) expect(site.arrivals[i]! - site.arrivals[i - 1]!).toBeGreaterThanOrEqual(150 + 60 - 5);
    }
  });

  it("with concurrency 1 reads one site after another", async () => {
    reset();
    await refreshPrices({ db: temp.db, reader, concurrency: 1, hostDelayMs: 0 });
    expect(maxInFlight).toBe(1);
    const [first, second] = sites;
    // Site one was done before site two began.
    expect(second!.arrivals[0]!).toBeGreaterThan(first!.arrivals.at(-1)!);
  });
});
