/**
 * The security headers on every kind of answer the API gives: JSON reads, cached reads, errors
 * (400, 404, 405, 415, 429), HEAD, and the HTML pages it renders itself (unsubscribe). The site's
 * own pages and 404 pages are checked where the built site is served (api/http/site.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./server.ts";
import { signToken } from "../lib/tokens.ts";

let api: TestServer;
beforeAll(async () => {
  api = await startTestServer({ products: 10, writeLimits: { visitor: { max: 1, windowMs: 60_000 } } });
});
afterAll(() => api.close());

function expectSecurityHeaders(response: Response, label: string): void {
  const policy = response.headers.get("content-security-policy") ?? "";
  expect(policy, label).toMatch(/frame-ancestors 'none'/);
  expect(policy.match(/(?:script|default)-src[^;]*/g)?.join(";") ?? "", label).not.toContain("unsafe-inline");
  expect(response.headers.get("x-content-type-options"), label).toBe("nosniff");
  expect(response.headers.get("x-frame-options"), label).toBe("DENY");
  expect(response.headers.get("referrer-policy"), label).toBe("strict-origin-when-cross-origin");
}

describe("security headers on API answers", () => {
  it("JSON reads, cached reads (miss and hit), HEAD, and every kind of error carry them", async () => {
    const visitor = `user_${"h".repeat(24)}`;
    const requests: [string, RequestInit | undefined, number][] = [
      ["/api/health", undefined, 200],
      ["/api/products/count", undefined, 200],
      ["/api/products/count", undefined, 200],
      ["/api/products", { method: "HEAD" }, 200],
      ["/api/products?limit=abc", undefined, 400],
      ["/api/no-such-endpoint", undefined, 404],
      ["/api/favorites", { method: "PUT" }, 405],
      ["/api/favorites", { method: "POST", headers: { "content-type": "text/plain" }, body: "x" }, 415],
      ["/api/favorites", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userId: visitor, productId: 1 }) }, 201],
      ["/api/favorites", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userId: visitor, productId: 2 }) }, 429],
    ];
    for (const [path, init, status] of requests) {
      const response = await fetch(api.baseUrl + path, init);
      expect(response.status, path).toBe(status);
      expectSecurityHeaders(response, `${init?.method ?? "GET"} ${path} ${status}`);
      expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
    }
  });

  it("the unsubscribe page (HTML the API renders) gets a page policy that allows no inline script", async () => {
    const alertId = api.db.$client
      .prepare("INSERT INTO price_alerts (user_id, product_id, target_price_pence, email) VALUES (?, 1, 100, 'a@example.com') RETURNING id")
      .get(`user_${"u".repeat(24)}`) as { id: number };
    const response = await fetch(`${api.baseUrl}/api/alerts/unsubscribe?token=${signToken("alert-unsubscribe", alertId.id)}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expectSecurityHeaders(response, "unsubscribe page");
    expect(response.headers.get("content-security-policy")).toMatch(/script-src 'self'(;|$)/);
  });

  it("Strict-Transport-Security only when the public address is https", async () => {
    expect((await fetch(`${api.baseUrl}/api/health`)).headers.get("strict-transport-security")).toBeNull();
    const requests = api.services.context.requests!;
    const original = requests.publicOrigin;
    requests.publicOrigin = "https://www.pawprice.example";
    try {
      const response = await fetch(`${api.baseUrl}/api/health`);
      expect(response.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    } finally {
      requests.publicOrigin = original;
    }
  });
});
