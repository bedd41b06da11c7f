/**
 * Imports as the server runs them: every run (the admin's Feeds screen and Import button, each
 * source's schedule) goes through jobs/feed-import.ts. Starting answers at once with the queued
 * run; runs execute one after another in this process (two imports at once could both create
 * the same new product), and one source never has two runs going (RunConflict, answered 409).
 *
 * Sources: the admin's feed sources (data/db/feed-sources.ts) and the configured ones of
 * product-sources.ts (sample, amazon, and `awin` from AWIN_FEED_URL / AWIN_FEED_FILE, listed as a
 * read-only source). Schedules: a job on the server's schedule per enabled source with a schedule,
 * in UK time, re-planned whenever a source changes, stopped with the server.
 */
import fs from "node:fs";
import path from "node:path";
import type { Db } from "../data/db/client.ts";
import type { CatalogueChange } from "../data/db/catalogue-writer/transaction.ts";
import { WriteRefused } from "../data/db/catalogue-writer/transaction.ts";
import { feedSourceKey, getFeedSource, latestRuns, listFeedSources, touchRuns, type FeedSource } from "../data/db/feed-sources.ts";
import type { HoldPolicy } from "../data/domain/price-hold.ts";
import { maskFeedUrl, type FeedRun, type FeedSourceView, type RunTrigger } from "../data/domain/feed-sources.ts";
import { readFeed, type FeedReadOptions } from "../data/feeds/read-feed.ts";
import { createSchedule, type Schedule } from "./jobs/schedule.ts";
import { claimImport, executeImport, type ImportTarget } from "./jobs/feed-import.ts";
import { downloadFeed } from "./lib/feed-download.ts";
import type { TestAllowance } from "./lib/guarded-fetch.ts";
import { defaultImportSource, openSource, productSources, SourceUnavailable, type ProductSource } from "./product-sources.ts";

/** The configured source shown in the admin's list, when AWIN_FEED_URL or AWIN_FEED_FILE is set. */
export const configuredFeedId = "awin";

export interface FeedImportsOptions {
  db: Db;
  /** Configured sources (default: from the environment). */
  sources?: Map<string, ProductSource>;
  uploadsDir: string;
  /** The largest upload accepted, in bytes. */
  uploadMaxBytes: number;
  policy?: HoldPolicy;
  catalogueChanged(change: CatalogueChange): void;
  /** Only tests pass one: lets URL sources read fixture feeds on loopback. */
  allowance?: TestAllowance;
  /** Plan the sources' schedules (default on; off in tests that need the database to stand still). */
  schedules?: boolean;
  log?: (line: string) => void;
  /** Told of every run this process executed, once it has ended. */
  onRunEnded?: (run: FeedRun) => void;
  /** The server's schedule to put the sources' schedules on (default: one of their own, started at once). */
  schedule?: Schedule;
}

export interface FeedImports {
  /** The configured sources (sample, awin, amazon). */
  configured: Map<string, ProductSource>;
  uploadsDir: string;
  uploadMaxBytes: number;
  allowance: TestAllowance | undefined;
  /** The import target of an admin feed source (its file must have been uploaded). */
  targetOf(source: FeedSource): ImportTarget;
  /** The import target of a configured source; SourceUnavailable when it is not configured or cannot be used. */
  configuredTarget(name: string): ImportTarget;
  /** The Import button's source (IMPORT_SOURCE, default the sample feed). */
  defaultTarget(): ImportTarget;
  /** Queues a run and answers at once with it; RunConflict while the source has one going. */
  start(target: ImportTarget, trigger: RunTrigger): FeedRun;
  /** Resolves when the run has ended (at once for a run this process does not hold). */
  finished(runId: number): Promise<void>;
  /** Re-reads the sources' schedules (after a source is created, changed or deleted). */
  replan(): void;
  /** When a source's schedule runs it next (null: none planned). */
  nextRun(sourceId: number): Date | null;
  /** The admin's list: the configured feed first (when set), then the admin's sources. */
  views(): FeedSourceView[];
  /** Plans nothing more, drops queued runs (failed: the server stopped) and stops the running one between rows. */
  stop(): Promise<void>;
}

/** Where an admin source's uploaded file is. */
export function uploadPath(uploadsDir: string, storedFile: string): string {
  return path.join(uploadsDir, path.basename(storedFile));
}

export function createFeedImports(options: FeedImportsOptions): FeedImports {
  const { db, uploadsDir } = options;
  const log = options.log ?? console.error;
  const configured = options.sources ?? productSources();
  // Each enabled source with a schedule is a job "feed-source:<id>" on the server's schedule.
  const own = options.schedule ? null : createSchedule({ log });
  const schedule = options.schedule ?? own!;
  const planned = new Set<number>();
  const jobName = (sourceId: number) => `feed-source:${sourceId}`;
  /** Runs this process holds (queued or running), with what resolves when each ends. */
  const held = new Map<number, { done: Promise<void> }>();
  const stopping = new AbortController();
  let queue: Promise<void> = Promise.resolve();

  // Queued runs wait their turn here: they say they are alive, so no other process takes them for abandoned.
  const heartbeat = setInterval(() => touchRuns(db, [...held.keys()], new Date()), 30_000);
  heartbeat.unref();

  const readOptions = (source: FeedSource): FeedReadOptions => ({
    layout: source.layout,
    mapping: source.mapping ?? undefined,
    retailerKey: source.retailerKey,
  });

  const targetOf = (source: FeedSource): ImportTarget => {
    if (source.kind === "file" && !source.storedFile) throw new WriteRefused(409, `Upload a feed file for "${source.name}" before running it`);
    return {
      key: feedSourceKey(source.id),
      sourceId: source.id,
      label: source.name,
      tagName: source.name,
      createProducts: source.createProducts,
      async open(signal) {
        if (source.kind === "url") return downloadFeed(source.url!, readOptions(source), { signal, allowance: options.allowance });
        const file = uploadPath(uploadsDir, source.storedFile!);
        if (!fs.existsSync(file)) throw new SourceUnavailable(`The uploaded file of "${source.name}" is missing; upload it again`);
        return readFeed(file, readOptions(source));
      },
    };
  };

  const configuredTarget = (name: string): ImportTarget => {
    const source = configured.get(name);
    if (!source) throw new SourceUnavailable(`No product source is called "${name}" (known: ${[...configured.keys()].join(", ")})`);
    if (source.kind === "amazon" && source.missing.length > 0) {
      throw new SourceUnavailable(`Amazon Creators API credentials are not set (${source.missing.join(", ")}); nothing was imported`);
    }
    if (source.kind === "feed" && source.location && "file" in source.location && !fs.existsSync(source.location.file)) {
      throw new SourceUnavailable(`The feed file ${source.location.file} does not exist`);
    }
    return {
      key: source.name,
      sourceId: null,
      label: source.label,
      tagName: source.name,
      createProducts: source.createProducts,
      open: () => openSource(source),
    };
  };

  const start = (target: ImportTarget, trigger: RunTrigger): FeedRun => {
    if (stopping.signal.aborted) throw new SourceUnavailable("The server is stopping; no import starts now");
    const run = claimImport(db, target, trigger);
    const done = (queue = queue.then(async () => {
      try {
        const finished = await executeImport(db, run.id, target, {
          policy: options.policy,
          catalogueChanged: options.catalogueChanged,
          signal: stopping.signal,
          log,
        });
        options.onRunEnded?.(finished);
        log(
          `Import of ${target.label} ${finished.status}: ${finished.rowsRead} rows, ${finished.created} created, ${finished.matched} matched, ${finished.pricesChanged} prices changed`,
        );
      } catch (error) {
        log(`Import of ${target.label} could not be recorded: ${String(error)}`);
      } finally {
        held.delete(run.id);
      }
    }));
    held.set(run.id, { done });
    return run;
  };

  const replan = () => {
    for (const id of planned) schedule.remove(jobName(id));
    planned.clear();
    if (options.schedules === false || stopping.signal.aborted) return;
    for (const source of listFeedSources(db)) {
      if (!source.enabled || !source.schedule) continue;
      const id = source.id;
      schedule.add({
        name: jobName(id),
        title: `Scheduled import of ${source.name}`,
        every: source.schedule,
        run: () => {
          const current = getFeedSource(db, id);
          if (!current) return;
          try {
            start(targetOf(current), "schedule");
          } catch (error) {
            log(`Scheduled import of ${current.name} did not start: ${error instanceof Error ? error.message : String(error)}`);
          }
        },
      });
      planned.add(id);
    }
  };
  replan();
  own?.start();

  const nextRun = (sourceId: number) => (planned.has(sourceId) ? schedule.nextRun(jobName(sourceId)) : null);

  return {
    configured,
    uploadsDir,
    uploadMaxBytes: options.uploadMaxBytes,
    allowance: options.allowance,
    targetOf,
    configuredTarget,
    defaultTarget: () => configuredTarget(defaultImportSource()),
    start,
    async finished(runId) {
      await held.get(runId)?.done;
    },
    replan,
    nextRun,
    views() {
      const latest = latestRuns(db);
      const views: FeedSourceView[] = [];
      const awin = configured.get(configuredFeedId);
      if (awin?.kind === "feed") {
        const location = awin.location;
        views.push({
          id: configuredFeedId,
          name: `${awin.label} (from ${location && "file" in location ? "AWIN_FEED_FILE" : "AWIN_FEED_URL"})`,
          kind: location && "file" in location ? "file" : "url",
          maskedUrl: location && "url" in location ? maskFeedUrl(location.url) : null,
          fileName: location && "file" in location ? path.basename(location.file) : null,
          fileBytes: null,
          layout: "auto",
          mapping: null,
          retailerKey: null,
          createProducts: awin.createProducts,
          schedule: null,
          enabled: true,
          readOnly: true,
          createdAt: null,
          updatedAt: null,
          lastRun: latest.get(configuredFeedId) ?? null,
          nextRunAt: null,
        });
      }
      for (const source of listFeedSources(db)) views.push(sourceView(source, latest.get(feedSourceKey(source.id)) ?? null, nextRun(source.id)));
      return views;
    },
    async stop() {
      stopping.abort();
      clearInterval(heartbeat);
      for (const id of planned) schedule.remove(jobName(id));
      planned.clear();
      await own?.stop();
      await queue;
    },
  };
}

/** An admin source as the API sends it: the URL masked, the stored file's place left out. */
export function sourceView(source: FeedSource, lastRun: FeedRun | null, nextRunAt: Date | null): FeedSourceView {
  return {
    id: source.id,
    name: source.name,
    kind: source.kind,
    maskedUrl: source.url === null ? null : maskFeedUrl(source.url),
    fileName: source.fileName,
    fileBytes: source.fileBytes,
    layout: source.layout,
    mapping: source.mapping,
    retailerKey: source.retailerKey,
    createProducts: source.createProducts,
    schedule: source.schedule,
    enabled: source.enabled,
    readOnly: false,
    createdAt: source.createdAt,
    updatedAt: source.updatedAt,
    lastRun,
    nextRunAt: nextRunAt?.toISOString() ?? null,
  };
}
