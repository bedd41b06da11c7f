import { defineAdminRoute } from "../../context.ts";
import type { DashboardResponse } from "../../http/responses.ts";
import { latestAudit } from "../../../data/db/audit.ts";
import { dashboardCounts } from "../../../data/db/admin-reads.ts";

/** Counts of products, categories and retailers, and the latest 20 admin changes. */
export default defineAdminRoute((_event, { db }) => ({
  counts: dashboardCounts(db),
  recentChanges: latestAudit(db, 20).map(({ id, at, action, entity, entityId, summary }) => ({ id, at, action, entity, entityId, summary })),
}) satisfies DashboardResponse);
