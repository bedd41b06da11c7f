/**
 * Start-up failures a person can fix, each as one line naming the fix (api/server.ts prints it
 * and exits 1, no stack trace): bad configuration (checked before the database is touched), a
 * database folder that cannot be written, a file that is not a SQLite database or is damaged, a
 * port already in use.
 */
import fs from "node:fs";
import path from "node:path";
import {
  cdnPurgeConfig,
  siteServingConfig,
  alertCheckIntervalMinutes,
  logLevel,
  backupConfig,
  pricePipelineConfig, feedConfig, nightlyCron,
  serverHost,
  serverPort,
  shutdownGraceMs,
  siteBuildProcesses,
  siteBuildWorkerIdleMs,
  trustedProxyList,
  visitorStorageConfig,
} from "../data/config.ts";
import { isDamagedDatabaseError } from "../data/db/integrity.ts";
import { parseTrustedProxies } from "./http/client-address.ts";
import { metricsAccessFromEnv } from "./http/metrics-endpoint.ts";

export class StartupError extends Error {}

/** Reads every setting the server needs; the first bad one is a StartupError saying what to set. */
export function checkConfiguration(): void {
  const checks: [string, () => unknown][] = [
    ["PORT", serverPort],
    ["HOST", serverHost],
    ["SHUTDOWN_GRACE_MS", shutdownGraceMs],
    ["SITE_BUILD_PROCESSES", siteBuildProcesses],
    ["SITE_BUILD_WORKER_IDLE_MS", siteBuildWorkerIdleMs],
    ["TRUSTED_PROXIES", () => parseTrustedProxies(trustedProxyList())],
    ["LOG_LEVEL", logLevel],
    ["METRICS_ALLOW or METRICS_TOKEN", metricsAccessFromEnv],
    ["ALERT_CHECK_INTERVAL_MINUTES", alertCheckIntervalMinutes],
    ["the price pipeline settings", pricePipelineConfig],
    ["NIGHTLY_CRON", nightlyCron],
    ["the backup settings (BACKUP_DIR, BACKUP_KEEP, BACKUP_CRON)", backupConfig],
    ["the CDN settings (CDN_PURGE, CLOUDFLARE_ZONE_ID, CLOUDFLARE_API_TOKEN, FASTLY_API_TOKEN, FASTLY_SERVICE_ID, CDN_PURGE_API_BASE)", cdnPurgeConfig],
    ["SITE_BODY_CACHE_MB", siteServingConfig],
    ["the visitor storage settings (VISITOR_ROWS_PER_DAY, MAX_ROWS_*)", visitorStorageConfig],
    ["the feed settings (FEED_UPLOADS_DIR, FEED_UPLOAD_MAX_BYTES, FEED_DOWNLOAD_MAX_BYTES, FEED_DOWNLOAD_TIMEOUT_MINUTES)", feedConfig],
  ];
  for (const [name, read] of checks) {
    try {
      read();
    } catch (error) {
      throw new StartupError(`${(error as Error).message}. Fix ${name} in the environment and start again.`);
    }
  }
}

/** The database's folder exists (made if missing) and the server may write files in it. */
export function checkDatabaseFolder(databaseFile: string): void {
  const folder = path.dirname(databaseFile);
  try {
    fs.mkdirSync(folder, { recursive: true });
    fs.accessSync(folder, fs.constants.W_OK);
    if (fs.existsSync(databaseFile)) fs.accessSync(databaseFile, fs.constants.R_OK | fs.constants.W_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "error";
    throw new StartupError(
      `Cannot write the database at ${databaseFile} (${code}). Make the folder writable for this user, or set DATABASE_PATH to a writable place.`,
    );
  }
}

/** Turns what opening and migrating the database threw into a StartupError, when a person can fix it. */
export function explainDatabaseError(error: unknown, databaseFile: string): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "SQLITE_NOTADB") {
    return new StartupError(`${databaseFile} is not a SQLite database. Set DATABASE_PATH to the PawPrice database, or move that file away to start with a fresh catalogue.`);
  }
  if (isDamagedDatabaseError(error)) {
    // SQLite's report may span lines (one per damaged tree); the start-up message stays one line.
    const detail = (error as Error).message.replace(/\s+/g, " ").trim();
    return new StartupError(`The database ${databaseFile} is damaged (${detail}). Restore it from a backup, or move it away to start with a fresh catalogue.`);
  }
  if (code === "SQLITE_CANTOPEN" || code === "SQLITE_READONLY" || code === "SQLITE_PERM") {
    return new StartupError(`Cannot open the database ${databaseFile} for writing (${code}). Check the file's permissions, or set DATABASE_PATH to a writable place.`);
  }
  return error;
}

/** What listening threw, as a StartupError when it is a port problem. */
export function explainListenError(error: unknown, port: number): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === "EADDRINUSE") return new StartupError(`Port ${port} is already in use. Stop the program using it, or set PORT to a free port.`);
  if (code === "EACCES") return new StartupError(`Not allowed to listen on port ${port}. Set PORT to a port above 1023.`);
  if (code === "EADDRNOTAVAIL") return new StartupError(`Cannot listen on HOST ${serverHost()}: no such address here. Set HOST to 0.0.0.0 or an address of this machine.`);
  return error;
}
