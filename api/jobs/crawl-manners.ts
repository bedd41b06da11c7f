/**
 * The price refresh's manners towards a retailer site, as rules without I/O: what its robots.txt
 * lets our product token read, how long to leave between two requests, and how long to wait when
 * it answers 429 or 503.
 */
import { createRequire } from "node:module";
import type { CrawlHost, StoredRobots } from "../../data/db/crawl-hosts.ts";
import { priceCheckUserAgent } from "../lib/page-price.ts";

// robots-parser is CommonJS whose types declare an ES default export; required, it is the function itself.
const robotsParser = createRequire(import.meta.url)("robots-parser") as typeof import("robots-parser").default;

const minuteMs = 60_000;
const dayMs = 24 * 60 * minuteMs;

/** A robots.txt read is reused for 24 hours; an unusable answer (disallow) is asked again by the next run. */
export const robotsMaxAgeMs = dayMs;
/** Crawl-delay up to this is followed as the gap between requests; above it, see pagesPerRun. */
export const crawlDelayLimitMs = minuteMs;
/** The time a run gives a site whose Crawl-delay is over the limit. */
export const slowSiteBudgetMs = 30 * minuteMs;
/** The longest a run waits for a busy site; a longer Retry-After leaves the site's pages to a later run. */
export const longestWaitMs = 5 * minuteMs;
/** The longest a Retry-After keeps later runs away from a site. */
export const longestBlockMs = dayMs;
/** The back-off without Retry-After starts from the host's gap, and from at least this. */
const shortestBackOffMs = 1000;

export interface RobotsRules {
  /** Whether our product token may fetch `url` (a URL of this origin). */
  allows(url: string): boolean;
  /** The Crawl-delay of the group that applies to us, in ms (null: none). */
  crawlDelayMs: number | null;
}

/**
 * The rules of `origin`'s robots.txt for the User-Agent's product token (PawPriceBot): its own
 * group when it has one, else the `*` group; `*` and `$` in paths as RFC 9309 has them.
 */
export function robotsRules(origin: string, robots: StoredRobots, userAgent = priceCheckUserAgent): RobotsRules {
  if (robots.state === "allow") return { allows: () => true, crawlDelayMs: null };
  if (robots.state === "disallow") return { allows: () => false, crawlDelayMs: null };
  const parsed = robotsParser(`${origin}/robots.txt`, robots.text);
  const delaySeconds = parsed.getCrawlDelay(userAgent);
  return {
    // undefined: a URL of another origin, which these rules do not speak for.
    allows: (url) => parsed.isAllowed(url, userAgent) !== false,
    crawlDelayMs: typeof delaySeconds === "number" && Number.isFinite(delaySeconds) && delaySeconds > 0 ? Math.round(delaySeconds * 1000) : null,
  };
}

/** Whether the stored robots.txt of a host can be used instead of asking again. */
export function robotsFresh(host: CrawlHost | null, now: Date): host is CrawlHost {
  return host !== null && host.robots.state !== "disallow" && now.getTime() - host.robotsFetchedAt.getTime() < robotsMaxAgeMs;
}

/** The gap between two requests to one host: our own delay, or the site's Crawl-delay when longer. */
export function requestGapMs(hostDelayMs: number, crawlDelayMs: number | null): number {
  return Math.max(hostDelayMs, crawlDelayMs ?? 0);
}

/**
 * How many pages of a site one run reads. A Crawl-delay over a minute is still honoured, but the
 * run gives such a site 30 minutes: its most watched pages that fit (at least one); the rest wait
 * for later runs.
 */
export function pagesPerRun(crawlDelayMs: number | null): number {
  if (crawlDelayMs === null || crawlDelayMs <= crawlDelayLimitMs) return Number.POSITIVE_INFINITY;
  return Math.max(1, Math.floor(slowSiteBudgetMs / crawlDelayMs));
}

/** Retry-After as a wait from `now`: delay-seconds or an HTTP date (null: absent or unreadable). */
export function retryAfterMs(header: string | null, now: Date): number | null {
  const value = header?.trim() ?? "";
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // Every HTTP date form starts with the day's name.
  if (!/^[A-Za-z]/.test(value)) return null;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}

/** The wait after the `streak`-th busy answer in a row with no Retry-After: the gap (at least 1 s) doubled each time, at most longestWaitMs. */
export function backOffMs(gapMs: number, streak: number): number {
  return Math.min(Math.max(gapMs, shortestBackOffMs) * 2 ** streak, longestWaitMs);
}
