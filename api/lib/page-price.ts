/**
 * Reads the offer on a retailer's product page: the guarded fetch (public addresses only, 5 s,
 * 2 MB, 3 redirects) and then the pure extractor on the page it ended at.
 */
import { guardedFetch, type TestAllowance } from "./guarded-fetch.ts";
import { siteConfig } from "../../data/config.ts";
import { readOffer, type OfferReading } from "../../data/domain/offer-extract.ts";

/**
 * Reads a page's offer: found (with its evidence and confidence), undecided (the candidates) or
 * none (why); null stands for none where a stub reads no page. Throws FetchRefused / FetchFailed.
 */
export type PageReader = (url: string) => Promise<OfferReading | null>;

/** An honest User-Agent: who is asking, and where to read about it. */
export const priceCheckUserAgent = `${siteConfig.siteName}Bot/1.0 (+${siteConfig.baseUrl}/how-we-compare; price checks for ${new URL(siteConfig.baseUrl).host})`;

/** `allowance` lets tests read fixture pages from loopback; production never passes one. */
export function createPageReader(options: { allowance?: TestAllowance | undefined; timeoutMs?: number } = {}): PageReader {
  return async (url) => {
    const page = await guardedFetch(url, { allowance: options.allowance, userAgent: priceCheckUserAgent, timeoutMs: options.timeoutMs });
    return readOffer(page.body, page.url);
  };
}
