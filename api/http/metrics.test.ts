/**
 * The operator's view through the real server (serveApi over the h3 app, a real port, a real
 * SQLite file): GET /metrics after real requests, who may read it, and the request log lines.
 */
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../app.ts";
import { serveApi } from "./fast-reads.ts";
import { noTrustedProxies, parseTrustedProxies } from "./client-address.ts";
import { startTestServer, type TestServer } from "../test/server.ts";
import { createLogger } from "./log.ts";
import { metricsAccess } from "./metrics-endpoint.ts";
import { createMetrics } from "./metrics.ts";
import type { Telemetry } from "./observe.ts";
import { createSiteRebuilder } from "../jobs/site-rebuild.ts";
import type { SiteBuilder } from "../site-build/builder.ts";
import type { Mailer } from "../mail/mailer.ts";
import { getRun } from "../../data/db/feed-sources.ts";
import { refusedTotal } from "../../data/domain/feed-sources.ts";
import type { Product } from "../../data/domain/catalogue.ts";

let api: TestServer;
let server: ReturnType<typeof serveApi>;
let baseUrl: string;
let telemetry: Telemetry;
/** Every log line the server wrote, parsed. */
const lines: Record<string, unknown>[] = [];
const token = "metrics-token-0123456789abcdefXYZ";

beforeAll(async () => {
  api = await startTestServer({ products: 30 });
  telemetry = api.services.context.telemetry!;
  telemetry.logger = createLogger({ level: "info", destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } });
  server = serveApi(createApp(api.services.context), api.services.context, { port: 0, hostname: "127.0.0.1", silent: true });
  await server.ready();
  baseUrl = `http://127.0.0.1:${(server.node!.server!.address() as AddressInfo).port}`;
});
afterEach(() => {
  api.services.context.requests!.trustedProxies = noTrustedProxies;
  telemetry.metricsAccess = metricsAccess("127.0.0.1, ::1", null);
});
afterAll(async () => {
  await server.close(true);
  await api.close();
});

const get = (pathAndQuery: string, headers: Record<string, string> = {}) => fetch(baseUrl + pathAndQuery, { headers });

/** The value of one sample with exactly these labels (0 when the series does not exist yet). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((part) => [part[1]!, part[2]!]));
    const wanted = Object.entries(labels);
    if (wanted.length === Object.keys(found).length && wanted.every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return 0;
}

async function scrape(): Promise<string> {
  const response = await get("/metrics");
  expect(response.status).toBe(200);
  return response.text();
}

const requests = (route: string, method: string, status: string) => ["pawprice_http_requests_total", { route, method, status }] as const;

describe("request metrics", () => {
  it("counts each request under its route pattern, method and status, never its URL", async () => {
    const [first, second] = await api.json<Product[]>("/api/products?limit=2");
    const before = await scrape();
    for (const slug of [first!.slug, second!.slug]) expect((await get(`/api/products/${slug}`)).status).toBe(200);
    expect((await get("/api/products/no-such-product")).status).toBe(404);
    expect((await get("/api/products?junk=1")).status).toBe(400);
    expect((await get("/api/no-such-endpoint")).status).toBe(404);
    expect((await fetch(`${baseUrl}/api/favorites`, { method: "PUT" })).status).toBe(405);
    expect((await get("/some-page")).status).toBe(404);
    const after = await scrape();

    const delta = (name: string, labels: Record<string, string>) => sample(after, name, labels) - sample(before, name, labels);
    expect(delta(...requests("/api/products/:slug", "GET", "200"))).toBe(2);
    expect(delta(...requests("/api/products/:slug", "GET", "404"))).toBe(1);
    expect(delta(...requests("/api/products", "GET", "400"))).toBe(1);
    expect(delta(...requests("unmatched", "GET", "404"))).toBe(1);
    expect(delta(...requests("unmatched", "PUT", "405"))).toBe(1);
    expect(delta(...requests("site", "GET", "404"))).toBe(1);
    // The scrape before this one is counted once it has been answered.
    expect(delta(...requests("/metrics", "GET", "200"))).toBe(1);
    expect(delta("pawprice_http_request_duration_seconds_count", { route: "/api/products/:slug", method: "GET" })).toBe(3);
    expect(sample(after, "pawprice_http_request_duration_seconds_bucket", { route: "/api/products/:slug", method: "GET", le: "+Inf" })).toBe(
      sample(after, "pawprice_http_request_duration_seconds_count", { route: "/api/products/:slug", method: "GET" }),
    );
    expect(after).not.toContain(first!.slug);
    expect(after).not.toContain("no-such");
    expect(after).not.toContain("junk");
  });

  it("counts cache hits answered before the app under the route's pattern, and the miss that filled the cache", async () => {
    api.cache.invalidate();
    const before = await scrape();
    for (let i = 0; i < 3; i++) expect((await get("/api/brands")).status).toBe(200);
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string> = {}) => sample(after, name, labels) - sample(before, name, labels);
    expect(delta("pawprice_response_cache_misses_total")).toBe(1);
    expect(delta("pawprice_response_cache_hits_total", { layer: "server" })).toBe(2);
    expect(delta("pawprice_response_cache_hits_total", { layer: "app" })).toBe(0);
    expect(delta(...requests("/api/brands", "GET", "200"))).toBe(3);
  });

  it("has the process's own metrics too, in Prometheus' text format", async () => {
    const response = await get("/metrics");
    expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    const text = await response.text();
    expect(text).toMatch(/^# HELP pawprice_http_requests_total /m);
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(text).toMatch(/^nodejs_heap_size_used_bytes \d/m);
    const head = await fetch(`${baseUrl}/metrics`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });
});

describe("who may read /metrics", () => {
  /** As a visitor behind the trusted proxy on loopback, at `address`. */
  const from = (address: string, headers: Record<string, string> = {}) => get("/metrics", { "x-forwarded-for": address, ...headers });
  const refused = async (response: Response) => {
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "Not found" });
  };

  it("refuses an address outside METRICS_ALLOW with the answer any unknown address gets", async () => {
    api.services.context.requests!.trustedProxies = parseTrustedProxies("127.0.0.1");
    await refused(await from("203.0.113.7"));
    // The default lets loopback in: the proxy's own request (no forwarded visitor).
    expect((await get("/metrics")).status).toBe(200);
  });

  it("lets in an address inside a METRICS_ALLOW range, not one just past it", async () => {
    api.services.context.requests!.trustedProxies = parseTrustedProxies("127.0.0.1");
    telemetry.metricsAccess = metricsAccess("203.0.113.0/24", null);
    expect((await from("203.0.113.255")).status).toBe(200);
    expect((await from("203.0.113.0")).status).toBe(200);
    await refused(await from("203.0.114.0"));
    await refused(await from("203.0.112.255"));
    await refused(await get("/metrics")); // loopback is not in the list any more
  });

  it("never lets in by address a request forwarded by a proxy that is not trusted", async () => {
    // No TRUSTED_PROXIES: a forwarded request from loopback may be any visitor of a proxy on this machine.
    await refused(await from("127.0.0.1"));
    await refused(await get("/metrics", { forwarded: "for=127.0.0.1" }));
    expect((await get("/metrics")).status).toBe(200);
  });

  it("lets in the right bearer token from anywhere, and refuses a wrong one from everywhere", async () => {
    api.services.context.requests!.trustedProxies = parseTrustedProxies("127.0.0.1");
    telemetry.metricsAccess = metricsAccess("127.0.0.1, ::1", token);
    const ok = await from("203.0.113.7", { authorization: `Bearer ${token}` });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain("pawprice_http_requests_total");
    expect((await from("203.0.113.7", { authorization: `bearer ${token}` })).status).toBe(200);
    // Same length, last character changed; a prefix; the token plus one character; no token at all.
    await refused(await from("203.0.113.7", { authorization: `Bearer ${token.slice(0, -1)}Q` }));
    await refused(await from("203.0.113.7", { authorization: `Bearer ${token.slice(0, -1)}` }));
    await refused(await from("203.0.113.7", { authorization: `Bearer ${token}x` }));
    await refused(await from("203.0.113.7", { authorization: "Bearer" }));
    await refused(await from("203.0.113.7", { authorization: `Basic ${token}` }));
    // A wrong token is refused from an allowed address as well.
    await refused(await get("/metrics", { authorization: "Bearer wrong-token-wrong-token-wrong" }));
  });

  it("refuses every token when none is configured", async () => {
    await refused(await get("/metrics", { authorization: `Bearer ${token}` }));
  });

  it("answers only GET and HEAD at exactly /metrics", async () => {
    expect((await get("/metrics?name[]=x")).status).toBe(200);
    expect((await get("/metricsx")).status).toBe(404);
    expect((await get("/metrics/")).status).toBe(404);
    const post = await fetch(`${baseUrl}/metrics`, { method: "POST" });
    expect(post.status).toBe(404);
    expect(await post.text()).not.toContain("pawprice_");
  });
});

describe("request logs", () => {
  const linesOf = (id: string) => lines.filter((line) => line.reqId === id);

  it("writes one line per request with its id, route pattern, status, time and size, and echoes the id", async () => {
    const [product] = await api.json<Product[]>("/api/products?limit=1");
    const id = "trace-1234.abcd_EF:9";
    const response = await get(`/api/products/${product!.slug}`, { "x-request-id": id });
    const body = await response.arrayBuffer();
    expect(response.headers.get("x-request-id")).toBe(id);
    await expect.poll(() => linesOf(id).length).toBe(1);
    const [line] = linesOf(id);
    expect(line).toMatchObject({ level: 30, msg: "request", method: "GET", route: "/api/products/:slug", status: 200, bytes: body.byteLength, client: "127.0.0.0/24" });
    expect(typeof line!.ms).toBe("number");
    expect(typeof line!.time).toBe("string");
    expect(JSON.stringify(line)).not.toContain(product!.slug);
  });

  it("keeps an id of 64 characters and replaces one of 65, or one with other characters", async () => {
    const longest = "a".repeat(64);
    expect((await get("/api/health", { "x-request-id": longest })).headers.get("x-request-id")).toBe(longest);
    for (const bad of ["a".repeat(65), "has space", "<script>", "semi;colon", "x/y"]) {
      const response = await get("/api/health", { "x-request-id": bad });
      const echoed = response.headers.get("x-request-id")!;
      expect(echoed).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      await expect.poll(() => linesOf(echoed).length).toBe(1);
      expect(JSON.stringify(lines)).not.toContain(bad);
    }
    // Without one, each request gets its own.
    const [a, b] = await Promise.all([get("/api/health"), get("/api/health")]);
    expect(a.headers.get("x-request-id")).not.toBe(b.headers.get("x-request-id"));
  });

  it("names the cache hits answered before the app by their route and echoes their id", async () => {
    api.cache.invalidate();
    await get("/api/categories");
    const response = await get("/api/categories", { "x-request-id": "fast-hit-1" });
    expect(response.headers.get("x-request-id")).toBe("fast-hit-1");
    const bytes = (await response.arrayBuffer()).byteLength;
    // Its size too, though the fast path writes its headers as a prepared list.
    await expect.poll(() => linesOf("fast-hit-1")).toEqual([expect.objectContaining({ route: "/api/categories", status: 200, bytes })]);
    // The replayed headers of a later hit carry that request's own id, not this one's.
    expect((await get("/api/categories", { "x-request-id": "fast-hit-2" })).headers.get("x-request-id")).toBe("fast-hit-2");
  });

  it("logs the forwarded client's network, never its whole address", async () => {
    api.services.context.requests!.trustedProxies = parseTrustedProxies("127.0.0.1");
    await get("/api/health", { "x-request-id": "net-v4", "x-forwarded-for": "198.51.100.77" });
    await get("/api/health", { "x-request-id": "net-v6", "x-forwarded-for": "2001:db8:abcd:12:34::5" });
    await expect.poll(() => linesOf("net-v6").length).toBe(1);
    expect(linesOf("net-v4")[0]!.client).toBe("198.51.100.0/24");
    expect(linesOf("net-v6")[0]!.client).toBe("2001:db8:abcd::/48");
    expect(JSON.stringify(lines)).not.toContain("198.51.100.77");
    expect(JSON.stringify(lines)).not.toContain("34::5");
  });
});

describe("job metrics", () => {
  it("counts a feed import's run and rows as the run recorded them", async () => {
    const before = await scrape();
    const imports = api.services.feedImports;
    const run = imports.start(imports.configuredTarget("sample"), "admin");
    await imports.finished(run.id);
    const finished = getRun(api.db, run.id)!;
    expect(finished.status).toBe("succeeded");
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) => sample(after, name, labels) - sample(before, name, labels);
    expect(delta("pawprice_feed_import_runs_total", { status: "succeeded" })).toBe(1);
    expect(delta("pawprice_feed_import_rows_total", { outcome: "imported" })).toBe(finished.matched + finished.created);
    expect(delta("pawprice_feed_import_rows_total", { outcome: "unmatched" })).toBe(finished.unmatched);
    expect(delta("pawprice_feed_import_rows_total", { outcome: "refused" })).toBe(refusedTotal(finished.refused));
    expect(finished.matched + finished.created).toBeGreaterThan(0);
  });

  it("counts a price refresh by its result and what it did to offers", async () => {
    const before = await scrape();
    const summary = await api.services.pipeline.refresh();
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string> = {}) => sample(after, name, labels) - sample(before, name, labels);
    expect(delta("pawprice_price_refresh_runs_total", { result: summary.result })).toBe(1);
    expect(delta("pawprice_price_refresh_duration_seconds_count")).toBe(1);
    expect(delta("pawprice_price_refresh_offers_total", { outcome: "checked" })).toBe(summary.checked);
    expect(delta("pawprice_price_refresh_offers_total", { outcome: "stale" })).toBe(summary.stale);
  });

  it("counts site builds by kind and result", async () => {
    let fail = false;
    const builder: SiteBuilder = {
      async full({ outDir }) {
        fs.mkdirSync(outDir, { recursive: true });
        fs.writeFileSync(path.join(outDir, "index.html"), "home");
        return { ok: !fail, durationMs: 1, pages: 1, productPages: 0, log: fail ? "out of memory" : "" };
      },
      fast: () => Promise.reject(new Error("no fast builds here")),
      stop: async () => {},
    };
    const metrics = createMetrics();
    const rebuilder = createSiteRebuilder({
      db: api.db,
      databaseFile: api.databaseFile,
      releasesDir: path.join(api.dir, "releases"),
      delayMs: 0,
      build: builder,
      log: () => {},
      onBuild: metrics.observeSiteBuild,
    });
    try {
      await rebuilder.settled();
      fail = true;
      await rebuilder.request({ siteWide: true });
      const text = await metrics.text();
      expect(sample(text, "pawprice_site_builds_total", { kind: "full", result: "succeeded" })).toBe(1);
      expect(sample(text, "pawprice_site_builds_total", { kind: "full", result: "failed" })).toBe(1);
      expect(sample(text, "pawprice_site_build_duration_seconds_count", { kind: "full", result: "failed" })).toBe(1);
    } finally {
      await rebuilder.stop();
    }
  });

  it("counts mail sent and mail that failed", async () => {
    const metrics = createMetrics();
    let refuse = false;
    const inner: Mailer = {
      describe: "outbox",
      send: async () => {
        if (refuse) throw new Error("mailbox full");
      },
    };
    const mailer = metrics.countMail(inner);
    const message = { to: "a@example.com", subject: "s", text: "t", html: "<p>t</p>" };
    await mailer.send(message);
    await mailer.send(message);
    refuse = true;
    await expect(mailer.send(message)).rejects.toThrow("mailbox full");
    const text = await metrics.text();
    expect(sample(text, "pawprice_mail_messages_total", { result: "sent" })).toBe(2);
    expect(sample(text, "pawprice_mail_messages_total", { result: "failed" })).toBe(1);
    expect(mailer.describe).toBe("outbox");
  });

  it("has a job run counter ready for the schedule: by job and outcome, timed, one log line each", async () => {
    const logged: Record<string, unknown>[] = [];
    const metrics = createMetrics({ logger: createLogger({ level: "info", destination: { write: (line: string) => void logged.push(JSON.parse(line) as Record<string, unknown>) } }) });
    metrics.observeJobRun("backup", "succeeded", 1200);
    metrics.observeJobRun("backup", "succeeded", 800);
    metrics.observeJobRun("backup", "failed", 50);
    const text = await metrics.text();
    expect(sample(text, "pawprice_job_runs_total", { job: "backup", outcome: "succeeded" })).toBe(2);
    expect(sample(text, "pawprice_job_runs_total", { job: "backup", outcome: "failed" })).toBe(1);
    expect(sample(text, "pawprice_job_run_duration_seconds_sum", { job: "backup" })).toBeCloseTo(2.05, 6);
    expect(logged).toEqual([
      expect.objectContaining({ msg: "job run", job: "backup", outcome: "succeeded", ms: 1200 }),
      expect.objectContaining({ msg: "job run", job: "backup", outcome: "succeeded", ms: 800 }),
      expect.objectContaining({ msg: "job run", job: "backup", outcome: "failed", ms: 50, level: 30 }),
    ]);
  });

  it("logs a routine job's successful runs at debug level only, its failures as any job's; its runs are counted all the same", async () => {
    const logged: Record<string, unknown>[] = [];
    const metrics = createMetrics({ logger: createLogger({ level: "debug", destination: { write: (line: string) => void logged.push(JSON.parse(line) as Record<string, unknown>) } }) });
    metrics.observeJobRun("foreign-writes", "ok", 1, true);
    metrics.observeJobRun("foreign-writes", "failed", 2, true);
    metrics.observeJobRun("retention", "ok", 3, false);
    metrics.observeJobRun("backup", "ok", 4);
    expect(logged.map(({ job, outcome, level }) => [job, outcome, level])).toEqual([
      ["foreign-writes", "ok", 20],
      ["foreign-writes", "failed", 30],
      ["retention", "ok", 30],
      ["backup", "ok", 30],
    ]);
    const text = await metrics.text();
    expect(sample(text, "pawprice_job_runs_total", { job: "foreign-writes", outcome: "ok" })).toBe(1);
    expect(sample(text, "pawprice_job_runs_total", { job: "foreign-writes", outcome: "failed" })).toBe(1);
  });

  it("counts the server's scheduled job runs by name and outcome", async () => {
    const before = sample(await scrape(), "pawprice_job_runs_total", { job: "session-prune", outcome: "ok" });
    expect(await api.services.schedule.run("session-prune")).toBe("ok");
    expect(await api.services.schedule.run("session-prune")).toBe("ok");
    expect(sample(await scrape(), "pawprice_job_runs_total", { job: "session-prune", outcome: "ok" })).toBe(before + 2);
  });

  it("keeps each server's metrics apart", async () => {
    const one = createMetrics();
    const two = createMetrics();
    one.observeRequest("/api/health", "GET", 200, 0.002);
    expect(sample(await one.text(), "pawprice_http_requests_total", { route: "/api/health", method: "GET", status: "200" })).toBe(1);
    expect(sample(await two.text(), "pawprice_http_requests_total", { route: "/api/health", method: "GET", status: "200" })).toBe(0);
  });

  it("puts a latency exactly on a bucket's bound in that bucket, and labels odd methods as other", async () => {
    const metrics = createMetrics();
    metrics.observeRequest("/api/health", "GET", 200, 0.005);
    metrics.observeRequest("/api/health", "GET", 200, 0.0050001);
    metrics.observeRequest("/api/health", "PROPFIND", 405, 20);
    const text = await metrics.text();
    const bucket = (le: string, method = "GET") => sample(text, "pawprice_http_request_duration_seconds_bucket", { route: "/api/health", method, le });
    expect(bucket("0.0025")).toBe(0);
    expect(bucket("0.005")).toBe(1);
    expect(bucket("0.01")).toBe(2);
    expect(bucket("10", "other")).toBe(0);
    expect(bucket("+Inf", "other")).toBe(1);
    expect(sample(text, "pawprice_http_requests_total", { route: "/api/health", method: "other", status: "405" })).toBe(1);
  });
});
