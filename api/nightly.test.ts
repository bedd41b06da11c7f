/**
 * The nightly job over a test server's real database, feed imports, price refresh and alert
 * schedule, with a stand-in site whose builds are only recorded (api/test/nightly.test.ts runs
 * the real build end to end): the build it waits for, a step that fails without stopping the
 * others, and NIGHTLY_CRON starting runs by itself.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { SiteBuilds } from "./context.ts";
import { createNightly, type Nightly } from "./nightly.ts";
import { startTestServer, type TestServer } from "./test/server.ts";
import { getNightlyRun } from "../data/db/nightly-runs.ts";
import { latestBuild, recordBuildFinish, recordBuildStart } from "../data/db/site-builds.ts";
import type { OfferReading } from "../data/domain/offer-extract.ts";
import type { PageReader } from "./lib/page-price.ts";

let api: TestServer;
/** Whether the shop is down: else every offer's page shows its published price. */
let shopDown = false;
const pageReader: PageReader = {
  async readPage(url: string) {
    if (shopDown) throw new Error("the connection was refused");
    const offer = api.db.$client.prepare("SELECT price_pence AS price, in_stock AS inStock FROM product_prices WHERE url = ?").get(url) as { price: number; inStock: number };
    const reading: OfferReading = {
      status: "found",
      offer: { price: offer.price, currency: "GBP", inStock: offer.inStock === 1, source: "json-ld", evidence: { source: "json-ld", rule: "json-ld Product offers", snippet: null }, confidence: "high", candidates: [] },
    };
    return { notModified: false, reading, validators: { etag: null, lastModified: null } };
  },
  readRobots: async () => ({ state: "allow" }),
};
/** The stand-in site: each request is recorded as a build that succeeds (or fails when told to). */
let buildsFail = false;
const requested: unknown[] = [];
const site: SiteBuilds = {
  request(change) {
    requested.push(change);
    const id = recordBuildStart(api.db, { kind: "full", release: `release-${requested.length}`, startedAt: new Date() });
    recordBuildFinish(api.db, id, { result: buildsFail ? "failed" : "succeeded", finishedAt: new Date(), pages: 3, log: buildsFail ? "astro: out of memory" : "" });
  },
  status: () => ({ state: "idle", lastBuild: null }),
  settled: async () => latestBuild(api.db),
};
const nightlies: Nightly[] = [];

const savedDelay = process.env.REFRESH_HOST_DELAY_MS;
beforeAll(async () => {
  // No pause between two page reads on one site: the pages are read from the database.
  process.env.REFRESH_HOST_DELAY_MS = "0";
  api = await startTestServer({ products: 5, pageReader, sources: new Map() });
  // The seeded offers are the demo's, which the refresh never reads: here they stand for prices read from pages.
  api.db.$client.prepare("UPDATE product_prices SET source = 'page'").run();
});
afterAll(async () => {
  await Promise.all(nightlies.map((nightly) => nightly.stop()));
  await api.close();
  if (savedDelay === undefined) delete process.env.REFRESH_HOST_DELAY_MS;
  else process.env.REFRESH_HOST_DELAY_MS = savedDelay;
});

function nightly(options: { site?: SiteBuilds; cron?: string } = {}): Nightly {
  const created = createNightly({
    db: api.db,
    feedImports: api.services.feedImports,
    pipeline: api.services.pipeline,
    alerts: api.services.alerts,
    site: () => options.site,
    cron: options.cron ?? null,
    log: () => {},
  });
  nightlies.push(created);
  return created;
}

async function runToEnd(job: Nightly, trigger = "admin") {
  const { run, created } = job.start(trigger);
  expect(created).toBe(true);
  await job.finished(run.id);
  return getNightlyRun(api.db, run.id)!;
}

describe("the nightly job", () => {
  // Each run reads the pages afresh unless a test says otherwise (a recent refresh spares them).
  beforeEach(() => {
    api.db.$client.prepare("DELETE FROM price_refresh_runs").run();
  });

  it("asks for a full build when nothing changed, waits for it and records its release", async () => {
    requested.length = 0;
    const run = await runToEnd(nightly({ site }));
    expect(run).toMatchObject({ trigger: "admin", status: "succeeded", step: "build", error: null, releaseId: "release-1" });
    expect(requested).toEqual([{ productIds: [], categoryIds: [], siteWide: true }]);
    expect(run.summary.feeds).toMatchObject({ sources: [] });
    expect(run.summary.prices).toMatchObject({ result: "succeeded", changed: 0, failed: 0 });
    expect(run.summary.alerts).toMatchObject({ sent: 0, failed: 0 });
    expect(run.summary.build).toMatchObject({ requested: "full", kind: "full", result: "succeeded", release: "release-1", pages: 3 });
    expect(run.startedAt).not.toBeNull();
    expect(run.finishedAt).not.toBeNull();
  });

  it("goes on after a failing step and fails the run naming every failure", async () => {
    shopDown = true;
    buildsFail = true;
    try {
      const run = await runToEnd(nightly({ site }));
      expect(run.status).toBe("failed");
      expect(run.summary.alerts).toMatchObject({ sent: 0 });
      expect(run.summary.prices).toMatchObject({ result: "failed", error: expect.stringMatching(/^the refresh failed: .*the connection was refused/) });
      expect(run.summary.build).toMatchObject({ result: "failed", error: "the full build failed: astro: out of memory" });
      expect(run.error).toMatch(/^prices: the refresh failed: .*; build: the full build failed: astro: out of memory$/);
      expect(run.releaseId).toBeNull();
    } finally {
      shopDown = false;
      buildsFail = false;
    }
  });

  it("reads no page when a refresh finished within 12 hours, and reads them when it finished earlier or failed", async () => {
    const runs = () => api.db.$client.prepare("SELECT count(*) FROM price_refresh_runs").pluck().get() as number;
    const finished = (hoursAgo: number, result: string) =>
      api.db.$client
        .prepare("INSERT INTO price_refresh_runs (started_at, finished_at, result) VALUES (?, ?, ?)")
        .run(new Date(Date.now() - hoursAgo * 3600_000 - 60_000).toISOString(), new Date(Date.now() - hoursAgo * 3600_000).toISOString(), result);
    finished(11.9, "succeeded");
    const spared = await runToEnd(nightly({ site }));
    expect(runs()).toBe(1);
    expect(spared.status).toBe("succeeded");
    expect(spared.summary.prices).toEqual({ durationMs: expect.any(Number), skipped: expect.stringMatching(/^the refresh that finished at \S+ read them \(within 12 hours\): not read again$/) });

    finished(11.8, "failed");
    const afterFailure = await runToEnd(nightly({ site }));
    expect(runs()).toBe(3);
    expect(afterFailure.summary.prices).toMatchObject({ result: "succeeded", checked: expect.any(Number) });

    api.db.$client.prepare("DELETE FROM price_refresh_runs").run();
    finished(12.1, "succeeded");
    const read = await runToEnd(nightly({ site }));
    expect(runs()).toBe(2);
    expect(read.summary.prices).toMatchObject({ result: "succeeded" });
    expect((read.summary.prices as { checked: number }).checked).toBeGreaterThan(0);
  });

  it("fails the build step on a server that does not build the site", async () => {
    const run = await runToEnd(nightly());
    expect(run).toMatchObject({ status: "failed", error: "build: This server does not build the site (SITE_BUILD=never)" });
  });

  it("runs on NIGHTLY_CRON by itself; once stopped, no run is left going", async () => {
    const before = (api.db.$client.prepare("SELECT max(id) AS id FROM nightly_runs").get() as { id: number }).id;
    const scheduled = nightly({ site, cron: "* * * * * *" });
    await vi.waitFor(() => expect(getNightlyRun(api.db, before + 1)).toMatchObject({ trigger: "schedule", status: "succeeded" }), { timeout: 10_000, interval: 50 });
    await scheduled.stop();
    const active = api.db.$client.prepare("SELECT count(*) AS n FROM nightly_runs WHERE status IN ('queued', 'running')").get() as { n: number };
    expect(active.n).toBe(0);
  });
});
