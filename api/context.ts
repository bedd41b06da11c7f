import type { H3Event } from "h3";
import type { Db } from "../data/db/client.ts";
import type { ResponseCache } from "./lib/response-cache.ts";

/** What every handler may use; built once by the server (or a test) and passed to createApp. */
export interface AppContext {
  db: Db;
  /** Public catalogue responses (see lib/response-cache.ts); writes to the catalogue invalidate it. */
  cache?: ResponseCache;
  /** Called after a visitor creates or changes an alert, so a target already met is mailed soon. */
  onAlertsChanged?: () => void;
}

export type RouteHandler = (event: H3Event, ctx: AppContext) => unknown;

/** Declares a handler; the type makes a route file's default export checkable on its own. */
export function defineRoute(handler: RouteHandler): RouteHandler {
  return handler;
}
