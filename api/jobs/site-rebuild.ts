/**
 * Rebuilds the public site after catalogue changes, on the job runner: changes that arrive
 * within `delayMs` of each other share one build, one build runs at a time, and a change during
 * a build gets exactly one more build after it. Every build reads one consistent snapshot of the
 * database (SQLite's backup API into an owner-only file in the build's owner-only scratch folder,
 * deleted as soon as the build has read it, failed or not, and at the next start when a killed
 * build left it), writes a
 * fresh release folder and is swapped in only when it succeeded (api/site-build/releases.ts); each is
 * recorded in site_builds.
 *
 * Which pages a change affects (the rule a fast build follows):
 * - a product's data shows on its own page, on its category's grid, on the home page (featured
 *   example, top-sellers grid), in the brand filter of every grid (a new brand) and in the
 *   sitemaps (last modified). A fast build therefore renders that product's page, the home page,
 *   every category page and the sitemaps (a couple of dozen pages, read with a handful of indexed
 *   queries) and lays them over the live release. Other products' pages are untouched: nothing of
 *   one product appears on another's page; nor are the pages that show no product data (legal
 *   and about pages, vouchers, the search and favourites shells).
 * - a category-only change (categoryIds without products) needs the same minus product pages.
 * - site-wide changes (category names and menu, retailers, affiliate IDs, vouchers), a product's
 *   page moving or disappearing (slug change, deletion: the old address must stop answering), an
 *   unknown change (another process wrote) and the first build get a full build. A fast build
 *   that finds a requested product gone turns into a full one as well.
 * - a fast build adds only its own changes to the served release, so it needs a served release
 *   that shows every change asked for before (it does not after a failed build): otherwise the
 *   build is full.
 *
 * Each release records the catalogue revision (data/db/catalogue-revision.ts) up to which it
 * shows every change: a full build the revision of its snapshot, a fast one the revision the
 * catalogue was at when its last change was asked for (every write is asked for once committed).
 * A server starting over a release builds the whole site when the release may be out of date:
 * the last build was cut off (left "running" by a process that ended) or failed, or the release
 * records another revision than the catalogue's (a write whose build never ran), or none.
 */
import fs from "node:fs";
import path from "node:path";
import { createJobRunner } from "./runner.ts";
import { createCdnPurger, purgeUrlsOf, type CdnPurger } from "../site-build/cdn-purge.ts";
import { createAstroBuilder, type BuildOutcome, type SiteBuilder } from "../site-build/builder.ts";
import { createReleaseStore, createSnapshotFile, type ReleaseStore } from "../site-build/releases.ts";
import { openDb, type Db } from "../../data/db/client.ts";
import { catalogueRevision } from "../../data/db/catalogue-revision.ts";
import { cdnPurgeConfig } from "../../data/config.ts";
import { withFamilyMembers } from "../../data/db/product-pages.ts";
import {
  failAbandonedBuilds,
  getBuild,
  latestBuild,
  recordBuildFinish,
  recordBuildStart,
  type BuildKind,
  type BuildRecord,
} from "../../data/db/site-builds.ts";

/** What changed: the products whose data changed, categories whose lists changed, or everything. */
export interface SiteChange {
  productIds?: readonly number[];
  categoryIds?: readonly number[];
  siteWide?: boolean;
}

export interface SiteRebuildStatus {
  /** scheduled: a build will start after the gathering delay; building: one is under way. */
  state: "idle" | "scheduled" | "building";
  /** The served release's name, or null before the first build. */
  current: string | null;
  lastBuild: BuildRecord | null;
}

export interface SiteRebuilder {
  /** Asks for a build of what the change affects; resolves with the record of the build that covered it (null after stop). */
  request(change: SiteChange): Promise<BuildRecord | null>;
  /** Resolves when every change asked for so far is built (none scheduled or running), with the last build's record. */
  settled(): Promise<BuildRecord | null>;
  status(): SiteRebuildStatus;
  /** The served release's folder (what the site handler serves), or null before the first build. */
  currentRoot(): string | null;
  /** Waits for the deletion of old releases started after the last swap. */
  cleanedUp(): Promise<void>;
  /** Ends a build under way (it fails, the live release stays), drops a scheduled one, ends the build worker. */
  stop(): Promise<void>;
}

export interface SiteRebuilderOptions {
  db: Db;
  /** The live database file (the snapshot is taken through `db`, its connection). */
  databaseFile: string;
  releasesDir: string;
  /** How long changes gather before a build starts (ms). */
  delayMs?: number;
  log?: (line: string) => void;
  /** Told of every build's end: its kind, result and duration. */
  onBuild?: BuildObserver;
  /** What builds a release; default the Astro build worker, kept warm for fast builds. */
  build?: SiteBuilder;
  /** Releases kept besides the served one and its base (default 3). */
  keepReleases?: number;
  /** The CDN purge after each swap; default from CDN_PURGE (none when unset). */
  purge?: CdnPurger | null;
}

/** More changed products than this get a full build: rendering thousands of pages one by one is slower. */
const fastBuildLimit = 500;

interface PendingWork {
  siteWide: boolean;
  productIds: Set<number>;
  categories: boolean;
  /** The catalogue revision when the latest of these changes was asked for. */
  revision: number;
}

function merge(pending: PendingWork | null, change: SiteChange, revision: number): PendingWork {
  const work = pending ?? { siteWide: false, productIds: new Set<number>(), categories: false, revision };
  work.revision = Math.max(work.revision, revision);
  work.siteWide ||= change.siteWide === true;
  for (const id of change.productIds ?? []) work.productIds.add(id);
  work.categories ||= (change.categoryIds ?? []).length > 0;
  return work;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const lastLine = (text: string) =>
  text
    .trim()
    .split("\n")
    .at(-1)
    ?.replace(/\x1b\[[0-9;]*m/g, "") ?? "";

export type BuildObserver = (kind: BuildKind, result: "succeeded" | "failed", ms: number) => void;

export interface ReleaseBuild {
  db: Db;
  store: ReleaseStore;
  builder: SiteBuilder;
  log: (line: string) => void;
  onBuild?: BuildObserver | undefined;
  /** Tells the CDN what each published release changed (none: no CDN to tell). */
  purge?: CdnPurger | null;
}

/** The files a build wrote into its release folder (relative paths). */
async function writtenFiles(dir: string): Promise<string[]> {
  const entries = await fs.promises.readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

/** The catalogue revision a snapshot file holds. */
function snapshotRevision(file: string): number {
  const snapshot = openDb(file, { readonly: true });
  try {
    return catalogueRevision(snapshot);
  } finally {
    snapshot.$client.close();
  }
}

/**
 * One recorded build into a new release, published when it succeeded: a full build, or a fast
 * one laid over the served release's base. `escalate`: the fast build could not stand in for a
 * full one (a changed product has no page any more, or another process published meanwhile).
 * `coveredRevision` (fast builds): the catalogue revision up to which the served release and
 * `productIds` together hold every change; without it the fast release's revision is unknown.
 */
export async function buildRelease(
  { db, store, builder, log, onBuild, purge }: ReleaseBuild,
  kind: BuildKind,
  productIds: readonly number[] = [],
  coveredRevision: number | null = null,
): Promise<{ ok: boolean; record: BuildRecord | null; escalate: boolean }> {
  const startedCurrent = store.currentName();
  const base = kind === "fast" && startedCurrent ? (store.meta(startedCurrent)?.base ?? startedCurrent) : null;
  const staged = store.stage();
  const id = recordBuildStart(db, { kind, release: staged.name, startedAt: new Date() });
  let outcome: BuildOutcome | null = null;
  let failure = "";
  let escalate = false;
  let snapshotMs = 0;
  try {
    const snapshotStarted = performance.now();
    const snapshot = createSnapshotFile(staged);
    await db.$client.backup(snapshot);
    snapshotMs = performance.now() - snapshotStarted;
    // A full release shows the whole snapshot; a fast one only the changes asked for up to `coveredRevision`.
    const shown = snapshotRevision(snapshot);
    const revision = kind === "full" ? shown : coveredRevision === null ? null : Math.min(coveredRevision, shown);
    outcome =
      kind === "full"
        ? await builder.full({ databaseFile: snapshot, outDir: staged.dir })
        : await builder.fast({ databaseFile: snapshot, outDir: staged.dir, productIds });
    if (!outcome.ok) failure = lastLine(outcome.log) || "the build failed";
    else if (kind === "fast" && outcome.productPages < productIds.length) {
      failure = "a changed product has no page any more; a full build follows";
      escalate = true;
    } else if (kind === "fast" && store.currentName() !== startedCurrent) {
      failure = "another release was published during this build; a full build follows";
      escalate = true;
    } else {
      // What this build wrote, before earlier fast builds' pages join it: the CDN had those purged already.
      const written = purge && kind === "fast" ? await writtenFiles(staged.dir) : [];
      // The pages earlier fast builds over the same base rewrote stay rewritten.
      if (kind === "fast" && startedCurrent !== null && startedCurrent !== base) await store.carryForward(staged, startedCurrent);
      store.publish(staged, { kind, base, catalogueRevision: revision });
      // The CDN drops the changed pages after the swap (a full build may have changed any page);
      // it runs on its own and never fails the build.
      if (purge) void (kind === "full" ? purge.purgeEverything() : purge.purgeUrls(purgeUrlsOf(written))).catch(() => undefined);
    }
  } catch (error) {
    failure = error instanceof Error ? error.message : String(error);
  }
  const ok = failure === "";
  // The snapshot (a copy of the whole database) goes at once, whatever the outcome; a failed
  // build's folder, which can hold thousands of files, in the background.
  store.discardSnapshot(staged);
  if (!ok) void store.discard(staged).catch(() => undefined);
  recordBuildFinish(db, id, {
    result: ok ? "succeeded" : "failed",
    finishedAt: new Date(),
    pages: outcome?.ok ? outcome.pages : null,
    log: [outcome?.log ?? "", failure].filter(Boolean).join("\n"),
  });
  const record = getBuild(db, id);
  onBuild?.(kind, ok ? "succeeded" : "failed", record?.durationMs ?? 0);
  const took = seconds(record?.durationMs ?? 0);
  const parts = `snapshot ${seconds(snapshotMs)}, pages ${seconds(outcome?.durationMs ?? 0)}`;
  if (ok) log(`Site build (${kind}) done in ${took} (${parts}): ${outcome!.pages} pages, release ${staged.name}`);
  else log(`Site build (${kind}) failed after ${took}: ${failure}; the live site is unchanged`);
  return { ok, record, escalate };
}

export function createSiteRebuilder(options: SiteRebuilderOptions): SiteRebuilder {
  const { db } = options;
  const log = options.log ?? console.log;
  const builder = options.build ?? createAstroBuilder({ quiet: true });
  const store = createReleaseStore(options.releasesDir);
  const keep = options.keepReleases ?? 3;
  const purgeConfig = options.purge === undefined ? cdnPurgeConfig() : null;
  const purge = options.purge !== undefined ? options.purge : purgeConfig ? createCdnPurger(purgeConfig, { log }) : null;
  let pending: PendingWork | null = null;
  let stopping = false;
  /** What the latest request resolves with: once it has and no request followed, everything asked for is built. */
  let latestRequest: Promise<BuildRecord | null> = Promise.resolve(null);

  /** The catalogue revision the served release shows every change up to, or null when unknown. */
  const servedRevision = (): number | null => {
    const name = store.currentName();
    return name === null ? null : (store.meta(name)?.catalogueRevision ?? null);
  };

  // Read before failing the builds a process that ended left running: such a build was cut off.
  const lastBuild = latestBuild(db);
  failAbandonedBuilds(db, new Date());
  const leftovers = store.removeLeftoverSnapshots();
  if (leftovers.length > 0) log(`Site releases: deleted ${leftovers.length} database snapshot(s) left by builds that did not finish`);
  /** The revision up to which every change asked for has been handed to a build. */
  let handedOut = servedRevision();

  const cleaner = createJobRunner(
    async () => {
      try {
        const removed = await store.cleanup(keep);
        if (removed.length > 0) log(`Site releases: deleted ${removed.length} old release folder(s)`);
      } catch (error) {
        log(`Site releases: cleanup failed: ${String(error)}`);
      }
    },
    { whenStopped: undefined },
  );
  let lastCleanup: Promise<void> = Promise.resolve();

  const runner = createJobRunner<BuildRecord | null>(
    async () => {
      const work = pending;
      pending = null;
      if (stopping || work === null) return latestBuild(db);
      const before = handedOut;
      handedOut = Math.max(handedOut ?? work.revision, work.revision);
      const served = servedRevision();
      try {
        // A size's price is on every page of its family: its siblings' pages are rebuilt with it.
        const pages = work.siteWide || work.productIds.size > fastBuildLimit ? [] : withFamilyMembers(db, [...work.productIds]);
        // A change that names no product and no category may have changed anything.
        const fast =
          !work.siteWide &&
          store.currentName() !== null &&
          served !== null &&
          before !== null &&
          served >= before &&
          work.productIds.size <= fastBuildLimit &&
          pages.length <= fastBuildLimit &&
          (work.productIds.size > 0 || work.categories);
        const context = { db, store, builder, log, onBuild: options.onBuild, purge };
        let result = fast ? await buildRelease(context, "fast", pages, work.revision) : null;
        if (result === null || (result.escalate && !stopping)) result = await buildRelease(context, "full");
        // Old releases after a swap; after a failure, whatever the build left.
        lastCleanup = cleaner.request();
        return result.record;
      } catch (error) {
        log(`Site build: ${String(error)}`);
        return latestBuild(db);
      }
    },
    { delayMs: options.delayMs ?? 3000, whenStopped: null },
  );

  const rebuilder: SiteRebuilder = {
    request(change) {
      if (stopping) return Promise.resolve(null);
      pending = merge(pending, change, catalogueRevision(db));
      latestRequest = runner.request();
      return latestRequest;
    },
    async settled() {
      for (;;) {
        const waiting = latestRequest;
        await waiting.catch(() => undefined);
        if (waiting === latestRequest) return latestBuild(db);
      }
    },
    status() {
      return {
        state: runner.running ? "building" : pending !== null ? "scheduled" : "idle",
        current: store.currentName(),
        lastBuild: latestBuild(db),
      };
    },
    currentRoot: () => store.currentRoot(),
    cleanedUp: () => lastCleanup,
    async stop() {
      stopping = true;
      await builder.stop();
      await runner.stop();
      pending = null;
      // A deletion under way goes on (cleanedUp() waits for it); none starts after this.
      void cleaner.stop();
    },
  };

  // No release yet (first start, or its folder is gone): build one. With one, get the build
  // worker ready so the first fast rebuild does not wait for Astro's start-up; its pages (read
  // from the live database, not a snapshot) are thrown away.
  const current = store.currentRoot();
  const shown = servedRevision();
  const revision = catalogueRevision(db);
  if (current === null || store.meta(path.basename(current)) === null) {
    log("No site release yet: building the site (the site answers 503 until the first build is done)...");
    void rebuilder.request({ siteWide: true });
  } else if (lastBuild !== null && lastBuild.result !== "succeeded") {
    log(
      `The last site build (#${lastBuild.id}) ${lastBuild.result === "running" ? "was cut off" : "failed"}: rebuilding the whole site (the current release is served meanwhile)...`,
    );
    void rebuilder.request({ siteWide: true });
  } else if (shown !== revision) {
    log(
      `The site release shows catalogue revision ${shown ?? "unknown"}, the catalogue is at ${revision}: rebuilding the whole site (the current release is served meanwhile)...`,
    );
    void rebuilder.request({ siteWide: true });
  } else if (builder.warm) {
    const scratch = store.stage();
    void builder
      .warm({ databaseFile: options.databaseFile, outDir: scratch.dir })
      .then((outcome) => {
        if (!stopping)
          log(
            outcome.ok
              ? `Site build worker ready for fast rebuilds (${seconds(outcome.durationMs)})`
              : `Site build worker warm-up failed: ${lastLine(outcome.log)}`,
          );
      })
      .finally(() => store.discard(scratch).catch(() => undefined));
  }
  return rebuilder;
}
