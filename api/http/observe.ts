/**
 * What the operator sees of each request, taken at the HTTP server around everything that
 * answers (GET /metrics, the fast path's cache hits, the h3 app): the request metrics
 * (./metrics.ts) and one structured log line.
 *
 * - Request id: a valid incoming `X-Request-Id` (1 to 64 of letters, digits, `.`, `_`, `-`, `:`;
 *   what proxies and tracing tools send) is kept, anything else is replaced by a new id (shaped
 *   like a UUID, unique within the process and unlike other processes'); either way the answer carries it back in `X-Request-Id` and the log line names it.
 * - Route: the route table's pattern, set by whoever answers (tagRoute); an answer nobody
 *   tagged is "unmatched" under /api/, else "site" (the built pages).
 * - Status: the answer's; a client that went away before the answer was complete counts as 499.
 * - The counting and the line are prepared once per route and method; the line is written from
 *   a template (./log.ts infoLines), the same JSON line pino writes.
 * - The log line holds the client's network, never its whole address: an IPv4 address's /24, an
 *   IPv6 address's /48 (client address as TRUSTED_PROXIES resolves it).
 */
import crypto from "node:crypto";
import type { IncomingMessage, OutgoingHttpHeader, OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { H3Event } from "h3";
import type { Logger } from "pino";
import { addressNetwork, noTrustedProxies, resolveClient, type TrustedProxies } from "./client-address.ts";
import { siteRoute, unmatchedRoute, type Metrics, type RequestSeries } from "./metrics.ts";
import { infoLines } from "./log.ts";
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
 * The network a log line names for a client, as a JSON string, memoised by connection address
 * and forwarded-for header (parsing addresses for every request cost more than the rest of the
 * line); the memo keeps keys of at most 200 characters (at most about 2 MB in all) and starts
 * over when it holds this many.
 */
export const maxRememberedClients = 10_000;
export const maxRememberedKeyLength = 200;

/** The network of a client (see above), and how many clients the memo holds now (`remembered`). */
export type ClientNetworks = ((peer: string | undefined, forwarded: string | undefined) => string) & { remembered(): number };

export function clientNetworks(trusted: () => TrustedProxies): ClientNetworks {
  const remembered = new Map<string, string>();
  let proxies = trusted();
  const networkOf = (peer: string | undefined, forwarded: string | undefined): string => {
    if (!peer) return '"unknown"';
    // A replaced list of trusted proxies (tests replace it) may resolve the same request differently.
    const current = trusted();
    if (current !== proxies) {
      proxies = current;
      remembered.clear();
    }
    const key = forwarded === undefined ? peer : `${peer} ${forwarded}`;
    let network = remembered.get(key);
    if (network === undefined) {
      network = JSON.stringify(addressNetwork(resolveClient(peer, forwarded, current)));
      // Only short keys are kept: a client may send a long forwarded-for header of its own.
      if (key.length <= maxRememberedKeyLength) {
        if (remembered.size >= maxRememberedClients) remembered.clear();
        remembered.set(key, network);
      }
    }
    return network;
  };
  return Object.assign(networkOf, { remembered: () => remembered.size });
}

/**
 * The request headers the observer reads, from the raw list: building Node's header object costs
 * more than the rest of a cached page's answer. Repeated headers are joined with ", ", as Node
 * joins them.
 */
function observedHeaders(raw: readonly string[], into: Observation): void {
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length !== 12 && name.length !== 15) continue;
    const lower = name.toLowerCase();
    const value = raw[i + 1]!;
    if (lower === "x-request-id") into.incomingId = into.incomingId === undefined ? value : `${into.incomingId}, ${value}`;
    else if (lower === "x-forwarded-for") into.forwarded = into.forwarded === undefined ? value : `${into.forwarded}, ${value}`;
  }
}

/**
 * New request ids: a random prefix per process and a counter, in the form of a UUID (hex, 8-4-4-4-12):
 * unique within the process, and unlike any other process's; cheaper than a random UUID each.
 */
function requestIds(): () => string {
  const prefix = crypto.randomUUID().slice(0, 24);
  let next = 0;
  return () => prefix + (next++).toString(16).padStart(12, "0");
}

type Headers = OutgoingHttpHeaders | OutgoingHttpHeader[] | undefined;

/** The answer's headers with the request id added, in the form they came (an object, a flat list or a list of pairs). */
function withRequestId(headers: Headers, id: string): Headers {
  if (headers === undefined) return { "x-request-id": id };
  if (!Array.isArray(headers)) return { ...headers, "x-request-id": id };
  if (Array.isArray(headers[0])) return [...headers, ["x-request-id", id] as unknown as OutgoingHttpHeader];
  // Copied by hand: Array concat took V8's runtime (C++) path for these lists.
  const length = headers.length;
  const list = new Array<OutgoingHttpHeader>(length + 2);
  for (let i = 0; i < length; i++) list[i] = headers[i]!;
  list[length] = "x-request-id";
  list[length + 1] = id;
  return list;
}

const isLength = (name: unknown) => typeof name === "string" && name.length === 14 && name.toLowerCase() === "content-length";

/** The content length headers given to writeHead (an object, a flat list or pairs) name, when they name one. */
function listedLength(headers: Headers): number | undefined {
  if (headers === undefined) return undefined;
  if (!Array.isArray(headers)) {
    for (const name in headers) if (isLength(name)) return Number(headers[name]);
    return undefined;
  }
  const pairs = Array.isArray(headers[0]);
  if (pairs) {
    for (const pair of headers as unknown as [unknown, unknown][]) if (isLength(pair[0])) return Number(pair[1]);
    return undefined;
  }
  for (let i = 0; i < headers.length; i += 2) if (isLength(headers[i])) return Number(headers[i + 1]);
  return undefined;
}

/** What the observer keeps of a request until its answer ends. */
interface Observation {
  started: number;
  id: string;
  incomingId: string | undefined;
  forwarded: string | undefined;
  /** The content length the headers given to writeHead named. */
  length: number | undefined;
  /** Whether the answer has ended (counted and logged). */
  ended: boolean;
  /** Node's writeHead, put back once the id has been added. */
  writeHead: ServerResponse["writeHead"];
  req: IncomingMessage;
}

const observation = Symbol("observation");
type ObservedResponse = ServerResponse & { [observation]: Observation };

/**
 * Sends the request id with the answer's headers, and keeps the content length they name
 * (headers given to writeHead, as an object or a list, are not readable with getHeader
 * afterwards). Added where the headers are written rather than with setHeader beforehand: a
 * header set beforehand makes Node merge a prepared header list into it one header at a time,
 * which cost the page and cache fast paths several microseconds a request. One function for
 * every request (it finds the request's observation on the response).
 */
function writeHeadWithId(this: ObservedResponse, status: number, second?: string | Headers, third?: Headers): ServerResponse {
  const observed = this[observation];
  const write = observed.writeHead as (this: ServerResponse, status: number, ...rest: unknown[]) => ServerResponse;
  (this as ServerResponse).writeHead = observed.writeHead;
  const headers = typeof second === "string" ? third : second;
  observed.length = listedLength(headers);
  const withId = withRequestId(headers, observed.id);
  return typeof second === "string" ? write.call(this, status, second, withId) : write.call(this, status, withId);
}

/** A route and method as the observer counts and logs them, worked out once. */
interface Resolved {
  series: RequestSeries;
  /** The line's method and route members. */
  members: string;
}

/**
 * Wraps the server's request listener: every request gets an id (echoed in X-Request-Id), is
 * counted in the metrics when it ends and logged as one line at level info.
 */
export function observeRequests(listener: Listener, telemetry: Telemetry, trusted: () => TrustedProxies = () => noTrustedProxies): Listener {
  const { metrics, logger } = telemetry;
  const clientNetwork = clientNetworks(trusted);
  const newId = requestIds();
  const writeLine = infoLines(logger, "request");
  const resolvedRoutes = new Map<string, Map<string, Resolved>>();
  const resolve = (route: string, method: string): Resolved => {
    let methods = resolvedRoutes.get(route);
    if (!methods) resolvedRoutes.set(route, (methods = new Map()));
    let resolved = methods.get(method);
    if (!resolved) {
      resolved = { series: metrics.requestSeries(route, method), members: `,"method":${JSON.stringify(method)},"route":${JSON.stringify(route)}` };
      methods.set(method, resolved);
    }
    return resolved;
  };
  // The built pages' usual request, counted with no lookup.
  const siteGet = resolve(siteRoute, "GET");

  function ended(this: ObservedResponse): void {
    const observed = this[observation];
    if (observed.ended) return;
    observed.ended = true;
    const seconds = (performance.now() - observed.started) / 1000;
    const req = observed.req;
    const method = req.method ?? "GET";
    const tagged = (req as TaggedRequest)[routeOf];
    const untagged = tagged === undefined ? (req.url?.startsWith("/api/") ? unmatchedRoute : siteRoute) : tagged;
    const resolved = tagged === undefined && method === "GET" && untagged === siteRoute ? siteGet : resolve(untagged, method);
    const status = this.writableFinished ? this.statusCode : clientClosedStatus;
    resolved.series.observe(status, seconds);
    if (!logger.isLevelEnabled("info")) return;
    const length = observed.length ?? this.getHeader("content-length");
    const bytes = length === undefined ? "" : `,"bytes":${jsonNumber(Number(length))}`;
    const client = clientNetwork(req.socket.remoteAddress, observed.forwarded);
    writeLine(`,"reqId":"${observed.id}"${resolved.members},"status":${status},"ms":${jsonNumber(Math.round(seconds * 10_000) / 10)}${bytes},"client":${client}`);
  }

  return (req, res) => {
    const observed: Observation = {
      started: performance.now(),
      id: "",
      incomingId: undefined,
      forwarded: undefined,
      length: undefined,
      ended: false,
      writeHead: res.writeHead,
      req,
    };
    observedHeaders(req.rawHeaders, observed);
    const incoming = observed.incomingId;
    // A valid id has only characters a JSON string takes as they are.
    observed.id = incoming !== undefined && validRequestId.test(incoming) ? incoming : newId();
    (res as ObservedResponse)[observation] = observed;
    res.writeHead = writeHeadWithId as ServerResponse["writeHead"];
    res.on("close", ended);
    listener(req, res);
  };
}

/** A number as JSON writes it (a number that is not finite is null). */
const jsonNumber = (value: number): string => (Number.isFinite(value) ? String(value) : "null");
