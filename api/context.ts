import { HTTPError, type H3Event } from "h3";
import type { Db } from "../data/db/client.ts";
import type { CatalogueChange } from "../data/db/catalogue-writer/transaction.ts";
import type { HashGate, LoginLimiter } from "./lib/admin-auth.ts";
import type { ResponseCache } from "./http/response-cache.ts";
import type { RequestGuard } from "./http/request-guard.ts";
import type { PricePipeline } from "./price-pipeline.ts";
import type { FeedImports } from "./feed-imports.ts";
import type { RefreshRun } from "../data/db/price-review.ts";
import type { BackupFile } from "../data/db/backup.ts";
import type { BuildRecord } from "../data/db/site-builds.ts";
import type { Nightly } from "./nightly.ts";
import type { MachineTokenView } from "../data/domain/machine-tokens.ts";
import type { Telemetry } from "./http/observe.ts";
import { declareInput, parseInput, type InputSpec, type RouteInput } from "./http/route-input.ts";
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
  /** The newest database backup in BACKUP_DIR (null: none yet). */
  lastBackup: () => BackupFile | null;
}

/** What every handler may use; built once by the server (or a test) and passed to createApp. */
export interface AppContext {
  db: Db;
  /** Public catalogue responses (see http/response-cache.ts); writes to the catalogue invalidate it. */
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
  /** The server's metrics and logger, and who may read GET /metrics (absent: no metrics, no request logs). */
  telemetry?: Telemetry | undefined;
}

/** What the machine routes need beyond the database. */
export interface MachineContext {
  nightly: Nightly;
  /** The served release's folder, or null before the first build. */
  releaseRoot(): string | null;
}

export type RouteHandler = (event: H3Event, ctx: AppContext) => unknown;

/** A route's handler given its declared input (see http/route-input.ts). */
export type InputRouteHandler<S extends InputSpec, C = AppContext> = (event: H3Event, ctx: C, input: RouteInput<S>) => unknown;

/** Wraps a handler so it runs with its request parsed as `spec` declares, and records the declaration. */
function withInput<S extends InputSpec, C>(spec: S, handler: InputRouteHandler<S, C>, context: (event: H3Event, ctx: AppContext) => C): RouteHandler {
  const route: RouteHandler = (event, ctx) => {
    const routeCtx = context(event, ctx);
    return handler(event, routeCtx, parseInput(spec, event));
  };
  declareInput(route, spec);
  return route;
}

/**
 * Declares a handler; the type makes a route file's default export checkable on its own. With a
 * spec first, the request's path parameters, query and body are declared with the route and the
 * handler gets them parsed.
 */
export function defineRoute(handler: RouteHandler): RouteHandler;
export function defineRoute<const S extends InputSpec>(spec: S, handler: InputRouteHandler<S>): RouteHandler;
export function defineRoute<const S extends InputSpec>(first: RouteHandler | S, handler?: InputRouteHandler<S>): RouteHandler {
  if (typeof first === "function") return first;
  return withInput(first, handler!, (_event, ctx) => ctx);
}

/** A handler for an `auth: "admin"` route: it runs only with a live admin session. */
export type AdminRouteHandler = (event: H3Event, ctx: AppContext & { admin: AdminContext }) => unknown;

function adminContext(_event: H3Event, ctx: AppContext): AppContext & { admin: AdminContext } {
  if (!ctx.admin) throw new Error("admin route registered without auth: \"admin\"");
  return ctx as AppContext & { admin: AdminContext };
}

export function defineAdminRoute(handler: AdminRouteHandler): RouteHandler;
export function defineAdminRoute<const S extends InputSpec>(spec: S, handler: InputRouteHandler<S, AppContext & { admin: AdminContext }>): RouteHandler;
export function defineAdminRoute<const S extends InputSpec>(
  first: AdminRouteHandler | S,
  handler?: InputRouteHandler<S, AppContext & { admin: AdminContext }>,
): RouteHandler {
  if (typeof first === "function") return (event, ctx) => first(event, adminContext(event, ctx));
  return withInput(first, handler!, adminContext);
}

/** A handler for an `auth: "machine:<scope>"` route: it runs only for a live machine token holding the scope. */
export type MachineRouteHandler = (event: H3Event, ctx: AppContext & { machine: MachineContext }, token: MachineTokenView) => unknown;

/** The machine route's context and the token it was called with. */
export interface MachineCall {
  ctx: AppContext & { machine: MachineContext };
  token: MachineTokenView;
}

function machineCall(event: H3Event, ctx: AppContext): MachineCall {
  const token = event.context.machineToken as MachineTokenView | undefined;
  if (!token) throw new Error('machine route registered without auth: "machine:<scope>"');
  if (!ctx.machine) throw new HTTPError({ status: 503, message: "This server does not run machine jobs" });
  return { ctx: ctx as AppContext & { machine: MachineContext }, token };
}

export function defineMachineRoute(handler: MachineRouteHandler): RouteHandler;
export function defineMachineRoute<const S extends InputSpec>(spec: S, handler: InputRouteHandler<S, MachineCall>): RouteHandler;
export function defineMachineRoute<const S extends InputSpec>(first: MachineRouteHandler | S, handler?: InputRouteHandler<S, MachineCall>): RouteHandler {
  if (typeof first === "function") {
    return (event, ctx) => {
      const call = machineCall(event, ctx);
      return first(event, call.ctx, call.token);
    };
  }
  return withInput(first, handler!, machineCall);
}
