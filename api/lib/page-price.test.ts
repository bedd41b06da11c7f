/**
 * The page reader against fixture sites on loopback: robots.txt read as RFC 9309 has it (status,
 * redirects, size) and pages read with their validators.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { allowLoopbackForTests, FetchRefused } from "./guarded-fetch.ts";
import { createPageReader, priceCheckUserAgent, robotsMaxBytes } from "./page-price.ts";

interface Site {
  origin: string;
  paths: string[];
  headers: http.IncomingHttpHeaders[];
}

const running: http.Server[] = [];

async function serve(handler: http.RequestListener): Promise<Site> {
  const server = http.createServer();
  const site: Site = { origin: "", paths: [], headers: [] };
  server.on("request", (request, response) => {
    site.paths.push(request.url ?? "");
    site.headers.push(request.headers);
    handler(request, response);
  });
  running.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  site.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return site;
}

afterEach(async () => {
  const servers = running.splice(0);
  await Promise.all(
    servers.map((server) => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    }),
  );
});

const reader = createPageReader({ allowance: allowLoopbackForTests(), timeoutMs: 1000 });
const answering = (status: number, body = "", headers: http.OutgoingHttpHeaders = {}): http.RequestListener => (_request, response) => response.writeHead(status, headers).end(body);

describe("readRobots", () => {
  it("a 2xx gives its rules, asked for at /robots.txt with our User-Agent", async () => {
    const site = await serve(answering(200, "User-agent: *\nDisallow: /basket\n", { "content-type": "text/plain" }));
    expect(await reader.readRobots(site.origin)).toEqual({ state: "rules", text: "User-agent: *\nDisallow: /basket\n" });
    expect(site.paths).toEqual(["/robots.txt"]);
    expect(site.headers[0]!["user-agent"]).toBe(priceCheckUserAgent);
  });

  it.each([400, 401, 403, 404, 410])("a %s allows everything", async (status) => {
    const site = await serve(answering(status, "nope"));
    expect(await reader.readRobots(site.origin)).toEqual({ state: "allow" });
  });

  it.each([429, 500, 503])("a %s disallows everything", async (status) => {
    const site = await serve(answering(status, "busy"));
    expect(await reader.readRobots(site.origin)).toEqual({ state: "disallow", reason: `it answered ${status}` });
  });

  it("no answer disallows everything", async () => {
    const site = await serve((request) => request.socket.destroy());
    expect(await reader.readRobots(site.origin)).toMatchObject({ state: "disallow", reason: expect.stringContaining("Could not read") });
  });

  it("follows five redirects; a sixth disallows everything", async () => {
    const chain = (hops: number) => (request: http.IncomingMessage, response: http.ServerResponse) => {
      const hop = Number(/\d+$/.exec(request.url ?? "")?.[0] ?? 0);
      if (hop < hops) response.writeHead(301, { location: `/moved/${hop + 1}` }).end();
      else response.writeHead(200).end("User-agent: *\nDisallow: /x\n");
    };
    const five = await serve(chain(5));
    expect(await reader.readRobots(five.origin)).toEqual({ state: "rules", text: "User-agent: *\nDisallow: /x\n" });
    expect(five.paths).toEqual(["/robots.txt", "/moved/1", "/moved/2", "/moved/3", "/moved/4", "/moved/5"]);
    const six = await serve(chain(6));
    expect(await reader.readRobots(six.origin)).toMatchObject({ state: "disallow", reason: expect.stringContaining("redirected more than 5 times") });
  });

  it("reads the first 500 KiB of a larger robots.txt, dropping the line cut there", async () => {
    const head = "User-agent: *\nDisallow: /early\n";
    const filler = `# ${"x".repeat(97)}\n`;
    let text = head;
    while (text.length + filler.length <= robotsMaxBytes - 10) text += filler;
    text += `#${"x".repeat(robotsMaxBytes - 10 - text.length - 2)}\n`;
    expect(text.length).toBe(robotsMaxBytes - 10);
    // A rule straddling the 500 KiB mark, then one after it.
    text += "Disallow: /straddling-the-limit\nDisallow: /late\n";
    const site = await serve(answering(200, text + filler.repeat(2000)));
    const answer = await reader.readRobots(site.origin);
    expect(answer.state).toBe("rules");
    const read = answer.state === "rules" ? answer.text : "";
    expect(Buffer.byteLength(read)).toBeLessThanOrEqual(robotsMaxBytes);
    expect(read.startsWith(head)).toBe(true);
    expect(read).not.toContain("/straddling");
    expect(read).not.toContain("/late");
    expect(read.endsWith("\n")).toBe(true);
  });

  it("refuses an origin that may not be fetched", async () => {
    await expect(createPageReader().readRobots("http://127.0.0.1:9")).rejects.toBeInstanceOf(FetchRefused);
  });
});

describe("readPage", () => {
  const page = `<script type="application/ld+json">{"@type":"Product","offers":{"@type":"Offer","price":"12.50","priceCurrency":"GBP"}}</script>`;

  it("reads the offer and the page's validators; sent back, a 304 is not modified", async () => {
    const site = await serve((request, response) => {
      if (request.headers["if-none-match"] === '"a1"') response.writeHead(304).end();
      else response.writeHead(200, { "content-type": "text/html", etag: '"a1"', "last-modified": "Mon, 02 Mar 2026 10:00:00 GMT" }).end(page);
    });
    const read = await reader.readPage(`${site.origin}/p/1`);
    expect(read).toMatchObject({ notModified: false, reading: { status: "found", offer: { price: 1250, currency: "GBP" } } });
    expect(read.validators).toEqual({ etag: '"a1"', lastModified: "Mon, 02 Mar 2026 10:00:00 GMT" });
    expect(await reader.readPage(`${site.origin}/p/1`, read.validators)).toEqual({ notModified: true });
    expect(site.headers[1]!["if-modified-since"]).toBe("Mon, 02 Mar 2026 10:00:00 GMT");
  });

  it("gives null validators when the page sends none", async () => {
    const site = await serve(answering(200, page, { "content-type": "text/html" }));
    expect((await reader.readPage(site.origin)).validators).toEqual({ etag: null, lastModified: null });
  });
});
