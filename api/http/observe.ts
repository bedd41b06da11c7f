/**
 * What the operator sees of each request, taken at the HTTP server around everything that
 * answers (GET /metrics, the fast path's cache hits, the h3 app): the request metrics
 * (./metrics.ts) and one structured log line.
 *
 * - Request id: a valid incoming `X-Request-Id` (1 to 64 of letters, digits, `.`, `_`, `-`, `:`;
 *   what proxies and tracing tools send) is kept, anything else is replaced by a new random id;
 *   either way the answer carries it back in `X-Request-Id` and the log line names it.
 * - Route: the route table's pattern, set by whoever answers (tagRoute); an answer nobody
 *   tagged is "unmatched" under /api/, else "site" (the built pages).
 * - Status: the answer's; a client that went away before the answer was complete counts as 499.
 * - The log line holds the client's network, never its whole address: an IPv4 address's /24, an
 *   IPv6 address's /48 (client address as TRUSTED_PROXIES resolves it).
 */
import crypto from "node:crypto";
import type { IncomingMessage, OutgoingHttpHeader, OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { H3Event } from "h3";
import type { Logger } from "pino";
import { addressNetwork, noTrustedProxies, resolveClient, type TrustedProxies } from "./client-address.ts";
import { siteRoute, unmatchedRoute, type Metrics } from "./metrics.ts";
import type { MetricsAccess } from "./metrics-endpoint.ts";

/** The server's metrics, logger and who may read the metrics: built once per server (api/services.ts). */
export interface Telemetry {
  metrics: Metrics;
  logger: Logger;
  metricsAccess: MetricsAccess;
}

export type Listener = (req: IncomingMessage, res: ServerResponse) => void;

const routeOf = Symbol("route pattern");
type TaggedRequest = IncomingMessage & { [routeOf]?: string };

/** Labels a request with the route that answers it (a route table pattern, or "/metrics"). */
export function tagRoute(req: IncomingMessage | undefined, route: string): void {
  if (req) (req as TaggedRequest)[routeOf] = route;
}

/** tagRoute for a request inside the h3 app (nothing to tag when the app runs without a node server). */
export function tagEventRoute(event: H3Event, route: string): void {
  tagRoute(event.req.runtime?.node?.req as IncomingMessage | undefined, route);
}

/** An incoming request id is kept only when it is short and of a safe character set (it is echoed and logged). */
export const validRequestId = /^[A-Za-z0-9._:-]{1,64}$/;

/** Status counted for a request whose client left before the answer was complete. */
export const clientClosedStatus = 499;

/**
 * The network a log line names for a client, memoised by connection address and forwarded-for
 * header (parsing addresses for every request cost more than the rest of the line); the memo
 * keeps keys of at most 200 characters (at most about 2 MB in all) and starts over when it holds
 * this many.
 */
const maxRememberedClients = 10_000;
const maxRememberedKeyLength = 200;

function clientNetworks(trusted: () => TrustedProxies): (req: IncomingMessage) => string {
  const remembered = new Map<string, string>();
  let proxies = trusted();
  return (req) => {
    const peer = req.socket.remoteAddress;
    if (!peer) return "unknown";
    // A replaced list of trusted proxies (tests replace it) may resolve the same request differently.
    const current = trusted();
    if (current !== proxies) {
      proxies = current;
      remembered.clear();
    }
    const forwarded = req.headers["x-forwarded-for"];
    const key = forwarded === undefined ? peer : `${peer} ${String(forwarded)}`;
    let network = remembered.get(key);
    if (network === undefined) {
      network = addressNetwork(resolveClient(peer, forwarded, current));
      // Only short keys are kept: a client may send a long forwarded-for header of its own.
      if (key.length <= maxRememberedKeyLength) {
        if (remembered.size >= maxRememberedClients) remembered.clear();
        remembered.set(key, network);
      }
    }
    return network;
  };
}

type Headers = OutgoingHttpHeaders | OutgoingHttpHeader[] | undefined;

/** The answer's headers with the request id added, in the form they came (an object, a flat list or a list of pairs). */
function withRequestId(headers: Headers, id: string): Headers {
  if (headers === undefined) return { "x-request-id": id };
  if (!Array.isArray(headers)) return { ...headers, "x-request-id": id };
  return Array.isArray(headers[0]) ? [...headers, ["x-request-id", id] as unknown as OutgoingHttpHeader] : [...headers, "x-request-id", id];
}

/** The content length a header list (flat, or pairs) names, when it names one. */
function listedLength(headers: Headers): number | undefined {
  if (!Array.isArray(headers)) return undefined;
  const pairs = Array.isArray(headers[0]);
  for (let i = 0; i < headers.length; i += pairs ? 1 : 2) {
    const [name, value] = pairs ? (headers[i] as unknown as [string, unknown]) : [headers[i], headers[i + 1]];
    if (typeof name === "string" && name.toLowerCase() === "content-length") return Number(value);
  }
  return undefined;
}

/**
 * Sends the request id with the answer's headers, and keeps the content length a header list
 * names (a list given to writeHead is not readable with getHeader afterwards). Added where the
 * headers are written rather than with setHeader beforehand: a header set beforehand makes Node
 * merge a prepared header list into it one header at a time, which cost the page and cache fast
 * paths several microseconds a request.
 */
function echoRequestId(res: ServerResponse, id: string): { length?: number } {
  const sent: { length?: number } = {};
  const writeHead = res.writeHead;
  const write = writeHead as (this: ServerResponse, status: number, ...rest: unknown[]) => ServerResponse;
  res.writeHead = function (this: ServerResponse, status: number, second?: string | Headers, third?: Headers) {
    res.writeHead = writeHead;
    const headers = typeof second === "string" ? third : second;
    sent.length = listedLength(headers);
    const withId = withRequestId(headers, id);
    return typeof second === "string" ? write.call(this, status, second, withId) : write.call(this, status, withId);
  } as ServerResponse["writeHead"];
  return sent;
}

/**
 * Wraps the server's request listener: every request gets an id (echoed in X-Request-Id), is
 * counted in the metrics when it ends and logged as one line at level info.
 */
export function observeRequests(listener: Listener, telemetry: Telemetry, trusted: () => TrustedProxies = () => noTrustedProxies): Listener {
  const { metrics, logger } = telemetry;
  const clientNetwork = clientNetworks(trusted);
  return (req, res) => {
    const started = performance.now();
    const incoming = req.headers["x-request-id"];
    const id = typeof incoming === "string" && validRequestId.test(incoming) ? incoming : crypto.randomUUID();
    const sent = echoRequestId(res, id);
    res.once("close", () => {
      const seconds = (performance.now() - started) / 1000;
      const method = req.method ?? "GET";
      const route = (req as TaggedRequest)[routeOf] ?? (req.url?.startsWith("/api/") ? unmatchedRoute : siteRoute);
      const status = res.writableFinished ? res.statusCode : clientClosedStatus;
      metrics.observeRequest(route, method, status, seconds);
      if (!logger.isLevelEnabled("info")) return;
      const length = sent.length ?? res.getHeader("content-length");
      logger.info(
        {
          reqId: id,
          method,
          route,
          status,
          ms: Math.round(seconds * 10_000) / 10,
          bytes: length === undefined ? undefined : Number(length),
          client: clientNetwork(req),
        },
        "request",
      );
    });
    listener(req, res);
  };
}
