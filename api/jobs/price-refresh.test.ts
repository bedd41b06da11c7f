/**
 * The price refresh through the real services (SQLite file, catalogue writer, change signal,
 * alert check, mail outbox) against fixture retailer sites on loopback whose prices change
 * between runs; one retailer answers 500, one never answers; a jump is held for review.
 */
import fs from "node:fs";
import { createServer, type Server } from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CatalogueChange } from "../../data/db/catalogue-writer/transaction.ts";
import { createProduct } from "../../data/db/catalogue-writer/products.ts";
import { migrateDb, openDb } from "../../data/db/client.ts";
import { latestRefreshRun, pendingHolds } from "../../data/db/price-review.ts";
import { seedCatalogue } from "../../data/db/seed.ts";
import { withoutDelivery, allowLoopbackOffers } from "../../data/db/fixtures/temp-db.ts";
import { productInput } from "../../data/domain/catalogue-input.ts";
import { generateCatalogue } from "../../data/seed/generate.ts";
import { allowLoopbackForTests } from "../lib/guarded-fetch.ts";
import { createPageReader } from "../lib/page-price.ts";
import { createMailer } from "../mail/mailer.ts";
import { createServices, type Services } from "../services.ts";
import { refreshPrices } from "./price-refresh.ts";
import { readFeed } from "../../data/feeds/awin-feed.ts";

/** Prices each fixture site shows now, by path ("/p/1" -> pence); a missing path is a 404. `hits` counts page requests. */
type Site = { server: Server; origin: string; prices: Map<string, number>; hits: number };

function productPage(name: string, pence: number): string {
  const ld = JSON.stringify({
    "@context": "https://schema.org",
    "@type": "Product",
    name,
    offers: { "@type": "Offer", price: (pence / 100).toFixed(2), priceCurrency: "GBP", availability: "https://schema.org/InStock" },
  });
  return `<!doctype html><html lang="en-GB"><head><title>${name}</title><script type="application/ld+json">${ld}</script></head><body><h1>${name}</h1><p class="price">£${(pence / 100).toFixed(2)}</p></body></html>`;
}

async function startSite(behaviour: "ok" | "error" | "hang"): Promise<Site> {
  const site: Site = { server: createServer(), origin: "", prices: new Map(), hits: 0 };
  site.server.on("request", (request, response) => {
    // Every site has no robots.txt (404: nothing disallowed), so its pages are read whatever they answer.
    if (request.url === "/robots.txt") {
      response.writeHead(404).end();
      return;
    }
    site.hits += 1;
    if (behaviour === "hang") return; // never answers: the reader's timeout ends it
    if (behaviour === "error") {
      response.writeHead(500, { "content-type": "text/html" }).end("<h1>Internal Server Error</h1>");
      return;
    }
    const pence = site.prices.get(request.url ?? "");
    if (pence === undefined) {
      response.writeHead(404).end("not found");
      return;
    }
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(productPage(request.url ?? "", pence));
  });
  await new Promise<void>((resolve) => site.server.listen(0, "127.0.0.1", resolve));
  const address = site.server.address() as { port: number };
  site.origin = `http://127.0.0.1:${address.port}`;
  return site;
}

let dir: string;
let services: Services;
let sites: { amazon: Site; zooplus: Site; jollyes: Site; ebay: Site };
const builds: CatalogueChange[] = [];
let ids: { kibble: number; litter: number; jump: number };
let outbox: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-refresh-"));
  const file = path.join(dir, "refresh.db");
  const db = openDb(file);
  await migrateDb(db);
  // A catalogue with no offers of its own: only the fixture products below have offers.
  const catalogue = generateCatalogue({ products: 1, today: new Date() });
  seedCatalogue(db, { ...catalogue, products: [] });
  // The prices read from pages and feeds are checked as best prices: no retailer delivery rules on top (a feed's own delivery still counts).
  withoutDelivery(db);
  // The fixture shops are served on loopback.
  allowLoopbackOffers(db);
  db.$client.close();

  sites = { amazon: await startSite("ok"), zooplus: await startSite("ok"), jollyes: await startSite("error"), ebay: await startSite("hang") };
  outbox = path.join(dir, "outbox");
  services = await createServices({
    databaseFile: file,
    prepare: false,
    mailer: createMailer({ smtpUrl: undefined, from: "PawPrice <alerts@pawprice.example>", outboxDir: outbox }),
    pageReader: createPageReader({ allowance: allowLoopbackForTests(), timeoutMs: 800 }),
    sources: new Map(),
    refreshCron: null,
    hostDelayMs: 0,
    site: { request: (change) => builds.push(change), status: () => ({ state: "idle", lastBuild: null }) },
    log: () => {},
  });
  const retailer = (key: string) => (services.db.$client.prepare("SELECT id FROM retailers WHERE key = ?").get(key) as { id: number }).id;
  const category = (services.db.$client.prepare("SELECT id FROM categories ORDER BY id").get() as { id: number }).id;
  // Created as the admin would: each write announced through the change signal.
  const make = (name: string, links: { key: keyof typeof sites; path: string; price: number }[]) => {
    const { value, change } = createProduct(
      services.db,
      productInput.parse({
        name,
        categoryId: category,
        retailerLinks: links.map((link) => ({ retailerId: retailer(link.key), affiliateUrl: `${sites[link.key].origin}${link.path}`, price: link.price })),
      }),
    );
    services.catalogueChanged(change);
    return value.id;
  };
  ids = {
    kibble: make("Refresh Kibble 2kg", [
      { key: "amazon", path: "/p/kibble", price: 20 },
      { key: "zooplus", path: "/p/kibble", price: 19 },
      { key: "jollyes", path: "/p/kibble", price: 25 },
    ]),
    litter: make("Refresh Litter 10l", [
      { key: "zooplus", path: "/p/litter", price: 8 },
      { key: "ebay", path: "/p/litter", price: 7 },
    ]),
    jump: make("Refresh Jump Treats", [{ key: "amazon", path: "/p/jump", price: 10 }]),
  };
  // An alert on the kibble: mailed when its best price reaches £15.00.
  services.db.$client
    .prepare("INSERT INTO price_alerts (user_id, product_id, target_price_pence, email, is_active, confirmed_at) VALUES ('user_refreshtest0100000000000', ?, 1500, 'owner@example.com', 1, '2026-01-01T00:00:00.000Z')")
    .run(ids.kibble);
  builds.length = 0;
}, 60_000);

afterAll(async () => {
  await services?.close();
  for (const site of Object.values(sites ?? {})) site.server.closeAllConnections?.();
  await Promise.all(Object.values(sites ?? {}).map((site) => new Promise((resolve) => site.server.close(resolve))));
  fs.rmSync(dir, { recursive: true, force: true });
});

const history = (productId: number) =>
  services.db.$client.prepare("SELECT retailer_id AS retailer, price_pence AS price FROM price_history WHERE product_id = ? ORDER BY id").all(productId) as {
    retailer: number;
    price: number;
  }[];
const best = (productId: number) => services.db.$client.prepare("SELECT best_price_pence AS price FROM products WHERE id = ?").get(productId) as { price: number | null };
const mails = () => (fs.existsSync(outbox) ? fs.readdirSync(outbox).filter((name) => name.endsWith(".eml")) : []);

describe("refreshPrices through the server's pipeline", () => {
  it("reads every page, publishes moves, holds a jump, survives a 500 and a timeout, signals once, and mails the alert", async () => {
    sites.amazon.prices.set("/p/kibble", 1450).set("/p/jump", 3000);
    sites.zooplus.prices.set("/p/kibble", 1900).set("/p/litter", 750);
    const kibbleHistory = history(ids.kibble).length;

    const summary = await services.pipeline.refresh();
    // Pages: kibble x3, litter x2, jump x1. Jollyes answers 500, eBay never answers.
    expect(summary).toMatchObject({ result: "partial", checked: 4, changed: 2, held: 1, failed: 2 });
    expect(summary.failures.some((line) => line.includes(sites.jollyes.origin) && /500/.test(line))).toBe(true);
    expect(summary.failures.some((line) => line.includes(sites.ebay.origin))).toBe(true);
    expect(sites.ebay.hits).toBe(1);

    // History grew by the moved price only; the best price moved to it.
    expect(history(ids.kibble)).toHaveLength(kibbleHistory + 1);
    expect(history(ids.kibble).at(-1)!.price).toBe(1450);
    expect(best(ids.kibble).price).toBe(1450);
    expect(best(ids.litter).price).toBe(700);
    // £10.00 -> £30.00 is above 250%: held, not published.
    expect(best(ids.jump).price).toBe(1000);
    expect(pendingHolds(services.db).map((hold) => [hold.product.id, hold.heldPricePence])).toEqual([[ids.jump, 3000]]);

    // One change signal: one rebuild request naming the checked products.
    expect(builds).toHaveLength(1);
    expect(builds[0]!.productIds).toEqual(expect.arrayContaining([ids.kibble, ids.litter]));
    expect(builds[0]!.productIds).not.toContain(ids.jump);
    // The alert check the signal started mails the kibble alert (£14.50 <= £15.00).
    await expect.poll(() => mails().length, { timeout: 10_000 }).toBe(1);
    expect(fs.readFileSync(path.join(outbox, mails()[0]!), "utf8")).toContain("Refresh Kibble 2kg");

    const run = latestRefreshRun(services.db);
    expect(run).toMatchObject({ result: "partial", checked: 4, changed: 2, held: 1, failed: 2 });
    expect(run!.finishedAt).not.toBeNull();
  });

  it("a second run with new prices grows the history again and moves the best price back", async () => {
    builds.length = 0;
    sites.amazon.prices.set("/p/kibble", 2100);
    sites.zooplus.prices.set("/p/kibble", 1850);
    const before = history(ids.kibble).length;
    const summary = await services.pipeline.refresh();
    expect(summary.changed).toBe(2);
    expect(history(ids.kibble).slice(before).map((point) => point.price).sort()).toEqual([1850, 2100]);
    expect(best(ids.kibble).price).toBe(1850);
    expect(builds).toHaveLength(1);
  });

  it("exits as failed only when every page failed", async () => {
    for (const site of [sites.amazon, sites.zooplus]) site.prices.clear();
    const summary = await services.pipeline.refresh();
    expect(summary.checked).toBe(0);
    expect(summary.result).toBe("failed");
  });

  it("reads feeds first: a retailer a feed covers takes the feed's prices and its pages are not read", async () => {
    const feedFile = path.join(dir, "zooplus-feed.csv");
    const header =
      "aw_deep_link,product_name,aw_product_id,merchant_product_id,merchant_image_url,description,merchant_category,search_price,merchant_name,merchant_id,category_name,category_id,aw_image_url,currency,store_price,delivery_cost,merchant_deep_link,language,last_updated,display_price,data_feed_id";
    const row = (name: string, price: string) =>
      `https://www.awin1.com/pclick.php?p=1&a=1&m=2,${name},1,Z1,,,Pets,${price},Zooplus UK,2,Dog Food,1,,GBP,${price},2.99,https://www.zooplus.co.uk/p/1,en,,GBP${price},1`;
    fs.writeFileSync(feedFile, [header, row("Refresh Kibble 2kg", "17.25"), row("Not In The Catalogue 1kg", "3.00")].join("\n") + "\n");
    sites.amazon.prices.set("/p/kibble", 2100).set("/p/jump", 1000);
    const zooplusHits = sites.zooplus.hits;
    const amazonHits = sites.amazon.hits;
    const summary = await refreshPrices({
      db: services.db,
      feeds: [{ name: "awin", open: async () => readFeed(feedFile) }],
      reader: createPageReader({ allowance: allowLoopbackForTests(), timeoutMs: 800 }),
      hostDelayMs: 0,
    });
    // Zooplus's pages (kibble and litter) were not read: the feed covers Zooplus.
    expect(sites.zooplus.hits).toBe(zooplusHits);
    expect(sites.amazon.hits).toBe(amazonHits + 2);
    const zooplus = services.db.$client
      .prepare("SELECT pp.price_pence AS price, pp.delivery_pence AS delivery, pp.source FROM product_prices pp JOIN retailers r ON r.id = pp.retailer_id WHERE pp.product_id = ? AND r.key = 'zooplus'")
      .get(ids.kibble);
    expect(zooplus).toEqual({ price: 1725, delivery: 299, source: "feed:awin" });
    // Amazon kibble (page) and the feed's kibble were checked; jollyes and eBay still fail.
    expect(summary.checked).toBe(3);
    expect(summary.failed).toBe(2);
    // The feed states £2.99 delivery: 1725 + 299 = 2024 to the door, below Amazon's 2100 read from its page.
    expect(best(ids.kibble).price).toBe(2024);
  });
});

