import { describe, expect, it } from "vitest";
import type { CrawlHost } from "../../data/db/crawl-hosts.ts";
import { priceCheckUserAgent } from "../lib/page-price.ts";
import { backOffMs, longestWaitMs, pagesPerRun, requestGapMs, retryAfterMs, robotsFresh, robotsRules } from "./crawl-manners.ts";

const origin = "https://shop.example.co.uk";
const rules = (text: string) => robotsRules(origin, { state: "rules", text });

describe("robotsRules", () => {
  it("our User-Agent's product token is PawPriceBot", () => {
    expect(priceCheckUserAgent).toMatch(/^PawPriceBot\/1\.0 \(/);
  });

  it("follows a PawPriceBot group instead of the * group, whatever case it is written in", () => {
    const robots = rules("User-agent: *\nDisallow: /\nCrawl-delay: 9\n\nUser-agent: pawpricebot\nDisallow: /private/\nCrawl-delay: 2\n");
    expect(robots.allows(`${origin}/p/kibble`)).toBe(true);
    expect(robots.allows(`${origin}/private/x`)).toBe(false);
    expect(robots.crawlDelayMs).toBe(2000);
  });

  it("follows the * group when no group names PawPriceBot; other bots' groups do not apply", () => {
    const robots = rules("User-agent: OtherBot\nDisallow: /p/\n\nUser-agent: *\nDisallow: /basket\nCrawl-delay: 1.5\n");
    expect(robots.allows(`${origin}/p/kibble`)).toBe(true);
    expect(robots.allows(`${origin}/basket/add`)).toBe(false);
    expect(robots.crawlDelayMs).toBe(1500);
  });

  it("reads * as any characters and $ as the end of the path; the longest match wins", () => {
    const robots = rules("User-agent: *\nDisallow: /*?sort=\nDisallow: /*.pdf$\nDisallow: /private/\nAllow: /private/ok\n");
    expect(robots.allows(`${origin}/p/list?sort=price`)).toBe(false);
    expect(robots.allows(`${origin}/p/list?page=2`)).toBe(true);
    expect(robots.allows(`${origin}/p/manual.pdf`)).toBe(false);
    expect(robots.allows(`${origin}/p/manual.pdf?v=2`)).toBe(true);
    expect(robots.allows(`${origin}/private/secret`)).toBe(false);
    expect(robots.allows(`${origin}/private/ok`)).toBe(true);
  });

  it("allows everything for allow (a 4xx robots.txt) and nothing for disallow (none could be read)", () => {
    expect(robotsRules(origin, { state: "allow" }).allows(`${origin}/anything`)).toBe(true);
    expect(robotsRules(origin, { state: "disallow" }).allows(`${origin}/`)).toBe(false);
  });

  it("has no Crawl-delay when the group gives none or a senseless one", () => {
    expect(rules("User-agent: *\nDisallow: /x\n").crawlDelayMs).toBeNull();
    expect(rules("User-agent: *\nCrawl-delay: soon\n").crawlDelayMs).toBeNull();
    expect(rules("User-agent: *\nCrawl-delay: -3\n").crawlDelayMs).toBeNull();
    // A delay too large for a number reads as Infinity: no sense either.
    expect(rules("User-agent: *\nCrawl-delay: 1e999\n").crawlDelayMs).toBeNull();
    // A delay of 0 asks for no wait at all: the same as none.
    expect(rules("User-agent: *\nCrawl-delay: 0\n").crawlDelayMs).toBeNull();
  });
});

describe("robotsFresh", () => {
  const host = (state: "rules" | "allow" | "disallow", fetchedAt: string): CrawlHost => ({
    origin,
    robots: state === "rules" ? { state, text: "" } : { state },
    robotsFetchedAt: new Date(fetchedAt),
    blockedUntil: null,
    busyStreak: 0,
  });
  it("reuses a read robots.txt for 24 hours, never one that could not be read", () => {
    const now = new Date("2026-03-02T12:00:00Z");
    expect(robotsFresh(host("rules", "2026-03-01T12:00:01Z"), now)).toBe(true);
    expect(robotsFresh(host("allow", "2026-03-01T12:00:01Z"), now)).toBe(true);
    expect(robotsFresh(host("rules", "2026-03-01T12:00:00Z"), now)).toBe(false);
    expect(robotsFresh(host("disallow", "2026-03-02T11:59:00Z"), now)).toBe(false);
    expect(robotsFresh(null, now)).toBe(false);
  });
});

describe("pacing", () => {
  it("leaves the longer of our delay and the site's Crawl-delay between requests", () => {
    expect(requestGapMs(1500, null)).toBe(1500);
    expect(requestGapMs(1500, 1000)).toBe(1500);
    expect(requestGapMs(1500, 4000)).toBe(4000);
  });

  it("reads every page of a site whose Crawl-delay is up to a minute, and 30 minutes' worth of one slower", () => {
    expect(pagesPerRun(null)).toBe(Number.POSITIVE_INFINITY);
    expect(pagesPerRun(60_000)).toBe(Number.POSITIVE_INFINITY);
    expect(pagesPerRun(120_000)).toBe(15);
    expect(pagesPerRun(3_600_000)).toBe(1);
  });
});

describe("busy sites", () => {
  const now = new Date("2026-03-02T12:00:00Z");
  it("reads Retry-After as seconds or as an HTTP date", () => {
    expect(retryAfterMs("120", now)).toBe(120_000);
    expect(retryAfterMs(" 0 ", now)).toBe(0);
    expect(retryAfterMs("Mon, 02 Mar 2026 12:01:30 GMT", now)).toBe(90_000);
    expect(retryAfterMs("Mon, 02 Mar 2026 11:00:00 GMT", now)).toBe(0);
    expect(retryAfterMs("later", now)).toBeNull();
    expect(retryAfterMs("-5", now)).toBeNull();
    expect(retryAfterMs(null, now)).toBeNull();
  });

  it("reads only whole digits as seconds, and only a text starting with a day's name as a date", () => {
    expect(retryAfterMs("10abc", now)).toBeNull();
    expect(retryAfterMs("1.5", now)).toBeNull();
    // An ISO date is no HTTP date, though Date.parse reads it.
    expect(retryAfterMs("2026-03-02T12:01:30Z", now)).toBeNull();
  });

  it("backs off from the gap (at least 1 s), doubling with each busy answer in a row, up to 5 minutes", () => {
    expect(backOffMs(1500, 1)).toBe(3000);
    expect(backOffMs(1500, 2)).toBe(6000);
    expect(backOffMs(0, 1)).toBe(2000);
    expect(backOffMs(1500, 12)).toBe(longestWaitMs);
    expect(longestWaitMs).toBe(300_000);
  });
});
