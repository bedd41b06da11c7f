/** What the feed-source routes share: the source in the path, and import failures as HTTP errors. */
import { HTTPError } from "h3";
import { z } from "zod";
import { WriteRefused } from "../../data/db/catalogue-writer/transaction.ts";
import { getFeedSource, RunConflict, type FeedSource } from "../../data/db/feed-sources.ts";
import { FeedRefused } from "../../data/feeds/read-feed.ts";
import { configuredFeedId } from "../feed-imports.ts";
import { SourceUnavailable } from "../product-sources.ts";
import { FetchFailed, FetchRefused } from "./guarded-fetch.ts";
import { notFound } from "../http/http.ts";

/** The source a path names: an admin source's id, or "awin" for the configured feed. */
export const sourceRef = z.union(
  [
    z.literal(configuredFeedId),
    z
      .string()
      .regex(/^[1-9]\d{0,15}$/, `id must be a feed source's number or "${configuredFeedId}"`)
      .transform(Number)
      .refine(Number.isSafeInteger, "id is too large"),
  ],
  { error: `id must be a feed source's number or "${configuredFeedId}"` },
);

/** The admin source the path names; 404 when there is none, 409 for the configured feed (it is set in the environment). */
export function editableSource(ref: z.output<typeof sourceRef>, db: Parameters<typeof getFeedSource>[0]): FeedSource {
  if (ref === configuredFeedId) throw new HTTPError({ status: 409, message: "This source is configured by AWIN_FEED_URL / AWIN_FEED_FILE; change it in the server's environment" });
  const source = getFeedSource(db, ref);
  if (!source) throw notFound("Feed source not found");
  return source;
}

/** An import or a feed read that could not be done, as the HTTP error the admin reads. */
export function importError(error: unknown): unknown {
  if (error instanceof RunConflict) return new HTTPError({ status: 409, message: error.message });
  if (error instanceof WriteRefused) return new HTTPError({ status: error.status, message: error.message });
  if (error instanceof SourceUnavailable) return new HTTPError({ status: 503, message: error.message });
  if (error instanceof FeedRefused) return new HTTPError({ status: 422, message: error.message });
  if (error instanceof FetchRefused) return new HTTPError({ status: 400, message: error.message });
  if (error instanceof FetchFailed) return new HTTPError({ status: 502, message: error.message });
  return error;
}
