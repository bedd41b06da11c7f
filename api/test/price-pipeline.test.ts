/**
 * The Import button's route when its source cannot be used: not configured (no credentials) or
 * missing (503 at once), not a feed at all (the run ends failed saying so), or an import already
 * running (409). None imports anything it should not.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFeed } from "../../data/feeds/awin-feed.ts";
import type { CatalogueChange } from "../../data/db/catalogue-writer/transaction.ts";
import type { FeedRun } from "../../data/domain/feed-sources.ts";
import { productSources, type ProductSource } from "../product-sources.ts";
import { startTestServer, type TestServer } from "./server.ts";
import type { PageReader } from "../lib/page-price.ts";
import { offerUrl } from "../../data/db/fixtures/temp-db.ts";

let dir: string;
const servers: TestServer[] = [];

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-pipeline-"));
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  fs.rmSync(dir, { recursive: true, force: true });
});

async function serverWith(sample: ProductSource | undefined, extra: [string, ProductSource][] = []): Promise<{ api: TestServer; cookie: string }> {
  const sources = new Map<string, ProductSource>(extra);
  if (sample) sources.set("sample", sample);
  const api = await startTestServer({ products: 5, sources });
  servers.push(api);
  return { api, cookie: await api.login() };
}

/** A reader for pipelines whose refresh reads no page: every page shows no price, no robots.txt has rules. */
const noPages: PageReader = {
  readPage: async () => ({ notModified: false, reading: null, validators: { etag: null, lastModified: null } }),
  readRobots: async () => ({ state: "allow" }),
};

/** A pipeline over a test server's database with no refresh schedule and no sweeps, handing each change to `signalled`. */
async function unscheduledPipeline(api: TestServer, signalled: CatalogueChange[], sources = new Map<string, ProductSource>()) {
  const { createPricePipeline } = await import("../price-pipeline.ts");
  return createPricePipeline({ db: api.db, reader: noPages, catalogueChanged: (change) => signalled.push(change), staleSweepMinutes: 0, refreshCron: null, sources });
}

/** Waits until the run has ended and returns it as the API reports it. */
async function finishedRun(api: TestServer, runId: number, cookie: string): Promise<FeedRun> {
  let run: FeedRun | undefined;
  await expect
    .poll(async () => {
      run = (await (await api.admin("GET", `/api/admin/feed-runs/${runId}`, undefined, cookie)).json()) as FeedRun;
      return run.status;
    }, { timeout: 20_000 })
    .toMatch(/^(succeeded|failed)$/);
  return run!;
}

const productCount = (api: TestServer) => (api.db.$client.prepare("SELECT count(*) AS n FROM products").get() as { n: number }).n;

describe("POST /api/admin/import-amazon-products when the source cannot be used", () => {
  it("the Amazon Creators API without credentials: 503 naming what is missing, nothing imported", async () => {
    const amazon = productSources({}).get("amazon")!;
    const { api, cookie } = await serverWith(amazon);
    const before = productCount(api);
    const response = await api.admin("POST", "/api/admin/import-amazon-products", {}, cookie);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      error: "Amazon Creators API credentials are not set (AMAZON_CREATORS_CREDENTIAL_ID, AMAZON_CREATORS_CREDENTIAL_SECRET, AMAZON_PARTNER_TAG); nothing was imported",
    });
    expect(productCount(api)).toBe(before);
  });

  it("a file that is an HTML error page: the run ends failed saying it is not a feed, nothing imported", async () => {
    const file = path.join(dir, "error.csv");
    fs.writeFileSync(file, "<html><head><title>Service Unavailable</title></head><body>Try later</body></html>");
    const { api, cookie } = await serverWith({ kind: "feed", name: "sample", label: "Broken", createProducts: true, refresh: false, open: async () => readFeed(file) });
    const before = productCount(api);
    const response = await api.admin("POST", "/api/admin/import-amazon-products", {}, cookie);
    expect(response.status).toBe(202);
    const run = await finishedRun(api, ((await response.json()) as { runId: number }).runId, cookie);
    expect(run).toMatchObject({ status: "failed", sourceLabel: "Broken", created: 0 });
    expect(run.error).toMatch(/not a product feed/i);
    expect(productCount(api)).toBe(before);
  });

  it("a feed file that is missing: 503", async () => {
    const missing = productSources({ SAMPLE_FEED_FILE: path.join(dir, "nope.csv") }).get("sample")!;
    const { api, cookie } = await serverWith(missing);
    const response = await api.admin("POST", "/api/admin/import-amazon-products", {}, cookie);
    expect(response.status).toBe(503);
    expect((await response.json()).error).toMatch(/nope\.csv does not exist/);
  });

  it("a second import while one runs: 409, and the first completes", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const file = path.join(dir, "slow.csv");
    fs.copyFileSync(path.join(import.meta.dirname, "../../data/feeds/amazon-best-sellers.csv"), file);
    const { api, cookie } = await serverWith({
      kind: "feed",
      name: "sample",
      label: "Slow",
      createProducts: true,
      refresh: false,
      open: async () => {
        await gate;
        return readFeed(file);
      },
    });
    // The run is answered at once, while its source is still opening.
    const first = await api.admin("POST", "/api/admin/import-amazon-products", {}, cookie);
    expect(first.status).toBe(202);
    const { runId } = (await first.json()) as { runId: number };
    const second = await api.admin("POST", "/api/admin/import-amazon-products", {}, cookie);
    expect(second.status).toBe(409);
    expect(((await second.json()) as { error: string }).error).toBe(`"Slow" is importing already (run ${runId}, running); wait for it to finish`);
    release();
    const done = await finishedRun(api, runId, cookie);
    expect(done.status).toBe("succeeded");
    expect(done.created).toBeGreaterThanOrEqual(20);
    // Finished: the source may run again.
    expect((await api.admin("POST", "/api/admin/import-amazon-products", {}, cookie)).status).toBe(202);
  });
});

describe("REFRESH_CRON", () => {
  it("schedules the refresh at the pattern's next time in UK time; none without a pattern; a bad pattern refuses to start", async () => {
    const { createPricePipeline } = await import("../price-pipeline.ts");
    const { api } = await serverWith(undefined);
    const options = { db: api.db, reader: noPages, catalogueChanged: () => {}, staleSweepMinutes: 0, sources: new Map() };
    const scheduled = createPricePipeline({ ...options, refreshCron: "15 3 * * *" });
    try {
      const next = scheduled.nextScheduledRefresh()!;
      const london = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/London", hour: "2-digit", minute: "2-digit" }).format(next);
      expect(london).toBe("03:15");
      expect(next.getTime() - Date.now()).toBeGreaterThan(0);
      expect(next.getTime() - Date.now()).toBeLessThanOrEqual(25 * 3600_000);
    } finally {
      await scheduled.stop();
    }
    const unscheduled = createPricePipeline({ ...options, refreshCron: null });
    expect(unscheduled.nextScheduledRefresh()).toBeNull();
    await unscheduled.stop();
    expect(() => createPricePipeline({ ...options, refreshCron: "every night" })).toThrow();
  });
});

describe("the daily was-price check", () => {
  it("runs once per UTC day (the first sweep of the day) and hands what changed to the change signal", async () => {
    const { createProduct, updateProduct } = await import("../../data/db/catalogue-writer/products.ts");
    const { productInput } = await import("../../data/domain/catalogue-input.ts");
    const { api } = await serverWith(undefined);
    const first = (sql: string) => (api.db.$client.prepare(sql).get() as { id: number }).id;
    const categoryId = first("SELECT id FROM categories ORDER BY id");
    const retailerId = first("SELECT id FROM retailers WHERE compares_prices = 1 ORDER BY id");
    const t0 = Date.parse("2026-01-01T12:00:00.000Z");
    const day = (d: number, hour = 12) => new Date(t0 + d * 86_400_000 + (hour - 12) * 3_600_000);
    // £20.00 from noon on 1 January to noon on 10 February, then £15.00: the run's last whole day is 9 February, so the
    // was-price of £20.00 (plus delivery) holds until 9 August (day 220) and lapses on 10 August (day 221).
    const input = (price: number) =>
      productInput.parse({ name: "Daily Check Kibble", categoryId, retailerLinks: [{ retailerId, affiliateUrl: offerUrl(api.db, retailerId, "d"), price }] });
    const id = createProduct(api.db, input(20), day(0)).value.id;
    updateProduct(api.db, id, input(15), day(40));
    const was = () => (api.db.$client.prepare("SELECT original_price_pence AS was FROM products WHERE id = ?").get(id) as { was: number | null }).was;
    // The total to the door at £20.00 (the retailer's delivery rule applies).
    const supported = was();
    expect(supported).toBeGreaterThanOrEqual(2000);

    const signalled: CatalogueChange[] = [];
    const pipeline = await unscheduledPipeline(api, signalled);
    try {
      expect(pipeline.rederiveForDay(day(220, 0))).toEqual(expect.any(Number));
      expect(was()).toBe(supported);
      const signalsBefore = signalled.length;
      // Later the same UTC day: done already.
      expect(pipeline.rederiveForDay(day(220, 23))).toBeNull();
      expect(signalled.length).toBe(signalsBefore);
      // The next day: the was-price lapses, and the change names the product.
      const changed = pipeline.rederiveForDay(day(221, 0));
      expect(changed).toBeGreaterThanOrEqual(1);
      expect(was()).toBeNull();
      expect(signalled.length).toBe(signalsBefore + 1);
      expect(signalled.at(-1)!.productIds).toContain(id);
      expect(signalled.at(-1)!.productIds).toHaveLength(changed!);
    } finally {
      await pipeline.stop();
    }
  });
});

describe("an import that fails half-way", () => {
  it("keeps the products it wrote (each whole) and signals a full change before failing", async () => {
    const { api } = await serverWith(undefined);
    const good = readFeed(path.join(import.meta.dirname, "../../data/feeds/amazon-best-sellers.csv"));
    async function* breaksAfterTwo() {
      let n = 0;
      for await (const item of good) {
        if (n === 2) throw new Error("the feed connection dropped");
        n += 1;
        yield item;
      }
    }
    const signalled: CatalogueChange[] = [];
    const { claimImport, executeImport } = await import("../jobs/feed-import.ts");
    const target = { key: "breaks", sourceId: null, label: "Breaks", tagName: "breaks", createProducts: true, open: async () => breaksAfterTwo() };
    const before = productCount(api);
    const run = await executeImport(api.db, claimImport(api.db, target, "cli").id, target, { catalogueChanged: (change) => signalled.push(change), log: () => {} });
    expect(run).toMatchObject({ status: "failed", error: "the feed connection dropped", rowsRead: 2 });
    expect(productCount(api)).toBe(before + 2);
    expect(signalled).toEqual([{ productIds: [], categoryIds: [], siteWide: true }]);
  });
});
