/**
 * Reading a product feed from its download link: through the guarded fetch (public addresses only,
 * checked after DNS and after every redirect), streamed with the feed download's size and time
 * limits instead of a page's. Feed links carry the network's API key, so every error that leaves
 * here has the URLs in its message masked.
 */
import { feedConfig } from "../../data/config.ts";
import { maskUrlsIn } from "../../data/domain/feed-sources.ts";
import type { FeedItem } from "../../data/domain/feed-row.ts";
import { readFeed, sniffFeed, type FeedReadOptions, type FeedSniff } from "../../data/feeds/read-feed.ts";
import { FetchFailed, FetchRefused, guardedFetchStream, type TestAllowance } from "./guarded-fetch.ts";

export interface DownloadOptions {
  signal?: AbortSignal;
  /** Only tests pass one (see guarded-fetch.ts). */
  allowance?: TestAllowance;
  /** Default: FEED_DOWNLOAD_MAX_BYTES. */
  maxBytes?: number;
  /** Default: FEED_DOWNLOAD_TIMEOUT_MINUTES. */
  timeoutMs?: number;
}

/** The same error with the URLs in its message masked (FetchRefused and FetchFailed keep their class). */
function masked(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const message = maskUrlsIn(error.message);
  if (message === error.message) return error;
  if (error instanceof FetchRefused) return new FetchRefused(message);
  if (error instanceof FetchFailed) return new FetchFailed(message);
  const copy = new Error(message);
  copy.name = error.name;
  return copy;
}

async function* maskingErrors(items: AsyncIterable<FeedItem>): AsyncGenerator<FeedItem> {
  try {
    yield* items;
  } catch (error) {
    throw masked(error);
  }
}

async function openBody(url: string, options: DownloadOptions, maxBytes?: number) {
  const config = feedConfig();
  try {
    const { body } = await guardedFetchStream(url, {
      maxBytes: maxBytes ?? options.maxBytes ?? config.downloadMaxBytes,
      timeoutMs: options.timeoutMs ?? config.downloadTimeoutMs,
      signal: options.signal,
      allowance: options.allowance,
    });
    return body;
  } catch (error) {
    throw masked(error);
  }
}

/** The feed's rows, streamed from its URL. */
export async function downloadFeed(url: string, read: FeedReadOptions, options: DownloadOptions = {}): Promise<AsyncIterable<FeedItem>> {
  const body = await openBody(url, options);
  return maskingErrors(readFeed(body, read));
}

/** How much of a feed is read to detect its layout and columns. */
export const sniffBytes = 256 * 1024;

/** The feed's layout and columns, from its first bytes only (the download is cut off after them). */
export async function sniffFeedUrl(url: string, options: DownloadOptions = {}): Promise<FeedSniff> {
  const body = await openBody(url, { ...options, timeoutMs: options.timeoutMs ?? 30_000 }, Number.MAX_SAFE_INTEGER);
  try {
    return await sniffFeed(body, { maxBytes: sniffBytes });
  } catch (error) {
    throw masked(error);
  } finally {
    body.destroy();
  }
}
