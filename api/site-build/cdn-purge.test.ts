/**
 * The CDN purge after a release swap, against a loopback HTTP server standing in for the
 * provider's API (CDN_PURGE_API_BASE): the calls' shape for Cloudflare and Fastly, retries of a
 * failing endpoint, and a release that goes live whatever the purge does.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { addressOfStored, createCdnPurger, purgeUrlsOf } from "./cdn-purge.ts";
import { buildRelease } from "../jobs/site-rebuild.ts";
import type { BuildOutcome, SiteBuilder } from "./builder.ts";
import { createReleaseStore } from "./releases.ts";
import { writeFiles } from "../test/files.ts";
import { cdnPurgeConfig, siteConfig, type CdnPurgeConfig } from "../../data/config.ts";
import { tempDb, type TempDb } from "../../data/db/fixtures/temp-db.ts";

interface Recorded {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let api: http.Server;
let apiBase: string;
let recorded: Recorded[] = [];
/** The statuses the next calls get, in turn (then 200). */
let failures: number[] = [];

beforeAll(async () => {
  api = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      recorded.push({ method: req.method!, path: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString() });
      const status = failures.shift() ?? 200;
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify({ success: status === 200, errors: [], result: { id: "purge" } }));
    });
  });
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
  apiBase = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => api.close(() => resolve())));
afterEach(() => {
  recorded = [];
  failures = [];
});

const cloudflare = (): CdnPurgeConfig => ({ provider: "cloudflare", zoneId: "zone-1", apiToken: "cf-token", apiBase: `${apiBase}/client/v4` });
const fastly = (): CdnPurgeConfig => ({ provider: "fastly", apiToken: "fastly-key", serviceId: "svc-1", apiBase });
const addresses = (count: number) => Array.from({ length: count }, (_, i) => `https://www.pawprice.example/product/p${i + 1}`);

describe("Cloudflare", () => {
  it("purges changed addresses in calls of at most 30, with the zone's path and the bearer token", async () => {
    const urls = addresses(61);
    expect(await createCdnPurger(cloudflare(), { log: () => {} }).purgeUrls(urls)).toBe(true);
    expect(recorded.map(({ method, path }) => `${method} ${path}`)).toEqual(Array(3).fill("POST /client/v4/zones/zone-1/purge_cache"));
    expect(recorded.every(({ headers }) => headers.authorization === "Bearer cf-token" && headers["content-type"] === "application/json")).toBe(true);
    const batches = recorded.map(({ body }) => (JSON.parse(body) as { files: string[] }).files);
    expect(batches.map((batch) => batch.length)).toEqual([30, 30, 1]);
    expect(batches.flat()).toEqual(urls);
  });

  it("sends exactly 30 addresses in one call", async () => {
    await createCdnPurger(cloudflare(), { log: () => {} }).purgeUrls(addresses(30));
    expect(recorded).toHaveLength(1);
  });

  it("purges everything after a full build", async () => {
    expect(await createCdnPurger(cloudflare(), { log: () => {} }).purgeEverything()).toBe(true);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ method: "POST", path: "/client/v4/zones/zone-1/purge_cache" });
    expect(JSON.parse(recorded[0]!.body)).toEqual({ purge_everything: true });
  });
});

describe("Fastly", () => {
  it("purges each changed address by its URL without the scheme, with the Fastly-Key header", async () => {
    expect(await createCdnPurger(fastly(), { log: () => {} }).purgeUrls(["https://www.pawprice.example/", "https://www.pawprice.example/category/dog-food"])).toBe(true);
    expect(recorded.map(({ method, path }) => `${method} ${path}`)).toEqual([
      "POST /purge/www.pawprice.example/",
      "POST /purge/www.pawprice.example/category/dog-food",
    ]);
    expect(recorded.every(({ headers }) => headers["fastly-key"] === "fastly-key")).toBe(true);
  });

  it("purges the whole service after a full build", async () => {
    await createCdnPurger(fastly(), { log: () => {} }).purgeEverything();
    expect(recorded.map(({ method, path, headers }) => [method, path, headers["fastly-key"]])).toEqual([["POST", "/service/svc-1/purge_all", "fastly-key"]]);
  });
});

describe("a failing purge", () => {
  it("is tried again after each pause, and succeeds when the API recovers", async () => {
    failures = [503, 500];
    const log: string[] = [];
    expect(await createCdnPurger(cloudflare(), { log: (line) => log.push(line), retryDelaysMs: [5, 5, 5] }).purgeEverything()).toBe(true);
    expect(recorded).toHaveLength(3);
    expect(log.filter((line) => line.includes("failed"))).toHaveLength(2);
  });

  it("counts Cloudflare's success: false as a failure", async () => {
    const refusing = http.createServer((req, res) => {
      recorded.push({ method: req.method!, path: req.url!, headers: req.headers, body: "" });
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ success: false, errors: [{ code: 1 }] }));
    });
    await new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", resolve));
    try {
      const base = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`;
      expect(await createCdnPurger({ ...cloudflare(), apiBase: base }, { log: () => {}, retryDelaysMs: [1] }).purgeEverything()).toBe(false);
      expect(recorded).toHaveLength(2);
    } finally {
      refusing.close();
    }
  });

  it("is given up after its retries, and logged", async () => {
    failures = [500, 500, 500, 500];
    const log: string[] = [];
    expect(await createCdnPurger(fastly(), { log: (line) => log.push(line), retryDelaysMs: [1, 1] }).purgeUrls(["https://www.pawprice.example/"])).toBe(false);
    expect(recorded).toHaveLength(3);
    expect(log.at(-1)).toMatch(/given up/);
  });

  it("is given up when nothing answers", async () => {
    const log: string[] = [];
    const config: CdnPurgeConfig = { ...cloudflare(), apiBase: "http://127.0.0.1:9" };
    expect(await createCdnPurger(config, { log: (line) => log.push(line), retryDelaysMs: [1] }).purgeEverything()).toBe(false);
    expect(log).toHaveLength(3);
  });
});

describe("the addresses a release's files are served at", () => {
  it.each([
    ["index.html", "/"],
    ["index.html.br", "/"],
    ["product/royal-canin.html.br", "/product/royal-canin"],
    ["product/kibble/index.html", "/product/kibble"],
    ["category/dog-food/index.html.gz", "/category/dog-food"],
    ["sitemap-0.xml", "/sitemap-0.xml"],
    ["robots.txt", "/robots.txt"],
    ["about.html", "/about.html"],
    ["404.html.br", null],
    ["product-not-found/index.html", null],
    [".csp.json", null],
    [".prerender/chunks/x.mjs", null],
  ])("%s: %s", (file, address) => {
    expect(addressOfStored(file)).toBe(address);
  });

  it("lists each address once, absolute", () => {
    expect(purgeUrlsOf(["index.html", "index.html.gz", "index.html.br", "product/a.html.br"], "https://www.pawprice.example")).toEqual([
      "https://www.pawprice.example/",
      "https://www.pawprice.example/product/a",
    ]);
  });
});

describe("the purge configuration", () => {
  const withEnv = (values: Record<string, string>, run: () => void) => {
    const saved = { ...process.env };
    try {
      for (const name of ["CDN_PURGE", "CLOUDFLARE_ZONE_ID", "CLOUDFLARE_API_TOKEN", "FASTLY_API_TOKEN", "FASTLY_SERVICE_ID", "CDN_PURGE_API_BASE"]) delete process.env[name];
      Object.assign(process.env, values);
      run();
    } finally {
      process.env = saved;
    }
  };

  it("is off when CDN_PURGE is unset or off", () => {
    withEnv({}, () => expect(cdnPurgeConfig()).toBeNull());
    withEnv({ CDN_PURGE: "off" }, () => expect(cdnPurgeConfig()).toBeNull());
  });

  it("reads each provider's settings, with the API address overridable", () => {
    withEnv({ CDN_PURGE: "cloudflare", CLOUDFLARE_ZONE_ID: "z", CLOUDFLARE_API_TOKEN: "t" }, () =>
      expect(cdnPurgeConfig()).toEqual({ provider: "cloudflare", zoneId: "z", apiToken: "t", apiBase: "https://api.cloudflare.com/client/v4" }),
    );
    withEnv({ CDN_PURGE: "Fastly", FASTLY_API_TOKEN: "k", FASTLY_SERVICE_ID: "s", CDN_PURGE_API_BASE: "http://127.0.0.1:8080/" }, () =>
      expect(cdnPurgeConfig()).toEqual({ provider: "fastly", apiToken: "k", serviceId: "s", apiBase: "http://127.0.0.1:8080" }),
    );
  });

  it.each([
    [{ CDN_PURGE: "akamai" }, /CDN_PURGE must be/],
    [{ CDN_PURGE: "cloudflare", CLOUDFLARE_ZONE_ID: "z" }, /CLOUDFLARE_API_TOKEN/],
    [{ CDN_PURGE: "cloudflare", CLOUDFLARE_API_TOKEN: "t" }, /CLOUDFLARE_ZONE_ID/],
    [{ CDN_PURGE: "fastly", FASTLY_API_TOKEN: "k" }, /FASTLY_SERVICE_ID/],
    [{ CDN_PURGE: "fastly", FASTLY_SERVICE_ID: "s", CDN_PURGE_API_BASE: "ftp://x" }, /FASTLY_API_TOKEN/],
    [{ CDN_PURGE: "fastly", FASTLY_API_TOKEN: "k", FASTLY_SERVICE_ID: "s", CDN_PURGE_API_BASE: "ftp://x" }, /CDN_PURGE_API_BASE/],
  ])("refuses %j", (values, message) => {
    withEnv(values, () => expect(() => cdnPurgeConfig()).toThrow(message));
  });
});

describe("purging after a release swap", () => {
  let temp: TempDb;
  let dir: string;
  beforeAll(async () => {
    temp = await tempDb();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-purge-"));
  });
  afterAll(() => {
    temp.remove();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Writes the given files; a fast build's are the pages its products' changes affect. */
  const builder = (full: Record<string, string>, fast: Record<string, string>): SiteBuilder => {
    const outcome = (files: Record<string, string>): BuildOutcome => ({ ok: true, durationMs: 1, pages: Object.keys(files).length, productPages: 0, log: "" });
    return {
      full: async ({ outDir }) => (writeFiles(outDir, full), outcome(full)),
      fast: async ({ outDir }) => (writeFiles(outDir, fast), outcome(fast)),
      stop: async () => {},
    };
  };

  it("purges everything after a full build and the changed pages after a fast one, not the pages earlier fast builds wrote", async () => {
    const store = createReleaseStore(path.join(dir, "releases"));
    const purge = createCdnPurger(cloudflare(), { log: () => {} });
    const context = (fast: Record<string, string>) => ({
      db: temp.db,
      store,
      builder: builder({ "index.html": "full", "product/a.html.br": "a" }, fast),
      log: () => {},
      purge,
    });
    expect((await buildRelease(context({}), "full")).ok).toBe(true);
    await expect.poll(() => recorded.length).toBe(1);
    expect(JSON.parse(recorded[0]!.body)).toEqual({ purge_everything: true });

    expect((await buildRelease(context({ "index.html.br": "home", "product/b.html.br": "b", "category/dog-food/index.html": "dogs" }), "fast")).ok).toBe(true);
    await expect.poll(() => recorded.length).toBe(2);
    expect(JSON.parse(recorded[1]!.body)).toEqual({
      files: [`${siteConfig.baseUrl}/`, `${siteConfig.baseUrl}/category/dog-food`, `${siteConfig.baseUrl}/product/b`],
    });

    // A second fast build carries product b's page forward: purged already, not again.
    expect((await buildRelease(context({ "product/c.html.br": "c" }), "fast")).ok).toBe(true);
    await expect.poll(() => recorded.length).toBe(3);
    expect(JSON.parse(recorded[2]!.body)).toEqual({ files: [`${siteConfig.baseUrl}/product/c`] });
    expect(fs.existsSync(path.join(store.currentRoot()!, "product/b.html.br"))).toBe(true);
  });

  it("publishes the release at once while a failing purge is retried, then given up", async () => {
    failures = [500, 500, 500];
    const store = createReleaseStore(path.join(dir, "failing"));
    const log: string[] = [];
    const purge = createCdnPurger(cloudflare(), { log: (line) => log.push(line), retryDelaysMs: [50, 50] });
    const result = await buildRelease({ db: temp.db, store, builder: builder({ "index.html": "live" }, {}), log: () => {}, purge }, "full");
    expect(result.ok).toBe(true);
    // Live before the purge has got anywhere: the retries take at least 100 ms.
    expect(fs.readFileSync(path.join(store.currentRoot()!, "index.html"), "utf8")).toBe("live");
    expect(log.some((line) => line.includes("given up"))).toBe(false);
    await expect.poll(() => log.some((line) => line.includes("given up"))).toBe(true);
    expect(recorded).toHaveLength(3);
    expect(result.record?.result).toBe("succeeded");
  });
});
