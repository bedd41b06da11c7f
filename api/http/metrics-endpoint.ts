/**
 * GET /metrics: the Prometheus text exposition of the server's metrics (./metrics.ts), on the
 * same port as the site. Who may read it:
 * - a request from an address in METRICS_ALLOW (addresses or CIDR ranges, default loopback
 *   only), the client address resolved as TRUSTED_PROXIES says; a request that came through a
 *   proxy not listed there (it carries X-Forwarded-For or Forwarded) is never let in by address,
 *   since every visitor behind such a proxy would seem to come from the proxy's address;
 * - or a request with `Authorization: Bearer <METRICS_TOKEN>`, from anywhere. A request that
 *   sends a bearer token is judged by the token alone: a wrong one is refused from an allowed
 *   address too. The comparison takes the same time whatever the token.
 * Anyone else gets the answer any unknown address gets (the site's 404): the endpoint does not
 * reveal that it exists.
 */
import crypto from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { metricsAccessConfig } from "../../data/config.ts";
import { parseAddressList, resolveClient, type TrustedProxies } from "./client-address.ts";
import { tagRoute, type Telemetry } from "./observe.ts";

export const metricsPath = "/metrics";

export interface MetricsAccess {
  /** Client addresses let in without a token. */
  allow: TrustedProxies;
  /** SHA-256 of METRICS_TOKEN (null: no token opens it). */
  tokenHash: Buffer | null;
}

const sha256 = (text: string) => crypto.createHash("sha256").update(text).digest();

export function metricsAccess(allow: string, token: string | null): MetricsAccess {
  return { allow: parseAddressList(allow, "METRICS_ALLOW"), tokenHash: token === null ? null : sha256(token) };
}

/** METRICS_ALLOW and METRICS_TOKEN from the environment (data/config.ts). */
export function metricsAccessFromEnv(): MetricsAccess {
  const { allow, token } = metricsAccessConfig();
  return metricsAccess(allow, token);
}

/** Whether this request may read the metrics (see the module comment). */
export function mayReadMetrics(req: IncomingMessage, access: MetricsAccess, trusted: TrustedProxies): boolean {
  const authorization = req.headers.authorization;
  if (authorization !== undefined) {
    const match = /^Bearer +(\S+) *$/i.exec(authorization);
    // Digests of equal length, so the comparison's time says nothing about the token.
    return access.tokenHash !== null && match !== null && crypto.timingSafeEqual(sha256(match[1]!), access.tokenHash);
  }
  const peer = req.socket.remoteAddress;
  if (!peer) return false;
  const proxied = req.headers["x-forwarded-for"] !== undefined || req.headers.forwarded !== undefined;
  if (proxied && !trusted.includes(peer)) return false;
  return access.allow.includes(resolveClient(peer, req.headers["x-forwarded-for"], trusted));
}

/**
 * A request listener step: answers GET and HEAD /metrics for those allowed and returns true;
 * returns false (having written nothing) for everything else, refused requests included.
 */
export function createMetricsEndpoint(telemetry: Telemetry, trusted: () => TrustedProxies): (req: IncomingMessage, res: ServerResponse) => boolean {
  const { metrics, logger } = telemetry;
  return (req, res) => {
    const url = req.url;
    if (url === undefined || !url.startsWith(metricsPath) || (url.length > metricsPath.length && url[metricsPath.length] !== "?")) return false;
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    if (!mayReadMetrics(req, telemetry.metricsAccess, trusted())) return false;
    tagRoute(req, metricsPath);
    const head = req.method === "HEAD";
    metrics.text().then(
      (text) => {
        res.writeHead(200, {
          "content-type": metrics.contentType,
          "cache-control": "no-store",
          "x-content-type-options": "nosniff",
          "content-length": Buffer.byteLength(text),
        });
        res.end(head ? undefined : text);
      },
      (error: unknown) => {
        const body = JSON.stringify({ error: "Metrics could not be collected" });
        res.writeHead(500, { "content-type": "application/json", "cache-control": "no-store" });
        res.end(body);
        logger.error({ err: error }, "metrics could not be collected");
      },
    );
    return true;
  };
}
