/**
 * Site identity and runtime settings. Every page, e-mail and export
 * reads them from here; environment variables override the defaults.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Cron } from "croner";

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const env = (name: string, fallback: string) => {
  const value = process.env[name]?.trim();
  return value ? value : fallback;
};

export const siteConfig = {
  siteName: env("SITE_NAME", "PawPrice"),
  companyName: env("COMPANY_NAME", "PawPrice Ltd"),
  contactEmail: env("CONTACT_EMAIL", "hello@pawprice.example"),
  baseUrl: env("PUBLIC_BASE_URL", "http://localhost:4321").replace(/\/+$/, ""),
} as const;

export function databasePath(): string {
  return path.resolve(projectRoot, env("DATABASE_PATH", "data/pawprice.db"));
}

export function serverPort(): number {
  const port = Number(env("PORT", "4321"));
  if (!/^\d+$/.test(env("PORT", "4321")) || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be a port number (0 to 65535), got "${process.env.PORT}"`);
  }
  return port;
}

/**
 * TRUSTED_PROXIES: the addresses or CIDR ranges of the reverse proxies in front of the server
 * (e.g. "127.0.0.1, 10.0.0.0/8"). Only a connection from one of them may say who the client is
 * (X-Forwarded-For); per-client limits key on that. Empty (default): the connection's address.
 */
export function trustedProxyList(): string {
  return env("TRUSTED_PROXIES", "");
}

/** The levels LOG_LEVEL may name, most severe first; "silent" logs nothing. */
export const logLevels = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof logLevels)[number];

/** LOG_LEVEL: the least severe structured log line the server writes (default "info": a line per request and per job run). */
export function logLevel(): LogLevel {
  const value = env("LOG_LEVEL", "info").toLowerCase();
  if (!(logLevels as readonly string[]).includes(value)) throw new Error(`LOG_LEVEL must be one of ${logLevels.join(", ")}, got "${process.env.LOG_LEVEL}"`);
  return value as LogLevel;
}

/** The shortest METRICS_TOKEN accepted: a guessable token would open the metrics to anyone. */
export const minMetricsTokenLength = 24;

/**
 * Who may read GET /metrics. METRICS_ALLOW: addresses or CIDR ranges (client address as
 * TRUSTED_PROXIES resolves it; default loopback only, "none" for no address). METRICS_TOKEN: a
 * bearer token that opens it from anywhere (at least 24 visible characters; unset: none).
 */
export function metricsAccessConfig(): { allow: string; token: string | null } {
  const allow = env("METRICS_ALLOW", "127.0.0.1, ::1");
  const token = process.env.METRICS_TOKEN?.trim() || null;
  if (token !== null && (token.length < minMetricsTokenLength || token.length > 512 || !/^[\x21-\x7e]+$/.test(token))) {
    throw new Error(`METRICS_TOKEN must be ${minMetricsTokenLength} to 512 visible ASCII characters without spaces`);
  }
  return { allow: allow.toLowerCase() === "none" ? "" : allow, token };
}

/** SHUTDOWN_GRACE_MS: how long a stopping server waits for requests and jobs under way (default 10,000). */
export function shutdownGraceMs(): number {
  const value = Number(env("SHUTDOWN_GRACE_MS", "10000"));
  if (!Number.isInteger(value) || value < 0) throw new Error(`SHUTDOWN_GRACE_MS must be a whole number of milliseconds, got "${process.env.SHUTDOWN_GRACE_MS}"`);
  return value;
}

/**
 * SITE_BUILD_PROCESSES: how many processes a full build of a large catalogue renders product
 * pages in (default: 2 on a machine with two cores or more, else 1; 1 turns splitting off).
 */
export function siteBuildProcesses(): number {
  const fallback = String(Math.min(2, os.availableParallelism()));
  const text = env("SITE_BUILD_PROCESSES", fallback);
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || value < 1 || value > 16) {
    throw new Error(`SITE_BUILD_PROCESSES must be a whole number from 1 to 16, got "${process.env.SITE_BUILD_PROCESSES}"`);
  }
  return value;
}

/**
 * SITE_BUILD_WORKER_IDLE_MS: how long the site build worker stays loaded after its last job,
 * ready to render a fast rebuild in about a second, before it exits and gives its memory back
 * (default 180,000: 3 minutes; 0 ends it after every job; at most 86,400,000, a day). The next
 * change then starts a fresh worker, which bundles the site again first (a few seconds).
 */
export function siteBuildWorkerIdleMs(): number {
  const text = env("SITE_BUILD_WORKER_IDLE_MS", "180000");
  const value = Number(text);
  if (!/^\d+$/.test(text) || value > 86_400_000) {
    throw new Error(`SITE_BUILD_WORKER_IDLE_MS must be a whole number of milliseconds from 0 to 86400000 (a day), got "${process.env.SITE_BUILD_WORKER_IDLE_MS}"`);
  }
  return value;
}

export function serverHost(): string {
  return env("HOST", "0.0.0.0");
}

/** Social profile links shown in the footer. */
export const socialLinks = {
  facebook: env("SOCIAL_FACEBOOK_URL", "https://www.facebook.com/pawprice"),
  instagram: env("SOCIAL_INSTAGRAM_URL", "https://www.instagram.com/pawprice"),
} as const;

/** Outgoing mail: SMTP when SMTP_URL is set, otherwise .eml files in an outbox folder. */
export interface MailConfig {
  /** e.g. smtp://user:pass@smtp.example.com:587; undefined writes mails to `outboxDir` instead. */
  smtpUrl: string | undefined;
  from: string;
  outboxDir: string;
}

export function mailConfig(): MailConfig {
  return {
    smtpUrl: process.env.SMTP_URL?.trim() || undefined,
    from: env("MAIL_FROM", `${siteConfig.siteName} <alerts@pawprice.example>`),
    outboxDir: path.resolve(projectRoot, env("MAIL_OUTBOX", "data/outbox")),
  };
}

/** Minutes between scheduled price-alert checks inside the server; 0 turns the schedule off. */
export function alertCheckIntervalMinutes(): number {
  const minutes = Number(env("ALERT_CHECK_INTERVAL_MINUTES", "60"));
  if (!Number.isInteger(minutes) || minutes < 0) {
    throw new Error(`ALERT_CHECK_INTERVAL_MINUTES must be a whole number of minutes (0 disables), got "${process.env.ALERT_CHECK_INTERVAL_MINUTES}"`);
  }
  return minutes;
}

const minSecretLength = 32;
const secrets = new Map<string, string>();

/**
 * The key that signs links the server must trust later (one-click unsubscribe). APP_SECRET wins
 * when set; otherwise a random secret is created once in the git-ignored data/secrets folder
 * (SECRETS_DIR overrides it) and reused, so links in mails already sent keep working after a
 * restart. Creating it by hard-linking a finished temp file means two processes starting at once
 * agree on one secret and never read a half-written file.
 */
export function appSecret(): string {
  const configured = process.env.APP_SECRET?.trim();
  if (configured) {
    if (configured.length < minSecretLength) throw new Error(`APP_SECRET must be at least ${minSecretLength} characters long`);
    return configured;
  }
  const dir = path.resolve(projectRoot, env("SECRETS_DIR", "data/secrets"));
  const cached = secrets.get(dir);
  if (cached) return cached;
  const secret = readOrCreateSecret(path.join(dir, "app-secret"));
  secrets.set(dir, secret);
  return secret;
}

function readOrCreateSecret(file: string): string {
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const temp = `${file}.${process.pid}.${crypto.randomBytes(6).toString("hex")}.tmp`;
    fs.writeFileSync(temp, crypto.randomBytes(32).toString("hex"), { mode: 0o600 });
    try {
      fs.linkSync(temp, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    } finally {
      fs.rmSync(temp, { force: true });
    }
  }
  const secret = fs.readFileSync(file, "utf8").trim();
  if (secret.length < minSecretLength) throw new Error(`${file} holds no usable secret: delete it to create a new one, or set APP_SECRET`);
  return secret;
}

/** Reads a factor from the environment: a positive number. */
function factor(name: string, fallback: string): number {
  const value = Number(env(name, fallback));
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got "${process.env[name]}"`);
  return value;
}

/** The page refresh inside the server: daily at 02:30 UK time, after the networks' overnight feed updates. */
export const defaultRefreshCron = "30 2 * * *";

/**
 * The price pipeline's settings. A checked price below PRICE_HOLD_BELOW or above PRICE_HOLD_ABOVE
 * times the published price is held for review (defaults 0.4 and 2.5). The refresh reads
 * REFRESH_CONCURRENCY retailer sites at once (default 4), waiting REFRESH_HOST_DELAY_MS between
 * two requests to one site (default 1500). REFRESH_CRON (UK time) schedules the page refresh
 * inside the server: daily at 02:30 by default, "off" for none (then only `npm run refresh` and
 * the nightly job run it). PRICE_FRESH_HOURS (default 24, 1 to 168) is how long a confirmed price
 * counts as current: after it an offer is stale and never the best price.
 */
export function pricePipelineConfig() {
  const below = factor("PRICE_HOLD_BELOW", "0.4");
  const above = factor("PRICE_HOLD_ABOVE", "2.5");
  if (below >= 1 || above <= 1) throw new Error("PRICE_HOLD_BELOW must be below 1 and PRICE_HOLD_ABOVE above 1");
  const concurrency = Number(env("REFRESH_CONCURRENCY", "4"));
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 32) throw new Error(`REFRESH_CONCURRENCY must be a whole number from 1 to 32`);
  const hostDelayMs = Number(env("REFRESH_HOST_DELAY_MS", "1500"));
  if (!Number.isInteger(hostDelayMs) || hostDelayMs < 0) throw new Error(`REFRESH_HOST_DELAY_MS must be a whole number of milliseconds`);
  const freshHours = Number(env("PRICE_FRESH_HOURS", "24"));
  if (!Number.isInteger(freshHours) || freshHours < 1 || freshHours > 168) throw new Error(`PRICE_FRESH_HOURS must be a whole number of hours from 1 to 168`);
  const cron = env("REFRESH_CRON", defaultRefreshCron).trim();
  return {
    holdPolicy: { below, above },
    concurrency,
    hostDelayMs,
    refreshCron: cron === "off" ? null : cron,
    freshForMs: freshHours * 3_600_000,
  };
}

/** NIGHTLY_CRON: the nightly job's cron pattern inside the server (UK time), or null when unset. */
export function nightlyCron(): string | null {
  const pattern = process.env.NIGHTLY_CRON?.trim() || null;
  if (pattern === null) return null;
  try {
    new Cron(pattern, { paused: true, timezone: "Europe/London" }).stop();
  } catch (error) {
    throw new Error(`NIGHTLY_CRON is not a cron pattern (${error instanceof Error ? error.message : String(error)})`);
  }
  return pattern;
}

/** A size in bytes from the environment: a whole number of at least 1 KiB. */
function byteSize(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1024) throw new Error(`${name} must be a whole number of bytes (at least 1024), got "${raw}"`);
  return value;
}

/**
 * The admin's feed sources: uploads are stored in FEED_UPLOADS_DIR (default data/feeds/uploads,
 * git-ignored), each at most FEED_UPLOAD_MAX_BYTES (default 1 GiB); a URL source's download is
 * cut off past FEED_DOWNLOAD_MAX_BYTES after decompression (default 2 GiB) or after
 * FEED_DOWNLOAD_TIMEOUT_MINUTES (default 30).
 */
export function feedConfig() {
  const minutes = Number(env("FEED_DOWNLOAD_TIMEOUT_MINUTES", "30"));
  if (!Number.isInteger(minutes) || minutes < 1) throw new Error(`FEED_DOWNLOAD_TIMEOUT_MINUTES must be a whole number of minutes (at least 1)`);
  return {
    uploadsDir: path.resolve(projectRoot, env("FEED_UPLOADS_DIR", "data/feeds/uploads")),
    uploadMaxBytes: byteSize("FEED_UPLOAD_MAX_BYTES", 1024 ** 3),
    downloadMaxBytes: byteSize("FEED_DOWNLOAD_MAX_BYTES", 2 * 1024 ** 3),
    downloadTimeoutMs: minutes * 60_000,
  };
}

/** A whole number of at least 1 from the environment. */
function count(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a whole number of at least 1, got "${raw}"`);
  return value;
}

/**
 * Ceilings on what anonymous visitors can store. VISITOR_ROWS_PER_DAY (default 500): the rows of
 * visitor data (clicks, favourites, recently viewed, voucher uses, price alerts, newsletter
 * sign-ups and their confirmation mails) one client address, or one IPv6 /64, may store per UTC
 * day, whatever visitor ids it sends. MAX_ROWS_CLICKS, MAX_ROWS_FAVOURITES,
 * MAX_ROWS_RECENTLY_VIEWED, MAX_ROWS_VOUCHER_USES and MAX_ROWS_PENDING_ALERTS: the most rows each
 * of those tables keeps (price alerts: those still waiting for confirmation); past it the
 * retention job deletes the oldest.
 */
export function visitorStorageConfig() {
  return {
    rowsPerClientPerDay: count("VISITOR_ROWS_PER_DAY", 500),
    ceilings: {
      clicks: count("MAX_ROWS_CLICKS", 5_000_000),
      favourites: count("MAX_ROWS_FAVOURITES", 1_000_000),
      recentlyViewed: count("MAX_ROWS_RECENTLY_VIEWED", 2_000_000),
      voucherUses: count("MAX_ROWS_VOUCHER_USES", 1_000_000),
      pendingAlerts: count("MAX_ROWS_PENDING_ALERTS", 200_000),
    },
  };
}

/**
 * Backups of the database: written to BACKUP_DIR (default data/backups, git-ignored), the newest
 * BACKUP_KEEP kept (default 14). BACKUP_CRON (UK time) schedules them inside the server: daily at
 * 03:30 by default (after the 02:30 price refresh), "off" for none (then only `npm run backup`).
 */
export function backupConfig(): { dir: string; keep: number; cron: string | null } {
  const cron = env("BACKUP_CRON", "30 3 * * *");
  if (cron !== "off") {
    try {
      new Cron(cron, { paused: true, timezone: "Europe/London" }).stop();
    } catch (error) {
      throw new Error(`BACKUP_CRON is not a cron pattern or "off" (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  return { dir: path.resolve(projectRoot, env("BACKUP_DIR", "data/backups")), keep: count("BACKUP_KEEP", 14), cron: cron === "off" ? null : cron };
}

/** A CDN's purge API, told which addresses a new site release changed. */
export type CdnPurgeConfig =
  | { provider: "cloudflare"; zoneId: string; apiToken: string; apiBase: string }
  | { provider: "fastly"; apiToken: string; serviceId: string; apiBase: string };

/**
 * CDN_PURGE: the CDN in front of the site whose cache each new release purges, or null when unset.
 * `cloudflare` needs CLOUDFLARE_ZONE_ID and CLOUDFLARE_API_TOKEN (a token allowed to purge the
 * zone's cache); `fastly` needs FASTLY_API_TOKEN and FASTLY_SERVICE_ID (a full build purges the
 * whole service). CDN_PURGE_API_BASE replaces the provider's API address (a test's own server).
 */
export function cdnPurgeConfig(): CdnPurgeConfig | null {
  const provider = process.env.CDN_PURGE?.trim().toLowerCase() || null;
  if (provider === null || provider === "off") return null;
  const required = (name: string) => {
    const value = process.env[name]?.trim();
    if (!value) throw new Error(`CDN_PURGE=${provider} needs ${name}`);
    return value;
  };
  const apiBase = (fallback: string) => {
    const base = env("CDN_PURGE_API_BASE", fallback).replace(/\/+$/, "");
    if (!/^https?:\/\/[^/]/.test(base)) throw new Error(`CDN_PURGE_API_BASE must be an http(s) address, got "${base}"`);
    return base;
  };
  if (provider === "cloudflare") {
    return {
      provider,
      zoneId: required("CLOUDFLARE_ZONE_ID"),
      apiToken: required("CLOUDFLARE_API_TOKEN"),
      apiBase: apiBase("https://api.cloudflare.com/client/v4"),
    };
  }
  if (provider === "fastly") {
    return { provider, apiToken: required("FASTLY_API_TOKEN"), serviceId: required("FASTLY_SERVICE_ID"), apiBase: apiBase("https://api.fastly.com") };
  }
  throw new Error(`CDN_PURGE must be cloudflare, fastly or off, got "${process.env.CDN_PURGE}"`);
}

/**
 * How the built site is served. Pages (HTML and the other files each release rewrites) may be
 * kept by a shared cache (a CDN) for `pageSharedMaxAge` seconds and then served stale for up to
 * `staleWhileRevalidate` more while the CDN asks again; browsers always revalidate (max-age=0).
 * With a purge configured every release removes what it changed from the CDN at once, so a CDN
 * may keep pages a day; without one a change must show within a minute, so it keeps them 60 s.
 * SITE_BODY_CACHE_MB (default 32): the memory for the bytes of the most asked-for files.
 */
export function siteServingConfig() {
  const purged = cdnPurgeConfig() !== null;
  const megabytes = Number(env("SITE_BODY_CACHE_MB", "32"));
  if (!Number.isInteger(megabytes) || megabytes < 0 || megabytes > 4096) {
    throw new Error(`SITE_BODY_CACHE_MB must be a whole number of megabytes from 0 to 4096, got "${process.env.SITE_BODY_CACHE_MB}"`);
  }
  return { pageSharedMaxAge: purged ? 86_400 : 60, staleWhileRevalidate: 86_400, bodyCacheBytes: megabytes * 1024 * 1024 };
}
