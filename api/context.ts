import { HTTPError, type H3Event } from "h3";
import type { Db } from "../data/db/client.ts";
import type { CatalogueChange } from "../data/db/catalogue-writer.ts";
import type { HashGate, LoginLimiter } from "./lib/admin-auth.ts";
import type { ResponseCache } from "./lib/response-cache.ts";
import type { RequestGuard } from "./lib/request-guard.ts";
import type { PricePipeline } from "./price-pipeline.ts";
import type { FeedImports } from "./feed-imports.ts";
import type { RefreshRun } from "../data/db/price-review.ts";
import type { BuildRecord } from "../data/db/site-builds.ts";
import type { Nightly } from "./nightly.ts";
import type { MachineTokenView } from "../data/domain/machine-tokens.ts";
import type { BuildStatus } from "./http/responses.ts";

/** The site build as the admin sees and drives it (the rebuild job in api/jobs/). */
export interface SiteBuilds {
  /** Schedules a build of what the change affects (coalesced with other changes); may return a promise of the build. */
  request(change: CatalogueChange): unknown;
  /** What the build is doing and how the last one went, for the admin. */
  status(): BuildStatus;
  /** Resolves when every change asked for so far is built, with the last build's record (the rebuild job has it). */
  settled?(): Promise<BuildRecord | null>;
  /** The served release's folder, or null before the first build (the rebuild job has it). */
  currentRoot?(): string | null;
}

/** What the admin routes need beyond the database. */
export interface AdminContext {
  /**
   * The admin password's scrypt hash (environment, database, or generated on first start), read
   * at each login so `npm run admin:password` takes effect without a restart.
   */
  passwordHash(): string;
  /** Logins per client: 5 a minute, counted before hashing. */
  limiter: LoginLimiter;
  /** Password hashes server-wide: 2 at a time, 8 waiting, more refused. */
  hashing: HashGate;
  /** This site's public origin (PUBLIC_BASE_URL), accepted as a request's Origin besides the request's own. */
  publicOrigin: string;
  /** Call after every committed catalogue write: drops cached responses, checks alerts, rebuilds pages. */
  catalogueChanged(change: CatalogueChange): void;
  site?: SiteBuilds | undefined;
  mailTransport: "smtp" | "outbox";
  /** Imports, the price refresh, reading a page's price. */
  pipeline: PricePipeline;
  /** Product imports as background runs, feed sources' schedules. */
  feedImports: FeedImports;
  /** The last price refresh (null: none has run). */
  lastPriceRefresh: () => RefreshRun | null;
}

/** What every handler may use; built once by the server (or a test) and passed to createApp. */
export interface AppContext {
  db: Db;
  /** Public catalogue responses (see lib/response-cache.ts); writes to the catalogue invalidate it. */
  cache?: ResponseCache | undefined;
  /**
   * Called after a visitor creates or changes an alert, and after a confirmation is requested or
   * followed: the mail job then sends confirmation mails and mails a target already met soon.
   */
  onAlertsChanged?: () => void;
  /** Same-site, JSON-only and per-client limits on writes (absent: defaults, no trusted proxy). */
  requests?: RequestGuard | undefined;
  /** Absent: every admin route and catalogue write answers 401. */
  admin?: AdminContext | undefined;
  /** What the machine routes (called with a machine token) use; absent: they answer 503. */
  machine?: MachineContext | undefined;
}

/** What the machine routes need beyond the database. */
export interface MachineContext {
  nightly: Nightly;
  /** The served release's folder, or null before the first build. */
  releaseRoot(): string | null;
}

export type RouteHandler = (event: H3Event, ctx: AppContext) => unknown;

/** Declares a handler; the type makes a route file's default export checkable on its own. */
export function defineRoute(handler: RouteHandler): RouteHandler {
  return handler;
}

/** A handler for an `auth: "admin"` route: it runs only with a live admin session. */
export type AdminRouteHandler = (event: H3Event, ctx: AppContext & { admin: AdminContext }) => unknown;

export function defineAdminRoute(handler: AdminRouteHandler): RouteHandler {
  return (event, ctx) => {
    if (!ctx.admin) throw new Error("admin route registered without auth: \"admin\"");
    return handler(event, ctx as AppContext & { admin: AdminContext });
  };
}

/** A handler for an `auth: "machine:<scope>"` route: it runs only for a live machine token holding the scope. */
export type MachineRouteHandler = (event: H3Event, ctx: AppContext & { machine: MachineContext }, token: MachineTokenView) => unknown;

export function defineMachineRoute(handler: MachineRouteHandler): RouteHandler {
  return (event, ctx) => {
    const token = event.context.machineToken as MachineTokenView | undefined;
    if (!token) throw new Error('machine route registered without auth: "machine:<scope>"');
    if (!ctx.machine) throw new HTTPError({ status: 503, message: "This server does not run machine jobs" });
    return handler(event, ctx as AppContext & { machine: MachineContext }, token);
  };
}
