/**
 * Who is asking, for per-client limits: the connection's address, or, when the connection comes
 * from a configured trusted proxy (TRUSTED_PROXIES: addresses or CIDR ranges), the address the
 * proxies recorded in X-Forwarded-For: read from the right, the first hop that is not itself a
 * trusted proxy. X-Forwarded-For from anyone else is ignored: a client could write anything there.
 *
 * IPv6 clients are keyed by their /64 network: one host is usually given a whole /64, so keying by
 * full address would let it take a fresh limit for every request.
 */
import ipaddr from "ipaddr.js";
import { getRequestIP, type H3Event } from "h3";

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

export interface TrustedProxies {
  includes(address: string): boolean;
}

function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const trimmed = text.trim().replace(/^\[|\]$/g, "");
  if (!ipaddr.isValid(trimmed)) return null;
  const address = ipaddr.parse(trimmed);
  return address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress() ? (address as ipaddr.IPv6).toIPv4Address() : address;
}

/** Parses "127.0.0.1, 10.0.0.0/8, ::1"; throws naming the first entry that is neither an address nor a range. */
export function parseTrustedProxies(list: string): TrustedProxies {
  const ranges: Range[] = [];
  for (const entry of list.split(",").map((part) => part.trim()).filter(Boolean)) {
    if (entry.includes("/")) {
      try {
        ranges.push(ipaddr.parseCIDR(entry));
      } catch {
        throw new Error(`TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR range`);
      }
      continue;
    }
    const address = parseAddress(entry);
    if (!address) throw new Error(`TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR range`);
    ranges.push([address, address.kind() === "ipv4" ? 32 : 128]);
  }
  return {
    includes(text) {
      const address = parseAddress(text);
      if (!address) return false;
      return ranges.some(([base, bits]) => base.kind() === address.kind() && address.match(base, bits));
    },
  };
}

export const noTrustedProxies: TrustedProxies = { includes: () => false };

/** The limit key of an address: IPv4 as is, IPv6 by its /64 network. */
function limitKey(text: string): string {
  const address = parseAddress(text);
  if (!address) return text;
  if (address.kind() === "ipv4") return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${parts.join(":")}::/64`;
}

/** The client's key for rate limits (see the module comment); "unknown" when there is no address at all. */
export function clientAddress(event: H3Event, trusted: TrustedProxies = noTrustedProxies): string {
  const peer = getRequestIP(event);
  if (!peer) return "unknown";
  if (!trusted.includes(peer)) return limitKey(peer);
  const hops = (event.req.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((hop) => hop.trim())
    .filter(Boolean);
  for (let index = hops.length - 1; index >= 0; index--) {
    const hop = hops[index]!;
    if (!parseAddress(hop)) break; // garbage: stop trusting the header here
    if (!trusted.includes(hop)) return limitKey(hop);
  }
  return limitKey(peer);
}
