/**
 * The rebuild job over a real database and real release folders, with builders that write a
 * few files instead of running Astro (api/test/site-build.test.ts runs the real build): which
 * builds run, when, and what is served afterwards.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { buildRelease, createSiteRebuilder, type SiteRebuilder } from "./site-rebuild.ts";
import type { BuildOutcome, SiteBuilder } from "../site-build/builder.ts";
import { createReleaseStore, readReleaseMeta } from "../site-build/releases.ts";
import { treeHash, withPermissiveUmask, writeFiles } from "../test/files.ts";
import { openDb } from "../../data/db/client.ts";
import { tempDb, type TempDb } from "../../data/db/fixtures/temp-db.ts";
import { bumpCatalogueRevision, catalogueRevision } from "../../data/db/catalogue-revision.ts";
import { getBuild, listBuilds, recordBuildFinish, recordBuildStart } from "../../data/db/site-builds.ts";

interface FakeBuild {
  kind: "full" | "fast";
  productIds: readonly number[] | null;
  /** The snapshot file the build read. */
  databaseFile: string;
  /** Products the build's snapshot held when the build read it. */
  productsSeen: number;
  /** Lets a held build end. */
  finish(outcome?: Partial<BuildOutcome>): void;
  /** Ends a held build by throwing, as a builder whose process broke would. */
  crash(error: Error): void;
}

/**
 * A builder that writes a home page naming the build, a page per product asked for, and the
 * server bundle Astro leaves behind. With `hold`, each build waits for `finish()`.
 */
function fakeBuilder(options: { hold?: boolean; outcome?: Partial<BuildOutcome> } = {}) {
  const builds: FakeBuild[] = [];
  let stopped = 0;
  const run = (kind: "full" | "fast", job: { databaseFile: string; outDir: string; productIds?: readonly number[] }) => {
    const snapshot = openDb(job.databaseFile, { readonly: true });
    const count = (sql: string, ...params: unknown[]) => (snapshot.$client.prepare(sql).get(...params) as { n: number }).n;
    const productsSeen = count("SELECT count(*) AS n FROM products");
    const productPages = count(
      "SELECT count(*) AS n FROM products WHERE id IN (SELECT value FROM json_each(?))",
      JSON.stringify(job.productIds ?? []),
    );
    snapshot.$client.close();
    const number = builds.length + 1;
    const files: Record<string, string> = { "index.html": `${kind} build ${number}`, ".prerender/entry.mjs": "server code" };
    if (kind === "full") files["about/index.html"] = `about ${number}`;
    for (const id of job.productIds ?? []) files[`product/p${id}/index.html`] = `product ${id} from build ${number}`;
    writeFiles(job.outDir, files);
    return new Promise<BuildOutcome>((resolve, reject) => {
      const finish = (outcome: Partial<BuildOutcome> = {}) =>
        resolve({
          ok: true,
          durationMs: 1,
          pages: Object.keys(files).length - 1,
          productPages,
          log: `built ${kind} ${number}`,
          ...options.outcome,
          ...outcome,
        });
      builds.push({ kind, productIds: job.productIds ?? null, databaseFile: job.databaseFile, productsSeen, finish, crash: reject });
      if (!options.hold) finish();
    });
  };
  const builder: SiteBuilder = {
    full: (job) => run("full", job),
    fast: (job) => run("fast", job),
    stop: async () => {
      stopped++;
    },
  };
  return { builder, builds, stops: () => stopped };
}

let temp: TempDb;
let releasesDir: string;
const rebuilders: SiteRebuilder[] = [];

beforeEach(async () => {
  logged = [];
  temp = await tempDb(30);
  releasesDir = path.join(path.dirname(temp.file), "releases");
});
afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  for (const rebuilder of rebuilders.splice(0)) {
    await rebuilder.stop();
    await rebuilder.cleanedUp();
  }
  temp.remove();
});

/** What the rebuilders of a test logged, line by line. */
let logged: string[] = [];

function rebuilder(builder: SiteBuilder, delayMs = 20): SiteRebuilder {
  const created = createSiteRebuilder({
    db: temp.db,
    databaseFile: temp.file,
    releasesDir,
    delayMs,
    build: builder,
    log: (line) => logged.push(line),
  });
  rebuilders.push(created);
  return created;
}

/** A rebuilder whose first (full) build is done. */
/**
 * Waits for what the operator would see, up to 10 s: builds here are fake and take milliseconds,
 * but a loaded machine (a mutation run, a parallel suite) can hold a timer for over a second.
 */
const waitFor = <T>(check: () => T | Promise<T>, options: { timeout?: number; interval?: number } = {}) => vi.waitFor(check, { timeout: 10_000, ...options });

async function builtRebuilder(builder: SiteBuilder, delayMs = 20): Promise<SiteRebuilder> {
  const created = rebuilder(builder, delayMs);
  await waitFor(() => expect(created.status()).toMatchObject({ state: "idle", lastBuild: { result: "succeeded" } }));
  return created;
}

const served = (rebuilder: SiteRebuilder, file: string) => fs.readFileSync(path.join(rebuilder.currentRoot()!, file), "utf8");
const scratchFolders = () => fs.readdirSync(releasesDir).filter((name) => name.startsWith("."));

describe("the first build", () => {
  it("builds a full release when there is none, serves it without the build's intermediates, and records it", async () => {
    const { builder, builds } = fakeBuilder();
    const site = rebuilder(builder);
    expect(site.currentRoot()).toBeNull();
    await waitFor(() => expect(site.status().lastBuild?.result).toBe("succeeded"));
    expect(builds.map((build) => build.kind)).toEqual(["full"]);
    expect(served(site, "index.html")).toBe("full build 1");
    expect(fs.existsSync(path.join(site.currentRoot()!, ".prerender"))).toBe(false);
    const status = site.status();
    expect(status).toMatchObject({ state: "idle", current: path.basename(site.currentRoot()!) });
    expect(status.lastBuild).toMatchObject({
      kind: "full",
      result: "succeeded",
      release: status.current,
      pages: 2,
      logTail: "built full 1",
    });
    expect(status.lastBuild!.durationMs).toBeGreaterThanOrEqual(0);
    await site.cleanedUp();
    expect(scratchFolders()).toEqual([]);
  });

  it("says what it is doing, for the operator", async () => {
    const { builder } = fakeBuilder();
    const site = await builtRebuilder(builder);
    expect(logged).toEqual([
      "No site release yet: building the site (the site answers 503 until the first build is done)...",
      expect.stringMatching(
        new RegExp(
          `^Site build \\(full\\) done in \\d+\\.\\d s \\(snapshot \\d+\\.\\d s, pages 0\\.0 s\\): 2 pages, release ${site.status().current}$`,
        ),
      ),
    ]);
  });

  it("fails the builds a previous process left running", async () => {
    const left = recordBuildStart(temp.db, { kind: "full", release: "left-behind", startedAt: new Date() });
    const { builder } = fakeBuilder({ hold: true });
    rebuilder(builder);
    expect(getBuild(temp.db, left)).toMatchObject({ result: "failed" });
  });

  it("builds again when the served release's folder is gone", async () => {
    fs.mkdirSync(releasesDir, { recursive: true });
    fs.symlinkSync("20261122T100000000Z-abcdef", path.join(releasesDir, "current"));
    const { builder, builds } = fakeBuilder();
    const site = rebuilder(builder);
    await waitFor(() => expect(site.status().lastBuild?.result).toBe("succeeded"));
    expect(builds.map((build) => build.kind)).toEqual(["full"]);
    expect(served(site, "index.html")).toBe("full build 1");
  });

  it("builds again, as for a first start, when the served release has no bookkeeping (.release.json)", async () => {
    const site = await builtRebuilder(fakeBuilder().builder);
    const current = site.status().current!;
    await site.stop();
    fs.rmSync(path.join(releasesDir, current, ".release.json"));
    logged = [];
    const { builder, builds } = fakeBuilder();
    const restarted = rebuilder(builder);
    await restarted.settled();
    expect(builds.map((build) => build.kind)).toEqual(["full"]);
    expect(logged[0]).toBe("No site release yet: building the site (the site answers 503 until the first build is done)...");
  });

  it("serves a release published with no build recorded in this database (made elsewhere) as it is", async () => {
    const store = createReleaseStore(releasesDir);
    const staged = store.stage();
    writeFiles(staged.dir, { "index.html": "made elsewhere" });
    store.publish(staged, { kind: "full", base: null, catalogueRevision: catalogueRevision(temp.db) });
    await store.discard(staged);
    const { builder, builds } = fakeBuilder();
    const site = rebuilder(builder);
    await site.settled();
    expect(builds).toEqual([]);
    expect(served(site, "index.html")).toBe("made elsewhere");
  });

  it("is not needed when a release exists: that one is served as it is", async () => {
    const first = fakeBuilder();
    const site = await builtRebuilder(first.builder);
    const current = site.status().current;
    await site.stop();

    const second = fakeBuilder();
    const restarted = rebuilder(second.builder);
    expect(restarted.status()).toMatchObject({ state: "idle", current });
    expect(restarted.currentRoot()).toBe(path.join(releasesDir, current!));
    expect(second.builds).toEqual([]);
  });

  it("gets a builder that can warm up ready on the live database when a release exists, and throws its pages away", async () => {
    const first = fakeBuilder();
    const site = await builtRebuilder(first.builder);
    const current = site.status().current;
    await site.stop();

    const second = fakeBuilder();
    const warmed: { databaseFile: string; outDir: string }[] = [];
    const restarted = rebuilder({
      ...second.builder,
      warm: async (job) => {
        warmed.push(job);
        fs.mkdirSync(job.outDir, { recursive: true });
        fs.writeFileSync(path.join(job.outDir, "index.html"), "warm-up page");
        return { ok: true, durationMs: 1, pages: 1, productPages: 0, log: "" };
      },
    });
    expect(warmed).toEqual([{ databaseFile: temp.file, outDir: expect.stringContaining(releasesDir) }]);
    await waitFor(() => expect(scratchFolders()).toEqual([]));
    expect(restarted.status()).toMatchObject({ state: "idle", current });
    expect(second.builds).toEqual([]);
    expect(logged.at(-1)).toBe("Site build worker ready for fast rebuilds (0.0 s)");
  });

  it("says when the warm-up failed; fast builds then start a worker of their own", async () => {
    const site = await builtRebuilder(fakeBuilder().builder);
    await site.stop();
    rebuilder({
      ...fakeBuilder().builder,
      warm: async () => ({
        ok: false,
        durationMs: 1,
        pages: 0,
        productPages: 0,
        log: "Vite: out of memory\n\x1b[31mError: no bundle\x1b[39m\n",
      }),
    });
    await waitFor(() => expect(logged.at(-1)).toBe("Site build worker warm-up failed: Error: no bundle"));
  });
});

describe("coalescing", () => {
  it("gives changes within the delay one build, of all their products", async () => {
    const { builder, builds } = fakeBuilder();
    const site = await builtRebuilder(builder, 200);
    const results = [site.request({ productIds: [3] }), site.request({ productIds: [5, 3] }), site.request({ productIds: [7] })];
    expect(site.status().state).toBe("scheduled");
    const records = await Promise.all(results);
    expect(builds.map((build) => build.kind)).toEqual(["full", "fast"]);
    expect([...builds[1]!.productIds!].sort()).toEqual([3, 5, 7]);
    expect(new Set(records.map((record) => record?.id)).size).toBe(1);
    expect(records[0]).toMatchObject({ kind: "fast", result: "succeeded" });
  });

  it.each([
    ["a site-wide change, then a product change", [{ siteWide: true }, { productIds: [3] }]],
    ["a product change, then a site-wide change", [{ productIds: [3] }, { siteWide: true }]],
  ])("gives %s within the delay one full build, not a fast one of the product", async (_, changes) => {
    const { builder, builds } = fakeBuilder();
    const site = await builtRebuilder(builder, 200);
    const records = await Promise.all(changes.map((change) => site.request(change)));
    expect(builds.map((build) => build.kind)).toEqual(["full", "full"]);
    expect(builds[1]!.productIds).toBeNull();
    expect(records[0]!.id).toBe(records[1]!.id);
    expect(records[0]).toMatchObject({ kind: "full", result: "succeeded" });
    expect(readReleaseMeta(site.currentRoot()!)).toMatchObject({ kind: "full", base: null });
  });

  it("answers a change during a build with exactly one more build after it", async () => {
    const { builder, builds } = fakeBuilder({ hold: true });
    const site = rebuilder(builder);
    await waitFor(() => expect(builds).toHaveLength(1));
    builds[0]!.finish();
    await waitFor(() => expect(site.status()).toMatchObject({ state: "idle", lastBuild: { result: "succeeded" } }));

    const during = site.request({ productIds: [1] });
    await waitFor(() => expect(builds).toHaveLength(2));
    expect(site.status().state).toBe("building");
    const afterA = site.request({ productIds: [2] });
    const afterB = site.request({ productIds: [4] });
    expect(site.status().state).toBe("building");
    builds[1]!.finish();
    await expect(during).resolves.toMatchObject({ kind: "fast", result: "succeeded" });
    await waitFor(() => expect(builds).toHaveLength(3));
    expect([...builds[2]!.productIds!].sort()).toEqual([2, 4]);
    builds[2]!.finish();
    const [a, b] = await Promise.all([afterA, afterB]);
    expect(a!.id).toBe(b!.id);
    expect(site.status().state).toBe("idle");
    expect(builds).toHaveLength(3);
  });
});

describe("full or fast", () => {
  it("renders a product change as a fast release over the full one, and keeps earlier fast pages", async () => {
    const { builder, builds } = fakeBuilder();
    const site = await builtRebuilder(builder);
    const full = site.status().current!;
    await site.request({ productIds: [1], categoryIds: [2] });
    await site.request({ productIds: [2] });
    expect(builds.map((build) => build.kind)).toEqual(["full", "fast", "fast"]);
    const root = site.currentRoot()!;
    expect(readReleaseMeta(root)).toMatchObject({ kind: "fast", base: full });
    expect(served(site, "index.html")).toBe("fast build 3");
    expect(served(site, "product/p1/index.html")).toBe("product 1 from build 2");
    expect(served(site, "product/p2/index.html")).toBe("product 2 from build 3");
    // Not copied: the base serves it.
    expect(fs.existsSync(path.join(root, "about/index.html"))).toBe(false);
    expect(listBuilds(temp.db, 3).map((build) => [build.kind, build.result])).toEqual([
      ["fast", "succeeded"],
      ["fast", "succeeded"],
      ["full", "succeeded"],
    ]);
  });

  it("renders the other sizes of a changed product's family with it (their pages list its price)", async () => {
    const { builder, builds } = fakeBuilder();
    temp.db.$client.prepare("UPDATE products SET family_key = CASE WHEN id IN (10, 12, 14) THEN 'test-family' ELSE 'alone-' || id END").run();
    const site = await builtRebuilder(builder);
    await site.request({ productIds: [12, 3] });
    expect(builds.at(-1)).toMatchObject({ kind: "fast", productIds: [3, 10, 12, 14] });
    expect(served(site, "product/p14/index.html")).toBe("product 14 from build 2");
  });

  it("renders a category-only change fast, with no product pages", async () => {
    const { builder, builds } = fakeBuilder();
    const site = await builtRebuilder(builder);
    await site.request({ categoryIds: [4] });
    expect(builds.at(-1)).toMatchObject({ kind: "fast", productIds: [] });
  });

  it.each([
    ["a site-wide change", { productIds: [1], siteWide: true }],
    ["a change naming nothing", {}],
    ["more products than a fast build renders", { productIds: Array.from({ length: 501 }, (_, i) => i + 1) }],
    ["no category and no product", { categoryIds: [], productIds: [] }],
  ])("gives %s a full build", async (_, change) => {
    const { builder, builds } = fakeBuilder();
    const site = await builtRebuilder(builder);
    await site.request(change);
    expect(builds.map((build) => build.kind)).toEqual(["full", "full"]);
    expect(readReleaseMeta(site.currentRoot()!)).toMatchObject({ kind: "full", base: null });
  });

  it("gives a full build when the changed products' families take the pages past the fast limit", async () => {
    temp.db.$client.prepare("UPDATE products SET family_key = CASE WHEN id IN (1, 2, 3) THEN 'test-family' ELSE NULL END").run();
    const { builder, builds } = fakeBuilder();
    const site = await builtRebuilder(builder);
    // 499 changed products (as if they existed), and product 1's two siblings: 501 pages.
    await site.request({ productIds: [1, ...Array.from({ length: 498 }, (_, i) => 1000 + i)] });
    expect(builds.map((build) => build.kind)).toEqual(["full", "full"]);
  });

  it("renders up to 500 products fast", async () => {
    // As if all 500 existed (the test catalogue has 30).
    const { builder, builds } = fakeBuilder({ outcome: { productPages: 500 } });
    const site = await builtRebuilder(builder);
    await site.request({ productIds: Array.from({ length: 500 }, (_, i) => i + 1) });
    expect(builds.map((build) => build.kind)).toEqual(["full", "fast"]);
    expect(builds[1]!.productIds).toHaveLength(500);
  });

  it("gives a full build, made from nothing of the fast releases before it, after fast ones", async () => {
    const { builder } = fakeBuilder();
    const site = await builtRebuilder(builder);
    await site.request({ productIds: [1] });
    expect(served(site, "product/p1/index.html")).toBe("product 1 from build 2");
    await site.request({ siteWide: true });
    expect(readReleaseMeta(site.currentRoot()!)).toMatchObject({ kind: "full", base: null });
    expect(fs.existsSync(path.join(site.currentRoot()!, "product"))).toBe(false);
  });

  it("gives a product change a full build while no release was ever built", async () => {
    const { builder, builds } = fakeBuilder({ hold: true });
    const site = rebuilder(builder);
    await waitFor(() => expect(builds).toHaveLength(1));
    builds[0]!.finish({ ok: false, log: "Error: first build broke" });
    await waitFor(() => expect(site.status().lastBuild?.result).toBe("failed"));
    const second = site.request({ productIds: [1] });
    await waitFor(() => expect(builds).toHaveLength(2));
    builds[1]!.finish();
    await expect(second).resolves.toMatchObject({ kind: "full", result: "succeeded" });
    expect(builds.map((build) => build.kind)).toEqual(["full", "full"]);
  });

  it("turns a fast build into a full one when another process published a release meanwhile", async () => {
    const { builder, builds } = fakeBuilder({ hold: true });
    const site = rebuilder(builder);
    await waitFor(() => expect(builds).toHaveLength(1));
    builds[0]!.finish();
    await waitFor(() => expect(site.status().lastBuild?.result).toBe("succeeded"));
    const result = site.request({ productIds: [1] });
    await waitFor(() => expect(builds).toHaveLength(2));
    // npm run build, say, swaps in its own release while this fast build renders.
    const other = createReleaseStore(releasesDir);
    const staged = other.stage();
    writeFiles(staged.dir, { "index.html": "another process" });
    other.publish(staged, { kind: "full", base: null });
    await other.discard(staged);
    builds[1]!.finish();
    await waitFor(() => expect(builds).toHaveLength(3));
    expect(builds[2]!.kind).toBe("full");
    builds[2]!.finish();
    await expect(result).resolves.toMatchObject({ kind: "full", result: "succeeded" });
    expect(listBuilds(temp.db, 2)[1]).toMatchObject({
      kind: "fast",
      result: "failed",
      logTail: expect.stringMatching(/another release was published/),
    });
    expect(served(site, "index.html")).toBe("full build 3");
  });

  it("turns a fast build that finds a changed product gone into a full one", async () => {
    const { builder, builds } = fakeBuilder();
    const site = await builtRebuilder(builder);
    const before = site.status().current;
    const record = await site.request({ productIds: [1, 999_999] });
    expect(builds.map((build) => build.kind)).toEqual(["full", "fast", "full"]);
    expect(record).toMatchObject({ kind: "full", result: "succeeded" });
    const [full, fast] = listBuilds(temp.db, 2);
    expect(fast).toMatchObject({ kind: "fast", result: "failed" });
    expect(fast!.logTail).toMatch(/has no page any more/);
    expect(full!.release).toBe(site.status().current);
    expect(site.status().current).not.toBe(before);
  });
});

describe("a build that fails", () => {
  it.each([
    [
      "reports failure",
      (builds: FakeBuild[]) =>
        builds.at(-1)!.finish({ ok: false, log: "18:00:01 [build] Building...\n\x1b[31mError: boom in product/[slug].astro\x1b[39m\n" }),
      "Error: boom in product/[slug].astro",
    ],
    [
      "reports failure on the last of several lines",
      (builds: FakeBuild[]) => builds.at(-1)!.finish({ ok: false, log: "Building...\nRendering 12 pages\nError: no such layout\n" }),
      "Error: no such layout",
    ],
    ["reports failure without a word", (builds: FakeBuild[]) => builds.at(-1)!.finish({ ok: false, log: "" }), "the build failed"],
    ["throws", (builds: FakeBuild[]) => builds.at(-1)!.crash(new Error("worker lost")), "worker lost"],
  ])("that %s leaves the live release byte for byte, and is recorded", async (_, fail, reason) => {
    const { builder, builds } = fakeBuilder({ hold: true });
    const site = rebuilder(builder);
    await waitFor(() => expect(builds).toHaveLength(1));
    builds[0]!.finish();
    await waitFor(() => expect(site.status().lastBuild?.result).toBe("succeeded"));
    const current = site.status().current;
    const before = treeHash(site.currentRoot()!);

    const result = site.request({ siteWide: true });
    await waitFor(() => expect(builds).toHaveLength(2));
    fail(builds);
    const record = await result;
    // The copy of the database goes with the failure, before the build is reported.
    expect(fs.existsSync(path.dirname(builds[1]!.databaseFile))).toBe(false);
    expect(record).toMatchObject({ kind: "full", result: "failed", pages: null });
    expect(site.status()).toMatchObject({ state: "idle", current });
    expect(treeHash(site.currentRoot()!)).toEqual(before);
    expect(record!.logTail).toContain(reason);
    expect(logged.at(-1)).toMatch(/^Site build \(full\) failed after \d+\.\d s: /);
    expect(logged.at(-1)).toContain(`: ${reason}; the live site is unchanged`);
    // The failed build's folders go.
    await waitFor(() => expect(scratchFolders()).toEqual([]));
  });
});

describe("what a build records and logs", () => {
  it("records the builder's log, then the reason it failed, one per line; only the reason when the builder threw", async () => {
    const { builder, builds } = fakeBuilder({ hold: true });
    const site = rebuilder(builder);
    await waitFor(() => expect(builds).toHaveLength(1));
    builds[0]!.finish({ ok: false, log: "Building...\nError: boom" });
    await waitFor(() => expect(site.status().lastBuild?.result).toBe("failed"));
    expect(site.status().lastBuild!.logTail).toBe("Building...\nError: boom\nError: boom");

    const crashed = site.request({ siteWide: true });
    await waitFor(() => expect(builds).toHaveLength(2));
    builds[1]!.crash(new Error("worker lost"));
    expect((await crashed)!.logTail).toBe("worker lost");
  });

  it("logs how long the build took in all, its snapshot and its pages, in seconds to a tenth", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-03-01T10:00:00Z") });
    vi.spyOn(performance, "now").mockReturnValue(7_000); // the snapshot takes no time on this clock
    const lines: string[] = [];
    const builder: SiteBuilder = {
      full: async ({ outDir }) => {
        writeFiles(outDir, { "index.html": "home", "about/index.html": "about" });
        vi.setSystemTime(Date.now() + 2_500); // the build takes 2.5 s in all
        return { ok: true, durationMs: 1_500, pages: 2, productPages: 0, log: "" };
      },
      fast: () => Promise.reject(new Error("no fast builds here")),
      stop: async () => {},
    };
    const observed: unknown[] = [];
    const result = await buildRelease(
      { db: temp.db, store: createReleaseStore(releasesDir), builder, log: (line) => lines.push(line), onBuild: (...args) => observed.push(args) },
      "full",
    );
    expect(result).toMatchObject({ ok: true, escalate: false, record: { durationMs: 2_500 } });
    expect(observed).toEqual([["full", "succeeded", 2_500]]);
    expect(lines).toEqual([`Site build (full) done in 2.5 s (snapshot 0.0 s, pages 1.5 s): 2 pages, release ${result.record!.release}`]);
  });

  it("judges a full build by its own outcome only: product ids given to it never make it fail or escalate", async () => {
    const { builder } = fakeBuilder();
    const result = await buildRelease({ db: temp.db, store: createReleaseStore(releasesDir), builder, log: () => {} }, "full", [1, 2, 3]);
    expect(result).toMatchObject({ ok: true, escalate: false, record: { kind: "full", result: "succeeded" } });
  });

  it("publishes a full build even when another release was published during it (only a fast build depends on the one it started from)", async () => {
    const { builder, builds } = fakeBuilder({ hold: true });
    const site = rebuilder(builder);
    await waitFor(() => expect(builds).toHaveLength(1));
    builds[0]!.finish();
    await waitFor(() => expect(site.status().lastBuild?.result).toBe("succeeded"));
    const result = site.request({ siteWide: true });
    await waitFor(() => expect(builds).toHaveLength(2));
    const other = createReleaseStore(releasesDir);
    const staged = other.stage();
    writeFiles(staged.dir, { "index.html": "another process" });
    other.publish(staged, { kind: "full", base: null });
    await other.discard(staged);
    builds[1]!.finish();
    await expect(result).resolves.toMatchObject({ kind: "full", result: "succeeded" });
    expect(builds).toHaveLength(2);
    expect(served(site, "index.html")).toBe("full build 2");
  });

  it("builds fast with no product pages when called without product ids (a category change), over a release with or without its bookkeeping", async () => {
    const store = createReleaseStore(releasesDir);
    const { builder } = fakeBuilder();
    const context = { db: temp.db, store, builder, log: () => {} };
    const full = await buildRelease(context, "full");
    expect(full.ok).toBe(true);
    const fast = await buildRelease(context, "fast");
    expect(fast).toMatchObject({ ok: true, escalate: false, record: { kind: "fast", result: "succeeded" } });
    // Without the revision its changes cover, the fast release's revision is unknown.
    expect(readReleaseMeta(store.currentRoot()!)).toMatchObject({ kind: "fast", catalogueRevision: null });
    // A served release that lost its .release.json (an older layout): the fast build stands on it directly.
    const current = store.currentName()!;
    fs.rmSync(path.join(releasesDir, current, ".release.json"));
    const over = await buildRelease(context, "fast");
    expect(over).toMatchObject({ ok: true, escalate: false });
    expect(readReleaseMeta(path.join(releasesDir, over.record!.release!))).toMatchObject({ kind: "fast", base: current });
  });
});

describe("the snapshot", () => {
  it("is the catalogue as the build started, unaffected by writes during the build, and deleted afterwards", async () => {
    const { builder, builds } = fakeBuilder({ hold: true });
    const site = rebuilder(builder);
    await waitFor(() => expect(builds).toHaveLength(1));
    temp.db.$client.prepare("DELETE FROM products WHERE id = (SELECT max(id) FROM products)").run();
    builds[0]!.finish();
    await waitFor(() => expect(site.status().lastBuild?.result).toBe("succeeded"));
    expect(builds[0]!.productsSeen).toBe(30);
    const second = site.request({ siteWide: true });
    await waitFor(() => expect(builds).toHaveLength(2));
    expect(builds[1]!.productsSeen).toBe(29);
    builds[1]!.finish();
    await second;
    expect(scratchFolders()).toEqual([]);
  });
});

describe("the snapshot's access", () => {
  it("is the owner's only (file 0600, folder 0700) while the build reads it, and the file is gone when the build ends", async () => {
    await withPermissiveUmask(async () => {
      const { builder, builds } = fakeBuilder({ hold: true });
      const site = rebuilder(builder);
      await waitFor(() => expect(builds).toHaveLength(1));
      const snapshot = builds[0]!.databaseFile;
      expect(path.basename(path.dirname(snapshot))).toMatch(/^\.snapshot-/);
      expect(fs.statSync(snapshot).mode & 0o777).toBe(0o600);
      expect(fs.statSync(path.dirname(snapshot)).mode & 0o777).toBe(0o700);
      // Files SQLite adds beside it (journal, WAL) take its mode.
      for (const file of fs.readdirSync(path.dirname(snapshot))) expect(fs.statSync(path.join(path.dirname(snapshot), file)).mode & 0o077, file).toBe(0);
      builds[0]!.finish();
      await site.settled();
      expect(fs.existsSync(path.dirname(snapshot))).toBe(false);
    });
  });

  it("left by a build whose process was killed is deleted at start, before any build", async () => {
    const site = await builtRebuilder(fakeBuilder().builder);
    await site.stop();
    // A killed build of this very process id (a container's server has the same one each start).
    const leftover = path.join(releasesDir, `.snapshot-20261122T100000000Z-abcdef-${process.pid}`);
    fs.mkdirSync(leftover);
    fs.writeFileSync(path.join(leftover, "catalogue.db"), "a copy of the database");
    const { builder, builds } = fakeBuilder({ hold: true });
    rebuilder(builder);
    expect(fs.existsSync(leftover)).toBe(false);
    expect(builds).toEqual([]);
    expect(logged.at(-1)).toBe("Site releases: deleted 1 database snapshot(s) left by builds that did not finish");
  });
});

describe("a restart over a release that may be out of date", () => {
  /** A served full release of the catalogue as it is, its builder stopped, then `change` (what the ended process left). */
  async function restartAfter(change: () => void) {
    const first = await builtRebuilder(fakeBuilder().builder);
    const release = first.status().current!;
    expect(readReleaseMeta(first.currentRoot()!)).toMatchObject({ catalogueRevision: catalogueRevision(temp.db) });
    await first.stop();
    change();
    logged = [];
    const { builder, builds } = fakeBuilder();
    const site = rebuilder(builder);
    await site.settled();
    return { site, builds, release };
  }

  it("rebuilds everything when the last build was cut off (left running by a process that ended)", async () => {
    const { site, builds, release } = await restartAfter(() => {
      recordBuildStart(temp.db, { kind: "fast", release: "cut-off", startedAt: new Date() });
    });
    expect(builds.map((build) => build.kind)).toEqual(["full"]);
    expect(site.status().current).not.toBe(release);
    expect(logged[0]).toMatch(/^The last site build \(#\d+\) was cut off: rebuilding the whole site/);
  });

  it("rebuilds everything when the last build failed", async () => {
    const { builds } = await restartAfter(() => {
      const id = recordBuildStart(temp.db, { kind: "fast", release: "broken", startedAt: new Date() });
      recordBuildFinish(temp.db, id, { result: "failed", finishedAt: new Date(), pages: null, log: "Error: boom" });
    });
    expect(builds.map((build) => build.kind)).toEqual(["full"]);
    expect(logged[0]).toMatch(/^The last site build \(#\d+\) failed: rebuilding the whole site/);
  });

  it("rebuilds everything when the catalogue moved on since the release was built, and records the revision it shows", async () => {
    let revision = 0;
    const { site, builds } = await restartAfter(() => {
      temp.db.$client.prepare("DELETE FROM products WHERE id = (SELECT max(id) FROM products)").run();
      revision = bumpCatalogueRevision(temp.db);
    });
    expect(builds.map((build) => [build.kind, build.productsSeen])).toEqual([["full", 29]]);
    expect(readReleaseMeta(site.currentRoot()!)).toMatchObject({ kind: "full", catalogueRevision: revision });
    expect(logged[0]).toBe(`The site release shows catalogue revision ${revision - 1}, the catalogue is at ${revision}: rebuilding the whole site (the current release is served meanwhile)...`);
  });

  it.each([
    [
      "after the catalogue moved on (the product's fast build would leave the rest out of date)",
      () => {
        temp.db.$client.prepare("DELETE FROM products WHERE id = (SELECT max(id) FROM products)").run();
        bumpCatalogueRevision(temp.db);
      },
    ],
    [
      "after a failed build",
      () => {
        const id = recordBuildStart(temp.db, { kind: "fast", release: "broken", startedAt: new Date() });
        recordBuildFinish(temp.db, id, { result: "failed", finishedAt: new Date(), pages: null, log: "Error: boom" });
      },
    ],
  ])("keeps the rebuild %s whole when a product change comes in before it starts", async (_, meanwhile) => {
    const first = await builtRebuilder(fakeBuilder().builder);
    await first.stop();
    meanwhile();
    const { builder, builds } = fakeBuilder();
    const site = rebuilder(builder);
    void site.request({ productIds: [1] });
    await site.settled();
    expect(builds.map((build) => [build.kind, build.productIds])).toEqual([["full", null]]);
  });

  it("rebuilds everything when the release does not say which revision it shows (built before releases recorded it)", async () => {
    const { builds } = await restartAfter(() => {
      const meta = path.join(releasesDir, "current", ".release.json");
      const { catalogueRevision: _, ...older } = JSON.parse(fs.readFileSync(meta, "utf8")) as Record<string, unknown>;
      fs.writeFileSync(meta, JSON.stringify(older));
    });
    expect(builds.map((build) => build.kind)).toEqual(["full"]);
    expect(logged[0]).toMatch(/^The site release shows catalogue revision unknown, the catalogue is at \d+: rebuilding/);
  });

  it("builds nothing when the release shows the catalogue as it is and the last build succeeded", async () => {
    const { builds } = await restartAfter(() => {});
    expect(builds).toEqual([]);
  });
});

describe("the revision a release shows", () => {
  it("is, for a fast release, the catalogue's revision when its last change was asked for, not the later one of its snapshot", async () => {
    const { builder, builds } = fakeBuilder({ hold: true });
    const site = rebuilder(builder);
    await waitFor(() => expect(builds).toHaveLength(1));
    builds[0]!.finish();
    await waitFor(() => expect(site.status().lastBuild?.result).toBe("succeeded"));
    const asked = bumpCatalogueRevision(temp.db);
    const fast = site.request({ productIds: [1] });
    // A write whose own build has not started yet when this build takes its snapshot.
    bumpCatalogueRevision(temp.db);
    await waitFor(() => expect(builds).toHaveLength(2));
    builds[1]!.finish();
    await fast;
    expect(readReleaseMeta(site.currentRoot()!)).toMatchObject({ kind: "fast", catalogueRevision: asked });
  });

  it("is, for changes that share one fast build, the revision of the latest of them", async () => {
    const { builder, builds } = fakeBuilder({ hold: true });
    const site = rebuilder(builder);
    await waitFor(() => expect(builds).toHaveLength(1));
    builds[0]!.finish();
    await waitFor(() => expect(site.status().lastBuild?.result).toBe("succeeded"));
    bumpCatalogueRevision(temp.db);
    const first = site.request({ productIds: [1] });
    const latest = bumpCatalogueRevision(temp.db);
    const second = site.request({ productIds: [2] });
    expect(second).toBe(first); // within the delay: one build
    await waitFor(() => expect(builds).toHaveLength(2));
    expect(builds[1]!.productIds).toEqual([1, 2]);
    builds[1]!.finish();
    await first;
    expect(readReleaseMeta(site.currentRoot()!)).toMatchObject({ kind: "fast", catalogueRevision: latest });
  });

  it("keeps a product change after a failed build from going fast: the served release lacks the failed build's changes", async () => {
    const { builder, builds } = fakeBuilder({ hold: true });
    const site = rebuilder(builder);
    await waitFor(() => expect(builds).toHaveLength(1));
    builds[0]!.finish();
    await waitFor(() => expect(site.status().lastBuild?.result).toBe("succeeded"));
    bumpCatalogueRevision(temp.db);
    const failed = site.request({ productIds: [1] });
    await waitFor(() => expect(builds).toHaveLength(2));
    builds[1]!.finish({ ok: false, log: "Error: boom" });
    await failed;
    const revision = bumpCatalogueRevision(temp.db);
    const next = site.request({ productIds: [2] });
    await waitFor(() => expect(builds).toHaveLength(3));
    builds[2]!.finish();
    await expect(next).resolves.toMatchObject({ kind: "full", result: "succeeded" });
    expect(builds.map((build) => build.kind)).toEqual(["full", "fast", "full"]);
    expect(readReleaseMeta(site.currentRoot()!)).toMatchObject({ kind: "full", catalogueRevision: revision });
  });
});

describe("old releases", () => {
  it("are deleted after each swap, keeping the last three and the full release fast ones stand on", async () => {
    const { builder } = fakeBuilder();
    const site = await builtRebuilder(builder);
    const full = site.status().current!;
    for (let id = 1; id <= 4; id++) await site.request({ productIds: [id] });
    await site.cleanedUp();
    const releases = createReleaseStore(releasesDir);
    const kept = fs.readdirSync(releasesDir).filter((name) => releases.meta(name) !== null && name !== "current");
    expect(kept).toHaveLength(4);
    expect(kept).toContain(full);
    expect(kept).toContain(site.status().current);
    expect(served(site, "product/p1/index.html")).toBe("product 1 from build 2");
    // Five releases built, four kept: the one deleted is said once.
    expect(logged.filter((line) => line.startsWith("Site releases: deleted"))).toEqual(["Site releases: deleted 1 old release folder(s)"]);
  });
});

describe("stop", () => {
  it("drops a scheduled build, ends the builder and answers later requests with null", async () => {
    const { builder, builds, stops } = fakeBuilder();
    const site = rebuilder(builder, 60_000);
    const scheduled = site.request({ productIds: [1] });
    expect(site.status().state).toBe("scheduled");
    await site.stop();
    await expect(scheduled).resolves.toBeNull();
    await expect(site.request({ productIds: [2] })).resolves.toBeNull();
    expect(builds).toHaveLength(0);
    expect(site.status()).toMatchObject({ state: "idle", current: null, lastBuild: null });
    expect(stops()).toBe(1);
  });
});

describe("stop while a build waits to start", () => {
  it("builds nothing once stopping, even when the waiting build's time comes while the builder is being stopped", async () => {
    const { builder, builds } = fakeBuilder();
    let builderStopped!: () => void;
    const held = new Promise<void>((resolve) => (builderStopped = resolve));
    const site = await builtRebuilder({ ...builder, stop: () => held });
    const last = site.status().lastBuild;
    const asked = site.request({ productIds: [1] });
    const stopped = site.stop();
    // The waiting build's delay passes while the builder stops: it starts, finds the job stopping, and builds nothing.
    await expect(asked).resolves.toEqual(last);
    expect(builds).toHaveLength(1);
    builderStopped();
    await stopped;
    expect(builds).toHaveLength(1);
  });

  it("says nothing of a warm-up that ends after stop", async () => {
    const site = await builtRebuilder(fakeBuilder().builder);
    await site.stop();
    let warmed!: () => void;
    const warm = new Promise<void>((resolve) => (warmed = resolve));
    let started = false;
    const restarted = rebuilder({
      ...fakeBuilder().builder,
      warm: async ({ outDir }) => {
        started = true;
        fs.mkdirSync(outDir, { recursive: true });
        await warm;
        return { ok: true, durationMs: 1, pages: 1, productPages: 0, log: "" };
      },
    });
    expect(started).toBe(true);
    logged = [];
    await restarted.stop();
    warmed();
    // The warm-up's folder goes when it ends: then it would have said so.
    await waitFor(() => expect(scratchFolders()).toEqual([]));
    expect(logged).toEqual([]);
  });
});

describe("settled", () => {
  it("resolves once every build asked for so far has ended, including one asked for while it waited, with the last record", async () => {
    const { builder, builds } = fakeBuilder({ hold: true });
    const site = rebuilder(builder);
    await waitFor(() => expect(builds).toHaveLength(1));
    let settled = false;
    const done = site.settled().then((record) => {
      settled = true;
      return record;
    });
    // A change during the first build: settled waits for the build after it too.
    void site.request({ productIds: [1] });
    builds[0]!.finish();
    await waitFor(() => expect(builds).toHaveLength(2));
    expect(settled).toBe(false);
    builds[1]!.finish();
    const record = await done;
    expect(record).toMatchObject({ kind: "fast", result: "succeeded", release: site.status().current });
    expect(record!.id).toBe(listBuilds(temp.db, 1)[0]!.id);
    // Nothing asked for: at once, with the last build.
    await expect(site.settled()).resolves.toEqual(record);
  });

  it("resolves after stop with the last record", async () => {
    const { builder } = fakeBuilder();
    const site = await builtRebuilder(builder);
    const last = site.status().lastBuild;
    void site.request({ productIds: [1] });
    const waiting = site.settled();
    await site.stop();
    await expect(waiting).resolves.toEqual(last);
  });
});
