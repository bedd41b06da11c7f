/**
 * createApp(): the h3 application with every API endpoint registered in one list. The server
 * (api/server.ts) and the tests build it the same way, over a real database.
 */
import { STATUS_CODES } from "node:http";
import { H3, HTTPError } from "h3";
import type { AppContext, RouteHandler } from "./context.ts";
import { createSiteHandler, type SitePages } from "./http/site.ts";
import health from "./routes/health.get.ts";
import listProducts from "./routes/products/index.get.ts";
import countProducts from "./routes/products/count.get.ts";
import featuredProducts from "./routes/products/featured.get.ts";
import productBySlug from "./routes/products/[slug].get.ts";
import productById from "./routes/products/by-id/[id].get.ts";
import productAlternatives from "./routes/products/[slug]/alternatives.get.ts";
import search from "./routes/search.get.ts";
import compareProducts from "./routes/compare/index.get.ts";
import basketQuote from "./routes/basket/quote.post.ts";
import listCategories from "./routes/categories/index.get.ts";
import categoryById from "./routes/categories/[id].get.ts";
import categoryBySlug from "./routes/categories/slug/[slug].get.ts";
import listRetailers from "./routes/retailers/index.get.ts";
import retailerById from "./routes/retailers/[id].get.ts";
import brands from "./routes/brands.get.ts";
import brandCounts from "./routes/brands/counts.get.ts";
import vouchers from "./routes/vouchers/index.get.ts";
import voucherUse from "./routes/vouchers/[id]/uses.post.ts";
import subscribe from "./routes/subscribers/index.post.ts";
import clicks from "./routes/clicks.post.ts";
import recentlyViewed from "./routes/recently-viewed/index.get.ts";
import recordView from "./routes/recently-viewed/index.post.ts";
import listFavorites from "./routes/favorites/index.get.ts";
import addFavorite from "./routes/favorites/index.post.ts";
import removeFavorite from "./routes/favorites/[id].delete.ts";
import updateFavorite from "./routes/favorites/[id].patch.ts";
import isFavorite from "./routes/is-favorite.get.ts";
import visitorCountsRoute from "./routes/visitor-counts.get.ts";
import listAlerts from "./routes/price-alerts/index.get.ts";
import createAlert from "./routes/price-alerts/index.post.ts";
import deleteAlert from "./routes/price-alerts/[id].delete.ts";
import alertUnsubscribe from "./routes/alerts/unsubscribe.get.ts";
import alertUnsubscribeOneClick from "./routes/alerts/unsubscribe.post.ts";
import newsletterUnsubscribe from "./routes/subscribers/unsubscribe.get.ts";
import newsletterUnsubscribeOneClick from "./routes/subscribers/unsubscribe.post.ts";
import confirmEmail from "./routes/email/confirm.get.ts";
import affiliateLinks from "./routes/affiliate-links.get.ts";
import placeholder from "./routes/placeholder/[width]/[height].get.ts";
import packshot from "./routes/packshot/[file].get.ts";
import adminLogin from "./routes/admin/login.post.ts";
import adminLogout from "./routes/admin/logout.post.ts";
import adminSession from "./routes/admin/session.get.ts";
import adminDashboard from "./routes/admin/dashboard.get.ts";
import adminProducts from "./routes/admin/products/index.get.ts";
import adminProduct from "./routes/admin/products/[id].get.ts";
import createProduct from "./routes/products/index.post.ts";
import updateProduct from "./routes/products/[id].put.ts";
import deleteProduct from "./routes/products/[id].delete.ts";
import createCategory from "./routes/categories/index.post.ts";
import updateCategory from "./routes/categories/[id].put.ts";
import deleteCategory from "./routes/categories/[id].delete.ts";
import createRetailer from "./routes/retailers/index.post.ts";
import updateRetailer from "./routes/retailers/[id].put.ts";
import deleteRetailer from "./routes/retailers/[id].delete.ts";
import adminVouchers from "./routes/admin/vouchers/index.get.ts";
import createVoucher from "./routes/admin/vouchers/index.post.ts";
import updateVoucher from "./routes/admin/vouchers/[id].put.ts";
import deleteVoucher from "./routes/admin/vouchers/[id].delete.ts";
import affiliateIds from "./routes/admin/affiliate-ids.get.ts";
import saveAffiliateIds from "./routes/admin/affiliate-ids.put.ts";
import subscribers from "./routes/admin/email-subscribers/index.get.ts";
import deleteSubscriber from "./routes/admin/email-subscribers/[id].delete.ts";
import analytics from "./routes/admin/analytics.get.ts";
import rebuild from "./routes/admin/rebuild.post.ts";
import buildStatus from "./routes/admin/build-status.get.ts";
import exportProducts from "./routes/admin/export-products.get.ts";
import extractPrice from "./routes/extract-price.post.ts";
import importProducts from "./routes/admin/import-amazon-products.post.ts";
import priceHolds from "./routes/admin/price-holds/index.get.ts";
import feedSources from "./routes/admin/feed-sources/index.get.ts";
import createFeedSource from "./routes/admin/feed-sources/index.post.ts";
import feedSource from "./routes/admin/feed-sources/[id].get.ts";
import updateFeedSource from "./routes/admin/feed-sources/[id].put.ts";
import deleteFeedSource from "./routes/admin/feed-sources/[id].delete.ts";
import uploadFeedFile from "./routes/admin/feed-sources/[id]/file.put.ts";
import detectFeed from "./routes/admin/feed-sources/[id]/detect.post.ts";
import startFeedRun from "./routes/admin/feed-sources/[id]/runs.post.ts";
import feedSourceRuns from "./routes/admin/feed-sources/[id]/runs.get.ts";
import feedRun from "./routes/admin/feed-runs/[id].get.ts";
import acceptPriceHold from "./routes/admin/price-holds/[id].accept.post.ts";
import rejectPriceHold from "./routes/admin/price-holds/[id].reject.post.ts";
import demoCatalogue from "./routes/admin/demo/index.get.ts";
import clearDemo from "./routes/admin/demo/clear.post.ts";
import machineTokens from "./routes/admin/machine-tokens/index.get.ts";
import createMachineToken from "./routes/admin/machine-tokens/index.post.ts";
import revokeMachineToken from "./routes/admin/machine-tokens/[id].delete.ts";
import nightlyRuns from "./routes/admin/nightly-runs.get.ts";
import privacyLookup from "./routes/admin/privacy/lookup.post.ts";
import privacyExport from "./routes/admin/privacy/export.post.ts";
import privacyErase from "./routes/admin/privacy/erase.post.ts";
import clearVisitorData from "./routes/visitor-data/index.delete.ts";
import startNightly from "./routes/machine/nightly/index.post.ts";
import nightlyRun from "./routes/machine/nightly/[id].get.ts";
import currentRelease from "./routes/machine/releases/current-release.get.ts";
import { hasSession } from "./lib/admin-auth.ts";
import { authenticateMachine, recordMachineUse } from "./lib/machine-auth.ts";
import type { MachineScope } from "../data/domain/machine-tokens.ts";
import { assertBodyType, assertJsonBody, assertOwnSite, createRequestGuard, takeLimit, type RequestGuard } from "./http/request-guard.ts";
import type { WriteLimits } from "./http/rate-limit.ts";
import { securityHeaders } from "./http/security-headers.ts";
import { noteDamage } from "../data/db/integrity.ts";
import { cacheNone } from "./http/http.ts";
import { withCache } from "./http/cached-route.ts";
import { tagEventRoute } from "./http/observe.ts";
import { allowedMethods, compileRoutes } from "./http/route-match.ts";
import { openApiRoute } from "./http/openapi.ts";

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * Admin routes run only with a live admin session (else 401), are never cached, and refuse a
 * state-changing request that another site could have made the admin's browser send (403).
 */
function withAdmin(handler: RouteHandler): RouteHandler {
  return (event, ctx) => {
    cacheNone(event);
    if (!ctx.admin || !hasSession(ctx.db, event)) throw new HTTPError({ status: 401, message: "Sign in to the admin area" });
    return handler(event, ctx);
  };
}

/**
 * Machine routes run only for a live machine token holding `scope` (else 401, or 403 for a token
 * without it), are never cached, and record the token's use once the request has succeeded.
 */
function withMachine(handler: RouteHandler, scope: MachineScope): RouteHandler {
  return async (event, ctx) => {
    cacheNone(event);
    const token = authenticateMachine(ctx.db, event, scope);
    event.context.machineToken = token;
    const result = await handler(event, ctx);
    recordMachineUse(ctx.db, token);
    return result;
  };
}

export interface RouteOptions {
  /**
   * A public catalogue read whose answer depends only on the URL and the catalogue: served from
   * the response cache between catalogue writes.
   */
  cache?: boolean;
  /**
   * "admin": only with an admin session (every admin screen's call and every catalogue write).
   * "machine:<scope>": only with a machine token holding the scope (Authorization: Bearer); a
   * browser never sends one by itself, so these writes are not held to the same-site and JSON rules.
   */
  auth?: "admin" | `machine:${MachineScope}`;
  /** The largest JSON body accepted, in bytes (default 16 KiB); larger is a 413. */
  bodyLimit?: number;
  /**
   * An anonymous write's per-client limit (http/rate-limit.ts). Every state-changing route that
   * is not an admin route names one, or "own" when its handler limits itself (the login).
   */
  limit?: keyof WriteLimits | "own";
  /**
   * RFC 8058 one-click unsubscribe: mail providers post `List-Unsubscribe=One-Click` as a form
   * from their own servers; the signed token in the URL is the authority, so no JSON or origin rule.
   */
  oneClick?: boolean;
  /**
   * A file upload: the body is the file itself, of one of these content types, instead of JSON
   * (the same-origin checks still apply; the handler streams it and limits its size).
   */
  upload?: readonly string[];
}

/** Public catalogue reads: cached. */
const cached: RouteOptions = { cache: true };
/** The admin's calls and the catalogue writes. */
const admin: RouteOptions = { auth: "admin" };
/** A product with fifty offers, long affiliate URLs and a long description fits. */
const productWrite: RouteOptions = { auth: "admin", bodyLimit: 256 * 1024 };
/** Anonymous writes, by the limit they count against. */
const mailWrite: RouteOptions = { limit: "mail" };
const clickWrite: RouteOptions = { limit: "clicks" };
const visitorWrite: RouteOptions = { limit: "visitor" };
/** A basket quote stores nothing, but searches many ways to split the basket. */
const quote: RouteOptions = { limit: "quotes" };
const oneClick: RouteOptions = { limit: "visitor", oneClick: true };
/** A feed file upload: CSV, TSV, XML or gzip as the raw body. */
/** The nightly workflow's calls, by the scope they need. */
const nightlyCalls: RouteOptions = { auth: "machine:nightly:run" };
const releaseRead: RouteOptions = { auth: "machine:releases:read" };
const feedUpload: RouteOptions = {
  auth: "admin",
  upload: ["application/octet-stream", "text/csv", "text/tab-separated-values", "application/xml", "text/xml", "application/gzip", "application/x-gzip"],
};

/** Every endpoint: method, path (`:name` is one path segment), handler and options. */
export const routes: ReadonlyArray<readonly [Method, string, RouteHandler, RouteOptions?]> = [
  ["GET", "/api/health", health],
  ["GET", "/api/openapi.json", openApiRoute(() => compiledRoutes), cached],
  ["GET", "/api/products", listProducts, cached],
  ["GET", "/api/products/count", countProducts, cached],
  ["GET", "/api/products/featured", featuredProducts, cached],
  ["GET", "/api/products/by-id/:id", productById],
  ["GET", "/api/products/:slug/alternatives", productAlternatives, cached],
  ["GET", "/api/products/:slug", productBySlug, cached],
  ["GET", "/api/search", search, cached],
  ["GET", "/api/compare", compareProducts, cached],
  ["POST", "/api/basket/quote", basketQuote, quote],
  ["GET", "/api/categories", listCategories, cached],
  ["GET", "/api/categories/slug/:slug", categoryBySlug, cached],
  ["GET", "/api/categories/:id", categoryById, cached],
  ["GET", "/api/retailers", listRetailers, cached],
  ["GET", "/api/retailers/:id", retailerById, cached],
  ["GET", "/api/brands", brands, cached],
  ["GET", "/api/brands/counts", brandCounts, cached],
  ["GET", "/api/vouchers", vouchers],
  ["POST", "/api/vouchers/:id/uses", voucherUse, visitorWrite],
  ["GET", "/api/affiliate-links", affiliateLinks],
  ["GET", "/api/placeholder/:width/:height", placeholder],
  ["GET", "/api/packshot/:file", packshot],
  ["POST", "/api/subscribers", subscribe, mailWrite],
  ["POST", "/api/clicks", clicks, clickWrite],
  ["GET", "/api/recently-viewed", recentlyViewed],
  ["POST", "/api/recently-viewed", recordView, visitorWrite],
  ["GET", "/api/favorites", listFavorites],
  ["POST", "/api/favorites", addFavorite, visitorWrite],
  ["DELETE", "/api/favorites/:id", removeFavorite, visitorWrite],
  ["PATCH", "/api/favorites/:id", updateFavorite, visitorWrite],
  ["GET", "/api/is-favorite", isFavorite],
  ["GET", "/api/visitor-counts", visitorCountsRoute],
  ["GET", "/api/price-alerts", listAlerts],
  ["POST", "/api/price-alerts", createAlert, mailWrite],
  ["DELETE", "/api/price-alerts/:id", deleteAlert, visitorWrite],
  ["GET", "/api/alerts/unsubscribe", alertUnsubscribe],
  ["POST", "/api/alerts/unsubscribe", alertUnsubscribeOneClick, oneClick],
  ["GET", "/api/subscribers/unsubscribe", newsletterUnsubscribe],
  ["POST", "/api/subscribers/unsubscribe", newsletterUnsubscribeOneClick, oneClick],
  ["GET", "/api/email/confirm", confirmEmail],
  ["DELETE", "/api/visitor-data", clearVisitorData, visitorWrite],
  // Admin: signing in and out are open (they check for themselves); everything else needs a session.
  ["POST", "/api/admin/login", adminLogin, { limit: "own" }],
  ["POST", "/api/admin/logout", adminLogout, { limit: "own" }],
  ["GET", "/api/admin/session", adminSession, admin],
  ["GET", "/api/admin/dashboard", adminDashboard, admin],
  ["GET", "/api/admin/products", adminProducts, admin],
  ["GET", "/api/admin/products/:id", adminProduct, admin],
  ["POST", "/api/products", createProduct, productWrite],
  ["PUT", "/api/products/:id", updateProduct, productWrite],
  ["DELETE", "/api/products/:id", deleteProduct, admin],
  ["POST", "/api/categories", createCategory, admin],
  ["PUT", "/api/categories/:id", updateCategory, admin],
  ["DELETE", "/api/categories/:id", deleteCategory, admin],
  ["POST", "/api/retailers", createRetailer, admin],
  ["PUT", "/api/retailers/:id", updateRetailer, admin],
  ["DELETE", "/api/retailers/:id", deleteRetailer, admin],
  ["GET", "/api/admin/vouchers", adminVouchers, admin],
  ["POST", "/api/admin/vouchers", createVoucher, admin],
  ["PUT", "/api/admin/vouchers/:id", updateVoucher, admin],
  ["DELETE", "/api/admin/vouchers/:id", deleteVoucher, admin],
  ["GET", "/api/admin/affiliate-ids", affiliateIds, admin],
  ["PUT", "/api/admin/affiliate-ids", saveAffiliateIds, admin],
  ["GET", "/api/admin/email-subscribers", subscribers, admin],
  ["DELETE", "/api/admin/email-subscribers/:id", deleteSubscriber, admin],
  ["GET", "/api/admin/analytics", analytics, admin],
  ["GET", "/api/admin/export-products", exportProducts, admin],
  ["POST", "/api/admin/rebuild", rebuild, admin],
  ["GET", "/api/admin/build-status", buildStatus, admin],
  ["POST", "/api/extract-price", extractPrice, admin],
  ["POST", "/api/admin/import-amazon-products", importProducts, admin],
  ["GET", "/api/admin/price-holds", priceHolds, admin],
  ["POST", "/api/admin/price-holds/:id/accept", acceptPriceHold, admin],
  ["POST", "/api/admin/price-holds/:id/reject", rejectPriceHold, admin],
  ["GET", "/api/admin/feed-sources", feedSources, admin],
  ["POST", "/api/admin/feed-sources", createFeedSource, admin],
  ["GET", "/api/admin/feed-sources/:id", feedSource, admin],
  ["PUT", "/api/admin/feed-sources/:id", updateFeedSource, admin],
  ["DELETE", "/api/admin/feed-sources/:id", deleteFeedSource, admin],
  ["PUT", "/api/admin/feed-sources/:id/file", uploadFeedFile, feedUpload],
  ["POST", "/api/admin/feed-sources/:id/detect", detectFeed, admin],
  ["POST", "/api/admin/feed-sources/:id/runs", startFeedRun, admin],
  ["GET", "/api/admin/feed-sources/:id/runs", feedSourceRuns, admin],
  ["GET", "/api/admin/feed-runs/:id", feedRun, admin],
  ["GET", "/api/admin/demo", demoCatalogue, admin],
  ["POST", "/api/admin/demo/clear", clearDemo, admin],
  ["GET", "/api/admin/machine-tokens", machineTokens, admin],
  ["POST", "/api/admin/machine-tokens", createMachineToken, admin],
  ["DELETE", "/api/admin/machine-tokens/:id", revokeMachineToken, admin],
  ["GET", "/api/admin/nightly-runs", nightlyRuns, admin],
  ["POST", "/api/admin/privacy/lookup", privacyLookup, admin],
  ["POST", "/api/admin/privacy/export", privacyExport, admin],
  ["POST", "/api/admin/privacy/erase", privacyErase, admin],
  // Machine routes: a machine token's scope, never the admin session.
  ["POST", "/api/machine/nightly", startNightly, nightlyCalls],
  ["GET", "/api/machine/nightly/:id", nightlyRun, nightlyCalls],
  ["GET", "/api/machine/releases/current.tar.gz", currentRelease, releaseRead],
];

/** The route table's paths, compiled once: the 405 answers, the fast path and the API's documentation match with them. */
export const compiledRoutes = compileRoutes(routes);

/** Messages for errors h3 raises itself with only a status text (malformed URL, no route, ...). */
const genericMessages: Record<number, string> = {
  400: "Malformed request: check the URL encoding and the body",
  404: "Not found",
  405: "Method not allowed",
  413: "Request body too large",
};

/** Every error leaves as JSON `{ "error": "..." }`; an unexpected one is logged and says nothing inside. */
function errorResponse(error: HTTPError): Response {
  const status = error.status >= 400 && error.status < 600 ? error.status : 500;
  if (status >= 500) console.error(error.cause ?? error);
  const generic = !error.message || error.message === (error.statusText ?? STATUS_CODES[status]) || error.message.startsWith("Cannot find any route");
  // An unexpected failure (500) says nothing of its cause; a deliberate 5xx (503: this server does not build) keeps its message.
  const message = status === 500 ? "Internal server error" : generic ? (genericMessages[status] ?? "Request failed") : error.message;
  return Response.json(
    { error: message },
    { status, headers: { "cache-control": "no-store", ...Object.fromEntries(error.headers ?? []) } },
  );
}

/**
 * Adds the security headers (http/security-headers.ts) an answer does not carry yet: the API's
 * policy for JSON and everything else, the page policy for HTML the API renders itself (the
 * unsubscribe and confirmation pages, which run no script).
 */
function addSecurityHeaders(response: Response, https: boolean): void {
  if (response.headers.has("content-security-policy")) return;
  const kind = response.headers.get("content-type")?.startsWith("text/html") ? "page" : "api";
  for (const [name, value] of Object.entries(securityHeaders(kind, { https }))) response.headers.set(name, value);
}

export interface AppOptions {
  /** The built site's folder, asked for on every request (null while there is none). */
  siteRoot?: () => string | null;
  /** The site's pages over `siteRoot`, when the HTTP server answers pages too (shares what they keep). */
  sitePages?: SitePages;
}

const isWrite = (method: string) => method !== "GET" && method !== "HEAD";

/**
 * Every state-changing request passes the request guard first: refused when another site made
 * the browser send it or when its body is not JSON; an anonymous write counts against its limit.
 */
function withWriteGuard(handler: RouteHandler, guard: RequestGuard, options: RouteOptions | undefined): RouteHandler {
  const limit = options?.limit;
  return (event, ctx) => {
    if (!options?.oneClick) {
      assertOwnSite(event, guard.publicOrigin);
      if (options?.upload) assertBodyType(event, options.upload);
      else assertJsonBody(event);
    }
    if (limit !== undefined && limit !== "own") takeLimit(event, guard, limit);
    return handler(event, ctx);
  };
}

export function createApp(ctx: AppContext, options: AppOptions = {}): H3 {
  const guard = ctx.requests ?? createRequestGuard({ publicOrigin: ctx.admin?.publicOrigin ?? null });
  const app = new H3({
    onError: (error) => {
      // A query that hit a damaged file: health reports it from now on.
      noteDamage(ctx.db, error.cause);
      return errorResponse(error);
    },
    // Every answer carries the security headers; the site's pages come with their own page policy.
    onResponse: (response) => addSecurityHeaders(response, guard.publicOrigin?.startsWith("https:") ?? false),
  });
  for (const [method, path, handler, options] of routes) {
    if (isWrite(method) && options?.auth === undefined && options?.limit === undefined) {
      throw new Error(`${method} ${path}: an anonymous write needs a per-client limit (options.limit)`);
    }
    const scope = options?.auth?.startsWith("machine:") ? (options.auth.slice("machine:".length) as MachineScope) : null;
    const route = options?.auth === "admin" ? withAdmin(handler) : scope ? withMachine(handler, scope) : options?.cache ? withCache(handler) : handler;
    const run = isWrite(method) && !scope ? withWriteGuard(route, guard, options) : route;
    const bodyLimit = options?.bodyLimit;
    app.on(method, path, (event) => {
      tagEventRoute(event, path); // the metrics and logs name the route by its pattern
      if (bodyLimit !== undefined) event.context.bodyLimit = bodyLimit;
      return run(event, ctx);
    });
    // HEAD answers as GET does, without the body (the HTTP server leaves it out).
    if (method === "GET")
      app.on("HEAD", path, (event) => {
        tagEventRoute(event, path);
        return run(event, ctx);
      });
  }
  app.all("/api/**", (event) => {
    // A known path asked with another method is a 405 naming the methods it takes, not a 404.
    const allowed = allowedMethods(compiledRoutes, event.url.pathname);
    if (allowed.length === 0) throw new HTTPError({ status: 404, message: "Not found" });
    throw new HTTPError({
      status: 405,
      message: `${event.req.method} is not allowed here; use ${allowed.join(" or ")}`,
      headers: { allow: allowed.join(", ") },
    });
  });
  if (options.siteRoot) app.all("/**", createSiteHandler(options.sitePages ?? options.siteRoot));
  return app;
}
