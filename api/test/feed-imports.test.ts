/**
 * Feed sources end to end through the real server over a real SQLite file: URL sources read from
 * a fixture feed server on loopback through the guarded fetch (allowed there only by the test
 * allowance), a run answered at once whose live counters are stored while the feed trickles in,
 * a second run of the source refused meanwhile, one change signal per run, secrets masked in
 * errors, uploads streamed and cut off at the limit, and schedules planned from the sources.
 */
import fs from "node:fs";
import { createServer, type Server } from "node:http";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SiteBuilds } from "../context.ts";
import type { CatalogueChange } from "../../data/db/catalogue-writer/transaction.ts";
import type { FeedRun } from "../../data/domain/feed-sources.ts";
import { allowLoopbackForTests } from "../lib/guarded-fetch.ts";
import { startTestServer, type TestServer } from "./server.ts";

const header =
  "aw_deep_link,product_name,aw_product_id,merchant_product_id,merchant_image_url,description,merchant_category,search_price,merchant_name,merchant_id,category_name,category_id,aw_image_url,currency,store_price,delivery_cost,merchant_deep_link,language,last_updated,display_price,data_feed_id,brand_name,ean";
const line = (name: string, price: string, ean: string) =>
  `https://www.awin1.com/pclick.php?p=1&a=1&m=1,${name},1,B0FEED,,Tasty.,Pets,${price},Amazon UK,1,Dog Food,1,,GBP,${price},0.00,https://www.amazon.co.uk/dp/B0FEED${ean.slice(-4)},en,2026-11-20 03:00:00,GBP${price},1,Feedtest,${ean}`;
const rows = [
  line("Feedtest Lamb Kibble 2kg", "11.99", "5099999000011"),
  line("Feedtest Duck Kibble 2kg", "12.99", "5099999000028"),
  line("Feedtest Beef Kibble 2kg", "13.99", "5099999000035"),
];
const secret = "apikey0feedtest0secret0value";

let api: TestServer;
let session: string;
let feeds: Server;
let feedOrigin: string;
/** Lets the trickling feed send its last row. */
let releaseSlow: () => void = () => undefined;
const builds: CatalogueChange[] = [];
const site: SiteBuilds = {
  request: (change) => builds.push(change),
  status: () => ({ state: "idle", lastBuild: null }),
};

beforeAll(async () => {
  feeds = createServer((request, response) => {
    if (request.url === `/datafeed/${secret}/fast.csv`) {
      response.writeHead(200, { "content-type": "text/csv" }).end([header, ...rows.slice(0, 2)].join("\n") + "\n");
    } else if (request.url === `/datafeed/${secret}/slow.csv`) {
      // Two rows at once, the third when the test says.
      response.writeHead(200, { "content-type": "text/csv" });
      response.write([header, rows[0], rows[1]].join("\n") + "\n");
      new Promise<void>((resolve) => (releaseSlow = resolve)).then(() => response.end(`${rows[2]}\n`));
    } else {
      response.writeHead(404).end("not found");
    }
  });
  await new Promise<void>((resolve) => feeds.listen(0, "127.0.0.1", resolve));
  feedOrigin = `http://127.0.0.1:${(feeds.address() as { port: number }).port}`;
  api = await startTestServer({
    products: 20,
    site,
    feedAllowance: allowLoopbackForTests(),
    uploadMaxBytes: 64 * 1024,
  });
  session = await api.login();
}, 60_000);
afterAll(async () => {
  releaseSlow();
  await api?.close();
  feeds?.closeAllConnections();
  await new Promise((resolve) => feeds?.close(resolve));
});

const admin = async (method: string, url: string, body?: unknown) => {
  const response = await api.admin(method, url, body, session);
  return {
    status: response.status,
    body: (response.status === 204 ? null : await response.json()) as Record<string, unknown>,
  };
};
const newSource = async (body: Record<string, unknown>) => {
  const { status, body: created } = await admin("POST", "/api/admin/feed-sources", body);
  expect(status, JSON.stringify(created)).toBe(201);
  return created as { id: number; maskedUrl: string | null };
};
const getRun = async (id: number) => (await admin("GET", `/api/admin/feed-runs/${id}`)).body as unknown as FeedRun;
async function finished(id: number): Promise<FeedRun> {
  let run: FeedRun | undefined;
  await expect.poll(async () => (run = await getRun(id)).status, { timeout: 20_000 }).toMatch(/^(succeeded|failed)$/);
  return run!;
}
const productNamed = (name: string) => api.db.$client.prepare("SELECT id FROM products WHERE name = ?").get(name) as { id: number } | undefined;

describe("a URL source", () => {
  it("is detected from its first bytes and imported through the guarded fetch; its URL never comes back whole", async () => {
    const source = await newSource({
      name: "Fast feed",
      kind: "url",
      url: `${feedOrigin}/datafeed/${secret}/fast.csv`,
      createProducts: true,
    });
    expect(source.maskedUrl).toBe(`${feedOrigin}/••••••.csv`);
    const detected = (await admin("POST", `/api/admin/feed-sources/${source.id}/detect`, {})).body;
    expect(detected).toMatchObject({ format: "csv", layout: "awin-publisher" });
    builds.length = 0;
    const started = await admin("POST", `/api/admin/feed-sources/${source.id}/runs`, {});
    expect(started.status).toBe(202);
    const run = await finished(started.body.runId as number);
    expect(run).toMatchObject({
      status: "succeeded",
      rowsRead: 2,
      created: 2,
      trigger: "admin",
    });
    expect(productNamed("Feedtest Lamb Kibble 2kg")).toBeDefined();
    // One change signal for the whole run, naming both products.
    expect(builds).toHaveLength(1);
    expect(builds[0]!.productIds).toHaveLength(2);
    const list = JSON.stringify((await admin("GET", "/api/admin/feed-sources")).body);
    expect(list).not.toContain(secret);
    expect(list).toContain('"status":"succeeded"');
  });

  it("answers the run at once, stores its counters while the feed trickles in, and refuses a second run of the source meanwhile", async () => {
    const source = await newSource({
      name: "Slow feed",
      kind: "url",
      url: `${feedOrigin}/datafeed/${secret}/slow.csv`,
      createProducts: true,
    });
    const started = await admin("POST", `/api/admin/feed-sources/${source.id}/runs`, {});
    expect(started.status).toBe(202);
    const runId = started.body.runId as number;
    try {
      // Rows in, the last held back by the feed server: the run is running and its stored counters say how far it got.
      await expect.poll(async () => (await getRun(runId)).rowsRead, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
      expect((await getRun(runId)).status).toBe("running");
      const second = await admin("POST", `/api/admin/feed-sources/${source.id}/runs`, {});
      expect(second).toEqual({
        status: 409,
        body: {
          error: `"Slow feed" is importing already (run ${runId}, running); wait for it to finish`,
        },
      });
      // Nor can a source be deleted under its run.
      expect((await admin("DELETE", `/api/admin/feed-sources/${source.id}`)).status).toBe(409);
    } finally {
      releaseSlow();
    }
    expect(await finished(runId)).toMatchObject({
      status: "succeeded",
      rowsRead: 3,
      created: 1,
      matched: 2,
    });
    expect((await admin("GET", `/api/admin/feed-sources/${source.id}/runs`)).body.runs).toHaveLength(1);
  });

  it("that cannot be read ends its run failed, the URL in the reason masked", async () => {
    const source = await newSource({
      name: "Gone feed",
      kind: "url",
      url: `${feedOrigin}/datafeed/${secret}/gone.csv`,
    });
    const detect = await admin("POST", `/api/admin/feed-sources/${source.id}/detect`, {});
    expect(detect.status).toBe(502);
    expect(detect.body.error).toBe(`${feedOrigin}/••••••.csv answered 404 Not Found`);
    const run = await finished((await admin("POST", `/api/admin/feed-sources/${source.id}/runs`, {})).body.runId as number);
    expect(run.status).toBe("failed");
    expect(run.error).toBe(`${feedOrigin}/••••••.csv answered 404 Not Found`);
    expect(JSON.stringify(run)).not.toContain(secret);
  });

  it("at a private address is refused: detection 400, the run fails, nothing is fetched", async () => {
    const source = await newSource({
      name: "Private feed",
      kind: "url",
      url: `http://10.0.0.1/datafeed/${secret}/feed.csv`,
    });
    const detect = await admin("POST", `/api/admin/feed-sources/${source.id}/detect`, {});
    expect(detect).toEqual({
      status: 400,
      body: {
        error: "10.0.0.1 is not a public address; only public addresses are fetched",
      },
    });
    const run = await finished((await admin("POST", `/api/admin/feed-sources/${source.id}/runs`, {})).body.runId as number);
    expect(run).toMatchObject({
      status: "failed",
      error: "10.0.0.1 is not a public address; only public addresses are fetched",
      rowsRead: 0,
    });
  });
});

describe("uploads", () => {
  const upload = (id: number, body: BodyInit, headers: Record<string, string> = {}) =>
    fetch(`${api.baseUrl}/api/admin/feed-sources/${id}/file?name=feed.csv`, {
      method: "PUT",
      headers: { cookie: session, "content-type": "text/csv", ...headers },
      body,
      duplex: "half",
    } as RequestInit);
  const uploadsDir = () => path.join(api.dir, "uploads");
  const storedFiles = () => (fs.existsSync(uploadsDir()) ? fs.readdirSync(uploadsDir()) : []);

  it("streams a file sent in chunks (no declared length) to the uploads folder", async () => {
    const source = await newSource({
      name: "Chunked upload",
      kind: "file",
      createProducts: true,
    });
    const csv = [header, ...rows].join("\n") + "\n";
    const chunks = [csv.slice(0, 100), csv.slice(100, 400), csv.slice(400)];
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
        controller.close();
      },
    });
    const response = await upload(source.id, stream);
    expect(response.status, await response.clone().text()).toBe(200);
    const stored = api.db.$client.prepare("SELECT stored_file, file_bytes FROM feed_sources WHERE id = ?").get(source.id) as { stored_file: string; file_bytes: number };
    expect(stored.file_bytes).toBe(Buffer.byteLength(csv));
    expect(fs.readFileSync(path.join(uploadsDir(), stored.stored_file), "utf8")).toBe(csv);
    const run = await finished((await admin("POST", `/api/admin/feed-sources/${source.id}/runs`, {})).body.runId as number);
    expect(run).toMatchObject({ status: "succeeded", rowsRead: 3 });
  });

  it("cuts a streamed upload off past the limit: 413, no file kept, the source unchanged", async () => {
    const source = await newSource({ name: "Too big upload", kind: "file" });
    const before = storedFiles();
    // 8 KiB at a time, on past the 64 KiB limit; the server may close the connection first.
    const stream = Readable.toWeb(
      Readable.from(
        (function* () {
          for (let sent = 0; sent <= 256 * 1024; sent += 8192) yield new Uint8Array(8192).fill(0x61);
        })(),
      ),
    ) as ReadableStream<Uint8Array>;
    const response = await upload(source.id, stream).catch((error: unknown) => error);
    // The server answers 413 as soon as the limit is passed and closes the connection.
    expect(response instanceof Response ? response.status : String(response)).toBe(413);
    expect(storedFiles()).toEqual(before);
    expect(api.db.$client.prepare("SELECT stored_file, file_bytes FROM feed_sources WHERE id = ?").get(source.id)).toEqual({ stored_file: null, file_bytes: null });
  });

  it("refuses a file that is not a feed and keeps the one the source had", async () => {
    const source = await newSource({ name: "Kept upload", kind: "file" });
    expect((await upload(source.id, [header, rows[0]].join("\n"))).status).toBe(200);
    const before = api.db.$client.prepare("SELECT stored_file FROM feed_sources WHERE id = ?").get(source.id);
    const refused = await upload(source.id, "<!doctype html><p>Login required</p>");
    expect(refused.status).toBe(422);
    expect(api.db.$client.prepare("SELECT stored_file FROM feed_sources WHERE id = ?").get(source.id)).toEqual(before);
    expect(storedFiles().filter((name) => name.startsWith(".upload-"))).toEqual([]);
  });
});

describe("a Google Merchant Center feed for a retailer the site owner added", () => {
  it("is uploaded, detected as Google XML, and its rows (which name no merchant) become that retailer's offers", async () => {
    const { status: created, body: retailer } = await admin("POST", "/api/retailers", {
      name: "Barkwell",
      logo: "/retailers/barkwell.svg",
      website: "https://www.barkwell.example.co.uk",
      comparesPrices: true,
    });
    expect(created, JSON.stringify(retailer)).toBe(201);
    const source = await newSource({ name: "Barkwell Google feed", kind: "file", retailerKey: retailer.key, createProducts: true });
    // The server reads sale dates against today: the fixture's November sale is kept running.
    const xml = fs.readFileSync(path.join(import.meta.dirname, "../../data/feeds/fixtures/google-rss-gbp.xml"), "utf8").replaceAll("2026-11-30T23:59+0000", "2099-12-31T23:59+0000");
    const uploaded = await fetch(`${api.baseUrl}/api/admin/feed-sources/${source.id}/file?name=google.xml`, {
      method: "PUT",
      headers: { cookie: session, "content-type": "application/xml" },
      body: xml,
    });
    expect(uploaded.status, await uploaded.clone().text()).toBe(200);
    const detected = await admin("POST", `/api/admin/feed-sources/${source.id}/detect`, {});
    expect(detected.body).toMatchObject({ format: "xml", layout: "google-merchant" });
    const run = await finished((await admin("POST", `/api/admin/feed-sources/${source.id}/runs`, {})).body.runId as number);
    expect(run.status).toBe("succeeded");
    const offers = api.db.$client
      .prepare("SELECT p.name, pp.price_pence AS price, pp.url FROM product_prices pp JOIN products p ON p.id = pp.product_id WHERE pp.retailer_id = ? ORDER BY p.name")
      .all(retailer.id) as { name: string; price: number; url: string }[];
    // The sale price (£19.99, its dates covering now) and the regular £32.50; the duplicate, priceless, EUR and refurbished items are not offers.
    expect(offers.map(({ name, price }) => [name, price])).toEqual([
      ["Barkwell Salmon & Rice Kibble 2kg", 1999],
      ["Barkwell Turkey & Veg Senior Food", 3250],
    ]);
    expect(run).toMatchObject({ created: 2, rowsRead: 6 });
    for (const offer of offers) expect(offer.url).toMatch(/^https:\/\/www\.barkwell\.example\.co\.uk\/p\//);
  });
});

describe("schedules", () => {
  it("are planned for enabled sources with a schedule and re-planned when a source changes or goes", async () => {
    const source = await newSource({
      name: "Scheduled feed",
      kind: "file",
      schedule: "30 2 * * *",
    });
    const next = api.services.feedImports.nextRun(source.id);
    expect(
      new Intl.DateTimeFormat("en-GB", {
        timeZone: "Europe/London",
        hour: "2-digit",
        minute: "2-digit",
      }).format(next!),
    ).toBe("02:30");
    await admin("PUT", `/api/admin/feed-sources/${source.id}`, {
      schedule: "0 5 * * 0",
    });
    expect(
      new Intl.DateTimeFormat("en-GB", {
        timeZone: "Europe/London",
        weekday: "long",
        hour: "2-digit",
        minute: "2-digit",
      }).format(api.services.feedImports.nextRun(source.id)!),
    ).toBe("Sunday 05:00");
    await admin("PUT", `/api/admin/feed-sources/${source.id}`, {
      enabled: false,
    });
    expect(api.services.feedImports.nextRun(source.id)).toBeNull();
    await admin("PUT", `/api/admin/feed-sources/${source.id}`, {
      enabled: true,
    });
    expect(api.services.feedImports.nextRun(source.id)).not.toBeNull();
    expect((await admin("DELETE", `/api/admin/feed-sources/${source.id}`)).status).toBe(204);
    expect(api.services.feedImports.nextRun(source.id)).toBeNull();
  });
});

describe("the feed configured by AWIN_FEED_URL / AWIN_FEED_FILE", () => {
  it("is listed first as a read-only source, masked, and runs like the others", async () => {
    const { productSources } = await import("../product-sources.ts");
    const file = path.join(api.dir, "awin-feed.csv");
    fs.writeFileSync(file, [header, line("Awinfeed Goose Kibble 2kg", "14.99", "5099999000042")].join("\n") + "\n");
    const fromFile = await startTestServer({ products: 5, sources: productSources({ AWIN_FEED_FILE: file, AWIN_CREATE_PRODUCTS: "true" }) });
    try {
      const cookie = await fromFile.login();
      const list = (await (await fromFile.admin("GET", "/api/admin/feed-sources", undefined, cookie)).json()) as { sources: Record<string, unknown>[] };
      expect(list.sources[0]).toMatchObject({
        id: "awin",
        name: "Awin product feed (from AWIN_FEED_FILE)",
        kind: "file",
        fileName: "awin-feed.csv",
        readOnly: true,
        createProducts: true,
        lastRun: null,
      });
      const edit = await fromFile.admin("PUT", "/api/admin/feed-sources/awin", { name: "Mine now" }, cookie);
      expect(edit.status).toBe(409);
      const started = await fromFile.admin("POST", "/api/admin/feed-sources/awin/runs", {}, cookie);
      expect(started.status).toBe(202);
      const { runId } = (await started.json()) as { runId: number };
      await expect.poll(async () => ((await (await fromFile.admin("GET", `/api/admin/feed-runs/${runId}`, undefined, cookie)).json()) as FeedRun).status).toBe("succeeded");
      const runs = (await (await fromFile.admin("GET", "/api/admin/feed-sources/awin/runs", undefined, cookie)).json()) as { runs: FeedRun[] };
      expect(runs.runs[0]).toMatchObject({ id: runId, sourceKey: "awin", sourceId: null, created: 1 });
    } finally {
      await fromFile.close();
    }

    const fromUrl = await startTestServer({
      products: 5,
      sources: productSources({ AWIN_FEED_URL: `https://productdata.awin.com/datafeed/download/apikey/${secret}/fid/1/format/csv` }),
    });
    try {
      const cookie = await fromUrl.login();
      const text = await (await fromUrl.admin("GET", "/api/admin/feed-sources", undefined, cookie)).text();
      expect(JSON.parse(text).sources[0]).toMatchObject({
        id: "awin",
        name: "Awin product feed (from AWIN_FEED_URL)",
        kind: "url",
        maskedUrl: "https://productdata.awin.com/••••••/csv",
        readOnly: true,
      });
      expect(text).not.toContain(secret);
    } finally {
      await fromUrl.close();
    }
  });
});
