/**
 * The refresh's manners and priorities, seen from fixture sites on loopback that record each
 * request (path, time, headers): Crawl-delay, waiting when a site answers 429/503, conditional
 * requests, the most watched products first, and the offers it need not read.
 */
import { afterEach, describe, expect, it } from "vitest";
import { refreshPrices } from "./price-refresh.ts";
import { closeAll, fixtureCatalogue, loopbackReader, startSite, type Catalogue, type FixtureSite } from "./fixtures/retailer-sites.ts";

afterEach(closeAll);

async function setUp(siteCount = 1, robots: FixtureSite["robots"] = 404) {
  const catalogue = await fixtureCatalogue();
  const shops: { site: FixtureSite; retailerId: number; name: string }[] = [];
  for (let index = 0; index < siteCount; index += 1) {
    const site = await startSite(robots);
    const name = `Shop ${index + 1}`;
    shops.push({ site, retailerId: catalogue.retailer(name), name });
  }
  return { catalogue, shops };
}

/** An offer at `path` of the shop, its page showing `pence` (listed at £10.00 until read). */
function offer(catalogue: Catalogue, shop: { site: FixtureSite; retailerId: number }, name: string, path: string, pence = 1200, now?: Date): number {
  shop.site.prices.set(path, pence);
  return catalogue.product(name, [{ retailerId: shop.retailerId, url: `${shop.site.origin}${path}`, pence: 1000 }], now);
}

const pagePaths = (site: FixtureSite) => site.paths().filter((path) => path !== "/robots.txt");
const pageRequests = (site: FixtureSite) => site.requests.filter((request) => request.path !== "/robots.txt");

describe("Crawl-delay", () => {
  it("leaves at least the site's Crawl-delay between two of its requests", async () => {
    const { catalogue, shops } = await setUp(1, "User-agent: *\nCrawl-delay: 1\n");
    const [shop] = shops;
    offer(catalogue, shop!, "Kibble 1", "/p/1");
    offer(catalogue, shop!, "Kibble 2", "/p/2");
    const summary = await refreshPrices({ db: catalogue.db, reader: loopbackReader, hostDelayMs: 0 });
    expect(summary.checked).toBe(2);
    const requests = shop!.site.requests;
    expect(requests.map((request) => request.path)).toEqual(["/robots.txt", "/p/1", "/p/2"]);
    for (let index = 1; index < requests.length; index += 1) expect(requests[index]!.at - requests[index - 1]!.answeredAt).toBeGreaterThanOrEqual(995);
  });

  it("reads only the pages that fit in 30 minutes of a site whose Crawl-delay is over a minute, the most watched", async () => {
    const { catalogue, shops } = await setUp();
    const [shop] = shops;
    const first = offer(catalogue, shop!, "Kibble 1", "/p/1");
    offer(catalogue, shop!, "Kibble 2", "/p/2");
    const watched = offer(catalogue, shop!, "Kibble 3", "/p/3");
    catalogue.run("INSERT INTO favorites (user_id, product_id) VALUES ('user_manners', ?)", watched);
    // Its robots.txt (read an hour ago, still fresh) asks for an hour between requests: one page per run.
    catalogue.run(
      "INSERT INTO crawl_hosts (origin, robots_txt, robots_state, robots_fetched_at) VALUES (?, ?, 'rules', ?)",
      shop!.site.origin,
      "User-agent: *\nCrawl-delay: 3600\n",
      new Date(Date.now() - 3600_000).toISOString(),
    );
    const summary = await refreshPrices({ db: catalogue.db, reader: loopbackReader, hostDelayMs: 0 });
    expect(shop!.site.paths()).toEqual(["/p/3"]);
    expect(summary).toMatchObject({ checked: 1, backedOff: 2, failed: 0 });
    expect(summary.failures[0]).toBe(`Shop 1: ${shop!.site.origin}/p/1: robots.txt asks for 3600 s between requests: only the 1 most watched of its pages are read per run`);
    expect(first).toBeLessThan(watched);
  });
});

describe("a busy site (429 / 503)", () => {
  it("waits a Retry-After of 1 s, asks for the page once more and reads it", async () => {
    const { catalogue, shops } = await setUp();
    const [shop] = shops;
    offer(catalogue, shop!, "Kibble 1", "/p/1", 1234);
    offer(catalogue, shop!, "Kibble 2", "/p/2");
    let busy = true;
    shop!.site.intercept = (request, response) => {
      if (request.url !== "/p/1" || !busy) return false;
      busy = false;
      response.writeHead(429, { "retry-after": "1" }).end();
      return true;
    };
    const summary = await refreshPrices({ db: catalogue.db, reader: loopbackReader, hostDelayMs: 0 });
    const requests = pageRequests(shop!.site);
    expect(requests.map((request) => request.path)).toEqual(["/p/1", "/p/1", "/p/2"]);
    expect(requests[1]!.at - requests[0]!.answeredAt).toBeGreaterThanOrEqual(995);
    expect(summary).toMatchObject({ checked: 2, backedOff: 0, failed: 0 });
    const price = catalogue.db.$client.prepare("SELECT price_pence FROM product_prices WHERE url = ?").get(`${shop!.site.origin}/p/1`);
    expect(price).toEqual({ price_pence: 1234 });
    // The site answered: its back-off is over.
    expect(catalogue.db.$client.prepare("SELECT blocked_until, busy_streak FROM crawl_hosts").get()).toEqual({ blocked_until: null, busy_streak: 0 });
  });

  it("leaves the rest of a site to a later run when Retry-After is an hour, reads the other sites, and keeps away next run", async () => {
    const { catalogue, shops } = await setUp(2);
    const [busyShop, calmShop] = shops;
    for (const n of [1, 2, 3]) offer(catalogue, busyShop!, `Busy Kibble ${n}`, `/p/${n}`);
    for (const n of [1, 2]) offer(catalogue, calmShop!, `Calm Kibble ${n}`, `/p/${n}`);
    busyShop!.site.intercept = (request, response) => {
      if (request.url === "/robots.txt") return false;
      response.writeHead(503, { "retry-after": "3600" }).end();
      return true;
    };
    const started = Date.now();
    const summary = await refreshPrices({ db: catalogue.db, reader: loopbackReader, hostDelayMs: 0, concurrency: 2 });
    expect(pagePaths(busyShop!.site)).toEqual(["/p/1"]);
    expect(pagePaths(calmShop!.site)).toEqual(["/p/1", "/p/2"]);
    expect(summary).toMatchObject({ checked: 2, backedOff: 3, failed: 0 });
    expect(summary.failures).toEqual([1, 2, 3].map((n) => `Shop 1: ${busyShop!.site.origin}/p/${n}: the site asked us to wait (Retry-After 3600)`));
    const stored = catalogue.db.$client.prepare("SELECT blocked_until, busy_streak FROM crawl_hosts WHERE origin = ?").get(busyShop!.site.origin) as {
      blocked_until: string;
      busy_streak: number;
    };
    expect(stored.busy_streak).toBe(1);
    expect(Date.parse(stored.blocked_until) - started).toBeGreaterThanOrEqual(3600_000);
    expect(Date.parse(stored.blocked_until) - Date.now()).toBeLessThanOrEqual(3600_000);

    // The next run, within the hour: not one request to the busy site, robots.txt included.
    const before = busyShop!.site.requests.length;
    const next = await refreshPrices({ db: catalogue.db, reader: loopbackReader, hostDelayMs: 0 });
    expect(busyShop!.site.requests.length).toBe(before);
    expect(next.backedOff).toBe(3);
    expect(next.failures[0]).toBe(`Shop 1: ${busyShop!.site.origin}/p/1: the site asked us to wait (until ${stored.blocked_until})`);
  });

  it("without Retry-After backs off from the host delay (at least 1 s, doubled), and a second busy answer leaves the site to a later run", async () => {
    const { catalogue, shops } = await setUp();
    const [shop] = shops;
    for (const n of [1, 2]) offer(catalogue, shop!, `Kibble ${n}`, `/p/${n}`);
    shop!.site.intercept = (request, response) => {
      if (request.url === "/robots.txt") return false;
      response.writeHead(503).end();
      return true;
    };
    const summary = await refreshPrices({ db: catalogue.db, reader: loopbackReader, hostDelayMs: 0 });
    const requests = pageRequests(shop!.site);
    expect(requests.map((request) => request.path)).toEqual(["/p/1", "/p/1"]);
    // First busy answer: 1 s doubled.
    expect(requests[1]!.at - requests[0]!.answeredAt).toBeGreaterThanOrEqual(1995);
    expect(summary).toMatchObject({ checked: 0, backedOff: 2, failed: 0 });
    expect(summary.failures[0]).toBe(`Shop 1: ${shop!.site.origin}/p/1: the site answered 503 again after a wait of 2 s`);
    const stored = catalogue.db.$client.prepare("SELECT blocked_until, busy_streak FROM crawl_hosts").get() as { blocked_until: string; busy_streak: number };
    // Two in a row: the next wait is 1 s × 2² = 4 s.
    expect(stored.busy_streak).toBe(2);
    expect(Date.parse(stored.blocked_until) - Date.now()).toBeGreaterThan(3000);
  });
});

describe("conditional requests", () => {
  it("sends the page's ETag and Last-Modified back; a 304 confirms the stored price", async () => {
    const { catalogue, shops } = await setUp();
    const [shop] = shops;
    const lastModified = "Mon, 02 Mar 2026 10:00:00 GMT";
    const id = offer(catalogue, shop!, "Kibble 1", "/p/1", 1250);
    shop!.site.intercept = (request, response) => {
      if (request.url !== "/p/1") return false;
      if (request.headers["if-none-match"] === '"v1"') response.writeHead(304, { etag: '"v1"' }).end();
      else response.writeHead(200, { "content-type": "text/html", etag: '"v1"', "last-modified": lastModified }).end(pageOf(1250));
      return true;
    };
    const start = Date.now();
    const first = await refreshPrices({ db: catalogue.db, reader: loopbackReader, hostDelayMs: 0, now: () => new Date(start) });
    expect(first).toMatchObject({ checked: 1, changed: 1, notModified: 0 });
    expect(pageRequests(shop!.site)[0]!.headers["if-none-match"]).toBeUndefined();
    const offerRow = () =>
      catalogue.db.$client.prepare("SELECT price_pence, source, last_checked_at, updated_at, page_etag, page_last_modified FROM product_prices WHERE product_id = ?").get(id) as Record<string, unknown>;
    expect(offerRow()).toMatchObject({ price_pence: 1250, source: "page", page_etag: '"v1"', page_last_modified: lastModified });
    const historyLength = () => (catalogue.db.$client.prepare("SELECT count(*) AS n FROM price_history WHERE product_id = ?").get(id) as { n: number }).n;
    const before = { row: offerRow(), history: historyLength() };

    const later = new Date(start + 2 * 3600_000);
    const second = await refreshPrices({ db: catalogue.db, reader: loopbackReader, hostDelayMs: 0, now: () => later });
    const conditional = pageRequests(shop!.site)[1]!;
    expect(conditional.headers["if-none-match"]).toBe('"v1"');
    expect(conditional.headers["if-modified-since"]).toBe(lastModified);
    expect(second).toMatchObject({ checked: 1, changed: 0, notModified: 1, failed: 0 });
    expect(offerRow()).toEqual({ ...before.row, last_checked_at: later.toISOString() });
    expect(historyLength()).toBe(before.history);
  });

  it("sends no validators for an offer whose last reading waits for review, nor for one whose price came from elsewhere", async () => {
    const { catalogue, shops } = await setUp();
    const [shop] = shops;
    const held = offer(catalogue, shop!, "Kibble 1", "/p/1");
    const manual = offer(catalogue, shop!, "Kibble 2", "/p/2");
    catalogue.run("UPDATE product_prices SET source = 'page', page_etag = '\"old\"' WHERE product_id = ?", held);
    catalogue.run(
      "INSERT INTO price_holds (product_id, retailer_id, published_price_pence, held_price_pence, source, url, observed_at, status) VALUES (?, ?, 1000, 3000, 'page', '', '2026-01-01T00:00:00Z', 'pending')",
      held,
      shop!.retailerId,
    );
    catalogue.run("UPDATE product_prices SET source = 'manual', page_etag = '\"old\"' WHERE product_id = ?", manual);
    await refreshPrices({ db: catalogue.db, reader: loopbackReader, hostDelayMs: 0 });
    expect(pageRequests(shop!.site).map((request) => [request.path, request.headers["if-none-match"]])).toEqual([
      ["/p/1", undefined],
      ["/p/2", undefined],
    ]);
  });
});

describe("the order pages are read in", () => {
  it("reads products with an alert, then favourites, then views and clicks of the last 30 days, then the rest by id", async () => {
    const { catalogue, shops } = await setUp();
    const [shop] = shops;
    const now = new Date();
    const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();
    // Created in the reverse of the order they are read in, so product id order alone would fail.
    const oldView = offer(catalogue, shop!, "Old View", "/p/old-view");
    const plain = offer(catalogue, shop!, "Plain", "/p/plain");
    const clicked = offer(catalogue, shop!, "Clicked", "/p/clicked");
    const viewed = offer(catalogue, shop!, "Viewed", "/p/viewed");
    const favourite = offer(catalogue, shop!, "Favourite", "/p/favourite");
    const alerted = offer(catalogue, shop!, "Alerted", "/p/alerted");
    const unconfirmed = offer(catalogue, shop!, "Unconfirmed Alert", "/p/unconfirmed");
    catalogue.run(
      "INSERT INTO price_alerts (user_id, product_id, target_price_pence, email, is_active, confirmed_at) VALUES ('user_a', ?, 900, 'a@example.com', 1, ?)",
      alerted,
      daysAgo(1),
    );
    // An alert waiting for its address to be confirmed mails nothing: it does not count.
    catalogue.run("INSERT INTO price_alerts (user_id, product_id, target_price_pence, email, is_active) VALUES ('user_b', ?, 900, 'b@example.com', 1)", unconfirmed);
    catalogue.run("INSERT INTO favorites (user_id, product_id) VALUES ('user_a', ?)", favourite);
    catalogue.run("INSERT INTO recently_viewed (user_id, product_id, viewed_at) VALUES ('user_a', ?, ?), ('user_b', ?, ?)", viewed, daysAgo(2), viewed, daysAgo(3));
    catalogue.run("INSERT INTO user_behaviour (user_id, product_id, action, timestamp) VALUES ('user_a', ?, 'affiliate_click', ?)", clicked, daysAgo(5));
    catalogue.run("INSERT INTO recently_viewed (user_id, product_id, viewed_at) VALUES ('user_c', ?, ?)", oldView, daysAgo(40));
    await refreshPrices({ db: catalogue.db, reader: loopbackReader, hostDelayMs: 0, now: () => now });
    expect(pagePaths(shop!.site)).toEqual(["/p/alerted", "/p/favourite", "/p/viewed", "/p/clicked", "/p/old-view", "/p/plain", "/p/unconfirmed"]);
    expect(plain).toBeLessThan(unconfirmed);
  });

  it("starts the site whose top offer is most watched first", async () => {
    const { catalogue, shops } = await setUp(2);
    const [quiet, watched] = shops;
    offer(catalogue, quiet!, "Quiet", "/p/quiet");
    const loved = offer(catalogue, watched!, "Loved", "/p/loved");
    offer(catalogue, watched!, "Also There", "/p/also");
    catalogue.run("INSERT INTO favorites (user_id, product_id) VALUES ('user_a', ?)", loved);
    await refreshPrices({ db: catalogue.db, reader: loopbackReader, hostDelayMs: 0, concurrency: 1 });
    const [firstQuiet] = quiet!.site.requests;
    expect(watched!.site.requests.every((request) => request.at < firstQuiet!.at)).toBe(true);
    expect(pagePaths(watched!.site)).toEqual(["/p/loved", "/p/also"]);
  });
});

describe("offers that are not read", () => {
  it("never fetches demo offers nor offers a feed confirmed within half the 24-hour window; reads older feed offers and overridden ones", async () => {
    const { catalogue, shops } = await setUp();
    const [shop] = shops;
    const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3600_000).toISOString();
    const demo = offer(catalogue, shop!, "Demo", "/p/demo");
    const freshFeed = offer(catalogue, shop!, "Fresh Feed", "/p/fresh-feed");
    const staleFeed = offer(catalogue, shop!, "Stale Feed", "/p/stale-feed");
    const overridden = offer(catalogue, shop!, "Overridden", "/p/overridden");
    catalogue.run("UPDATE product_prices SET source = 'demo' WHERE product_id = ?", demo);
    catalogue.run("UPDATE product_prices SET source = 'feed:awin', last_checked_at = ? WHERE product_id = ?", hoursAgo(11.9), freshFeed);
    catalogue.run("UPDATE product_prices SET source = 'feed:awin', last_checked_at = ? WHERE product_id = ?", hoursAgo(12.1), staleFeed);
    catalogue.run("UPDATE product_prices SET price_override = 1, manual_price_pence = 999 WHERE product_id = ?", overridden);
    const summary = await refreshPrices({ db: catalogue.db, reader: loopbackReader, hostDelayMs: 0 });
    expect(pagePaths(shop!.site)).toEqual(["/p/stale-feed", "/p/overridden"]);
    expect(summary).toMatchObject({ checked: 2, failed: 0, blocked: 0, backedOff: 0 });
  });
});

function pageOf(pence: number): string {
  return `<script type="application/ld+json">{"@type":"Product","offers":{"@type":"Offer","price":"${(pence / 100).toFixed(2)}","priceCurrency":"GBP"}}</script>`;
}
