/**
 * The Awin feed reader's old entry point, kept for its callers: Awin's publisher download is one
 * of the layouts read-feed.ts detects, so readFeed here is that reader (layout auto).
 */
export { FeedRefused, FeedTooLarge, readFeed, type FeedItem, type FeedOffer } from "./read-feed.ts";
export { detectDelimiter } from "./csv-feed.ts";
