/**
 * Hostile traffic against the real app over a real SQLite file: requests another site makes a
 * browser send are refused on every state-changing route (found from the route table, so a new
 * route is covered by itself), bodies must be JSON, anonymous writes are limited per client with
 * 429 + Retry-After (a second client keeps its own allowance; X-Forwarded-For counts only from a
 * trusted proxy), and a visitor's click events are capped per day.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routes } from "../app.ts";
import { parseTrustedProxies, noTrustedProxies } from "../http/client-address.ts";
import { startTestServer, type TestServer } from "./server.ts";
import { dailyClickCap } from "../../data/db/behaviour.ts";

let api: TestServer;
let adminCookie: string;

beforeAll(async () => {
  api = await startTestServer({ products: 20, writeLimits: { visitor: { max: 5, windowMs: 60_000 } } });
  adminCookie = await api.login();
});
afterAll(() => api.close());

const visitor = (name: string) => `user_${name.padEnd(24, "0")}`;

/** Every table's row count and the vouchers' use counts: any write shows up here. */
function fingerprint(): string {
  const tables = api.db.$client
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'product_search%' ORDER BY name")
    .all() as { name: string }[];
  const counts = tables.map(({ name }) => `${name}=${(api.db.$client.prepare(`SELECT count(*) AS n FROM "${name}"`).get() as { n: number }).n}`);
  const uses = (api.db.$client.prepare("SELECT group_concat(uses) AS u FROM vouchers").get() as { u: string }).u;
  return `${counts.join(",")}|${uses}`;
}

const concrete = (path: string) => path.replace(/:[a-zA-Z]+/g, "1");
/** Machine routes answer only a bearer token, which a browser never sends by itself: a form post from another site is a 401. */
const isMachine = (options: { auth?: string } | undefined) => options?.auth?.startsWith("machine:") === true;
const writes = routes.filter(([method, , , options]) => method !== "GET" && !options?.oneClick && !isMachine(options));
const machineWrites = routes.filter(([method, , , options]) => method !== "GET" && isMachine(options));

describe("requests another site makes a browser send", () => {
  it("the route table has the writes this covers", () => {
    expect(writes.map(([method, path]) => `${method} ${path}`)).toEqual(
      expect.arrayContaining(["POST /api/vouchers/:id/uses", "POST /api/favorites", "POST /api/price-alerts", "POST /api/subscribers", "POST /api/clicks", "POST /api/products"]),
    );
  });

  it.each(writes.map(([method, path]) => `${method} ${path}`))("%s: a cross-site HTML form post is refused (403) and changes nothing", async (key) => {
    const [method, path] = key.split(" ") as [string, string];
    const before = fingerprint();
    // What a form on evil.example submits, with the admin's session cookie riding along.
    const response = await fetch(api.baseUrl + concrete(path), {
      method,
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example", "sec-fetch-site": "cross-site", cookie: adminCookie },
      body: "userId=user_aaaaaaaaaaaaaaaaaaaaaaaa&productId=1&email=victim%40example.com",
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: "Requests from other sites are refused" });
    expect(fingerprint()).toBe(before);
  });

  it.each(machineWrites.map(([method, path]) => `${method} ${path}`))("%s: a cross-site form post with the admin's cookie is refused (401: no machine token) and changes nothing", async (key) => {
    const [method, path] = key.split(" ") as [string, string];
    const before = fingerprint();
    const response = await fetch(api.baseUrl + concrete(path), {
      method,
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example", "sec-fetch-site": "cross-site", cookie: adminCookie },
      body: "run=1",
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: "Send a machine token: Authorization: Bearer <token>" });
    expect(fingerprint()).toBe(before);
  });

  it("a JSON post is refused when the browser marks it cross-site or same-site, or its Origin is foreign", async () => {
    const [voucher] = api.db.$client.prepare("SELECT id FROM vouchers ORDER BY id LIMIT 1").all() as { id: number }[];
    const before = fingerprint();
    const body = JSON.stringify({ userId: visitor("crosssite") });
    const foreign: Record<string, string>[] = [{ "sec-fetch-site": "cross-site" }, { "sec-fetch-site": "same-site" }, { origin: "https://evil.example" }, { origin: "null" }, { origin: `${api.baseUrl}.evil.example` }];
    for (const headers of foreign) {
      const response = await fetch(`${api.baseUrl}/api/vouchers/${voucher!.id}/uses`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
      expect(response.status, JSON.stringify(headers)).toBe(403);
    }
    expect(fingerprint()).toBe(before);
    // The same post from our own pages counts.
    const own = await fetch(`${api.baseUrl}/api/vouchers/${voucher!.id}/uses`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: api.baseUrl, "sec-fetch-site": "same-origin" },
      body,
    });
    expect(own.status).toBe(204);
    expect(fingerprint()).not.toBe(before);
  });

  it("a body that is not declared JSON is refused (415) even from our own origin", async () => {
    const before = fingerprint();
    for (const [type, body] of [
      ["text/plain", JSON.stringify({ userId: visitor("textplain"), productId: 1 })],
      ["application/x-www-form-urlencoded", "userId=x"],
      ["multipart/form-data; boundary=x", "--x--"],
      [null, JSON.stringify({ userId: visitor("notype"), productId: 1 })],
    ] as const) {
      const blob = new Blob([body]);
      const response = await fetch(`${api.baseUrl}/api/favorites`, { method: "POST", headers: type ? { "content-type": type } : {}, body: type ? body : blob });
      expect(response.status, String(type)).toBe(415);
      expect(await response.json()).toEqual({ error: "Send a JSON body (Content-Type: application/json)" });
    }
    expect(fingerprint()).toBe(before);
  });

  it("the one-click unsubscribe of mail providers (a form post from their servers) is still accepted", async () => {
    const response = await fetch(`${api.baseUrl}/api/alerts/unsubscribe?token=not-a-token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    // Refused for its token, not for being a form.
    expect(response.status).toBe(400);
  });
});

describe("per-client limits on anonymous writes", () => {
  const favourite = (userId: string, productId: number, headers: Record<string, string> = {}) =>
    fetch(`${api.baseUrl}/api/favorites`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ userId, productId }) });

  it("answers 429 with Retry-After past the limit, whatever visitor id is sent; another client keeps its allowance", async () => {
    const requests = api.services.context.requests!;
    requests.trustedProxies = parseTrustedProxies("127.0.0.1");
    try {
      const client = { "x-forwarded-for": "203.0.113.7" };
      // Fresh visitor ids every time: the limit is the client's, not the id's.
      for (let i = 0; i < 5; i++) expect((await favourite(visitor(`limited${i}`), 1, client)).status).toBe(201);
      const before = fingerprint();
      const refused = await favourite(visitor("limited5"), 1, client);
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(await refused.json()).toEqual({ error: "Too many requests: please wait a moment and try again" });
      expect(fingerprint()).toBe(before);
      // A second client behind the same proxy is not affected.
      expect((await favourite(visitor("secondclient"), 1, { "x-forwarded-for": "203.0.113.8" })).status).toBe(201);
      // The proxy's own hop added on the right does not change who the client is.
      expect((await favourite(visitor("limited6"), 1, { "x-forwarded-for": "203.0.113.7, 127.0.0.1" })).status).toBe(429);
    } finally {
      requests.trustedProxies = noTrustedProxies;
    }
  });

  it("ignores X-Forwarded-For from a peer that is not a trusted proxy: a client cannot name itself anew", async () => {
    // The peer (127.0.0.1) is not trusted now, so every request counts against it, whatever it claims.
    let refusedAt = -1;
    for (let i = 0; i < 12 && refusedAt < 0; i++) {
      const response = await favourite(visitor(`spoof${i}`), 2, { "x-forwarded-for": `198.51.100.${i}` });
      if (response.status === 429) refusedAt = i;
      else expect(response.status).toBe(201);
    }
    expect(refusedAt).toBeGreaterThanOrEqual(0);
    expect(refusedAt).toBeLessThanOrEqual(5);
  });
});

describe("click events", () => {
  const click = (userId: string, events: number) =>
    fetch(`${api.baseUrl}/api/clicks`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        userId,
        events: Array.from({ length: events }, () => ({ retailer: "Amazon", productName: "Dog food", price: 9.99, timestamp: "2020-01-01T00:00:00.000Z" })),
      }),
    });
  const stored = (userId: string) => (api.db.$client.prepare("SELECT count(*) AS n FROM user_behaviour WHERE user_id = ?").get(userId) as { n: number }).n;

  it(`keeps at most ${dailyClickCap} of a visitor's events in 24 hours (exactly the cap is fine); another visitor is not affected`, async () => {
    const heavy = visitor("heavyclicker");
    for (let sent = 0; sent < dailyClickCap; sent += 20) expect((await click(heavy, 20)).status).toBe(204);
    expect(stored(heavy)).toBe(dailyClickCap);
    const refused = await click(heavy, 1);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(stored(heavy)).toBe(dailyClickCap);
    // A browser-supplied time in the past does not get around the cap: rows carry the server's time.
    const light = visitor("lightclicker");
    expect((await click(light, 1)).status).toBe(204);
    expect(stored(light)).toBe(1);
  });
});
