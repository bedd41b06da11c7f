/**
 * The price pipeline's admin screens in a real browser against the real server: Extract Price in
 * the product form reading a fixture retailer page on loopback (found, none, refused), a held
 * price accepted and one rejected on /admin/price-review, the import of the sample best-seller
 * feed, and the public product page saying how old each price is.
 *
 * The import runs in the background (the screen follows the run to its results card) on a server
 * of its own (isolated-server.ts): its products' pictures live on Amazon's image host, which this
 * machine cannot reach, and the other browser test files, which fail on any page error, must not
 * meet them.
 */
import { createServer, type Server } from "node:http";
import Database from "better-sqlite3";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, openPage, seriousA11yViolations, toastShows, type TrackedPage } from "./browser.ts";
import { startIsolatedServer, type IsolatedServer } from "./isolated-server.ts";

const baseUrl = inject("baseUrl");
const adminPassword = inject("adminPassword");
const databaseFile = inject("databaseFile");

let browser: Browser;
let shop: Server;
let shopOrigin: string;

beforeAll(async () => {
  browser = await launchBrowser();
  // A retailer's product page on loopback: £23.49 in stock in JSON-LD, a crossed-out RRP beside it.
  shop = createServer((request, response) => {
    if (request.url === "/dp/kibble") {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(
        `<!doctype html><html lang="en-GB"><head><title>Kibble</title><script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Kibble","offers":{"@type":"Offer","price":"23.49","priceCurrency":"GBP","availability":"https://schema.org/InStock"}}</script></head><body><p>RRP <s>£29.99</s></p></body></html>`,
      );
    } else if (request.url === "/dp/sizes") {
      // One product, three pack sizes as three offers, and nothing on the page saying which this is.
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(
        `<!doctype html><html lang="en-GB"><head><title>Kibble</title><script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Kibble","offers":[{"@type":"Offer","name":"1kg","price":"6.99","priceCurrency":"GBP"},{"@type":"Offer","name":"4kg","price":"19.99","priceCurrency":"GBP"},{"@type":"Offer","name":"12kg","price":"44.99","priceCurrency":"GBP"}]}</script></head><body><h1>Kibble</h1></body></html>`,
      );
    } else if (request.url === "/dp/moved") {
      response.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><html><body><h1>This product is no longer available</h1></body></html>");
    } else {
      response.writeHead(404).end("not found");
    }
  });
  await new Promise<void>((resolve) => shop.listen(0, "127.0.0.1", resolve));
  shopOrigin = `http://127.0.0.1:${(shop.address() as { port: number }).port}`;
});
afterAll(async () => {
  await browser?.close();
  shop?.closeAllConnections();
  await new Promise((resolve) => shop?.close(resolve));
});

const pathname = (page: Page) => new URL(page.url()).pathname;

async function logIn(page: Page, origin = baseUrl): Promise<void> {
  await page.goto(`${origin}/admin/login`);
  await page.getByLabel("Password").fill(adminPassword);
  await page.getByRole("button", { name: "Login" }).click();
  await page.waitForURL((url) => url.pathname === "/admin");
}

/** The test's own connection to the server's database (WAL: reads never block the server). */
function withDb<T>(fn: (db: Database.Database) => T): T {
  const db = new Database(databaseFile);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

describe("Extract Price in the product form", () => {
  let tracked: TrackedPage;
  let page: Page;
  beforeAll(async () => {
    tracked = await openPage(browser);
    page = tracked.page;
    await logIn(page);
  });
  afterAll(() => tracked?.context.close());

  it("fills the row's price from the retailer page, says when there is none, and refuses a private address", async () => {
    await page.goto(`${baseUrl}/admin/products/new`);
    const form = page.getByTestId("product-form");
    await form.waitFor();
    await form.getByRole("button", { name: "Add offer" }).click();
    const row = form.getByTestId("offer-row").first();
    const extract = row.getByRole("button", { name: "Extract Price" });
    // It needs a URL.
    expect(await extract.isDisabled()).toBe(true);

    await row.getByLabel("Retailer").selectOption({ label: "Amazon" });
    await row.getByLabel("Product URL").fill(`${shopOrigin}/dp/kibble`);
    await extract.click();
    await toastShows(page, "Price Extracted");
    await toastShows(page, "Found price: £23.49");
    // The toast names the rule that found it.
    await toastShows(page, "Found by: Product json-ld[0]");
    await expect.poll(() => row.getByLabel("Price (£)", { exact: true }).inputValue()).toBe("23.49");
    expect(await row.textContent()).toContain("Using extracted price: £23.49");

    await row.getByLabel("Product URL").fill(`${shopOrigin}/dp/moved`);
    await row.getByRole("button", { name: "Extract Price" }).click();
    await toastShows(page, "No Price Found");
    await toastShows(page, "Could not extract price from this URL");
    // The price read before stays.
    expect(await row.getByLabel("Price (£)", { exact: true }).inputValue()).toBe("23.49");

    // Several prices and nothing deciding: no guess; the admin picks the product's own.
    await row.getByLabel("Product URL").fill(`${shopOrigin}/dp/sizes`);
    await row.getByRole("button", { name: "Extract Price" }).click();
    await toastShows(page, "Several Prices Found");
    const choices = row.getByRole("group", { name: "Prices listed on the page" });
    await choices.waitFor();
    expect(await choices.getByRole("button").allTextContents()).toEqual(["£6.99 1kg", "£19.99 4kg", "£44.99 12kg"]);
    expect(await row.getByLabel("Price (£)", { exact: true }).inputValue()).toBe("23.49");
    await choices.getByRole("button", { name: /£19\.99/ }).click();
    await expect.poll(() => row.getByLabel("Price (£)", { exact: true }).inputValue()).toBe("19.99");

    // The cloud metadata address is never fetched by the server.
    await row.getByLabel("Product URL").fill("http://169.254.169.254/latest/meta-data/");
    await row.getByRole("button", { name: "Extract Price" }).click();
    await toastShows(page, "Failed to extract price");
  });
});

describe("/admin/price-review", () => {
  let tracked: TrackedPage;
  let page: Page;
  /** Two held prices on one product's two cheapest offers. */
  let product: { id: number; name: string; slug: string };
  let holds: { id: number; retailer: string; published: number; held: number }[];

  beforeAll(async () => {
    holds = withDb((db) => {
      product = db.prepare("SELECT id, name, slug FROM products WHERE category_id = (SELECT id FROM categories WHERE slug = 'bird-food') AND (SELECT count(*) FROM product_prices WHERE product_id = products.id) >= 2 ORDER BY id LIMIT 1").get() as typeof product;
      const offers = db
        .prepare("SELECT pp.retailer_id AS retailerId, r.name AS retailer, pp.price_pence AS price, pp.url FROM product_prices pp JOIN retailers r ON r.id = pp.retailer_id WHERE product_id = ? ORDER BY pp.retailer_id LIMIT 2")
        .all(product.id) as { retailerId: number; retailer: string; price: number; url: string }[];
      // As a refresh holds a jump: the price is kept aside, the offer untouched.
      return offers.map((offer, index) => {
        const held = index === 0 ? Math.round(offer.price * 0.3) : offer.price * 3;
        const { id } = db
          .prepare(
            "INSERT INTO price_holds (product_id, retailer_id, published_price_pence, held_price_pence, in_stock, source, url, observed_at) VALUES (?, ?, ?, ?, 1, 'page', ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) RETURNING id",
          )
          .get(product.id, offer.retailerId, offer.price, held, offer.url) as { id: number };
        return { id, retailer: offer.retailer, published: offer.price, held };
      });
    });
    tracked = await openPage(browser);
    page = tracked.page;
    await logIn(page);
  });
  afterAll(() => tracked?.context.close());

  it("lists held prices with their change; accept publishes one, reject keeps the other's price", async () => {
    await page.getByRole("link", { name: /Price Review/ }).first().click();
    await expect.poll(() => pathname(page)).toBe("/admin/price-review");
    const table = page.getByRole("table", { name: "Prices held for review" });
    await table.waitFor();
    const rowFor = (retailer: string) => table.getByRole("row").filter({ hasText: product.name }).filter({ hasText: retailer });
    await rowFor(holds[0]!.retailer).waitFor();
    expect(await rowFor(holds[0]!.retailer).textContent()).toContain("−70%");
    expect(await rowFor(holds[1]!.retailer).textContent()).toContain("+200%");
    expect(await seriousA11yViolations(page), "price review").toEqual([]);

    const pounds = (pence: number) => `£${(pence / 100).toFixed(2)}`;
    await rowFor(holds[0]!.retailer).getByRole("button", { name: "Accept" }).click();
    await toastShows(page, "Price accepted");
    await toastShows(page, `Published ${pounds(holds[0]!.held)} at ${holds[0]!.retailer} for ${product.name}`);
    await rowFor(holds[0]!.retailer).waitFor({ state: "detached" });
    const price = (retailer: string) =>
      withDb((db) => (db.prepare("SELECT pp.price_pence AS p FROM product_prices pp JOIN retailers r ON r.id = pp.retailer_id WHERE pp.product_id = ? AND r.name = ?").get(product.id, retailer) as { p: number }).p);
    expect(price(holds[0]!.retailer)).toBe(holds[0]!.held);

    await rowFor(holds[1]!.retailer).getByRole("button", { name: "Reject" }).click();
    await toastShows(page, "Price rejected");
    await toastShows(page, `Kept ${pounds(holds[1]!.published)} at ${holds[1]!.retailer}`);
    await rowFor(holds[1]!.retailer).waitFor({ state: "detached" });
    expect(price(holds[1]!.retailer)).toBe(holds[1]!.published);
    expect(withDb((db) => db.prepare("SELECT status FROM price_holds WHERE id IN (?, ?) ORDER BY id").all(holds[0]!.id, holds[1]!.id))).toEqual([
      { status: "accepted" },
      { status: "rejected" },
    ]);
  });

  it("the accepted price reaches the public product page, with how old it is", async () => {
    const pounds = `£${(holds[0]!.held / 100).toFixed(2)}`;
    const visitor = await openPage(browser);
    try {
      // The rebuild after the accept takes seconds; the page is reloaded until it shows the price.
      await expect
        .poll(
          async () => {
            await visitor.page.goto(`${baseUrl}/product/${product.slug}`);
            return visitor.page.getByRole("table").first().textContent();
          },
          { timeout: 180_000, interval: 2_000 },
        )
        .toContain(pounds);
      const row = visitor.page.getByRole("table").first().getByRole("row").filter({ hasText: holds[0]!.retailer });
      expect(await row.textContent()).toMatch(/Checked (just now|\d+ minutes? ago|\d+ hours? ago)/);
    } finally {
      await visitor.context.close();
    }
  });
});

describe("/admin/amazon-import", () => {
  let tracked: TrackedPage;
  let page: Page;
  let isolated: IsolatedServer;
  beforeAll(async () => {
    isolated = await startIsolatedServer({ databaseFile, adminPassword });
    tracked = await openPage(browser);
    page = tracked.page;
    // The imported products' pictures are on a host this machine cannot reach: not this test's concern.
    await page.route("https://m.media-amazon.com/**", (route) => route.fulfill({ status: 204 }));
    await logIn(page, isolated.baseUrl);
  }, 120_000);
  afterAll(async () => {
    await tracked?.context.close();
    await isolated?.stop();
  });
  const withImportDb = <T>(fn: (db: Database.Database) => T): T => {
    const db = new Database(isolated.databaseFile);
    try {
      return fn(db);
    } finally {
      db.close();
    }
  };

  it("imports the sample best-seller feed: results card, skipped messages, first 6 featured; a second run imports nothing", async () => {
    const before = withImportDb((db) => (db.prepare("SELECT max(id) AS id FROM products").get() as { id: number }).id);
    await page.goto(`${isolated.baseUrl}/admin/amazon-import`);
    const button = page.getByRole("button", { name: "Import Products" });
    // The import runs in the background: the button's call is answered at once with the run (202).
    const started = page.waitForResponse((response) => response.url().endsWith("/api/admin/import-amazon-products"));
    await button.click();
    expect((await started).status()).toBe(202);
    await page.getByRole("button", { name: "Importing..." }).waitFor({ timeout: 5_000 }).catch(() => undefined);
    const results = page.getByTestId("import-results");
    await results.waitFor({ timeout: 40_000 });
    // Imported products carry their barcode (other tests' products, made meanwhile, have none).
    const imported = withImportDb((db) => db.prepare("SELECT id, is_featured AS featured FROM products WHERE id > ? AND gtin IS NOT NULL ORDER BY id").all(before) as { id: number; featured: number }[]);
    expect(imported.length).toBeGreaterThanOrEqual(20);
    expect(imported.map((product) => product.featured)).toEqual(imported.map((_, index) => (index < 6 ? 1 : 0)));
    expect(await page.getByTestId("import-counts").textContent()).toContain(String(imported.length));
    await page.getByRole("heading", { name: "Import Results" }).waitFor();

    // Again: everything exists now; the skipped messages are listed, five at most.
    await page.getByRole("button", { name: "Import Products" }).click();
    await toastShows(page, "Some Products Skipped");
    await toastShows(page, "products were skipped (likely already exist)");
    const skipped = page.getByTestId("import-skipped");
    await expect.poll(() => skipped.getByRole("listitem").count()).toBe(6);
    expect(await skipped.textContent()).toMatch(/\.\.\. and \d+ more/);
    expect(withImportDb((db) => (db.prepare("SELECT count(*) AS n FROM products WHERE id > ? AND gtin IS NOT NULL").get(before) as { n: number }).n)).toBe(imported.length);
    // Nothing went wrong in the page.
    expect(tracked.errors).toEqual([]);
  });
});
