/**
 * `npm run import` and `npm run refresh` as commands (real processes over a real SQLite file):
 * what they print, what they store, and their exit codes (0 done, 1 nothing could be done,
 * 2 bad arguments).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot } from "../../data/config.ts";
import { latestRefreshRun } from "../../data/db/price-review.ts";
import { tempDb, type TempDb } from "../../data/db/fixtures/temp-db.ts";

let temp: TempDb;
beforeAll(async () => {
  temp = await tempDb(3);
});
afterAll(() => temp.remove());

const run = (script: string, args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [path.join(projectRoot, "scripts", script), ...args], {
    env: { ...process.env, DATABASE_PATH: temp.file, AWIN_FEED_URL: "", AWIN_FEED_FILE: "", ...env },
    encoding: "utf8",
    timeout: 60_000,
  });
const products = () => (temp.db.$client.prepare("SELECT count(*) AS n FROM products").get() as { n: number }).n;

describe("npm run import", () => {
  it("imports the sample feed, then changes nothing when run again", () => {
    const before = products();
    const first = run("import.ts", ["--source", "sample"]);
    expect(first.status, first.stderr).toBe(0);
    const created = Number(/Imported (\d+) products from sample/.exec(first.stdout)?.[1]);
    expect(created).toBeGreaterThanOrEqual(20);
    expect(products()).toBe(before + created);
    const second = run("import.ts", ["--source", "sample"]);
    expect(second.status).toBe(0);
    expect(second.stdout).toMatch(/Imported 0 products from sample: 37 rows, 37 already existed/);
    expect(products()).toBe(before + created);
  });

  it("reads a feed file, and refuses one that is not a feed (exit 1, nothing imported)", () => {
    const file = path.join(path.dirname(temp.file), "page.csv");
    fs.writeFileSync(file, "<!doctype html><html><body>404 Not Found</body></html>");
    const before = products();
    const result = run("import.ts", ["--file", file, "--create-products"]);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/import: failed: .*not a product feed/i);
    expect(products()).toBe(before);
  });

  it("runs through the one import job: the run is stored (trigger cli), progress and a summary printed, and a source already importing is refused", () => {
    const runs = () => temp.db.$client.prepare("SELECT source_key, trigger, status, rows_read FROM feed_import_runs ORDER BY id").all() as { source_key: string; trigger: string; status: string; rows_read: number }[];
    const first = run("import.ts", ["--source", "sample"]);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^Import run \d+: Amazon Best Sellers \(sample feed\)$/m);
    expect(runs().at(-1)).toEqual({ source_key: "sample", trigger: "cli", status: "succeeded", rows_read: 37 });
    // A run of the source going in another process (the server): refused, nothing run.
    temp.db.$client.prepare("INSERT INTO feed_import_runs (source_key, source_label, trigger, status) VALUES ('sample', 'Sample', 'admin', 'running')").run();
    const busy = run("import.ts", ["--source", "sample"]);
    expect(busy.status).toBe(1);
    expect(busy.stderr).toMatch(/import: failed: "Sample" is importing already \(run \d+, running\); wait for it to finish/);
    temp.db.$client.prepare("UPDATE feed_import_runs SET status = 'failed' WHERE status = 'running'").run();
  });

  it("imports an admin feed source by name or id, and a file with --retailer and --layout", () => {
    const dir = path.dirname(temp.file);
    const header = "aw_deep_link,product_name,search_price,merchant_name,merchant_deep_link,category_name,currency,ean,brand_name";
    const feed = path.join(dir, "cli-feed.csv");
    // Rows naming their merchant keep it; --retailer is for rows naming none (the reader's end-to-end tests cover that).
    fs.writeFileSync(feed, `${header}\nhttps://a.example/1,Clifeed Rabbit Kibble 2kg,7.49,Amazon UK,https://www.amazon.co.uk/dp/B0CLI1,Dog Food,GBP,5011111000018,Clifeed\n`);
    const retailer = (temp.db.$client.prepare("SELECT key FROM retailers WHERE compares_prices = 1 AND key <> 'amazon' ORDER BY id LIMIT 1").get() as { key: string }).key;
    const file = run("import.ts", ["--file", feed, "--create-products", "--retailer", retailer, "--layout", "awin-publisher"]);
    expect(file.status, file.stderr + file.stdout).toBe(0);
    expect(file.stdout).toMatch(/Imported 1 products from file: 1 rows/);
    expect(temp.db.$client.prepare("SELECT r.key FROM products p JOIN product_prices pp ON pp.product_id = p.id JOIN retailers r ON r.id = pp.retailer_id WHERE p.name = 'Clifeed Rabbit Kibble 2kg'").get()).toEqual({ key: "amazon" });

    const uploads = path.join(dir, "uploads");
    fs.mkdirSync(uploads, { recursive: true });
    fs.copyFileSync(feed, path.join(uploads, "source-cli.feed"));
    const id = (temp.db.$client.prepare("INSERT INTO feed_sources (name, kind, stored_file, file_name, retailer_key) VALUES ('CLI source', 'file', 'source-cli.feed', 'cli-feed.csv', ?) RETURNING id").get(retailer) as { id: number }).id;
    for (const ref of ["CLI source", String(id)]) {
      const result = run("import.ts", ["--source", ref], { FEED_UPLOADS_DIR: uploads });
      expect(result.status, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/Imported 0 products from .*: 1 rows, 1 already existed/);
    }
    expect(temp.db.$client.prepare("SELECT count(*) AS n FROM feed_import_runs WHERE source_id = ? AND trigger = 'cli' AND status = 'succeeded'").get(id)).toEqual({ n: 2 });
    expect(run("import.ts", ["--file", feed, "--layout", "excel"]).status).toBe(2);
    expect(run("import.ts", ["--source", "sample", "--retailer", retailer]).status).toBe(2);
    const unknownRetailer = run("import.ts", ["--file", feed, "--retailer", "no-such-shop"]);
    expect(unknownRetailer.status).toBe(1);
    expect(unknownRetailer.stderr).toContain('--retailer "no-such-shop" is not a known retailer');
  });

  it("imports a Google Merchant Center TSV with --retailer: its rows name no merchant and become that retailer's offers", () => {
    const feed = path.join(path.dirname(temp.file), "cli-google.tsv");
    fs.writeFileSync(
      feed,
      [
        "id\ttitle\tdescription\tlink\tprice\tavailability\tgtin\tbrand\tcondition\tshipping\tgoogle_product_category",
        "ZP-1\tCligoogle Turkey Kibble 2kg\tDry food\thttps://www.zooplus.co.uk/shop/dogs/p/1\t8.99 GBP\tin stock\t5011111000025\tCligoogle\tnew\tGB:::2.99 GBP\tAnimals & Pet Supplies > Pet Supplies > Dog Supplies > Dog Food",
      ].join("\n") + "\n",
    );
    const result = run("import.ts", ["--file", feed, "--create-products", "--retailer", "zooplus"]);
    expect(result.status, result.stderr + result.stdout).toBe(0);
    const offer = temp.db.$client
      .prepare("SELECT r.key, pp.price_pence AS price, pp.delivery_pence AS delivery FROM products p JOIN product_prices pp ON pp.product_id = p.id JOIN retailers r ON r.id = pp.retailer_id WHERE p.name = 'Cligoogle Turkey Kibble 2kg'")
      .get();
    expect(offer).toEqual({ key: "zooplus", price: 899, delivery: 299 });
    // Without --retailer the rows have no merchant: refused whole, nothing imported.
    const refused = run("import.ts", ["--file", feed, "--create-products"]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("names no merchant");
  });

  it("refuses bad arguments with the usage (exit 2)", () => {
    const unknown = run("import.ts", ["--source", "nope"]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('unknown source "nope"');
    expect(unknown.stderr).toContain("Usage: npm run import");
    expect(run("import.ts", ["--create-products"]).status).toBe(2);
    expect(run("import.ts", ["--bogus"]).status).toBe(2);
  });

  it("the Amazon source without credentials says which are missing (exit 1)", () => {
    const result = run("import.ts", ["--source", "amazon"], { AMAZON_CREATORS_CREDENTIAL_ID: "", AMAZON_CREATORS_CREDENTIAL_SECRET: "", AMAZON_PARTNER_TAG: "" });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("Amazon Creators API credentials are not set (AMAZON_CREATORS_CREDENTIAL_ID, AMAZON_CREATORS_CREDENTIAL_SECRET, AMAZON_PARTNER_TAG)");
  });
});

describe("npm run refresh", () => {
  it("exits 1 when every read failed (here: every offer's page is refused), stores the run, prints plain progress lines", () => {
    // The imported offers point at amazon.co.uk, which this machine cannot reach; the seeded ones
    // too. To be sure no page is read, point them all at an address the guard refuses, as prices
    // read from pages (demo offers and fresh feed offers are never read).
    temp.db.$client.prepare("UPDATE product_prices SET url = 'http://10.0.0.1/p/' || id, source = 'page'").run();
    const result = run("refresh.ts", [], { REFRESH_HOST_DELAY_MS: "0" });
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/Price refresh failed: 0 checked, 0 changed, 0 held for review, \d+ failed/);
    // Not a terminal: plain lines, no carriage-return bar.
    expect(result.stdout).toMatch(/\d+\/\d+ pages read/);
    expect(result.stdout).not.toContain("\r");
    expect(result.stdout).toContain("is not a public address");
    expect(latestRefreshRun(temp.db)).toMatchObject({ result: "failed", checked: 0 });
  });

  it("exits 0 with nothing to read", () => {
    temp.db.$client.prepare("DELETE FROM product_prices").run();
    const result = run("refresh.ts", []);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/Price refresh succeeded: 0 checked/);
  });

  it("refuses arguments (exit 2)", () => {
    expect(run("refresh.ts", ["--now"]).status).toBe(2);
  });
});
