import { HTTPError } from "h3";
import { defineAdminRoute } from "../../context.ts";
import { WriteRefused } from "../../../data/db/catalogue-writer.ts";
import { SourceUnavailable } from "../../product-sources.ts";
import { FeedRefused } from "../../../data/feeds/awin-feed.ts";
import { AmazonApiError } from "../../lib/amazon-creators.ts";

/**
 * Imports best-selling products from the configured product source (default: the sample feed).
 * 200 `{ success, errors, totalErrors, ..., source }`; 503 when the source cannot be used as
 * configured (the message says why, e.g. missing credentials); 422 when the source is not a
 * product feed (nothing imported); 409 while an import runs.
 */
export default defineAdminRoute(async (_event, { admin }) => {
  try {
    return await admin.pipeline.importProducts();
  } catch (error) {
    if (error instanceof SourceUnavailable) throw new HTTPError({ status: 503, message: error.message });
    if (error instanceof FeedRefused) throw new HTTPError({ status: 422, message: error.message });
    // The Amazon API refused or could not be reached: a problem upstream, with its reason.
    if (error instanceof AmazonApiError) throw new HTTPError({ status: 502, message: error.message });
    if (error instanceof WriteRefused) throw new HTTPError({ status: error.status, message: error.message });
    throw error;
  }
});
