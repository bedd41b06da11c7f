/**
 * The request observer (observeRequests) around a plain request listener on a real node:http
 * server on loopback: the id it adds to every form of header list Node takes, the status, time
 * and size it counts and logs, the client network it logs, and the memo of client networks.
 */
import http, { type IncomingMessage, type OutgoingHttpHeader, type OutgoingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { noTrustedProxies, parseTrustedProxies, type TrustedProxies } from "./client-address.ts";
import { createLogger } from "./log.ts";
import { metricsAccess } from "./metrics-endpoint.ts";
import { createMetrics, siteRoute, unmatchedRoute } from "./metrics.ts";
import { clientNetworks, maxRememberedClients, maxRememberedKeyLength, observeRequests, tagRoute, type Telemetry } from "./observe.ts";
import type { LogLevel } from "../../data/config.ts";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

interface Observed {
  url: string;
  telemetry: Telemetry;
  /** Every line the logger wrote, as written. */
  raw: string[];
  /** The request lines, parsed. */
  lines(): Record<string, unknown>[];
  close(): Promise<void>;
}

const servers: Observed[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const server of servers.splice(0)) await server.close();
});

/** A real server whose requests `handler` answers, observed; `trusted` as serveApi passes it (left out: the default). */
async function observedServer(handler: Handler, options: { level?: LogLevel; trusted?: () => TrustedProxies } = {}): Promise<Observed> {
  const raw: string[] = [];
  const telemetry: Telemetry = {
    metrics: createMetrics(),
    logger: createLogger({ level: options.level ?? "info", destination: { write: (line: string) => void raw.push(line) } }),
    metricsAccess: metricsAccess("127.0.0.1, ::1", null),
  };
  const listener = options.trusted ? observeRequests(handler, telemetry, options.trusted) : observeRequests(handler, telemetry);
  const server = http.createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const observed: Observed = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    telemetry,
    raw,
    lines: () => raw.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.msg === "request"),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  servers.push(observed);
  return observed;
}

interface Answer {
  status: number;
  statusText: string;
  /** Header names (lower case) and values, as received. */
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request with node:http; `headers` may repeat a header (a list of values). */
function request(url: string, options: { method?: string; path?: string; headers?: OutgoingHttpHeaders } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}${options.path ?? "/"}`, { method: options.method ?? "GET", headers: options.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode!, statusText: res.statusMessage!, headers: res.headers, body: Buffer.concat(chunks).toString() }));
    });
    req.on("error", reject);
    req.end();
  });
}

const uuidShaped = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("the request id in every form of answer headers", () => {
  const forms: [string, Handler][] = [
    // Node writes the head itself (writeHead with no headers) when the answer ends without one.
    ["headers set one by one", (_req, res) => {
      res.setHeader("content-type", "text/plain");
      res.setHeader("x-custom", "a");
      res.end("hello");
    }],
    ["a header object", (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain", "x-custom": "a" });
      res.end("hello");
    }],
    ["a flat header list", (_req, res) => {
      res.writeHead(200, ["content-type", "text/plain", "x-custom", "a"]);
      res.end("hello");
    }],
    ["a list of header pairs", (_req, res) => {
      res.writeHead(200, [["content-type", "text/plain"], ["x-custom", "a"]] as unknown as OutgoingHttpHeader[]);
      res.end("hello");
    }],
  ];

  for (const [form, handler] of forms) {
    it(`adds X-Request-Id to ${form} and keeps every other header`, async () => {
      const server = await observedServer(handler);
      const answer = await request(server.url, { headers: { "x-request-id": `id-${form.length}` } });
      expect(answer.status).toBe(200);
      expect(answer.headers["x-request-id"]).toBe(`id-${form.length}`);
      expect(answer.headers["content-type"]).toBe("text/plain");
      expect(answer.headers["x-custom"]).toBe("a");
      expect(answer.body).toBe("hello");
    });
  }

  it("adds it to an empty header list (what the app's error answer writes) and to a head with no headers at all", async () => {
    const server = await observedServer((req, res) => {
      if (req.url === "/empty") res.writeHead(500, "Internal Server Error", []);
      else res.writeHead(204);
      res.end();
    });
    const empty = await request(server.url, { path: "/empty", headers: { "x-request-id": "empty-list" } });
    expect([empty.status, empty.statusText, empty.headers["x-request-id"]]).toEqual([500, "Internal Server Error", "empty-list"]);
    const none = await request(server.url, { path: "/none", headers: { "x-request-id": "no-headers" } });
    expect([none.status, none.headers["x-request-id"]]).toEqual([204, "no-headers"]);
  });

  it("keeps the status text the answer gives with its headers", async () => {
    const server = await observedServer((_req, res) => {
      res.writeHead(202, "Taken In", ["content-type", "text/plain"]);
      res.end("later");
    });
    const answer = await request(server.url);
    expect([answer.status, answer.statusText, answer.headers["content-type"], answer.body]).toEqual([202, "Taken In", "text/plain", "later"]);
    expect(answer.headers["x-request-id"]).toMatch(uuidShaped);
  });

  it("leaves Node's own refusal of a header name that is not text as it is", async () => {
    const errors: unknown[] = [];
    const server = await observedServer((req, res) => {
      // A number, and a list of 14 things (the length of "content-length"), as header names.
      const name = req.url === "/number" ? 1234 : Array.from({ length: 14 }, () => "a");
      try {
        res.writeHead(200, ["x-first", "1", name, "v"] as unknown as OutgoingHttpHeader[]);
      } catch (error) {
        errors.push(error);
      }
      res.writeHead(200, ["content-type", "text/plain"]);
      res.end("refused");
    });
    expect((await request(server.url, { path: "/number" })).body).toBe("refused");
    expect((await request(server.url, { path: "/list" })).body).toBe("refused");
    expect(errors.map((error) => (error as NodeJS.ErrnoException).code)).toEqual(["ERR_INVALID_HTTP_TOKEN", "ERR_INVALID_HTTP_TOKEN"]);
  });

  it("replaces an id sent twice (the two joined are not a valid id) by a new one", async () => {
    const server = await observedServer((_req, res) => res.end("ok"));
    const answer = await request(server.url, { headers: { "x-request-id": ["first-id", "second-id"] } });
    expect(answer.headers["x-request-id"]).toMatch(uuidShaped);
    await expect.poll(() => server.lines().length).toBe(1);
    expect(server.lines()[0]!.reqId).toBe(answer.headers["x-request-id"]);
  });
});

describe("the request's line and count", () => {
  it("counts and logs the answer's time from the start of the request to its end, in seconds and in milliseconds to a tenth", async () => {
    let now = 5_000;
    vi.spyOn(performance, "now").mockImplementation(() => now);
    const server = await observedServer((_req, res) => {
      now += 12.34; // the answer takes 12.34 ms
      res.end("done");
    });
    await request(server.url, { headers: { "x-request-id": "timed" } });
    await expect.poll(() => server.lines().length).toBe(1);
    expect(server.lines()[0]).toMatchObject({ reqId: "timed", route: siteRoute, method: "GET", status: 200, ms: 12.3 });
    const series = server.telemetry.metrics.requestSeries(siteRoute, "GET");
    expect(series.count).toBe(1);
    expect(series.sum).toBeCloseTo(0.01234, 10);
  });

  it("names the size a header list, a header object, a set header gives, and no size when none is given", async () => {
    const server = await observedServer((req, res) => {
      switch (req.url) {
        case "/flat":
          // A header of 14 characters that is not the length comes first.
          res.writeHead(200, ["x-abcdefghijkl", "7", "content-length", "5"]);
          break;
        case "/pairs":
          res.writeHead(200, [["content-type", "text/plain"], ["Content-Length", "5"]] as unknown as OutgoingHttpHeader[]);
          break;
        case "/object":
          // Node keeps a header object given to writeHead nowhere getHeader reads.
          res.writeHead(200, { "content-type": "text/plain", "Content-Length": 5 });
          break;
        case "/set":
          res.setHeader("Content-Length", "5");
          break;
        case "/chunked":
          res.write("he");
          break;
      }
      res.end(req.url === "/chunked" ? "llo" : "hello");
    });
    for (const path of ["/flat", "/pairs", "/object", "/set", "/chunked"]) {
      expect((await request(server.url, { path, headers: { "x-request-id": `size${path.replace("/", "-")}` } })).body).toBe("hello");
    }
    await expect.poll(() => server.lines().length).toBe(5);
    const byId = Object.fromEntries(server.lines().map((line) => [line.reqId, line]));
    expect(byId["size-flat"]!.bytes).toBe(5);
    expect(byId["size-object"]!.bytes).toBe(5);
    expect(byId["size-pairs"]!.bytes).toBe(5);
    expect(byId["size-set"]!.bytes).toBe(5);
    expect(byId["size-chunked"]).not.toHaveProperty("bytes");
    expect(server.raw.find((line) => line.includes('"size-chunked"'))).not.toContain('"bytes"');
  });

  it("writes a length that is not a number as null, so the line stays JSON", async () => {
    const server = await observedServer((_req, res) => {
      res.writeHead(200, ["content-length", "lots"]);
      res.end();
    });
    // The client refuses such an answer; the line is written all the same.
    await request(server.url, { headers: { "x-request-id": "bad-length" } }).catch(() => undefined);
    await expect.poll(() => server.raw.length).toBe(1);
    expect(JSON.parse(server.raw[0]!)).toMatchObject({ reqId: "bad-length", bytes: null });
  });

  it("counts an untagged request by its own method: a POST to a page is not the site's GET", async () => {
    const server = await observedServer((req, res) => {
      if (req.url === "/tagged") tagRoute(req, "/api/things");
      res.end("ok");
    });
    await request(server.url, { method: "POST", path: "/some-page", headers: { "x-request-id": "post-page" } });
    await request(server.url, { path: "/some-page", headers: { "x-request-id": "get-page" } });
    await request(server.url, { method: "DELETE", path: "/api/nothing-here", headers: { "x-request-id": "delete-api" } });
    await request(server.url, { method: "PUT", path: "/tagged", headers: { "x-request-id": "put-tagged" } });
    await expect.poll(() => server.lines().length).toBe(4);
    const byId = Object.fromEntries(server.lines().map((line) => [line.reqId, line]));
    expect(byId["post-page"]).toMatchObject({ method: "POST", route: siteRoute, status: 200 });
    expect(byId["get-page"]).toMatchObject({ method: "GET", route: siteRoute, status: 200 });
    expect(byId["delete-api"]).toMatchObject({ method: "DELETE", route: unmatchedRoute, status: 200 });
    expect(byId["put-tagged"]).toMatchObject({ method: "PUT", route: "/api/things", status: 200 });
    const { metrics } = server.telemetry;
    expect(metrics.requestSeries(siteRoute, "POST").count).toBe(1);
    expect(metrics.requestSeries(siteRoute, "GET").count).toBe(1);
    expect(metrics.requestSeries(unmatchedRoute, "DELETE").count).toBe(1);
    expect(metrics.requestSeries("/api/things", "PUT").count).toBe(1);
  });

  it("counts every request but writes no line when the level is above info", async () => {
    const server = await observedServer((_req, res) => res.end("ok"), { level: "warn" });
    await request(server.url);
    await request(server.url);
    const series = server.telemetry.metrics.requestSeries(siteRoute, "GET");
    await expect.poll(() => series.count).toBe(2);
    expect(server.raw).toEqual([]);
  });

  it("counts a client that left before the answer as 499 and logs its network as unknown (its address is gone)", async () => {
    let arrived!: () => void;
    const arrival = new Promise<void>((resolve) => (arrived = resolve));
    const server = await observedServer(() => arrived()); // never answers
    const req = http.request(`${server.url}/slow`, { headers: { "x-request-id": "gone" }, agent: false });
    req.on("error", () => {});
    req.end();
    await arrival;
    req.destroy();
    await expect.poll(() => server.lines().length).toBe(1);
    expect(server.lines()[0]).toMatchObject({ reqId: "gone", status: 499, client: "unknown" });
    expect(server.telemetry.metrics.requestSeries(siteRoute, "GET").statuses.get(499)).toBe(1);
  });
});

describe("the client's network in the line", () => {
  it("trusts no proxy by default: the connection's own network", async () => {
    const server = await observedServer((_req, res) => res.end("ok"));
    await request(server.url, { headers: { "x-request-id": "direct", "x-forwarded-for": "198.51.100.7" } });
    await expect.poll(() => server.lines().length).toBe(1);
    expect(server.lines()[0]).toMatchObject({ reqId: "direct", client: "127.0.0.0/24" });
  });

  it("reads forwarded-for headers sent twice as one list, as Node joins them", async () => {
    const server = await observedServer((_req, res) => res.end("ok"), { trusted: () => parseTrustedProxies("127.0.0.1") });
    // The visitor, then our own proxy: the visitor is the first untrusted hop from the right.
    await request(server.url, { headers: { "x-request-id": "twice", "x-forwarded-for": ["198.51.100.7", "127.0.0.1"] } });
    await expect.poll(() => server.lines().length).toBe(1);
    expect(server.lines()[0]).toMatchObject({ reqId: "twice", client: "198.51.100.0/24" });
  });
});

describe("the memo of client networks", () => {
  const loopbackProxy = parseTrustedProxies("127.0.0.1");

  it("resolves the same request again once the trusted proxies are replaced", () => {
    let trusted: TrustedProxies = noTrustedProxies;
    const networkOf = clientNetworks(() => trusted);
    expect(networkOf("127.0.0.1", "198.51.100.7")).toBe('"127.0.0.0/24"');
    expect(networkOf("127.0.0.1", "203.0.113.9")).toBe('"127.0.0.0/24"');
    expect(networkOf.remembered()).toBe(2);
    trusted = loopbackProxy;
    expect(networkOf("127.0.0.1", "198.51.100.7")).toBe('"198.51.100.0/24"');
    expect(networkOf.remembered()).toBe(1); // the answers under the old list are forgotten
    expect(networkOf("127.0.0.1", "203.0.113.9")).toBe('"203.0.113.0/24"');
    expect(networkOf.remembered()).toBe(2);
    expect(networkOf(undefined, "198.51.100.7")).toBe('"unknown"');
    expect(networkOf.remembered()).toBe(2);
  });

  it("remembers a client without a forwarded-for header apart from any header's text", () => {
    const networkOf = clientNetworks(() => loopbackProxy);
    expect(networkOf("127.0.0.1", undefined)).toBe('"127.0.0.0/24"');
    expect(networkOf("127.0.0.1", "undefined")).toBe('"127.0.0.0/24"');
    expect(networkOf.remembered()).toBe(2);
  });

  it(`keeps keys (address, a space, the header) of up to ${maxRememberedKeyLength} characters and not one more`, () => {
    const networkOf = clientNetworks(() => noTrustedProxies);
    const peer = "192.0.2.1";
    const header = (keyLength: number) => "x".repeat(keyLength - peer.length - 1);
    expect(networkOf(peer, header(maxRememberedKeyLength + 1))).toBe('"192.0.2.0/24"');
    expect(networkOf.remembered()).toBe(0);
    expect(networkOf(peer, header(maxRememberedKeyLength))).toBe('"192.0.2.0/24"');
    expect(networkOf.remembered()).toBe(1);
  });

  it(`starts over once it holds ${maxRememberedClients} clients`, () => {
    const networkOf = clientNetworks(() => noTrustedProxies);
    const address = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
    for (let i = 0; i < maxRememberedClients; i++) networkOf(address(i), undefined);
    expect(networkOf.remembered()).toBe(maxRememberedClients);
    expect(networkOf(address(0), undefined)).toBe('"10.0.0.0/24"'); // already kept: nothing new
    expect(networkOf.remembered()).toBe(maxRememberedClients);
    expect(networkOf(address(maxRememberedClients), undefined)).toBe('"10.0.39.0/24"');
    expect(networkOf.remembered()).toBe(1);
  });
});
