/**
 * Runs the Astro static build in a child process (api/site-build/worker.ts: it needs its own
 * memory and must not block the server's event loop), against a given database file and into a
 * given fresh folder. A builder can keep its last worker warm: a fast rebuild then renders only
 * the pages a few products affect with the server bundle already loaded (about a second), where
 * a cold one first runs a build of those pages (Vite bundling included, 5-15 s here). A warm
 * worker holds about a gigabyte at 50,000 products, so it exits after a few idle minutes
 * (SITE_BUILD_WORKER_IDLE_MS) and the next change starts a fresh one.
 */
import { fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { projectRoot, siteBuildProcesses, siteBuildWorkerIdleMs } from "../../data/config.ts";
import type { WorkerJob, WorkerReply } from "./worker.ts";
import { readScriptHashes, writeScriptHashes } from "./releases.ts";
import { mergePagePacks } from "./page-pack.ts";
import { flatPagesFolder, precompressFolder } from "./output.ts";

const workerFile = path.join(projectRoot, "api/site-build/worker.ts");

export interface BuildOutcome {
  ok: boolean;
  durationMs: number;
  /** Pages and other rendered files (sitemaps, robots.txt) written. */
  pages: number;
  /** Product pages among them. */
  productPages: number;
  /** The build's last output lines, for logs and the admin's build status. */
  log: string;
}

/** Builds a site into a fresh folder; what the rebuild job runs (tests give their own). */
export interface SiteBuilder {
  /** Every page into `outDir`. */
  full(job: { databaseFile: string; outDir: string }): Promise<BuildOutcome>;
  /**
   * The pages these products' data appears on into `outDir`, to be laid over the live release
   * (api/site-build/releases.ts): their own pages, the home page, every category page, the sitemaps
   * (a worker's first, cold build also writes the other pages that are not product pages).
   */
  fast(job: { databaseFile: string; outDir: string; productIds: readonly number[] }): Promise<BuildOutcome>;
  /**
   * Gets ready for fast builds without building a release (after a restart over an existing
   * release): builds the pages other than product pages into `outDir`, to be thrown away.
   */
  warm?(job: { databaseFile: string; outDir: string }): Promise<BuildOutcome>;
  /** Ends the worker (a build under way fails) and takes no more jobs. */
  stop(): Promise<void>;
}

export interface AstroBuilderOptions {
  /** Don't echo the build's output (it is kept for the outcome's log either way). */
  quiet?: boolean;
  /** Keep the worker after a successful build, for fast rebuilds (default true). */
  keepWarm?: boolean;
  /**
   * A kept worker exits once this many milliseconds pass without a job (default:
   * SITE_BUILD_WORKER_IDLE_MS, else 3 minutes); the next job starts a fresh one.
   */
  idleMs?: number;
  /**
   * How many processes a full build renders product pages in (default: SITE_BUILD_PROCESSES, else
   * 2 on a machine with two cores or more). Rendering is single-threaded in each process, so a
   * second one halves the longest phase of a large build.
   */
  processes?: number;
  /**
   * A full build is split only from this many products (default 5,000): each extra process starts
   * Node and loads the main process's server bundle (about a second) and its pages are moved into
   * the main folder afterwards, which a small build does not win back.
   */
  splitFromProducts?: number;
  /**
   * What rendering every page but the product pages costs, in product pages, for a catalogue of
   * so many products (default `otherPagesCost`): the first helper's share is that much lighter.
   */
  otherPagesCost?: (products: number) => number;
}

const logTailChars = 20_000;

/**
 * Node resolves the server bundle's imports (react, astro's runtime) from node_modules folders
 * above the bundle; a folder outside the project gets a link to the project's.
 */
function ensureModulesReachable(dir: string): void {
  if (dir === projectRoot || dir.startsWith(projectRoot + path.sep)) return;
  try {
    fs.symlinkSync(path.join(projectRoot, "node_modules"), path.join(dir, "node_modules"), "dir");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
}

interface Worker {
  child: ChildProcess;
  /** The answer to the job under way; a worker that ends without one fails it. */
  ask(job: WorkerJob): Promise<WorkerReply>;
  log(): string;
  exited(): boolean;
}

function startWorker(cwd: string, quiet: boolean): Worker {
  fs.mkdirSync(cwd, { recursive: true });
  ensureModulesReachable(cwd);
  const child = fork(workerFile, [], {
    cwd,
    // MIMALLOC_PURGE_DELAY=0: the bundler's allocator (rolldown uses mimalloc) hands freed memory
    // back to the system at once instead of after a delay; a worker's peak RSS while bundling drops
    // by about 170 MB (of 1.1 GB at 10,000 products), no slower.
    // MALLOC_ARENA_MAX=2: glibc's malloc keeps two arenas instead of up to eight per core, whose
    // freed but unreturned memory grows while a worker renders tens of thousands of pages; about
    // 100 MB less peak RSS over a 50,000-product split build (1376 against 1472 MB), no slower.
    env: {
      ...process.env,
      ASTRO_TELEMETRY_DISABLED: "1",
      MIMALLOC_PURGE_DELAY: process.env.MIMALLOC_PURGE_DELAY ?? "0",
      MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? "2",
    },
    stdio: ["ignore", "pipe", "pipe", "ipc"],
    // Not the parent's flags (a test runner's loaders): the worker is plain Node running TypeScript,
    // and collects its garbage right after a job rather than in the middle of the next one.
    // A young generation of 32 MB instead of 16: a page's short-lived objects die young instead of
    // being promoted, so the old generation stays smaller; the processes of a 50,000-product build
    // held about 60 MB less at once (862-885 against 906-944 MB), in no more time.
    execArgv: ["--expose-gc", "--max-semi-space-size=32"],
  });
  let log = "";
  const collect = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-logTailChars);
    if (!quiet) process.stdout.write(chunk);
  };
  child.stdout!.on("data", collect);
  child.stderr!.on("data", collect);
  let exit: string | null = null;
  let pending: ((reply: WorkerReply) => void) | null = null;
  child.on("message", (reply: WorkerReply) => {
    const answer = pending;
    pending = null;
    answer?.(reply);
  });
  child.on("exit", (code, signal) => {
    exit = signal ? `the build process was ended by ${signal}` : `the build process exited with code ${code}`;
    const answer = pending;
    pending = null;
    answer?.({ type: "done", ok: false, error: exit, ms: 0 });
  });
  child.on("error", (error) => collect(Buffer.from(String(error))));
  return {
    child,
    ask(job) {
      return new Promise((resolve) => {
        if (exit !== null) return resolve({ type: "done", ok: false, error: exit, ms: 0 });
        // The log of this job only.
        log = "";
        pending = resolve;
        child.send(job);
      });
    },
    log: () => log,
    exited: () => exit !== null,
  };
}

async function endWorker(worker: Worker): Promise<void> {
  if (worker.exited()) return;
  const ended = new Promise((resolve) => worker.child.once("exit", resolve));
  worker.child.kill("SIGTERM");
  await ended;
}

/** The ids of the products that get pages (all of them), in id order, read from the build's snapshot. */
function productIdsIn(databaseFile: string): number[] {
  const db = new Database(databaseFile, { readonly: true, fileMustExist: true });
  try {
    return db.prepare("SELECT id FROM products ORDER BY id").pluck().all() as number[];
  } finally {
    db.close();
  }
}

/**
 * What rendering every page but the product pages costs, in product pages: the first helper of a
 * split build renders them, so its share is this much lighter. The home and category pages and
 * the sitemaps read the whole catalogue; measured here at 10,000 and 50,000 products.
 */
export const otherPagesCost = (products: number): number => Math.round(500 + products / 75);

/**
 * Deals ids out in turn into `count` shares, each in id order: the first share `firstLighterBy`
 * ids smaller than the others (never below none), the others of equal size give or take one.
 * Dealt in turn, every share holds ids from the whole range, so each gets the same mix of pages.
 */
export function shareOut(ids: readonly number[], count: number, firstLighterBy = 0): number[][] {
  const first = Math.max(0, Math.ceil((ids.length - (count - 1) * firstLighterBy) / count));
  const sizes = Array.from({ length: count }, (_, index) => (index === 0 ? first : 0));
  // The ids the first share does not take, spread over the others as evenly as they go.
  for (let rest = ids.length - first, index = 1; rest > 0; rest--, index = index === count - 1 ? 1 : index + 1) sizes[index]!++;
  const shares = Array.from({ length: count }, (): number[] => []);
  let next = 0;
  for (const id of ids) {
    while (shares[next]!.length >= sizes[next]!) next = (next + 1) % count;
    shares[next]!.push(id);
    next = (next + 1) % count;
  }
  return shares;
}

/**
 * Moves the pages a helper process built into the main build's folder: its product pages (its
 * pack, renamed beside the main folder's, and its index merged: api/site-build/page-pack.ts), the
 * other pages' files, and the CSP hashes of their inline scripts, added to the main folder's
 * list. Each process writes into a folder of its own while they run.
 */
function mergePages(partDir: string, outDir: string): void {
  mergePagePacks(outDir, [partDir]);
  writeScriptHashes(outDir, [...new Set([...readScriptHashes(outDir), ...readScriptHashes(partDir)])]);
  moveFiles(partDir, outDir);
}

/** Moves every file under `from` (but its dot files: the pack, index and hash list) to the same place under `to`. */
function moveFiles(from: string, to: string): void {
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    if (entry.name.startsWith(".")) continue;
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory() && fs.existsSync(target)) moveFiles(source, target);
    else fs.renameSync(source, target);
  }
}

export function createAstroBuilder(
  options: AstroBuilderOptions = {},
): SiteBuilder & { readonly pid: number | undefined; readonly pids: readonly number[] } {
  const quiet = options.quiet ?? false;
  const keepWarm = options.keepWarm ?? true;
  const processes = Math.max(1, options.processes ?? siteBuildProcesses());
  const splitFromProducts = options.splitFromProducts ?? 5_000;
  const costOfOtherPages = options.otherPagesCost ?? otherPagesCost;
  const idleMs = options.idleMs ?? siteBuildWorkerIdleMs();
  let worker: Worker | null = null;
  /** The processes of a split full build under way: the one that bundles, and the helpers that render. */
  let bundler: Worker | null = null;
  let helpers: Worker[] = [];
  let stopped = false;
  /** Jobs started so far: an idle exit armed after one job is void once another has started. */
  let jobsStarted = 0;
  let idleTimer: NodeJS.Timeout | null = null;
  const cancelIdleExit = () => {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = null;
  };
  // One job at a time: a worker answers one job, and a fast build waits for a warm-up under way.
  let queue: Promise<unknown> = Promise.resolve();
  /** Runs `task` after every job and task queued before it. */
  const enqueue = <T>(task: () => Promise<T>): Promise<T> => {
    const result = queue.then(task);
    queue = result.catch(() => undefined);
    return result;
  };
  /**
   * After a job that leaves a worker loaded: the worker exits once `idleMs` pass with no other
   * job started. Its ending waits in the job queue, so it never cuts a job short.
   */
  const armIdleExit = () => {
    cancelIdleExit();
    const loaded = worker;
    if (!loaded || loaded.exited()) return;
    const after = jobsStarted;
    idleTimer = setTimeout(() => {
      idleTimer = null;
      void enqueue(async () => {
        if (worker !== loaded || jobsStarted !== after) return;
        worker = null;
        await endWorker(loaded);
      });
    }, idleMs);
    // An idle timer alone does not keep a process running.
    idleTimer.unref();
  };
  const exclusive = (run: () => Promise<BuildOutcome>): Promise<BuildOutcome> =>
    enqueue(async () => {
      if (stopped) return refused();
      cancelIdleExit();
      jobsStarted++;
      try {
        return await run();
      } finally {
        if (!stopped) armIdleExit();
      }
    });
  const refused = (): BuildOutcome => ({ ok: false, durationMs: 0, pages: 0, productPages: 0, log: "the builder was stopped" });

  const outcome = (reply: WorkerReply, from: Worker, started: number): BuildOutcome => {
    const log = reply.ok ? from.log() : `${from.log()}\n${reply.error}`.trim();
    return {
      ok: reply.ok,
      durationMs: performance.now() - started,
      pages: reply.ok ? reply.pages : 0,
      productPages: reply.ok ? reply.productPages : 0,
      log: log.slice(-logTailChars),
    };
  };

  /** A new worker's first job: a build (of every page, or of a fast pass's pages). */
  const coldBuild = async (job: { databaseFile: string; outDir: string; productIds: readonly number[] | null }) => {
    const started = performance.now();
    if (worker) await endWorker(worker);
    if (stopped) return refused();
    const fresh = startWorker(path.dirname(job.outDir), quiet);
    worker = fresh;
    const reply = await fresh.ask({ type: "build", ...job, stay: keepWarm });
    if (!reply.ok || !keepWarm) {
      await endWorker(fresh);
      if (worker === fresh) worker = null;
    }
    return outcome(reply, fresh, started);
  };

  /**
   * A full build that renders pages in `processes` processes at once. A bundling process runs
   * the Astro build's bundling only (Vite; no page rendered), leaves its server bundle as a render
   * kit in a folder beside the main one ("-0") and exits; then each helper renders one share of
   * the product pages with that kit into a folder of its own ("-1", "-2"...), the first helper
   * the other pages too (its share of product pages lighter by about their cost), and their pages
   * are moved into the main folder. Bundling is the most memory a build process holds (about
   * 500 MB whatever the catalogue), so no process that renders holds it, and the bundling process
   * is gone before they start; the assets it wrote are precompressed here while they render, on
   * the thread pool. The first helper then stays warm for fast rebuilds (its kit is removed when
   * it exits). One process failing fails the build and ends the others.
   */
  const splitFull = async (job: { databaseFile: string; outDir: string }, shares: number[][]): Promise<BuildOutcome> => {
    const started = performance.now();
    if (worker) await endWorker(worker);
    worker = null;
    // Beside the main folder, named after it plus "-0", "-1"...: in a release store the sweep of
    // leftover folders of ended processes recognises these as the main folder's.
    const kitDir = `${job.outDir}-0`;
    const partDirs = shares.map((_, index) => `${job.outDir}-${index + 1}`);
    let failed = false;
    const failAll = async () => {
      failed = true;
      await Promise.all([...helpers, ...(bundler ? [bundler] : [])].map(endWorker));
    };
    let warmHelper: Worker | null = null;
    try {
      bundler = startWorker(path.dirname(job.outDir), quiet);
      // Started now, so Node's start-up overlaps the bundling; asked once the kit is there.
      helpers = partDirs.map((dir) => startWorker(path.dirname(dir), quiet));
      const mainReply = await bundler.ask({ type: "bundle", outDir: job.outDir, databaseFile: job.databaseFile, kitDir });
      const first = outcome(mainReply, bundler, started);
      if (!mainReply.ok) await failAll();
      // What Vite emitted and the public folder's files: rendered pages come with their variants.
      const assets = failed
        ? Promise.resolve("")
        : precompressFolder(job.outDir, new Set([flatPagesFolder])).then(
            () => "",
            (error: unknown) => `precompressing the assets failed: ${error instanceof Error ? error.message : String(error)}`,
          );
      const parts = helpers.map(async (helper, index) => {
        if (failed) return outcome({ type: "done", ok: false, error: "the main build process failed", ms: 0 }, helper, started);
        const reply = await helper.ask({
          type: "render-kit",
          kitDir,
          outDir: partDirs[index]!,
          databaseFile: job.databaseFile,
          productIds: shares[index]!,
          otherPages: index === 0,
          stay: keepWarm && index === 0,
        });
        if (!reply.ok && !failed) await failAll();
        return outcome(reply, helper, started);
      });
      const rest = await Promise.all(parts);
      const assetsError = await assets;
      const all = [first, ...rest];
      const log = [...all.map((part) => part.log), assetsError].join("\n").trim().slice(-logTailChars);
      if (failed || assetsError || all.some((part) => !part.ok)) {
        return { ok: false, durationMs: performance.now() - started, pages: 0, productPages: 0, log };
      }
      for (const dir of partDirs) mergePages(dir, job.outDir);
      if (keepWarm) warmHelper = helpers[0]!;
      return {
        ok: true,
        durationMs: performance.now() - started,
        pages: rest.reduce((sum, part) => sum + part.pages, 0),
        productPages: rest.reduce((sum, part) => sum + part.productPages, 0),
        log,
      };
    } finally {
      const ending = [...helpers.filter((helper) => helper !== warmHelper), ...(bundler ? [bundler] : [])];
      await Promise.all(ending.map(endWorker));
      helpers = [];
      bundler = null;
      for (const dir of partDirs) fs.rmSync(dir, { recursive: true, force: true });
      if (warmHelper && !warmHelper.exited()) {
        // The warm helper loads the kit's page modules as it needs them: the kit goes when it exits.
        worker = warmHelper;
        warmHelper.child.once("exit", () => fs.rmSync(kitDir, { recursive: true, force: true }));
      } else {
        fs.rmSync(kitDir, { recursive: true, force: true });
      }
    }
  };

  const full = (job: { databaseFile: string; outDir: string }): Promise<BuildOutcome> => {
    let ids: number[] = [];
    try {
      if (processes > 1) ids = productIdsIn(job.databaseFile);
    } catch {
      // Not a readable catalogue: one process builds, and its failure says why.
    }
    if (ids.length < splitFromProducts) return coldBuild({ ...job, productIds: null });
    return splitFull(job, shareOut(ids, processes, costOfOtherPages(ids.length)));
  };

  return {
    get pid() {
      return worker?.child.pid;
    },
    get pids() {
      return [worker, bundler, ...helpers].flatMap((each) => (each && !each.exited() && each.child.pid !== undefined ? [each.child.pid] : []));
    },
    full: (job) => exclusive(() => full(job)),
    fast: (job) =>
      exclusive(async () => {
        const warm = worker;
        if (!warm || warm.exited()) return coldBuild(job);
        const started = performance.now();
        const reply = await warm.ask({ type: "render", ...job });
        // A failed render may have left the worker half-way: the next fast rebuild starts a fresh one.
        if (!reply.ok) {
          await endWorker(warm);
          if (worker === warm) worker = null;
        }
        return outcome(reply, warm, started);
      }),
    warm: (job) =>
      exclusive(async () =>
        worker && !worker.exited()
          ? { ok: true, durationMs: 0, pages: 0, productPages: 0, log: "" }
          : coldBuild({ ...job, productIds: [] }),
      ),
    async stop() {
      stopped = true;
      cancelIdleExit();
      const current = worker;
      worker = null;
      await Promise.all([...helpers, ...(bundler ? [bundler] : []), ...(current ? [current] : [])].map(endWorker));
    },
  };
}
