import { describe, expect, it } from "vitest";
import { H3 } from "h3";
import { addressNetwork, clientAddress, parseAddressList, parseTrustedProxies, resolveClient, type TrustedProxies } from "./client-address.ts";
import { RateLimiter } from "./rate-limit.ts";

/** The address the app computes for a request from `peer` (null: a connection without one) carrying `forwarded`. */
async function addressOf(peer: string | null, forwarded: string | null, trusted: TrustedProxies): Promise<string> {
  const app = new H3();
  app.get("/", (event) => clientAddress(event, trusted));
  const headers: Record<string, string> = forwarded === null ? {} : { "x-forwarded-for": forwarded };
  const request = new Request("http://localhost/", { headers });
  if (peer !== null) Object.defineProperty(request, "ip", { value: peer });
  const response = await app.fetch(request);
  expect(response.status).toBe(200);
  return response.text();
}

describe("clientAddress", () => {
  const proxies = parseTrustedProxies("10.0.0.0/8, 127.0.0.1, ::1");

  it("is the peer when the peer is not a trusted proxy, whatever X-Forwarded-For says", async () => {
    expect(await addressOf("203.0.113.9", "198.51.100.1", proxies)).toBe("203.0.113.9");
    expect(await addressOf("11.0.0.1", "198.51.100.1", proxies)).toBe("11.0.0.1");
  });

  it("behind trusted proxies, the right-most hop that is not a trusted proxy", async () => {
    expect(await addressOf("127.0.0.1", "198.51.100.1", proxies)).toBe("198.51.100.1");
    expect(await addressOf("10.1.2.3", "6.6.6.6, 198.51.100.1, 10.0.0.5", proxies)).toBe("198.51.100.1");
    // Everything trusted: the left-most is all that is known; nothing forwarded: the proxy itself.
    expect(await addressOf("127.0.0.1", "10.0.0.7", proxies)).toBe("127.0.0.1");
    expect(await addressOf("127.0.0.1", null, proxies)).toBe("127.0.0.1");
    // Garbage stops the walk: the hop the proxy vouched for is not taken from it.
    expect(await addressOf("127.0.0.1", "not-an-ip", proxies)).toBe("127.0.0.1");
  });

  it("keys IPv6 by /64 and IPv4-mapped addresses as IPv4", async () => {
    expect(await addressOf("2001:db8:1:2:aaaa::1", null, proxies)).toBe("2001:db8:1:2::/64");
    expect(await addressOf("2001:db8:1:2:bbbb::9", null, proxies)).toBe("2001:db8:1:2::/64");
    expect(await addressOf("::ffff:203.0.113.9", null, proxies)).toBe("203.0.113.9");
  });

  it("is \"unknown\" without a peer address, and a peer that is not an IP address is its own key", async () => {
    expect(await addressOf(null, "198.51.100.1", proxies)).toBe("unknown");
    expect(await addressOf("not-an-ip", null, proxies)).toBe("not-an-ip");
  });

  it("refuses a configuration entry that is not an address or range, naming it", () => {
    expect(() => parseTrustedProxies("127.0.0.1, proxy.local")).toThrow('TRUSTED_PROXIES: "proxy.local" is not an IP address or CIDR range');
    expect(() => parseTrustedProxies("10.0.0.0/33")).toThrow('"10.0.0.0/33"');
    expect(parseTrustedProxies("").includes("127.0.0.1")).toBe(false);
  });
});

describe("resolveClient", () => {
  const proxies = parseTrustedProxies("10.0.0.0/8, 127.0.0.1");

  it("gives the whole address (no /64), from the peer or the hop the trusted proxies vouch for", () => {
    expect(resolveClient("2001:db8:1:2:aaaa::1", null, proxies)).toBe("2001:db8:1:2:aaaa::1");
    expect(resolveClient("127.0.0.1", "2001:db8::7, 10.0.0.5", proxies)).toBe("2001:db8::7");
    expect(resolveClient("203.0.113.9", "198.51.100.1", proxies)).toBe("203.0.113.9");
    expect(resolveClient("127.0.0.1", ["198.51.100.1", "10.0.0.5"], proxies)).toBe("198.51.100.1");
    expect(resolveClient("127.0.0.1", "not-an-ip", proxies)).toBe("127.0.0.1");
  });

  it("gives the hop without the white space around it, and passes over empty entries", () => {
    expect(resolveClient("127.0.0.1", "198.51.100.1,   203.0.113.5 , 10.0.0.5", proxies)).toBe("203.0.113.5");
    expect(resolveClient("127.0.0.1", "198.51.100.1, , 10.0.0.5,", proxies)).toBe("198.51.100.1");
    expect(resolveClient("127.0.0.1", ["198.51.100.1", ""], proxies)).toBe("198.51.100.1");
  });
});

describe("trusted proxies", () => {
  it("takes a single address as exactly that address, IPv4 and IPv6 alike, not its neighbours", () => {
    const single = parseTrustedProxies("203.0.113.5, 2001:db8::1");
    expect(single.includes("203.0.113.5")).toBe(true);
    expect(single.includes("203.0.113.4")).toBe(false);
    expect(single.includes("203.0.113.6")).toBe(false);
    expect(single.includes("2001:db8::1")).toBe(true);
    expect(single.includes("2001:db8::2")).toBe(false);
    expect(single.includes("2001:db8:ffff::1")).toBe(false);
  });

  it("reads an address with white space around it or in brackets, and includes nothing that is not an address", () => {
    const proxies = parseTrustedProxies("10.0.0.0/8, ::1");
    expect(proxies.includes(" 10.1.2.3 ")).toBe(true);
    expect(proxies.includes("[::1]")).toBe(true);
    expect(proxies.includes("proxy.local")).toBe(false);
    expect(proxies.includes("")).toBe(false);
  });
});

describe("addressNetwork", () => {
  it("keeps an IPv4 address's /24 and an IPv6 address's /48, never the whole address", () => {
    expect(addressNetwork("203.0.113.255")).toBe("203.0.113.0/24");
    expect(addressNetwork("::ffff:198.51.100.7")).toBe("198.51.100.0/24");
    expect(addressNetwork("2001:db8:abcd:12:34::5")).toBe("2001:db8:abcd::/48");
    expect(addressNetwork("[2001:db8:1::1]")).toBe("2001:db8:1::/48");
    expect(addressNetwork("::1")).toBe("::/48");
    expect(addressNetwork("nonsense")).toBe("unknown");
  });

  it("reads an address with white space around it, and takes brackets off only at either end", () => {
    expect(addressNetwork(" 203.0.113.9 ")).toBe("203.0.113.0/24");
    // With a port, or with a bracket inside, it is not an address.
    expect(addressNetwork("[2001:db8:1::1]:443")).toBe("unknown");
    expect(addressNetwork("2001:db8:1::[1]")).toBe("unknown");
  });
});

describe("parseAddressList", () => {
  it("names the setting it reads in its error", () => {
    expect(() => parseAddressList("127.0.0.1, metrics.local", "METRICS_ALLOW")).toThrow('METRICS_ALLOW: "metrics.local" is not an IP address or CIDR range');
    expect(parseAddressList("203.0.113.0/24", "METRICS_ALLOW").includes("203.0.113.200")).toBe(true);
    expect(parseAddressList("203.0.113.0/24", "METRICS_ALLOW").includes("203.0.114.0")).toBe(false);
  });
});

describe("RateLimiter", () => {
  const limit = { max: 2, windowMs: 1000 };

  it("allows max per window, then 429 with the seconds to the window's end; a new window allows again", () => {
    const limiter = new RateLimiter();
    limiter.take("w", limit, "a", 0);
    limiter.take("w", limit, "a", 10);
    expect(() => limiter.take("w", limit, "a", 20)).toThrow(expect.objectContaining({ status: 429, headers: expect.any(Headers) }));
    try {
      limiter.take("w", limit, "a", 20);
    } catch (error) {
      expect((error as { headers: Headers }).headers.get("retry-after")).toBe("1");
    }
    // Another client and another limit are counted apart.
    limiter.take("w", limit, "b", 20);
    limiter.take("other", limit, "a", 20);
    // Exactly at the window's end a new one starts.
    limiter.take("w", limit, "a", 1000);
  });

  it("tracks at most maxClients clients, dropping the oldest windows first", () => {
    const limiter = new RateLimiter({ maxClients: 100 });
    for (let i = 0; i < 10_000; i++) limiter.take("w", limit, `client-${i}`, i);
    expect(limiter.size).toBeLessThanOrEqual(100);
    // The newest client's count survived: its second request is its last allowed one.
    limiter.take("w", limit, "client-9999", 10_000);
    expect(() => limiter.take("w", limit, "client-9999", 10_000)).toThrow();
  });
});
