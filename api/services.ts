/**
 * What the server runs on, built the same way by api/server.ts and the tests: the database, the
 * response cache, the mailer, the price-alert schedule, and the one signal every catalogue change
 * goes through (catalogueChanged), whether this process wrote it or another one did.
 */
import type { AdminContext, AppContext, SiteBuilds } from "./context.ts";
import { notifyPricesChanged, startAlertSchedule, type AlertSchedule } from "./jobs/alert-check.ts";
import { startRetentionSchedule } from "./jobs/retention.ts";
import { startDemoRefresh } from "./jobs/demo-refresh.ts";
import { createHashGate, createLoginLimiter, pruneSessions, resolvePasswordHash, type PasswordSource } from "./lib/admin-auth.ts";
import { ResponseCache } from "./http/response-cache.ts";
import { createMailer, type Mailer } from "./mail/mailer.ts";
import { migrateDb, openDb, type Db } from "../data/db/client.ts";
import { ensureSeeded } from "../data/db/seed.ts";
import { storedPasswordHash } from "../data/db/admin-auth.ts";
import type { CatalogueChange } from "../data/db/catalogue-writer/transaction.ts";
import { backupConfig, nightlyCron, pricePipelineConfig, siteConfig, trustedProxyList, visitorStorageConfig } from "../data/config.ts";
import { parseTrustedProxies } from "./http/client-address.ts";
import { createRequestGuard } from "./http/request-guard.ts";
import type { WriteLimits } from "./http/rate-limit.ts";
import { StorageBudget } from "./lib/storage-budget.ts";
import type { TableCeilings } from "../data/db/storage-ceilings.ts";
import { latestRefreshRun } from "../data/db/price-review.ts";
import { createPageReader, type PageReader } from "./lib/page-price.ts";
import { createPricePipeline, type PricePipeline } from "./price-pipeline.ts";
import type { ProductSource } from "./product-sources.ts";
import { createFeedImports, type FeedImports } from "./feed-imports.ts";
import { feedConfig } from "../data/config.ts";
import type { TestAllowance } from "./lib/guarded-fetch.ts";
import { createNightly, type Nightly } from "./nightly.ts";
import { createMetrics, type Metrics } from "./http/metrics.ts";
import { createLogger, type Logger } from "./http/log.ts";
import { metricsAccessFromEnv, type MetricsAccess } from "./http/metrics-endpoint.ts";

/** Another process wrote (seed, import): what changed is unknown, so everything may have. */
const unknownChange: CatalogueChange = { productIds: [], categoryIds: [], siteWide: true };
import { createSchedule, type Schedule } from "./jobs/schedule.ts";
import { backupDatabase, lastBackup } from "../data/db/backup.ts";
import { createCatalogueChanges, type CatalogueChanges } from "./catalogue-changes.ts";

export interface Services {
  db: Db;
  /** Whether opening seeded an empty catalogue. */
  seeded: boolean;
  /** Absent when responses are not cached (API_CACHE=off). */
  cache: ResponseCache | undefined;
  mailer: Mailer;
  alerts: AlertSchedule;
  /** Where the admin password hash came from; `password` only when generated on this start (print it once). */
  adminPassword: PasswordSource;
  /**
   * Call after committing a catalogue write: drops cached responses, checks price alerts (a
   * price may have reached a target) and rebuilds the affected pages. Writes by other processes
   * arrive here by themselves.
   */
  catalogueChanged(change: CatalogueChange): void;
  /** Looks once for other processes' catalogue writes (what the watch does every `watchMs`). */
  checkForeignWrites(): void;
  /** Every background job on a clock (names, last and next runs; observers of runs). */
  schedule: Schedule;
  /** The catalogue change signal's subscribers (add one to hear of every change). */
  changes: CatalogueChanges;
  /** The price refresh and page price reading. */
  pipeline: PricePipeline;
  /** Every product import: runs in the background, one source at a time, on schedules too. */
  feedImports: FeedImports;
  /** The nightly job (feeds, prices, alerts, build), started by machine tokens or NIGHTLY_CRON. */
  nightly: Nightly;
  /** This server's metrics (its own registry), read at GET /metrics. */
  metrics: Metrics;
  /** Structured logs (LOG_LEVEL). */
  logger: Logger;
  /** What the route handlers get. */
  context: AppContext;
  /** Connects the site rebuild job (made after the services, from their database): changes rebuild pages from now on. */
  attachSite(site: SiteBuilds): void;
  /** Stops the schedule and every job, then closes the database. */
  close(): Promise<void>;
}

export interface ServicesOptions {
  databaseFile: string;
  /** Per-client limits on anonymous writes (default: http/rate-limit.ts defaultWriteLimits). */
  writeLimits?: Partial<WriteLimits>;
  /** Rows each client address may store per UTC day (default: VISITOR_ROWS_PER_DAY, the real clock). */
  storageBudget?: StorageBudget;
  /** The anonymous tables' row ceilings (default: the MAX_ROWS_* settings). */
  tableCeilings?: TableCeilings;
  /** Migrate, and seed an empty catalogue, on open (default). Off for a file prepared already. */
  prepare?: boolean;
  /** Cache public catalogue responses (default on). */
  cache?: boolean;
  mailer?: Mailer;
  /** Minutes between scheduled alert checks; 0: none scheduled. */
  alertIntervalMinutes?: number;
  /** Check alerts after catalogue and alert changes (default on; off where a test needs the database to stand still). */
  alertsOnChange?: boolean;
  /** How often to look for writes by other processes, in ms (SQLite's data_version); 0: not watched. */
  watchMs?: number;
  /** The admin password's scrypt hash; default ADMIN_PASSWORD_HASH, else the stored one, else generated. */
  adminPasswordHash?: string | undefined;
  /** Rebuilds the public pages after catalogue changes (the server's; absent in API-only tests). */
  site?: SiteBuilds | undefined;
  /** Reads retailer pages and robots.txt (default: the guarded fetch, public addresses only; tests pass one allowed to read loopback). */
  pageReader?: PageReader;
  /** Product sources (default: from the environment). */
  sources?: Map<string, ProductSource>;
  /** The price refresh's cron pattern inside the server (default REFRESH_CRON; null: none). */
  refreshCron?: string | null;
  /** Where uploaded feed files are stored (default FEED_UPLOADS_DIR). */
  uploadsDir?: string;
  /** The largest feed upload, in bytes (default FEED_UPLOAD_MAX_BYTES). */
  uploadMaxBytes?: number;
  /** Lets admin feed sources download fixture feeds from loopback (tests only; see guarded-fetch.ts). */
  feedAllowance?: TestAllowance;
  /**
   * Start the schedule's jobs at once (default on). The server starts them itself once it is
   * listening, so a start that fails (port in use) runs no job.
   */
  startJobs?: boolean;
  /** Plan the feed sources' schedules (default on). */
  feedSchedules?: boolean;
  /** Milliseconds between two page reads on one site (default REFRESH_HOST_DELAY_MS). */
  hostDelayMs?: number;
  /** Keep the demo catalogue's offers confirmed with small daily moves (default on; off where a test needs the database to stand still). */
  demoRefresh?: boolean;
  /** The nightly job's cron pattern inside the server (default NIGHTLY_CRON; null: none). */
  nightlyCron?: string | null;
  /** Database backups: where, how many kept, and when (milliseconds or a UK-time cron pattern; null: not scheduled). Default BACKUP_DIR, BACKUP_KEEP, BACKUP_CRON. */
  backup?: { dir: string; keep: number; every: number | string | null };
  /** The jobs' log lines (default: the logger's, at level info). */
  log?: (line: string) => void;
  /** Structured logs (default: stdout at LOG_LEVEL). */
  logger?: Logger;
  /** Who may read GET /metrics (default METRICS_ALLOW, METRICS_TOKEN). */
  metricsAccess?: MetricsAccess;
}

export async function createServices(options: ServicesOptions): Promise<Services> {
  const logger = options.logger ?? createLogger();
  const log = options.log ?? ((line: string) => logger.info(line));
  const metrics = createMetrics({ logger });
  const db = openDb(options.databaseFile);
  let seeded = false;
  if (options.prepare ?? true) {
    await migrateDb(db);
    seeded = ensureSeeded(db);
  }
  const cache = (options.cache ?? true) ? new ResponseCache(db, { dataVersionOncePerTurn: true }) : undefined;
  if (cache) metrics.watchCache(cache);
  const mailer = metrics.countMail(options.mailer ?? createMailer());
  // Every background job on a clock is a named job on this one schedule, started at the end of
  // this function and stopped by close().
  const schedule = createSchedule({ log, onRun: (name, outcome, ms, routine) => metrics.observeJobRun(name, outcome, ms, routine) });
  const alerts = startAlertSchedule({ db, mailer, intervalMinutes: options.alertIntervalMinutes ?? 0, log, schedule });
  const alertsOnChange = options.alertsOnChange ?? true;
  const checkAlerts = () => {
    if (alertsOnChange) notifyPricesChanged(alerts, log);
  };

  let site = options.site;
  // The catalogue change signal: each subscriber hears of every change once; one that throws is logged and the rest still run.
  const changes = createCatalogueChanges({ db, log });
  changes.subscribe("response-cache", () => cache?.invalidate());
  changes.subscribe("alert-check", () => checkAlerts());
  changes.subscribe("site-rebuild", (change) => {
    const build = site?.request(change);
    if (build instanceof Promise) build.catch((error: unknown) => log(`Site rebuild failed to start: ${String(error)}`));
  });
  const catalogueChanged = (change: CatalogueChange) => changes.changed(change);
  const adminPassword = await resolvePasswordHash(db, options.adminPasswordHash ?? process.env.ADMIN_PASSWORD_HASH);

  const checkForeignWrites = () => changes.checkForeignWrites();
  // Other processes' writes are looked for every watchMs; watching alone does not keep a process alive.
  if ((options.watchMs ?? 0) > 0) schedule.add({ name: "foreign-writes", title: "Looking for other processes' writes", every: options.watchMs!, routine: true, run: checkForeignWrites });
  // Expired admin sessions are deleted hourly (a request with one is refused whenever it comes).
  schedule.add({ name: "session-prune", title: "Admin session pruning", every: 60 * 60 * 1000, run: () => pruneSessions(db) });
  // Visitor data past the privacy policy's periods is deleted at start and then daily; tables over their row ceilings are trimmed hourly.
  const storage = visitorStorageConfig();
  const retention = startRetentionSchedule({ db, log, ceilings: options.tableCeilings ?? storage.ceilings, schedule });
  // Demo offers are kept confirmed (looked at shortly after start, then hourly), their prices moving once a UK day.
  const demoRefresh = (options.demoRefresh ?? true) ? startDemoRefresh({ db, catalogueChanged, log, schedule }) : null;

  const config = pricePipelineConfig();
  const pipeline = createPricePipeline({
    db,
    reader: options.pageReader ?? createPageReader(),
    sources: options.sources,
    holdPolicy: config.holdPolicy,
    freshForMs: config.freshForMs,
    concurrency: config.concurrency,
    hostDelayMs: options.hostDelayMs ?? config.hostDelayMs,
    refreshCron: options.refreshCron === undefined ? config.refreshCron : options.refreshCron,
    catalogueChanged,
    log,
    onRefreshed: metrics.observePriceRefresh,
    schedule,
  });

  const feedImports = createFeedImports({
    db,
    sources: options.sources,
    uploadsDir: options.uploadsDir ?? feedConfig().uploadsDir,
    uploadMaxBytes: options.uploadMaxBytes ?? feedConfig().uploadMaxBytes,
    policy: config.holdPolicy,
    catalogueChanged,
    allowance: options.feedAllowance,
    schedules: options.feedSchedules,
    log,
    onRunEnded: metrics.observeFeedRun,
    schedule,
  });

  const nightly = createNightly({
    db,
    feedImports,
    pipeline,
    alerts,
    site: () => site,
    cron: options.nightlyCron === undefined ? nightlyCron() : options.nightlyCron,
    log,
    schedule,
  });

  // The database is backed up on its schedule (default daily at 03:30 UK time), the newest `keep` kept.
  const backup = options.backup ?? (({ dir, keep, cron }) => ({ dir, keep, every: cron }))(backupConfig());
  if (backup.every !== null) {
    schedule.add({
      name: "backup",
      title: "Database backup",
      every: backup.every,
      run: async () => {
        const taken = await backupDatabase(db, { dir: backup.dir, keep: backup.keep });
        log(`Database backed up to ${taken.file} (${taken.bytes} bytes)${taken.deleted.length > 0 ? `; ${taken.deleted.length} older backup(s) deleted` : ""}`);
      },
    });
  }

  const publicOrigin = new URL(siteConfig.baseUrl).origin;
  const requests = createRequestGuard({
    publicOrigin,
    trustedProxies: parseTrustedProxies(trustedProxyList()),
    limits: options.writeLimits,
    storage: options.storageBudget ?? new StorageBudget({ rowsPerDay: storage.rowsPerClientPerDay }),
  });

  const admin: AdminContext = {
    // A hash from the environment is fixed; one in the database may be changed by `npm run admin:password`.
    passwordHash: () => (adminPassword.source === "environment" ? adminPassword.hash : (storedPasswordHash(db) ?? adminPassword.hash)),
    limiter: createLoginLimiter(),
    hashing: createHashGate(),
    publicOrigin,
    catalogueChanged,
    site,
    mailTransport: mailer.describe,
    pipeline,
    feedImports,
    lastPriceRefresh: () => latestRefreshRun(db),
    lastBackup: () => lastBackup(backup.dir),
  };

  if (options.startJobs ?? true) schedule.start();

  return {
    db,
    seeded,
    schedule,
    changes,
    cache,
    mailer,
    alerts,
    adminPassword,
    catalogueChanged,
    checkForeignWrites,
    pipeline,
    feedImports,
    nightly,
    metrics,
    logger,
    context: {
      db,
      cache,
      onAlertsChanged: checkAlerts,
      admin,
      requests,
      machine: { nightly, releaseRoot: () => site?.currentRoot?.() ?? null },
      telemetry: { metrics, logger, metricsAccess: options.metricsAccess ?? metricsAccessFromEnv() },
    },
    attachSite(next) {
      site = next;
      admin.site = next;
    },
    async close() {
      // No job starts from now on; runs under way are waited for before the database closes.
      const scheduleStopped = schedule.stop();
      retention.stop();
      demoRefresh?.stop();
      // A nightly run under way ends as the jobs it waits on stop.
      const nightlyStopped = nightly.stop();
      await feedImports.stop();
      await pipeline.stop();
      await alerts.stop();
      await nightlyStopped;
      await scheduleStopped;
      db.$client.close();
    },
  };
}
