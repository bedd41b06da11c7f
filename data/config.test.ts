import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  alertCheckIntervalMinutes,
  appSecret,
  logLevel,
  mailConfig,
  metricsAccessConfig,
  nightlyCron,
  pricePipelineConfig,
  projectRoot,
  siteBuildProcesses,
  siteBuildWorkerIdleMs,
  visitorStorageConfig,
} from "./config.ts";

const saved = { ...process.env };
const storageSettings = ["VISITOR_ROWS_PER_DAY", "MAX_ROWS_CLICKS", "MAX_ROWS_FAVOURITES", "MAX_ROWS_RECENTLY_VIEWED", "MAX_ROWS_VOUCHER_USES", "MAX_ROWS_PENDING_ALERTS"];
afterEach(() => {
  for (const name of ["APP_SECRET", "SECRETS_DIR", "SMTP_URL", "MAIL_FROM", "MAIL_OUTBOX", "ALERT_CHECK_INTERVAL_MINUTES", "SITE_BUILD_PROCESSES", "SITE_BUILD_WORKER_IDLE_MS", "PRICE_FRESH_HOURS", "REFRESH_CRON", "NIGHTLY_CRON", "LOG_LEVEL", "METRICS_ALLOW", "METRICS_TOKEN", ...storageSettings]) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

describe("appSecret", () => {
  it("creates a private random secret once and reuses it", () => {
    delete process.env.APP_SECRET;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-secret-"));
    try {
      process.env.SECRETS_DIR = path.join(dir, "secrets");
      const secret = appSecret();
      const file = path.join(dir, "secrets", "app-secret");
      expect(secret).toMatch(/^[0-9a-f]{64}$/);
      expect(fs.readFileSync(file, "utf8")).toBe(secret);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(appSecret()).toBe(secret);
      expect(fs.readdirSync(path.join(dir, "secrets"))).toEqual(["app-secret"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("uses APP_SECRET when set, and refuses a short one", () => {
    process.env.APP_SECRET = "x".repeat(32);
    expect(appSecret()).toBe("x".repeat(32));
    process.env.APP_SECRET = "too-short";
    expect(() => appSecret()).toThrow(/at least 32 characters/);
  });
});

describe("mail settings", () => {
  it("defaults to the outbox under data/ and an hourly check", () => {
    delete process.env.SMTP_URL;
    delete process.env.MAIL_FROM;
    delete process.env.MAIL_OUTBOX;
    delete process.env.ALERT_CHECK_INTERVAL_MINUTES;
    expect(mailConfig()).toEqual({ smtpUrl: undefined, from: "PawPrice <alerts@pawprice.example>", outboxDir: path.join(projectRoot, "data/outbox") });
    expect(alertCheckIntervalMinutes()).toBe(60);
  });

  it("reads SMTP_URL and the interval (0 disables), refusing a bad interval", () => {
    process.env.SMTP_URL = " smtp://mail.example.com:587 ";
    process.env.ALERT_CHECK_INTERVAL_MINUTES = "0";
    expect(mailConfig().smtpUrl).toBe("smtp://mail.example.com:587");
    expect(alertCheckIntervalMinutes()).toBe(0);
    process.env.ALERT_CHECK_INTERVAL_MINUTES = "-5";
    expect(() => alertCheckIntervalMinutes()).toThrow(/ALERT_CHECK_INTERVAL_MINUTES/);
  });
});

describe("SITE_BUILD_PROCESSES", () => {
  it("defaults to two processes where there are two cores or more, else one (unset or empty)", () => {
    delete process.env.SITE_BUILD_PROCESSES;
    expect(siteBuildProcesses()).toBe(Math.min(2, os.availableParallelism()));
    process.env.SITE_BUILD_PROCESSES = "";
    expect(siteBuildProcesses()).toBe(Math.min(2, os.availableParallelism()));
  });

  it("takes a whole number from 1 to 16", () => {
    for (const [text, value] of [["1", 1], ["3", 3], ["16", 16], [" 2 ", 2]] as const) {
      process.env.SITE_BUILD_PROCESSES = text;
      expect(siteBuildProcesses(), text).toBe(value);
    }
  });

  it.each(["0", "17", "1.5", "-1", "two", "2x"])("refuses %j, naming the setting", (text) => {
    process.env.SITE_BUILD_PROCESSES = text;
    expect(() => siteBuildProcesses()).toThrow(/SITE_BUILD_PROCESSES must be a whole number from 1 to 16/);
  });
});

describe("SITE_BUILD_WORKER_IDLE_MS", () => {
  it("keeps an idle build worker for 3 minutes unless set (unset or empty)", () => {
    delete process.env.SITE_BUILD_WORKER_IDLE_MS;
    expect(siteBuildWorkerIdleMs()).toBe(180_000);
    process.env.SITE_BUILD_WORKER_IDLE_MS = "";
    expect(siteBuildWorkerIdleMs()).toBe(180_000);
  });

  it("takes a whole number of milliseconds from 0 to a day", () => {
    for (const [text, value] of [["0", 0], ["1", 1], ["60000", 60_000], ["86400000", 86_400_000], [" 500 ", 500]] as const) {
      process.env.SITE_BUILD_WORKER_IDLE_MS = text;
      expect(siteBuildWorkerIdleMs(), text).toBe(value);
    }
  });

  it.each(["86400001", "-1", "1.5", "1e3", "three minutes", "180000ms"])("refuses %j, naming the setting", (text) => {
    process.env.SITE_BUILD_WORKER_IDLE_MS = text;
    expect(() => siteBuildWorkerIdleMs()).toThrow(/SITE_BUILD_WORKER_IDLE_MS must be a whole number of milliseconds from 0 to 86400000/);
  });
});

describe("pricePipelineConfig", () => {
  it("counts a price current for 24 hours unless PRICE_FRESH_HOURS says otherwise (1 to 168 whole hours)", () => {
    delete process.env.PRICE_FRESH_HOURS;
    expect(pricePipelineConfig().freshForMs).toBe(24 * 3_600_000);
    process.env.PRICE_FRESH_HOURS = "168";
    expect(pricePipelineConfig().freshForMs).toBe(168 * 3_600_000);
    process.env.PRICE_FRESH_HOURS = "1";
    expect(pricePipelineConfig().freshForMs).toBe(3_600_000);
    for (const bad of ["0", "169", "12.5", "a day"]) {
      process.env.PRICE_FRESH_HOURS = bad;
      expect(() => pricePipelineConfig()).toThrow("PRICE_FRESH_HOURS must be a whole number of hours from 1 to 168");
    }
  });

  it("reads retailer pages daily at 02:30 UK time by default; REFRESH_CRON=off schedules none", () => {
    delete process.env.REFRESH_CRON;
    expect(pricePipelineConfig().refreshCron).toBe("30 2 * * *");
    process.env.REFRESH_CRON = "15 4 * * *";
    expect(pricePipelineConfig().refreshCron).toBe("15 4 * * *");
    process.env.REFRESH_CRON = "off";
    expect(pricePipelineConfig().refreshCron).toBeNull();
  });
});

describe("NIGHTLY_CRON", () => {
  it("is off when unset or empty, takes a cron pattern, and refuses anything else naming the setting", () => {
    delete process.env.NIGHTLY_CRON;
    expect(nightlyCron()).toBeNull();
    process.env.NIGHTLY_CRON = " ";
    expect(nightlyCron()).toBeNull();
    process.env.NIGHTLY_CRON = " 15 3 * * * ";
    expect(nightlyCron()).toBe("15 3 * * *");
    process.env.NIGHTLY_CRON = "every night";
    expect(() => nightlyCron()).toThrow(/^NIGHTLY_CRON is not a cron pattern/);
  });
});

describe("visitorStorageConfig", () => {
  it("defaults to 500 rows per address a day and generous table ceilings", () => {
    for (const name of storageSettings) delete process.env[name];
    expect(visitorStorageConfig()).toEqual({
      rowsPerClientPerDay: 500,
      ceilings: { clicks: 5_000_000, favourites: 1_000_000, recentlyViewed: 2_000_000, voucherUses: 1_000_000, pendingAlerts: 200_000 },
    });
  });

  it("reads each setting as a whole number of at least 1, refusing anything else naming the setting", () => {
    process.env.VISITOR_ROWS_PER_DAY = " 1 ";
    process.env.MAX_ROWS_CLICKS = "10";
    process.env.MAX_ROWS_FAVOURITES = "11";
    process.env.MAX_ROWS_RECENTLY_VIEWED = "12";
    process.env.MAX_ROWS_VOUCHER_USES = "13";
    process.env.MAX_ROWS_PENDING_ALERTS = "14";
    expect(visitorStorageConfig()).toEqual({ rowsPerClientPerDay: 1, ceilings: { clicks: 10, favourites: 11, recentlyViewed: 12, voucherUses: 13, pendingAlerts: 14 } });
    for (const name of storageSettings) {
      for (const bad of ["0", "-3", "2.5", "1e3", "lots"]) {
        const before = process.env[name];
        process.env[name] = bad;
        expect(() => visitorStorageConfig(), `${name}=${bad}`).toThrow(new RegExp(`^${name} must be a whole number of at least 1`));
        process.env[name] = before;
      }
    }
  });
});

describe("logLevel", () => {
  it("is info by default, takes any of pino's levels in any case, and refuses others naming the choices", () => {
    delete process.env.LOG_LEVEL;
    expect(logLevel()).toBe("info");
    process.env.LOG_LEVEL = "WARN";
    expect(logLevel()).toBe("warn");
    process.env.LOG_LEVEL = "silent";
    expect(logLevel()).toBe("silent");
    process.env.LOG_LEVEL = "loud";
    expect(() => logLevel()).toThrow('LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"');
  });
});

describe("metricsAccessConfig", () => {
  it("lets loopback in by default, none for no address, and takes no token unless set", () => {
    delete process.env.METRICS_ALLOW;
    delete process.env.METRICS_TOKEN;
    expect(metricsAccessConfig()).toEqual({ allow: "127.0.0.1, ::1", token: null });
    process.env.METRICS_ALLOW = "None";
    expect(metricsAccessConfig().allow).toBe("");
    process.env.METRICS_ALLOW = "10.0.0.0/8";
    expect(metricsAccessConfig().allow).toBe("10.0.0.0/8");
  });

  it("takes a token of 24 to 512 visible characters and refuses one shorter, longer or with a space", () => {
    process.env.METRICS_TOKEN = "t".repeat(24);
    expect(metricsAccessConfig().token).toBe("t".repeat(24));
    process.env.METRICS_TOKEN = "t".repeat(512);
    expect(metricsAccessConfig().token).toBe("t".repeat(512));
    for (const bad of ["t".repeat(23), "t".repeat(513), `${"t".repeat(12)} ${"t".repeat(12)}`, `${"t".repeat(24)}é`]) {
      process.env.METRICS_TOKEN = bad;
      expect(() => metricsAccessConfig(), bad).toThrow("METRICS_TOKEN must be 24 to 512 visible ASCII characters without spaces");
    }
  });
});
