import fs from "node:fs";
import { defineAdminRoute } from "../../context.ts";
import type { AnalyticsResponse } from "../../http/responses.ts";
import { readAnalytics } from "../../../data/db/admin-reads.ts";
import { latestBuild } from "../../../data/db/site-builds.ts";
import { ukToday } from "../../../data/domain/dates.ts";
import type { RefreshRun } from "../../../data/db/price-review.ts";

/** The last refresh as Platform Health shows it (its failure lines stay in the database). */
function lastRefresh(run: RefreshRun | null) {
  if (!run) return null;
  const { startedAt, finishedAt, durationMs, checked, changed, held, failed, result } = run;
  return { startedAt, finishedAt, durationMs, checked, changed, held, failed, result };
}

/** The analytics cards, and Platform Health as measured now (not fixed texts). */
export default defineAdminRoute((_event, { db, admin }) => {
  const analytics = readAnalytics(db, new Date(), ukToday());
  let database: { ok: boolean; sizeBytes: number | null };
  try {
    db.$client.prepare("SELECT 1").get();
    const file = db.$client.name;
    // The database file and its write-ahead log: recent writes live in the log until a checkpoint.
    const size = (name: string) => (fs.existsSync(name) ? fs.statSync(name).size : 0);
    database = { ok: true, sizeBytes: file && fs.existsSync(file) ? size(file) + size(`${file}-wal`) : null };
  } catch {
    database = { ok: false, sizeBytes: null };
  }
  const backup = admin.lastBackup();
  const build = admin.site?.status() ?? null;
  return {
    ...analytics,
    health: {
      database,
      lastPriceRefresh: lastRefresh(admin.lastPriceRefresh()),
      // When the server reads retailer pages next (null: not scheduled), and how long a price counts as current.
      nextPriceRefresh: admin.pipeline.nextScheduledRefresh()?.toISOString() ?? null,
      freshForHours: admin.pipeline.freshForMs / 3_600_000,
      // The last build whoever ran it (this server, or `npm run build`).
      lastBuild: build?.lastBuild ?? latestBuild(db),
      build: { state: build?.state ?? "idle" },
      mail: { transport: admin.mailTransport },
      // The newest backup file (null: no backup yet).
      lastBackup: backup ? { takenAt: backup.takenAt, bytes: backup.bytes } : null,
    },
  } satisfies AnalyticsResponse;
});
