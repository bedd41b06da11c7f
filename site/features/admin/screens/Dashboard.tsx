/**
 * /admin: while the demo catalogue is present, how to go live and a button to remove it; the
 * catalogue's counts, shortcuts to every section, the latest 20 changes and the state of the
 * public site's build, with a button to rebuild it now.
 */
import { BadgePoundSterling, ChartColumn, CirclePlus, FolderTree, Import, Link2, Mails, Package, RefreshCw, Rss, Store, TicketPercent } from "../icons.tsx";
import { useEffect, useState } from "react";
import { relativeTime } from "../../../../data/domain/admin-display.ts";
import { homePath } from "../../../../data/domain/paths.ts";
import { toast } from "../../toast/toast.store.ts";
import { errorMessage, fetchBuildStatus, fetchDashboard, requestRebuild, type BuildStatus } from "../admin-api.ts";
import { formatDateTime, formatDuration } from "../format.ts";
import { adminPaths } from "../routes.ts";
import { DemoCatalogue } from "../DemoCatalogue.tsx";
import { AdminLink, Badge, BuildResultBadge, Card, LoadFailed, Loading, PageHeader, useLoad } from "../ui.tsx";

/** The section tiles (worked out when drawn: a screen reads no address while its module loads). */
const tiles = () => [
  { href: adminPaths.products, title: "Products", text: "Edit products, offers and prices", icon: Package },
  { href: adminPaths.categories, title: "Categories", text: "Names, slugs and icons", icon: FolderTree },
  { href: adminPaths.retailers, title: "Retailers", text: "Shops, logos and websites", icon: Store },
  { href: adminPaths.vouchers, title: "Vouchers", text: "Codes, discounts and expiry dates", icon: TicketPercent },
  { href: adminPaths.amazonImport, title: "Amazon Import", text: "Import best-selling products", icon: Import },
  { href: adminPaths.feeds, title: "Feeds", text: "Product feeds, schedules and import runs", icon: Rss },
  { href: adminPaths.priceReview, title: "Price Review", text: "Price changes held for a check", icon: BadgePoundSterling },
  { href: adminPaths.affiliateLinks, title: "Affiliate Links", text: "Your affiliate programme IDs", icon: Link2 },
  { href: adminPaths.emailSubscribers, title: "Email Subscribers", text: "Newsletter sign-ups and export", icon: Mails },
  { href: adminPaths.analytics, title: "Analytics", text: "Clicks, distribution and health", icon: ChartColumn },
];

const stateText: Record<BuildStatus["state"], string> = {
  idle: "Up to date",
  scheduled: "Rebuild scheduled",
  building: "Building...",
};

/** How often the build state is asked for while a build is scheduled or running. */
const buildPollMs = 2000;

function SiteBuild() {
  const { state, setData, reload } = useLoad(fetchBuildStatus, []);
  const [requesting, setRequesting] = useState(false);
  const busy = state.kind === "ready" && state.data.state !== "idle";

  useEffect(() => {
    if (!busy) return;
    const timer = window.setTimeout(reload, buildPollMs);
    return () => window.clearTimeout(timer);
  }, [busy, state, reload]);

  async function rebuild() {
    setRequesting(true);
    try {
      setData(await requestRebuild());
      toast({ title: "Rebuild started", description: "The public site will update when the build finishes." });
    } catch (error) {
      toast({ title: "Rebuild failed to start", description: errorMessage(error, "Please try again."), variant: "destructive" });
    } finally {
      setRequesting(false);
    }
  }

  const last = state.kind === "ready" ? state.data.lastBuild : null;
  return (
    <Card aria-labelledby="site-build-heading">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="site-build-heading" className="text-lg font-semibold text-slate-900">
            Public site
          </h2>
          <p className="text-sm text-slate-600">Pages are rebuilt after every change; rebuild by hand if something looks out of date.</p>
        </div>
        <button type="button" className="btn-primary" onClick={rebuild} disabled={requesting || busy || state.kind !== "ready"}>
          <RefreshCw className={busy ? "size-4 animate-spin" : "size-4"} aria-hidden="true" />
          Rebuild site
        </button>
      </div>
      {state.kind === "loading" && <Loading label="Loading build status..." />}
      {state.kind === "failed" && <LoadFailed message={errorMessage(state.error, "Could not load the build status.")} onRetry={reload} />}
      {state.kind === "ready" && (
        <dl className="mt-4 grid gap-3 text-sm sm:grid-cols-3" data-testid="build-status">
          <div>
            <dt className="text-slate-600">State</dt>
            <dd className="mt-0.5">
              <span role="status">
                <Badge tone={busy ? "amber" : "green"}>{stateText[state.data.state]}</Badge>
              </span>
            </dd>
          </div>
          <div>
            <dt className="text-slate-600">Last build</dt>
            <dd className="mt-0.5 font-medium text-slate-900">{last ? formatDateTime(last.finishedAt ?? last.startedAt) : "Never"}</dd>
          </div>
          <div>
            <dt className="text-slate-600">Result</dt>
            <dd className="mt-0.5">
              {last ? (
                <span className="inline-flex items-center gap-2">
                  <BuildResultBadge result={last.result} />
                  <span className="text-slate-600">{formatDuration(last.durationMs)}</span>
                </span>
              ) : (
                "—"
              )}
            </dd>
          </div>
        </dl>
      )}
    </Card>
  );
}

export default function Dashboard() {
  const { state, reload } = useLoad(fetchDashboard, []);
  // Removing the demo rebuilds the site: the build card loads its state afresh to show it.
  const [demoCleared, setDemoCleared] = useState(0);
  return (
    <div className="grid gap-6">
      <div>
        <PageHeader title="Admin Dashboard" description="Manage the catalogue, retailers, vouchers and the public site." />
        <div className="-mt-2 flex flex-wrap gap-2">
          <AdminLink href={adminPaths.products} className="btn-outline">
            Manage Products
          </AdminLink>
          <AdminLink href={adminPaths.newProduct} className="btn-primary">
            <CirclePlus className="size-4" aria-hidden="true" />
            Add New Product
          </AdminLink>
          <AdminLink href={adminPaths.categories} className="btn-outline">
            Manage Categories
          </AdminLink>
          <AdminLink href={adminPaths.retailers} className="btn-outline">
            Manage Retailers
          </AdminLink>
          <a href={homePath} className="btn-ghost">
            Back to Homepage
          </a>
        </div>
      </div>

      <DemoCatalogue
        onCleared={() => {
          reload();
          setDemoCleared((count) => count + 1);
        }}
      />

      {state.kind === "loading" && <Loading label="Loading dashboard..." />}
      {state.kind === "failed" && <LoadFailed message={errorMessage(state.error, "Could not load the dashboard.")} onRetry={reload} />}
      {state.kind === "ready" && (
        <dl className="grid grid-cols-3 gap-3 sm:gap-4" data-testid="dashboard-counts">
          {(
            [
              ["Products", state.data.counts.products, adminPaths.products],
              ["Categories", state.data.counts.categories, adminPaths.categories],
              ["Retailers", state.data.counts.retailers, adminPaths.retailers],
            ] as const
          ).map(([label, count, href]) => (
            <div key={label} className="card relative p-3 sm:p-5">
              <dt className="text-xs font-medium text-slate-600 sm:text-sm">
                <AdminLink href={href} className="after:absolute after:inset-0 hover:underline">
                  {label}
                </AdminLink>
              </dt>
              <dd className="mt-1 text-2xl font-bold text-slate-900 tabular-nums sm:text-3xl">{count.toLocaleString("en-GB")}</dd>
            </div>
          ))}
        </dl>
      )}

      <section aria-labelledby="sections-heading">
        <h2 id="sections-heading" className="sr-only">
          Sections
        </h2>
        <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-3">
          {tiles().map(({ href, title, text, icon: Icon }) => (
            <li key={href}>
              <AdminLink href={href} className="card flex h-full items-start gap-3 p-4 transition hover:border-brand-300 hover:shadow-md">
                <span className="grid size-10 shrink-0 place-items-center rounded-lg bg-brand-50 text-brand-700" aria-hidden="true">
                  <Icon className="size-5" />
                </span>
                <span>
                  <span className="block font-semibold text-slate-900">{title}</span>
                  <span className="block text-sm text-slate-600">{text}</span>
                </span>
              </AdminLink>
            </li>
          ))}
        </ul>
      </section>

      <div className="grid gap-6 xl:grid-cols-2">
        <SiteBuild key={demoCleared} />
        <Card aria-labelledby="recent-heading">
          <h2 id="recent-heading" className="text-lg font-semibold text-slate-900">
            Recent changes
          </h2>
          {state.kind === "ready" &&
            (state.data.recentChanges.length === 0 ? (
              <p className="mt-3 text-sm text-slate-600">No changes yet. Edits made here are listed with their time.</p>
            ) : (
              <ol className="mt-3 divide-y divide-slate-100" data-testid="recent-changes">
                {state.data.recentChanges.slice(0, 20).map((entry) => (
                  <li key={entry.id} className="flex gap-3 py-2 text-sm">
                    <time dateTime={entry.at} title={formatDateTime(entry.at)} className="w-20 shrink-0 text-slate-500 tabular-nums">
                      {relativeTime(entry.at)}
                    </time>
                    <span className="min-w-0 break-words text-slate-800">{entry.summary}</span>
                  </li>
                ))}
              </ol>
            ))}
          {state.kind === "loading" && <Loading label="Loading recent changes..." />}
        </Card>
      </div>
    </div>
  );
}
