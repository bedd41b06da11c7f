/**
 * /admin/analytics: catalogue totals, products per category, outbound clicks of the last 30
 * days, and the platform's health as measured by the server (database, price refresh, last
 * site build with its log, outgoing mail, last database backup).
 */
import { Archive, Database, Hammer, Mails, RefreshCw } from "../icons.tsx";
import type { ReactNode } from "react";
import { productPath } from "../../../../data/domain/paths.ts";
import { errorMessage, fetchAnalytics, type Analytics as AnalyticsData } from "../admin-api.ts";
import { formatBytes, formatDateTime, formatDuration } from "../format.ts";
import { refreshResults, refreshSummary } from "../price-pipeline.ts";
import { adminPaths } from "../routes.ts";
import { AdminLink, Badge, BuildResultBadge, Card, LoadFailed, Loading, PageHeader, useLoad } from "../ui.tsx";

function StatCard({ label, value, note }: { label: string; value: number; note?: string }) {
  return (
    <div className="card p-4">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="mt-1 text-2xl font-bold text-slate-900 tabular-nums">
        {value.toLocaleString("en-GB")}
        {note && <span className="mt-0.5 block text-xs font-normal text-slate-600">{note}</span>}
      </dd>
    </div>
  );
}

function Bar({ percent }: { percent: number }) {
  return (
    <div className="h-2 w-full overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
      <div className="h-full rounded-full bg-brand-600" style={{ width: `${Math.min(100, Math.max(0, percent))}%` }} />
    </div>
  );
}

function HealthItem({ icon, title, status, children }: { icon: ReactNode; title: string; status: ReactNode; children?: ReactNode }) {
  return (
    <li className="flex gap-3 py-3">
      <span className="mt-0.5 grid size-8 shrink-0 place-items-center rounded-lg bg-slate-100 text-slate-700" aria-hidden="true">
        {icon}
      </span>
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <h3 className="font-medium text-slate-900">{title}</h3>
          {status}
        </div>
        {children && <div className="mt-1 text-sm text-slate-600">{children}</div>}
      </div>
    </li>
  );
}

function PriceRefresh({ run, next, freshForHours }: { run: AnalyticsData["health"]["lastPriceRefresh"]; next: string | null; freshForHours: number }) {
  const schedule = (
    <p className="mt-1" data-testid="refresh-schedule">
      {next ? `Next page read ${formatDateTime(next)}` : "No page read is scheduled (REFRESH_CRON=off)"} · a price counts as current for {freshForHours}{" "}
      {freshForHours === 1 ? "hour" : "hours"} after it is confirmed
    </p>
  );
  if (!run) {
    return (
      <HealthItem icon={<RefreshCw className="size-4" />} title="Last price refresh" status={<Badge tone="slate">Never</Badge>}>
        No price refresh has run yet.
        {schedule}
      </HealthItem>
    );
  }
  const { tone, text } = refreshResults[run.result] ?? refreshResults.failed;
  return (
    <HealthItem icon={<RefreshCw className="size-4" />} title="Last price refresh" status={<Badge tone={tone}>{text}</Badge>}>
      <p>
        {run.finishedAt ? formatDateTime(run.finishedAt) : `Started ${formatDateTime(run.startedAt)}`} · {refreshSummary(run)}
      </p>
      {schedule}
      {run.held > 0 && (
        <p className="mt-1">
          <AdminLink href={adminPaths.priceReview} className="font-medium text-brand-700 hover:underline">
            Review held prices
          </AdminLink>
        </p>
      )}
    </HealthItem>
  );
}

function Health({ health }: { health: AnalyticsData["health"] }) {
  const build = health.lastBuild;
  return (
    <Card aria-labelledby="health-heading">
      <h2 id="health-heading" className="text-lg font-semibold text-slate-900">
        Platform Health
      </h2>
      <ul className="divide-y divide-slate-100" data-testid="platform-health">
        <HealthItem
          icon={<Database className="size-4" />}
          title="Database"
          status={<Badge tone={health.database.ok ? "green" : "red"}>{health.database.ok ? "Online" : "Unreachable"}</Badge>}
        >
          {health.database.sizeBytes === null ? "Size unknown" : `Size ${formatBytes(health.database.sizeBytes)}`}
        </HealthItem>
        <PriceRefresh run={health.lastPriceRefresh} next={health.nextPriceRefresh} freshForHours={health.freshForHours} />
        <HealthItem
          icon={<Hammer className="size-4" />}
          title="Last site build"
          status={
            build ? <BuildResultBadge result={build.result} /> : <Badge tone="slate">Never</Badge>
          }
        >
          {build && (
            <>
              <p>
                {formatDateTime(build.finishedAt ?? build.startedAt)} · {formatDuration(build.durationMs)} · {build.kind} build
                {health.build.state !== "idle" && ` · now ${health.build.state}`}
              </p>
              {build.logTail && (
                <details className="mt-2">
                  <summary className="cursor-pointer text-brand-700 hover:underline">Build log</summary>
                  <pre className="mt-2 max-h-72 overflow-auto rounded-lg bg-slate-900 p-3 text-xs whitespace-pre-wrap text-slate-100">{build.logTail}</pre>
                </details>
              )}
            </>
          )}
        </HealthItem>
        <HealthItem
          icon={<Mails className="size-4" />}
          title="Outgoing mail"
          status={<Badge tone={health.mail.transport === "smtp" ? "green" : "amber"}>{health.mail.transport === "smtp" ? "SMTP" : "Outbox"}</Badge>}
        >
          {health.mail.transport === "smtp" ? "E-mails are sent through the configured SMTP server." : "No SMTP server is configured: e-mails are written to the outbox folder, not sent."}
        </HealthItem>
        <HealthItem
          icon={<Archive className="size-4" />}
          title="Last backup"
          status={health.lastBackup ? <Badge tone="green">Backed up</Badge> : <Badge tone="amber">None</Badge>}
        >
          <p data-testid="last-backup">
            {health.lastBackup
              ? `${formatDateTime(health.lastBackup.takenAt)} · ${formatBytes(health.lastBackup.bytes)}`
              : "No backup yet: the server backs up on BACKUP_CRON (daily at 03:30 by default), or run npm run backup."}
          </p>
        </HealthItem>
      </ul>
    </Card>
  );
}

export default function Analytics() {
  const { state, reload } = useLoad(fetchAnalytics, []);
  return (
    <div>
      <PageHeader title="Analytics" back={{ href: adminPaths.dashboard, label: "Dashboard" }} />
      {state.kind === "loading" && <Loading label="Loading analytics..." />}
      {state.kind === "failed" && <LoadFailed message={errorMessage(state.error, "Could not load the analytics.")} onRetry={reload} />}
      {state.kind === "ready" && <AnalyticsView data={state.data} />}
    </div>
  );
}

function AnalyticsView({ data }: { data: AnalyticsData }) {
  const { totals, distribution, clicks } = data;
  const maxRetailerClicks = Math.max(1, ...clicks.byRetailer.map((row) => row.clicks));
  // One column on phones whose width is the screen's: a long product name is cut short (truncate),
  // never widening the page (a grid track sized by its content would).
  return (
    <div className="grid grid-cols-1 gap-6">
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6" data-testid="analytics-totals">
        <StatCard label="Total Products" value={totals.products} note={`${totals.featuredProducts.toLocaleString("en-GB")} featured`} />
        <StatCard label="Categories" value={totals.categories} />
        <StatCard label="Retailers" value={totals.retailers} />
        <StatCard label="Email Subscribers" value={totals.emailSubscribers} />
        <StatCard label="Active Vouchers" value={totals.activeVouchers} />
        <StatCard label="Featured Products" value={totals.featuredProducts} />
      </dl>

      <div className="grid grid-cols-1 gap-6 xl:grid-cols-2">
        <Card aria-labelledby="distribution-heading">
          <h2 id="distribution-heading" className="text-lg font-semibold text-slate-900">
            Product Distribution
          </h2>
          <ul className="mt-3 grid gap-3" data-testid="distribution">
            {distribution.map((row) => (
              <li key={row.categoryId}>
                <div className="mb-1 flex justify-between gap-3 text-sm">
                  <span className="text-slate-800">{row.name}</span>
                  <span className="shrink-0 text-slate-600 tabular-nums">
                    {row.products.toLocaleString("en-GB")} ({Math.round(row.percent)}%)
                  </span>
                </div>
                <Bar percent={row.percent} />
              </li>
            ))}
          </ul>
        </Card>

        <Card aria-labelledby="clicks-heading">
          <h2 id="clicks-heading" className="text-lg font-semibold text-slate-900">
            Outbound clicks
          </h2>
          <p className="text-sm text-slate-600">Last {clicks.days} days</p>
          {clicks.byRetailer.length === 0 ? (
            <p className="mt-3 text-sm text-slate-600">No clicks recorded yet.</p>
          ) : (
            <>
              <h3 className="mt-4 text-sm font-semibold text-slate-800">By retailer</h3>
              <ul className="mt-2 grid gap-2">
                {clicks.byRetailer.map((row) => (
                  <li key={row.retailer}>
                    <div className="mb-1 flex justify-between gap-3 text-sm">
                      <span>{row.retailer}</span>
                      <span className="tabular-nums">{row.clicks.toLocaleString("en-GB")}</span>
                    </div>
                    <Bar percent={(row.clicks / maxRetailerClicks) * 100} />
                  </li>
                ))}
              </ul>
              <h3 className="mt-5 text-sm font-semibold text-slate-800">Top clicked products</h3>
              <ol className="mt-2 divide-y divide-slate-100 text-sm">
                {clicks.topProducts.map((row) => (
                  <li key={row.productId} className="flex justify-between gap-3 py-1.5">
                    <a href={productPath(row.slug)} target="_blank" rel="noopener" className="min-w-0 truncate text-slate-800 hover:underline">
                      {row.name}
                    </a>
                    <span className="shrink-0 tabular-nums">{row.clicks.toLocaleString("en-GB")}</span>
                  </li>
                ))}
              </ol>
            </>
          )}
        </Card>
      </div>

      <Health health={data.health} />
    </div>
  );
}
