import { defineAdminRoute } from "../../../context.ts";
import type { FeedSourceList } from "../../../http/responses.ts";

/** The feed sources: the configured feed (AWIN_FEED_URL / AWIN_FEED_FILE, read-only) first, then the admin's; URLs masked, each with its last run. */
export default defineAdminRoute((_event, { admin }) => ({ sources: admin.feedImports.views() }) satisfies FeedSourceList);
