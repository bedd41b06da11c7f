/**
 * Reads the offer on a retailer's product page: the guarded fetch (public addresses only, 5 s,
 * 2 MB, 3 redirects) and then the pure extractor on the page it ended at. Also reads a site's
 * robots.txt the same way, so the refresh can obey it.
 */
import type { Readable } from "node:stream";
import { FetchFailed, guardedFetch, guardedFetchStream, type PageValidators, type TestAllowance } from "./guarded-fetch.ts";
import { siteConfig } from "../../data/config.ts";
import { readOffer, type OfferReading } from "../../data/domain/offer-extract.ts";

export type { PageValidators };

/**
 * A page read whole: its offer (found, undecided or none; null stands for none where a stub reads
 * no page) and the validators to send next time.
 */
export interface PageRead {
  notModified: false;
  reading: OfferReading | null;
  validators: PageValidators;
}

/** The site answered 304 to the validators sent: the page is as it was when they were stored. */
export interface PageNotModified {
  notModified: true;
}

/**
 * robots.txt as RFC 9309 has it read: rules (a 2xx, its text), allow (a 4xx: no rules apply) or
 * disallow (a 429, a 5xx, or no answer: nothing may be fetched).
 */
export type RobotsAnswer = { state: "rules"; text: string } | { state: "allow" } | { state: "disallow"; reason: string };

export interface PageReader {
  /** Reads a page's offer. Throws FetchRefused / FetchFailed (with the status of a non-2xx answer). */
  readPage(url: string): Promise<PageRead>;
  /** As above, sending `validators` back; a 304 answer comes back as not modified. */
  readPage(url: string, validators: PageValidators): Promise<PageRead | PageNotModified>;
  /** Reads `origin`'s robots.txt. Throws FetchRefused when the origin may not be fetched at all. */
  readRobots(origin: string): Promise<RobotsAnswer>;
}

/** An honest User-Agent: who is asking, and where to read about it. Its product token (before the "/") is what robots.txt groups name. */
export const priceCheckUserAgent = `${siteConfig.siteName}Bot/1.0 (+${siteConfig.baseUrl}/how-we-compare; price checks for ${new URL(siteConfig.baseUrl).host})`;

/** The part of a robots.txt that is parsed; the rest is ignored (RFC 9309 asks for at least 500 KiB). */
export const robotsMaxBytes = 500 * 1024;
/** Redirects followed to reach a robots.txt (RFC 9309: at least five). */
const robotsRedirects = 5;

/** `allowance` lets tests read fixture pages from loopback; production never passes one. */
export function createPageReader(options: { allowance?: TestAllowance | undefined; timeoutMs?: number } = {}): PageReader {
  const fetchOptions = { allowance: options.allowance, userAgent: priceCheckUserAgent };
  function readPage(url: string): Promise<PageRead>;
  function readPage(url: string, validators: PageValidators): Promise<PageRead | PageNotModified>;
  async function readPage(url: string, validators?: PageValidators): Promise<PageRead | PageNotModified> {
    const page = await guardedFetch(url, { ...fetchOptions, timeoutMs: options.timeoutMs, ...(validators ? { validators } : {}) });
    if (page.status === 304) return { notModified: true };
    return { notModified: false, reading: readOffer(page.body, page.url), validators: { etag: page.etag ?? null, lastModified: page.lastModified ?? null } };
  }
  async function readRobots(origin: string): Promise<RobotsAnswer> {
    try {
      const fetched = await guardedFetchStream(new URL("/robots.txt", origin).href, {
        ...fetchOptions,
        maxRedirects: robotsRedirects,
        timeoutMs: options.timeoutMs ?? 5000,
        // Reading stops at robotsMaxBytes; this only bounds what may be in flight meanwhile.
        maxBytes: 8 * robotsMaxBytes,
      });
      return { state: "rules", text: await robotsText(fetched.body) };
    } catch (error) {
      if (!(error instanceof FetchFailed)) throw error;
      const status = error.status;
      // 429 asks for less traffic: read as a server error (as the big crawlers do), not as "no rules".
      if (status !== null && status >= 400 && status < 500 && status !== 429) return { state: "allow" };
      return { state: "disallow", reason: status === null ? error.message : `it answered ${status}` };
    }
  }
  return { readPage, readRobots };
}

/** The first robotsMaxBytes of the body as UTF-8; a line cut there is dropped, so no rule is read half. */
async function robotsText(body: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  let cut = false;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    bytes += chunk.length;
    if (bytes > robotsMaxBytes) {
      cut = true;
      // Leaving the loop destroys the stream: the rest is never downloaded.
      break;
    }
  }
  const text = new TextDecoder("utf-8").decode(Buffer.concat(chunks).subarray(0, robotsMaxBytes));
  return cut ? text.slice(0, text.lastIndexOf("\n") + 1) : text;
}
