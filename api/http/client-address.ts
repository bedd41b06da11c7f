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
  return parseAddressList(list, "TRUSTED_PROXIES");
}

/**
 * A list of addresses and CIDR ranges ("127.0.0.1, 10.0.0.0/8, ::1"); throws naming `setting`
 * and the first entry that is neither an address nor a range.
 */
export function parseAddressList(list: string, setting: string): TrustedProxies {
  const ranges: Range[] = [];
  for (const entry of list.split(",").map((part) => part.trim()).filter(Boolean)) {
    if (entry.includes("/")) {
      try {
        ranges.push(ipaddr.parseCIDR(entry));
      } catch {
        throw new Error(`${setting}: "${entry}" is not an IP address or CIDR range`);
      }
      continue;
    }
    const address = parseAddress(entry);
    if (!address) throw new Error(`${setting}: "${entry}" is not an IP address or CIDR range`);
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
  return limitKey(resolveClient(peer, event.req.headers.get("x-forwarded-for"), trusted));
}

/**
 * The client's whole address as the connection's peer and its X-Forwarded-For header give it
 * (see the module comment; the peer itself unless it is a trusted proxy). For callers below the
 * h3 app, which have the node request's socket address and header instead of an event.
 */
export function resolveClient(peer: string, forwardedFor: string | string[] | null | undefined, trusted: TrustedProxies): string {
  if (!trusted.includes(peer)) return peer;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(",") : (forwardedFor ?? ""))
    .split(",")
    .map((hop) => hop.trim())
    .filter(Boolean);
  for (let index = hops.length - 1; index >= 0; index--) {
    const hop = hops[index]!;
    if (!parseAddress(hop)) break; // garbage: stop trusting the header here
    if (!trusted.includes(hop)) return hop;
  }
  return peer;
}

/**
 * The network an address belongs to, as request logs may keep it: an IPv4 address's /24
 * (203.0.113.0/24), an IPv6 address's /48 (2001:db8:1::/48); never the whole address.
 * "unknown" for anything that is not an address.
 */
export function addressNetwork(text: string): string {
  const address = parseAddress(text);
  if (!address) return "unknown";
  if (address.kind() === "ipv4") {
    const [a, b, c] = (address as ipaddr.IPv4).octets;
    return `${a}.${b}.${c}.0/24`;
  }
  const parts = (address as ipaddr.IPv6).parts;
  return `${new ipaddr.IPv6([parts[0]!, parts[1]!, parts[2]!, 0, 0, 0, 0, 0]).toString()}/48`;
}
