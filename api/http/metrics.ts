/**
 * The server's Prometheus metrics, on a registry of its own (never prom-client's global one, so
 * a test process can run several servers side by side): requests by route pattern, method and
 * status with their latency, response-cache hits and misses, site builds, mail, feed imports,
 * price refreshes and scheduled job runs. GET /metrics (./metrics-endpoint.ts) writes them out
 * together with the process's own metrics (CPU, memory, event loop, garbage collection).
 *
 * Label values are bounded: a request is labelled with its route table pattern
 * (`/api/products/:slug`), "site" for the built pages, "unmatched" for API paths no route takes,
 * never with its URL; methods outside the usual few are "other".
 *
 * Requests are counted on every answer, so their bookkeeping is plain numbers in objects made
 * once per route, method and status (no label strings or hashes per request); prom-client
 * reads them when /metrics is asked for. The rarer events (builds, mails, imports, refreshes,
 * job runs) use prom-client's own counters and histograms.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry, type Metric } from "prom-client";
import type { Logger } from "pino";
import type { ResponseCache } from "./response-cache.ts";
import type { Mailer } from "../mail/mailer.ts";
import type { RefreshSummary } from "../jobs/price-refresh.ts";
import { refusedTotal, type FeedRun } from "../../data/domain/feed-sources.ts";

/** Upper bounds (seconds) of the request latency buckets. */
export const requestBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;
const bucketLabels = requestBuckets.map(String);
/** Upper bounds (seconds) of the build, refresh and job run duration buckets. */
const jobBuckets = [0.1, 0.5, 1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600];

/** The request label of the built site's pages and files. */
export const siteRoute = "site";
/** The request label of an API path no route takes (its 404 or 405). */
export const unmatchedRoute = "unmatched";

const methodLabels = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** One route and method's requests: counts by status and the latency histogram. */
export class RequestSeries {
  readonly route: string;
  readonly method: string;
  /** Requests by status code. */
  readonly statuses = new Map<number, number>();
  /** Requests at or under each bound of `requestBuckets` (not cumulative yet), then the rest. */
  readonly buckets: number[] = new Array<number>(requestBuckets.length).fill(0);
  sum = 0;
  count = 0;
  constructor(route: string, method: string) {
    this.route = route;
    this.method = method;
  }

  /** Counts one answered request of this route and method. */
  observe(status: number, seconds: number): void {
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
    let bucket = 0;
    while (bucket < requestBuckets.length && seconds > requestBuckets[bucket]!) bucket++;
    if (bucket < requestBuckets.length) this.buckets[bucket]!++;
    this.sum += seconds;
    this.count++;
  }
}

type MetricValue = { value: number; labels: Record<string, string>; metricName?: string };

/** The request counter and histogram as prom-client metric objects, read from the series at scrape time. */
function requestMetrics(series: () => Iterable<RequestSeries>): [Metric, Metric] {
  const counter = {
    name: "pawprice_http_requests_total",
    help: "HTTP requests answered, by route pattern, method and status",
    type: "counter",
    aggregator: "sum",
    get() {
      const values: MetricValue[] = [];
      for (const { route, method, statuses } of series()) {
        for (const [status, value] of statuses) values.push({ value, labels: { route, method, status: String(status) } });
      }
      return { name: counter.name, help: counter.help, type: counter.type, aggregator: counter.aggregator, values };
    },
    reset() {},
  };
  const histogram = {
    name: "pawprice_http_request_duration_seconds",
    help: "Time from a request's arrival until its answer was handed to the operating system, by route pattern and method",
    type: "histogram",
    aggregator: "sum",
    get() {
      const values: MetricValue[] = [];
      for (const { route, method, buckets, sum, count } of series()) {
        let cumulative = 0;
        bucketLabels.forEach((le, i) => {
          cumulative += buckets[i]!;
          values.push({ metricName: `${histogram.name}_bucket`, value: cumulative, labels: { route, method, le } });
        });
        values.push({ metricName: `${histogram.name}_bucket`, value: count, labels: { route, method, le: "+Inf" } });
        values.push({ metricName: `${histogram.name}_sum`, value: sum, labels: { route, method } });
        values.push({ metricName: `${histogram.name}_count`, value: count, labels: { route, method } });
      }
      return { name: histogram.name, help: histogram.help, type: histogram.type, aggregator: histogram.aggregator, values };
    },
    reset() {},
  };
  return [counter as unknown as Metric, histogram as unknown as Metric];
}

let processRegistry: Registry | undefined;

/**
 * The process's own metrics (CPU, memory, event loop lag, garbage collection, handles), on one
 * registry per process: they describe the process, not a server, and collecting them starts
 * observers that live as long as the process.
 */
export function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export type JobOutcome = "succeeded" | "failed" | (string & {});

export interface Metrics {
  registry: Registry;
  /** Counts one answered request: `route` is its pattern (or "site", "unmatched"), `seconds` its latency. */
  observeRequest(route: string, method: string, status: number, seconds: number): void;
  /**
   * The series requests of a route and method count into (methods outside the usual few share
   * "other"): looked up once and kept, a request counts with no label lookup.
   */
  requestSeries(route: string, method: string): RequestSeries;
  /** Reads the cache's hit and miss counts at each scrape. */
  watchCache(cache: ResponseCache): void;
  /** A site build ended: kind full or fast, result succeeded or failed. */
  observeSiteBuild(kind: string, result: "succeeded" | "failed", ms: number): void;
  /** A feed import run ended: its status and row counts. */
  observeFeedRun(run: FeedRun): void;
  /** A price refresh ended with this summary, or with an error (null). */
  observePriceRefresh(summary: RefreshSummary | null, ms: number): void;
  /**
   * A scheduled job's run ended (for the schedule table's observer hook): counted by job name
   * and outcome, timed, and logged as one line when the metrics have a logger.
   */
  /** A run of a scheduled job; a routine job's successful runs are logged at debug level. */
  observeJobRun(name: string, outcome: JobOutcome, ms: number, routine?: boolean): void;
  /** Counts each message the mailer sends and each it fails to. */
  countMail(mailer: Mailer): Mailer;
  /** The exposition text: this server's metrics, then the process's. */
  text(): Promise<string>;
  contentType: string;
}

export interface MetricsOptions {
  /** Job runs are logged here too (one line each). */
  logger?: Logger;
}

export function createMetrics(options: MetricsOptions = {}): Metrics {
  const registry = new Registry();
  const registers = [registry];

  const routes = new Map<string, Map<string, RequestSeries>>();
  function* allSeries(): Iterable<RequestSeries> {
    for (const methods of routes.values()) yield* methods.values();
  }
  for (const metric of requestMetrics(allSeries)) registry.registerMetric(metric);

  const caches: ResponseCache[] = [];
  new Counter({
    name: "pawprice_response_cache_hits_total",
    help: 'Cached public reads answered from the response cache: layer "server" before the app (the fast path), "app" inside it',
    labelNames: ["layer"],
    registers,
    collect() {
      this.reset();
      this.inc({ layer: "server" }, caches.reduce((sum, cache) => sum + cache.sentHits, 0));
      this.inc({ layer: "app" }, caches.reduce((sum, cache) => sum + cache.hits, 0));
    },
  });
  new Counter({
    name: "pawprice_response_cache_misses_total",
    help: "Cached public reads the response cache did not hold (answered from the database)",
    registers,
    collect() {
      this.reset();
      this.inc(caches.reduce((sum, cache) => sum + cache.misses, 0));
    },
  });
  new Gauge({
    name: "pawprice_response_cache_bytes",
    help: "Bytes the response cache's entries are counted as",
    registers,
    collect() {
      this.set(caches.reduce((sum, cache) => sum + cache.bytes, 0));
    },
  });

  const builds = new Counter({ name: "pawprice_site_builds_total", help: "Site builds by kind (full, fast) and result", labelNames: ["kind", "result"], registers });
  const buildSeconds = new Histogram({
    name: "pawprice_site_build_duration_seconds",
    help: "Site build durations by kind and result",
    labelNames: ["kind", "result"],
    buckets: jobBuckets,
    registers,
  });
  const mail = new Counter({ name: "pawprice_mail_messages_total", help: "E-mails handed to the mail server or outbox (sent) and those that failed", labelNames: ["result"], registers });
  const feedRuns = new Counter({ name: "pawprice_feed_import_runs_total", help: "Feed import runs by final status", labelNames: ["status"], registers });
  const feedRows = new Counter({
    name: "pawprice_feed_import_rows_total",
    help: "Feed rows by outcome: imported (matched or created a product), unmatched (no product, none created), refused (invalid)",
    labelNames: ["outcome"],
    registers,
  });
  const refreshRuns = new Counter({ name: "pawprice_price_refresh_runs_total", help: "Price refresh runs by result (error: the run itself failed)", labelNames: ["result"], registers });
  const refreshSeconds = new Histogram({ name: "pawprice_price_refresh_duration_seconds", help: "Price refresh durations", buckets: jobBuckets, registers });
  const refreshOffers = new Counter({
    name: "pawprice_price_refresh_offers_total",
    help: "Offers by what the refresh did: checked (read; includes changed, held and not_modified), changed, held, not_modified, blocked, backed_off, failed, stale",
    labelNames: ["outcome"],
    registers,
  });
  const jobRuns = new Counter({ name: "pawprice_job_runs_total", help: "Scheduled job runs by job and outcome", labelNames: ["job", "outcome"], registers });
  const jobSeconds = new Histogram({ name: "pawprice_job_run_duration_seconds", help: "Scheduled job run durations by job", labelNames: ["job"], buckets: jobBuckets, registers });

  function requestSeries(route: string, method: string): RequestSeries {
    let methods = routes.get(route);
    if (!methods) routes.set(route, (methods = new Map()));
    const methodLabel = methodLabels.has(method) ? method : "other";
    let series = methods.get(methodLabel);
    if (!series) methods.set(methodLabel, (series = new RequestSeries(route, methodLabel)));
    return series;
  }

  const perProcess = processMetrics();
  return {
    registry,
    contentType: registry.contentType,
    observeRequest(route, method, status, seconds) {
      requestSeries(route, method).observe(status, seconds);
    },
    requestSeries,
    watchCache(cache) {
      if (!caches.includes(cache)) caches.push(cache);
    },
    observeSiteBuild(kind, result, ms) {
      builds.inc({ kind, result });
      buildSeconds.observe({ kind, result }, ms / 1000);
    },
    observeFeedRun(run) {
      feedRuns.inc({ status: run.status });
      feedRows.inc({ outcome: "imported" }, run.matched + run.created);
      feedRows.inc({ outcome: "unmatched" }, run.unmatched);
      feedRows.inc({ outcome: "refused" }, refusedTotal(run.refused));
    },
    observePriceRefresh(summary, ms) {
      refreshRuns.inc({ result: summary?.result ?? "error" });
      refreshSeconds.observe(ms / 1000);
      if (!summary) return;
      const outcomes: [string, number][] = [
        ["checked", summary.checked],
        ["changed", summary.changed],
        ["held", summary.held],
        ["not_modified", summary.notModified],
        ["blocked", summary.blocked],
        ["backed_off", summary.backedOff],
        ["failed", summary.failed],
        ["stale", summary.stale],
      ];
      for (const [outcome, value] of outcomes) refreshOffers.inc({ outcome }, value);
    },
    observeJobRun(name, outcome, ms, routine = false) {
      jobRuns.inc({ job: name, outcome });
      jobSeconds.observe({ job: name }, ms / 1000);
      const line = { job: name, outcome, ms: Math.round(ms) };
      if (routine && outcome !== "failed") options.logger?.debug(line, "job run");
      else options.logger?.info(line, "job run");
    },
    countMail(mailer) {
      return {
        describe: mailer.describe,
        async send(message) {
          try {
            await mailer.send(message);
          } catch (error) {
            mail.inc({ result: "failed" });
            throw error;
          }
          mail.inc({ result: "sent" });
        },
      };
    },
    async text() {
      return (await registry.metrics()) + (await perProcess.metrics());
    },
  };
}
