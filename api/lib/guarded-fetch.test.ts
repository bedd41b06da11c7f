import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import {
  allowLoopbackForTests,
  defaultUserAgent,
  FetchFailed,
  type FetchedPage,
  FetchRefused,
  guardedFetch,
  isPublicAddress,
  type TestAllowance,
} from "./guarded-fetch.ts";

interface FixtureServer {
  origin: string;
  port: number;
  /** TCP connections the server has accepted. */
  connections: number;
  requests: http.IncomingMessage[];
}

const running: http.Server[] = [];

/** A real HTTP server on a free loopback port. */
async function serve(handler: http.RequestListener = (_request, response) => response.end("ok")): Promise<FixtureServer> {
  const server = http.createServer();
  const fixture: FixtureServer = { origin: "", port: 0, connections: 0, requests: [] };
  server.on("connection", () => fixture.connections++);
  server.on("request", (request, response) => {
    fixture.requests.push(request);
    handler(request, response);
  });
  running.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fixture.port = (server.address() as AddressInfo).port;
  fixture.origin = `http://127.0.0.1:${fixture.port}`;
  return fixture;
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

const allowance = allowLoopbackForTests();

/** The error a fetch failed with, or a short note of the page it read (a huge body would make a slow diff). */
function outcome(fetching: Promise<FetchedPage>): Promise<unknown> {
  return fetching.then(
    (page) => `read ${page.body.length} characters`,
    (error: unknown) => error,
  );
}

function html(body: string | Buffer, contentType = "text/html; charset=utf-8"): http.RequestListener {
  return (_request, response) => {
    response.writeHead(200, { "content-type": contentType });
    response.end(body);
  };
}

describe("isPublicAddress", () => {
  it.each([
    ["8.8.8.8", true],
    ["1.1.1.1", true],
    ["81.2.69.160", true],
    ["2a00:1450::1", true],
    ["2a00:1450:4009:80b::200e", true],
    ["::ffff:8.8.8.8", true],
    ["[2a00:1450::1]", true],
    ["127.0.0.1", false],
    ["127.255.255.254", false],
    ["10.0.0.1", false],
    ["172.16.0.1", false],
    ["172.31.255.255", false],
    ["192.168.1.1", false],
    ["169.254.169.254", false],
    ["100.64.0.1", false],
    ["100.127.255.255", false],
    ["0.0.0.0", false],
    ["0.1.2.3", false],
    ["255.255.255.255", false],
    ["224.0.0.1", false],
    ["239.255.255.250", false],
    ["240.0.0.1", false],
    ["192.0.0.8", false],
    ["192.0.2.1", false],
    ["198.51.100.7", false],
    ["203.0.113.9", false],
    ["198.18.0.1", false],
    ["198.19.255.255", false],
    ["::", false],
    ["::1", false],
    ["fe80::1", false],
    ["fe80::1%eth0", false],
    ["fc00::1", false],
    ["fd00::1", false],
    ["ff02::1", false],
    ["::ffff:127.0.0.1", false],
    ["::ffff:7f00:1", false],
    ["::ffff:10.0.0.1", false],
    ["::ffff:169.254.169.254", false],
    ["::127.0.0.1", false],
    ["::8.8.8.8", false],
    ["::7f00:1", false],
    ["64:ff9b::a00:1", false],
    ["64:ff9b::808:808", false],
    ["2002:a00:1::1", false],
    ["2001:0:4136:e378:8000:63bf:f5ff:fffe", false],
    ["2001:db8::1", false],
    ["2001:2::1", false],
    ["100::1", false],
    ["fec0::1", false],
    ["localhost", false],
    ["example.com", false],
    ["127.1", false],
    ["0x7f000001", false],
    ["2130706433", false],
    ["", false],
  ])("%s → %s", (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});

describe("guardedFetch with the loopback test allowance", () => {
  it("returns the page's text, final URL, status and content type, asking honestly for HTML", async () => {
    const server = await serve(html("<h1>Chews</h1>"));
    const page = await guardedFetch(`${server.origin}/dog/chews?size=l#reviews`, { allowance });
    expect(page).toEqual({
      url: `${server.origin}/dog/chews?size=l#reviews`,
      status: 200,
      contentType: "text/html; charset=utf-8",
      body: "<h1>Chews</h1>",
    });
    const request = server.requests[0]!;
    expect(request.url).toBe("/dog/chews?size=l");
    expect(request.headers["user-agent"]).toBe(defaultUserAgent);
    expect(defaultUserAgent).toBe("PawPriceBot/1.0 (+https://pawprice.co.uk/about; price checks for pawprice.co.uk)");
    expect(request.headers.accept).toBe("text/html,application/xhtml+xml;q=0.9,*/*;q=0.5");
    expect(request.headers["accept-language"]).toBe("en-GB");
    expect(request.headers["accept-encoding"]).toBe("gzip, deflate, br");
    expect(request.headers.host).toBe(`127.0.0.1:${server.port}`);
  });

  it("sends a given User-Agent instead", async () => {
    const server = await serve();
    await guardedFetch(server.origin, { allowance, userAgent: "PawPriceBot/2.0" });
    expect(server.requests[0]!.headers["user-agent"]).toBe("PawPriceBot/2.0");
  });

  it.each([
    ["gzip", zlib.gzipSync],
    ["deflate", zlib.deflateSync],
    ["br", zlib.brotliCompressSync],
  ] as const)("decompresses a %s body", async (encoding, compress) => {
    const text = "<p>Salmon kibble 12 kg: £54.99</p>".repeat(100);
    const server = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-encoding": encoding });
      response.end(compress(Buffer.from(text)));
    });
    expect((await guardedFetch(server.origin, { allowance })).body).toBe(text);
  });

  it("fails on a damaged compressed body", async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { "content-encoding": "gzip" });
      response.end("this is not gzip");
    });
    await expect(guardedFetch(server.origin, { allowance })).rejects.toThrow(new FetchFailed("The page's compressed body is damaged"));
  });

  it("fails on a compression it does not read", async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { "content-encoding": "zstd" });
      response.end("whatever");
    });
    await expect(guardedFetch(server.origin, { allowance })).rejects.toThrow(/does not read \(zstd\)/);
  });

  it("decodes with the Content-Type charset: windows-1252 £ comes out right", async () => {
    // 0xA3 is £ and 0x96 is the en dash in windows-1252.
    const page = Buffer.concat([Buffer.from("<p>Was £12.99 ", "latin1"), Buffer.from([0x96]), Buffer.from(" now £9.99</p>", "latin1")]);
    const server = await serve(html(page, "text/html; charset=windows-1252"));
    expect((await guardedFetch(server.origin, { allowance })).body).toBe("<p>Was £12.99 – now £9.99</p>");
  });

  it("reads iso-8859-1 as windows-1252, as browsers do (0x80 is €)", async () => {
    const server = await serve(html(Buffer.from([0xa3, 0x35, 0x20, 0x80, 0x36]), "text/html; charset=ISO-8859-1"));
    expect((await guardedFetch(server.origin, { allowance })).body).toBe("£5 €6");
  });

  it.each([
    ['<meta charset="windows-1252">', "meta charset"],
    ["<meta charset=iso-8859-1>", "an unquoted meta charset"],
    ['<meta http-equiv="Content-Type" content="text/html; charset=windows-1252">', "meta http-equiv"],
  ])("finds the charset in %s (%s) when the header has none", async (meta) => {
    const page = Buffer.from(`<html><head>${meta}<title>Toys</title></head><body>£3.50</body></html>`, "latin1");
    const server = await serve(html(page, "text/html"));
    expect((await guardedFetch(server.origin, { allowance })).body).toContain("<body>£3.50</body>");
  });

  it("prefers the header's charset to the page's meta, and reads UTF-8 when neither says", async () => {
    const utf8Page = '<meta charset="windows-1252"><p>£3.50</p>';
    const declared = await serve(html(utf8Page, "text/html; charset=utf-8"));
    expect((await guardedFetch(declared.origin, { allowance })).body).toBe(utf8Page);
    const undeclared = await serve(html("<p>£3.50 🐾</p>", "text/html"));
    expect((await guardedFetch(undeclared.origin, { allowance })).body).toBe("<p>£3.50 🐾</p>");
  });

  it("looks for a meta charset only in the first 1 KB", async () => {
    const page = Buffer.concat([Buffer.from(`<!--${" ".repeat(1100)}-->`), Buffer.from('<meta charset="windows-1252">£', "latin1")]);
    const server = await serve(html(page, "text/html"));
    expect((await guardedFetch(server.origin, { allowance })).body.endsWith("\ufffd")).toBe(true);
  });

  it("skips a charset TextDecoder does not know", async () => {
    const server = await serve(html("<p>£1</p>", "text/html; charset=klingon"));
    expect((await guardedFetch(server.origin, { allowance })).body).toBe("<p>£1</p>");
  });

  /** /hops/N redirects (with a relative Location) N times, then serves the page. */
  function redirectChain(status = 302): http.RequestListener {
    return (request, response) => {
      const left = Number(request.url!.split("/")[2]);
      if (left > 0) {
        response.writeHead(status, { location: `/hops/${left - 1}` });
        response.end();
      } else {
        html("<p>arrived</p>")(request, response);
      }
    };
  }

  it.each([301, 302, 303, 307, 308])("follows a chain of 3 %s redirects and reports the final URL", async (status) => {
    const server = await serve(redirectChain(status));
    const page = await guardedFetch(`${server.origin}/hops/3`, { allowance });
    expect(page).toMatchObject({ url: `${server.origin}/hops/0`, status: 200, body: "<p>arrived</p>" });
    expect(server.requests.map((request) => request.url)).toEqual(["/hops/3", "/hops/2", "/hops/1", "/hops/0"]);
  });

  it("fails on a 4th redirect without following it", async () => {
    const server = await serve(redirectChain());
    const fetching = guardedFetch(`${server.origin}/hops/4`, { allowance });
    await expect(fetching).rejects.toThrow(FetchFailed);
    await expect(fetching).rejects.toThrow(`${server.origin}/hops/4 redirected more than 3 times`);
    expect(server.requests).toHaveLength(4);
  });

  it("follows only as many redirects as maxRedirects", async () => {
    const server = await serve(redirectChain());
    await expect(guardedFetch(`${server.origin}/hops/1`, { allowance, maxRedirects: 0 })).rejects.toThrow(/more than 0 times/);
    await expect(guardedFetch(`${server.origin}/hops/1`, { allowance, maxRedirects: 1 })).resolves.toMatchObject({ status: 200 });
  });

  it("fails on a redirect that does not say where to", async () => {
    const server = await serve((_request, response) => response.writeHead(302).end());
    await expect(guardedFetch(server.origin, { allowance })).rejects.toThrow(
      new FetchFailed(`${server.origin}/ answered 302 without saying where to`),
    );
  });

  it.each([404, 410, 500, 503])("fails on a %s", async (status) => {
    const server = await serve((_request, response) => response.writeHead(status).end("sorry"));
    await expect(guardedFetch(`${server.origin}/gone`, { allowance })).rejects.toThrow(
      new FetchFailed(`${server.origin}/gone answered ${status} ${http.STATUS_CODES[status]}`, { status }),
    );
  });

  it("gives a non-2xx answer's status and Retry-After on the failure", async () => {
    const server = await serve((_request, response) => response.writeHead(429, { "retry-after": "120" }).end("slow down"));
    const failure = await outcome(guardedFetch(server.origin, { allowance }));
    expect(failure).toBeInstanceOf(FetchFailed);
    expect(failure).toMatchObject({ status: 429, retryAfter: "120" });
    const plain = await serve((_request, response) => response.writeHead(503).end());
    expect(await outcome(guardedFetch(plain.origin, { allowance }))).toMatchObject({ status: 503, retryAfter: null });
  });

  it("gives no status when nothing answered", async () => {
    const server = await serve((request) => request.socket.destroy());
    expect(await outcome(guardedFetch(server.origin, { allowance }))).toMatchObject({ name: "FetchFailed", status: null });
  });

  it("returns the page's ETag and Last-Modified, sends validators back, and takes a 304 to them as the page unchanged", async () => {
    const lastModified = "Tue, 03 Mar 2026 10:00:00 GMT";
    const server = await serve((request, response) => {
      if (request.headers["if-none-match"] === '"v1"') response.writeHead(304, { etag: '"v1"' }).end();
      else response.writeHead(200, { "content-type": "text/html", etag: '"v1"', "last-modified": lastModified }).end("<p>£1</p>");
    });
    expect(await guardedFetch(server.origin, { allowance })).toMatchObject({ status: 200, body: "<p>£1</p>", etag: '"v1"', lastModified });
    const unchanged = await guardedFetch(server.origin, { allowance, validators: { etag: '"v1"', lastModified } });
    expect(unchanged).toMatchObject({ status: 304, body: "" });
    expect(server.requests[1]!.headers["if-none-match"]).toBe('"v1"');
    expect(server.requests[1]!.headers["if-modified-since"]).toBe(lastModified);
    // Without validators nothing is conditional: a 304 is a status like any other non-2xx.
    expect(server.requests[0]!.headers["if-none-match"]).toBeUndefined();
    const stray = await serve((_request, response) => response.writeHead(304).end());
    expect(await outcome(guardedFetch(stray.origin, { allowance }))).toMatchObject({ name: "FetchFailed", status: 304 });
  });

  it("sends only the validators it has", async () => {
    const server = await serve();
    await guardedFetch(server.origin, { allowance, validators: { etag: null, lastModified: "Tue, 03 Mar 2026 10:00:00 GMT" } });
    expect(server.requests[0]!.headers["if-none-match"]).toBeUndefined();
    expect(server.requests[0]!.headers["if-modified-since"]).toBe("Tue, 03 Mar 2026 10:00:00 GMT");
  });

  it("accepts any 2xx, such as 204 with no body", async () => {
    const server = await serve((_request, response) => response.writeHead(204).end());
    await expect(guardedFetch(server.origin, { allowance })).resolves.toMatchObject({ status: 204, body: "", contentType: null });
  });

  it("fails once timeoutMs has passed on a server that never answers", async () => {
    const server = await serve(() => {});
    const started = performance.now();
    await expect(guardedFetch(server.origin, { allowance, timeoutMs: 300 })).rejects.toThrow(
      new FetchFailed(`${server.origin}/ did not answer within 0.3 seconds`),
    );
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("times out also when the caller passes a signal of its own", async () => {
    const server = await serve(() => {});
    const { signal } = new AbortController();
    await expect(guardedFetch(server.origin, { allowance, timeoutMs: 300, signal })).rejects.toThrow(/did not answer within 0.3 seconds/);
  });

  it("counts the timeout over the whole fetch: a body that trickles in fails too", async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "text/html" });
      const drip = setInterval(() => response.write("."), 50);
      response.on("close", () => clearInterval(drip));
    });
    await expect(guardedFetch(server.origin, { allowance, timeoutMs: 300 })).rejects.toThrow(/did not answer within 0.3 seconds/);
  });

  it("fails as cancelled when the caller's signal aborts", async () => {
    const server = await serve(() => {});
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await expect(guardedFetch(server.origin, { allowance, signal: controller.signal })).rejects.toThrow(
      new FetchFailed(`The fetch of ${server.origin}/ was cancelled`),
    );
  });

  it("stops reading past maxBytes and cuts the connection", async () => {
    const chunk = Buffer.alloc(64 * 1024, "a");
    const planned = 20 * 1024 * 1024;
    let written = 0;
    let connectionCut!: () => void;
    const cut = new Promise<void>((resolve) => (connectionCut = resolve));
    const server = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "text/html" });
      response.on("close", () => connectionCut());
      const writeMore = () => {
        while (written < planned && !response.destroyed) {
          written += chunk.length;
          if (!response.write(chunk)) return void response.once("drain", writeMore);
        }
        response.end();
      };
      writeMore();
    });
    expect(await outcome(guardedFetch(server.origin, { allowance, maxBytes: 100_000 }))).toEqual(
      new FetchFailed("The page is larger than 100000 bytes"),
    );
    await cut;
    expect(written).toBeLessThan(planned);
  });

  it("says the default limit is 2 MB, and refuses a declared Content-Length over it before reading", async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { "content-length": String(3 * 1024 * 1024) });
      response.write("x");
    });
    expect(await outcome(guardedFetch(server.origin, { allowance }))).toEqual(new FetchFailed("The page is larger than 2 MB"));
  });

  it("counts the decompressed size against maxBytes (a small gzip of a huge page fails)", async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(10 * 1024 * 1024, " "));
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const server = await serve((_request, response) => {
      response.writeHead(200, { "content-encoding": "gzip", "content-length": String(bomb.length) });
      response.end(bomb);
    });
    expect(await outcome(guardedFetch(server.origin, { allowance, maxBytes: 1024 * 1024 }))).toEqual(
      new FetchFailed("The page is larger than 1 MB"),
    );
  });

  it("counts the bytes received too: endless compressed nothing fails", async () => {
    // Gzip members may follow one another; each of these decompresses to nothing.
    const emptyMember = zlib.gzipSync(Buffer.alloc(0));
    const server = await serve((_request, response) => {
      response.writeHead(200, { "content-encoding": "gzip" });
      const writeMore = () => {
        while (!response.destroyed)
          if (!response.write(Buffer.concat(Array(1000).fill(emptyMember)))) return void response.once("drain", writeMore);
      };
      writeMore();
    });
    expect(await outcome(guardedFetch(server.origin, { allowance, maxBytes: 64 * 1024 }))).toEqual(
      new FetchFailed("The page is larger than 65536 bytes"),
    );
  });

  it("reads a body of exactly maxBytes", async () => {
    const server = await serve(html("x".repeat(1000)));
    expect((await guardedFetch(server.origin, { allowance, maxBytes: 1000 })).body).toHaveLength(1000);
  });

  it.each([
    "file:///etc/passwd",
    "ftp://127.0.0.1/",
    "javascript:alert(1)",
    "data:text/html,<p>hi</p>",
    "gopher://127.0.0.1/",
    "ws://127.0.0.1/",
  ])("refuses the scheme of %s", async (url) => {
    await expect(guardedFetch(url, { allowance })).rejects.toThrow(FetchRefused);
    await expect(guardedFetch(url, { allowance })).rejects.toThrow(/Only http and https pages are fetched/);
  });

  it("refuses a URL with a user name or password, and one that is not a URL", async () => {
    const server = await serve();
    await expect(guardedFetch(`http://admin:secret@127.0.0.1:${server.port}/`, { allowance })).rejects.toThrow(/user name or password/);
    await expect(guardedFetch(`http://admin@127.0.0.1:${server.port}/`, { allowance })).rejects.toThrow(FetchRefused);
    await expect(guardedFetch("not a url", { allowance })).rejects.toThrow(new FetchRefused('"not a url" is not a valid URL'));
    expect(server.connections).toBe(0);
  });

  it("fails with a plain message when nothing listens", async () => {
    const server = await serve();
    const origin = server.origin;
    await new Promise((resolve) => running.pop()!.close(resolve));
    await expect(guardedFetch(origin, { allowance })).rejects.toThrow(
      new FetchFailed(`Could not read ${origin}/: the connection was refused`),
    );
  });

  it("still refuses private, link-local and metadata addresses: the allowance opens loopback only", async () => {
    for (const url of ["http://10.0.0.1/", "http://169.254.169.254/latest/meta-data/", "http://192.168.0.1/", "http://[fd00::1]/"]) {
      await expect(guardedFetch(url, { allowance, timeoutMs: 2000 })).rejects.toThrow(FetchRefused);
    }
  });

  it.each([
    "http://10.0.0.1/",
    "http://169.254.169.254/latest/meta-data/",
    "http://[::ffff:10.0.0.1]/",
    "http://192.168.0.1/",
    "http://[fe80::1]/",
    "file:///etc/passwd",
  ])("refuses a redirect to %s", async (location) => {
    const server = await serve((_request, response) => response.writeHead(302, { location }).end());
    // A connection attempt to an unreachable address would end in FetchFailed after the timeout, not FetchRefused.
    await expect(guardedFetch(server.origin, { allowance, timeoutMs: 2000 })).rejects.toThrow(FetchRefused);
    expect(server.requests).toHaveLength(1);
  });

  it("connects a host name to the address it was checked at, looking it up once per hop, with the name as Host", async () => {
    const lookups: string[] = [];
    const server = await serve((request, response) => {
      if (request.url === "/old") response.writeHead(301, { location: `http://www.shop.test:${server.port}/new` }).end();
      else html("<p>new</p>")(request, response);
    });
    const withDns = allowLoopbackForTests({
      resolveHost: async (hostname) => {
        lookups.push(hostname);
        return [{ address: "127.0.0.1", family: 4 }];
      },
    });
    const page = await guardedFetch(`http://shop.test:${server.port}/old`, { allowance: withDns });
    expect(page).toMatchObject({ url: `http://www.shop.test:${server.port}/new`, body: "<p>new</p>" });
    expect(lookups).toEqual(["shop.test", "www.shop.test"]);
    expect(server.requests.map((request) => request.headers.host)).toEqual([`shop.test:${server.port}`, `www.shop.test:${server.port}`]);
  });

  it("refuses a host name when any one of its addresses is not allowed", async () => {
    const server = await serve();
    const mixed = allowLoopbackForTests({
      resolveHost: async () => [
        { address: "127.0.0.1", family: 4 },
        { address: "10.1.2.3", family: 4 },
      ],
    });
    await expect(guardedFetch(`http://shop.test:${server.port}/`, { allowance: mixed })).rejects.toThrow(
      new FetchRefused("shop.test resolves to 10.1.2.3, which is not a public address; only public addresses are fetched"),
    );
    expect(server.connections).toBe(0);
  });

  it("refuses a redirect to a host name that resolves to a private address", async () => {
    const server = await serve((_request, response) => response.writeHead(302, { location: "http://intranet.test/" }).end());
    const dns = allowLoopbackForTests({ resolveHost: async () => [{ address: "192.168.10.20", family: 4 }] });
    await expect(guardedFetch(server.origin, { allowance: dns })).rejects.toThrow(/intranet.test resolves to 192.168.10.20/);
  });

  it("fails when a host name does not resolve", async () => {
    const nowhere = allowLoopbackForTests({
      resolveHost: async () => Promise.reject(Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" })),
    });
    await expect(guardedFetch("http://nowhere.test/", { allowance: nowhere })).rejects.toThrow(
      new FetchFailed("Could not find the host nowhere.test"),
    );
    const empty = allowLoopbackForTests({ resolveHost: async () => [] });
    await expect(guardedFetch("http://nowhere.test/", { allowance: empty })).rejects.toThrow(FetchFailed);
  });
});

describe("the test allowance cannot be had in production or forged", () => {
  function inProduction<T>(run: () => T): T {
    const before = process.env.NODE_ENV;
    process.env.NODE_ENV = "production";
    try {
      return run();
    } finally {
      process.env.NODE_ENV = before;
    }
  }

  it("is not made when NODE_ENV is production", () => {
    expect(() => inProduction(() => allowLoopbackForTests())).toThrow("The loopback test allowance is not available in production");
  });

  it("is not honoured when NODE_ENV is production, even if made before", async () => {
    const server = await serve();
    await expect(inProduction(() => guardedFetch(server.origin, { allowance }))).rejects.toThrow(FetchRefused);
    expect(server.connections).toBe(0);
  });

  it("is not an object anyone can write", async () => {
    const server = await serve();
    // @ts-expect-error an object literal is not a TestAllowance
    const literal: TestAllowance = {};
    const cast = Object.freeze({}) as unknown as TestAllowance;
    for (const forged of [literal, cast]) {
      await expect(guardedFetch(server.origin, { allowance: forged })).rejects.toThrow(
        new FetchRefused("The test allowance was not made by allowLoopbackForTests()"),
      );
    }
    expect(server.connections).toBe(0);
  });
});

describe("guardedFetch refuses before connecting, without the allowance", () => {
  it.each([
    "http://127.0.0.1:PORT/",
    "http://localhost:PORT/",
    "http://10.0.0.1:PORT/",
    "http://169.254.169.254:PORT/latest/meta-data/",
    "http://[::1]:PORT/",
    "http://0x7f000001:PORT/",
    "http://2130706433:PORT/",
    "http://0177.0.0.1:PORT/",
    "http://127.1:PORT/",
    "http://[::ffff:127.0.0.1]:PORT/",
    "http://[::127.0.0.1]:PORT/",
    "http://0.0.0.0:PORT/",
    "http://100.64.0.1:PORT/",
    "http://192.168.1.1:PORT/",
    "http://172.16.0.1:PORT/",
    "http://[fd00::1]:PORT/",
    "http://[fe80::1]:PORT/",
    "http://224.0.0.1:PORT/",
    "http://255.255.255.255:PORT/",
  ])("%s", async (template) => {
    const server = await serve();
    const url = template.replace("PORT", String(server.port));
    const fetching = guardedFetch(url, { timeoutMs: 2000 });
    await expect(fetching).rejects.toThrow(FetchRefused);
    await expect(fetching).rejects.toThrow(/is not a public address; only public addresses are fetched/);
    expect(server.connections).toBe(0);
  });

  it("refuses even the first hop to a loopback server that would redirect", async () => {
    const server = await serve((_request, response) => response.writeHead(302, { location: "http://10.0.0.1/" }).end());
    await expect(guardedFetch(`${server.origin}/redirect`)).rejects.toThrow(
      new FetchRefused("127.0.0.1 is not a public address; only public addresses are fetched"),
    );
    expect(server.connections).toBe(0);
  });
});
