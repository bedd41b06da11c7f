/**
 * The checks every state-changing API request passes before its handler runs:
 *  - it comes from our own pages: a request the browser marks as sent by another site
 *    (Sec-Fetch-Site: cross-site or same-site) or whose Origin is neither this server's nor the
 *    public origin is refused (403), so another site cannot make a visitor's browser write here;
 *  - its body is JSON: any other content type (an HTML form's urlencoded, multipart or text/plain)
 *    is refused (415), and a body without a content type too; a file upload route names the raw
 *    types it takes instead (never a form's);
 *  - anonymous writes are limited per client address (./rate-limit.ts): 429 with Retry-After;
 *  - the rows they store count against the address's daily storage budget (./storage-budget.ts).
 */
import { HTTPError, type H3Event } from "h3";
import { clientAddress, noTrustedProxies, type TrustedProxies } from "./client-address.ts";
import { defaultWriteLimits, RateLimiter, type WriteLimits } from "./rate-limit.ts";
import { chargeStorageTo, StorageBudget } from "../lib/storage-budget.ts";
import { visitorStorageConfig } from "../../data/config.ts";

export interface RequestGuard {
  limiter: RateLimiter;
  limits: WriteLimits;
  /** Rows of visitor data each client may store per UTC day. */
  storage: StorageBudget;
  trustedProxies: TrustedProxies;
  /** The site's public origin (PUBLIC_BASE_URL), accepted as a request's Origin besides the request's own. */
  publicOrigin: string | null;
}

export function createRequestGuard(options: Partial<Omit<RequestGuard, "limiter" | "limits">> & { limits?: Partial<WriteLimits> } = {}): RequestGuard {
  return {
    limiter: new RateLimiter(),
    limits: { ...defaultWriteLimits, ...options.limits },
    storage: options.storage ?? new StorageBudget({ rowsPerDay: visitorStorageConfig().rowsPerClientPerDay }),
    trustedProxies: options.trustedProxies ?? noTrustedProxies,
    publicOrigin: options.publicOrigin ?? null,
  };
}

const refused = () => new HTTPError({ status: 403, message: "Requests from other sites are refused" });

/** Refuses a request another site made the browser send (see the module comment). */
export function assertOwnSite(event: H3Event, publicOrigin: string | null): void {
  const site = event.req.headers.get("sec-fetch-site");
  if (site === "cross-site" || site === "same-site") throw refused();
  const origin = event.req.headers.get("origin");
  if (origin === null) return;
  if (origin !== event.url.origin && origin !== publicOrigin) throw refused();
}

/** Refuses a body that is not declared as JSON (an empty body without a content type passes). */
export function assertJsonBody(event: H3Event): void {
  const type = event.req.headers.get("content-type");
  const length = event.req.headers.get("content-length");
  const hasBody = (length !== null && length !== "0") || event.req.headers.has("transfer-encoding");
  if (type === null ? hasBody : !/^application\/json\s*(?:;|$)/i.test(type)) {
    throw new HTTPError({ status: 415, message: "Send a JSON body (Content-Type: application/json)" });
  }
}

/**
 * Refuses a body whose declared type is not one of `types` (a file upload's raw body). None of
 * them is a type an HTML form can send, so another site still cannot make a browser post one
 * without the same-origin checks seeing it.
 */
export function assertBodyType(event: H3Event, types: readonly string[]): void {
  const type = (event.req.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (!types.includes(type)) throw new HTTPError({ status: 415, message: `Send the file as the body with Content-Type ${types.join(", ")}` });
}

/** Counts the request against its limit for the client it comes from; the rows it stores count against the same client's budget. */
export function takeLimit(event: H3Event, guard: RequestGuard, name: keyof WriteLimits): void {
  const client = clientAddress(event, guard.trustedProxies);
  guard.limiter.take(name, guard.limits[name], client);
  chargeStorageTo(event, guard.storage, client);
}
