/**
 * Where products and prices come from, configured by environment variables:
 *
 * - `sample`: the best-seller feed shipped in data/feeds/amazon-best-sellers.csv (Awin CSV
 *   layout). The Import button's default source (IMPORT_SOURCE overrides it). It creates
 *   products. A fixed snapshot never confirms prices, so the refresh does not read it.
 * - `awin`: an affiliate product feed, from AWIN_FEED_URL (the feed's download link, which holds
 *   the API key: a secret) or AWIN_FEED_FILE. It creates products only with
 *   AWIN_CREATE_PRODUCTS=true; the nightly refresh reads it first for the retailers it covers.
 * - `amazon`: the Amazon Creators API (successor of the Product Advertising API 5, retired in
 *   2026; see lib/amazon-creators.ts). Needs AMAZON_CREATORS_CREDENTIAL_ID,
 *   AMAZON_CREATORS_CREDENTIAL_SECRET and AMAZON_PARTNER_TAG (an approved Associates account
 *   with recent qualifying sales); without them it reports exactly that and imports nothing.
 */
import fs from "node:fs";
import path from "node:path";
import { projectRoot } from "../data/config.ts";
import type { FeedItem } from "../data/domain/feed-row.ts";
import { readFeed } from "../data/feeds/read-feed.ts";
import { downloadFeed } from "./lib/feed-download.ts";
import { amazonBestSellers } from "./lib/amazon-creators.ts";

/** A source that cannot be used as configured (missing credentials, file or URL): answered 503. */
export class SourceUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SourceUnavailable";
  }
}

export interface FeedSource {
  kind: "feed";
  name: string;
  label: string;
  createProducts: boolean;
  /** Whether the nightly refresh reads it for current prices. */
  refresh: boolean;
  /** Where it is read from, for the admin's list (a URL is shown masked). */
  location?: { url: string } | { file: string };
  /** Opens the feed as a stream of rows (never read whole into memory). */
  open(): Promise<AsyncIterable<FeedItem>>;
}

export interface AmazonSource {
  kind: "amazon";
  name: "amazon";
  label: string;
  createProducts: true;
  refresh: false;
  /** Which variables are missing (empty: configured). */
  missing: string[];
  /** Streams best sellers from the API; only called when nothing is missing. */
  open(): AsyncIterable<FeedItem>;
}

export type ProductSource = FeedSource | AmazonSource;

export const sampleFeedFile = path.join(projectRoot, "data/feeds/amazon-best-sellers.csv");

function fileFeed(file: string): () => Promise<AsyncIterable<FeedItem>> {
  return async () => {
    if (!fs.existsSync(file)) throw new SourceUnavailable(`The feed file ${file} does not exist`);
    return readFeed(file);
  };
}

/**
 * Streams a feed from its download link through the guarded fetch (public addresses only, checked
 * after DNS and every redirect), with the feed download's size and time limits.
 */
function urlFeed(url: string): () => Promise<AsyncIterable<FeedItem>> {
  return async () => {
    const parsed = URL.canParse(url) ? new URL(url) : null;
    if (parsed?.protocol !== "https:" && parsed?.protocol !== "http:") throw new SourceUnavailable("AWIN_FEED_URL must be an http or https URL");
    return downloadFeed(url, {});
  };
}

export function productSources(env: NodeJS.ProcessEnv = process.env): Map<string, ProductSource> {
  const sources = new Map<string, ProductSource>();
  sources.set("sample", {
    kind: "feed",
    name: "sample",
    label: "Amazon Best Sellers (sample feed)",
    createProducts: true,
    refresh: false,
    open: fileFeed(env.SAMPLE_FEED_FILE?.trim() || sampleFeedFile),
    location: { file: env.SAMPLE_FEED_FILE?.trim() || sampleFeedFile },
  });
  const awinUrl = env.AWIN_FEED_URL?.trim();
  const awinFile = env.AWIN_FEED_FILE?.trim();
  if (awinUrl || awinFile) {
    sources.set("awin", {
      kind: "feed",
      name: "awin",
      label: "Awin product feed",
      createProducts: env.AWIN_CREATE_PRODUCTS?.trim() === "true",
      refresh: true,
      open: awinUrl ? urlFeed(awinUrl) : fileFeed(path.resolve(awinFile!)),
      location: awinUrl ? { url: awinUrl } : { file: path.resolve(awinFile!) },
    });
  }
  const amazonVariables = ["AMAZON_CREATORS_CREDENTIAL_ID", "AMAZON_CREATORS_CREDENTIAL_SECRET", "AMAZON_PARTNER_TAG"];
  sources.set("amazon", {
    kind: "amazon",
    name: "amazon",
    label: "Amazon Creators API",
    createProducts: true,
    refresh: false,
    missing: amazonVariables.filter((name) => !env[name]?.trim()),
    open: () =>
      amazonBestSellers({
        credentialId: env.AMAZON_CREATORS_CREDENTIAL_ID?.trim() ?? "",
        credentialSecret: env.AMAZON_CREATORS_CREDENTIAL_SECRET?.trim() ?? "",
        partnerTag: env.AMAZON_PARTNER_TAG?.trim() ?? "",
        tokenUrl: env.AMAZON_CREATORS_TOKEN_URL?.trim() || undefined,
        apiUrl: env.AMAZON_CREATORS_API_URL?.trim() || undefined,
      }),
  });
  return sources;
}

/** The Import button's source: IMPORT_SOURCE, default the sample feed. */
export function defaultImportSource(env: NodeJS.ProcessEnv = process.env): string {
  return env.IMPORT_SOURCE?.trim() || "sample";
}

/** Opens a source's rows, or says exactly why it cannot be used. */
export async function openSource(source: ProductSource): Promise<AsyncIterable<FeedItem>> {
  if (source.kind === "feed") return source.open();
  if (source.missing.length > 0) {
    throw new SourceUnavailable(`Amazon Creators API credentials are not set (${source.missing.join(", ")}); nothing was imported`);
  }
  return source.open();
}
