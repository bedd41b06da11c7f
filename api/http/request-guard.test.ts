/**
 * The request guard in the real app on a real port over a temporary SQLite file, with requests
 * written header by header (node:http), so a body's length, chunking and content type are exactly
 * as given. A write that reads no body (signing out) shows what the guard alone lets through: an
 * empty body without a content type, or a body declared JSON; any other body is a 415. A file
 * upload's type is its media type whatever its case, parameters or white space. A guard keeps
 * the trusted proxies and public origin it is made with: each such test makes its own guard.
 */
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { toNodeHandler } from "h3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../app.ts";
import { parseTrustedProxies } from "./client-address.ts";
import { createRequestGuard, type RequestGuard } from "./request-guard.ts";
import { tempDb, type TempDb } from "../../data/db/fixtures/temp-db.ts";

let temp: TempDb;
/** The app with the guard it makes for itself. */
let app: Served;

interface Served {
  port: number;
  close(): Promise<void>;
}

/** The app over the test database with `requests` as its guard (else its own), on a port of its own. */
async function serve(requests?: RequestGuard): Promise<Served> {
  const server: Server = createServer(toNodeHandler(createApp({ db: temp.db, requests })));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

beforeAll(async () => {
  temp = await tempDb();
  app = await serve();
});

afterAll(async () => {
  await app.close();
  temp.remove();
});

interface Answer {
  status: number;
  body: unknown;
}

/** Sends exactly these headers and `chunks` (one write each), with no header added. */
function send(method: string, path: string, headers: Record<string, string>, chunks: string[] = [], { port } = app): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method, path, headers, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on("data", (part: Buffer) => parts.push(part));
      res.on("end", () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(parts).toString()) }));
    });
    req.on("error", reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

/** Signs out: a write that reads no body, so only the guard looks at it. */
const signOut = (headers: Record<string, string>, body?: string, served = app) =>
  send("POST", "/api/admin/logout", body === undefined ? headers : { "content-length": String(Buffer.byteLength(body)), ...headers }, body === undefined ? [] : [body], served);

const notJson = { status: 415, body: { error: "Send a JSON body (Content-Type: application/json)" } };
const signedOut = { status: 200, body: { ok: true } };

describe("a body must be declared JSON", () => {
  it("takes an empty body without a content type", async () => {
    expect(await signOut({ "content-length": "0" })).toEqual(signedOut);
  });

  it("refuses a body without a content type, whether its length is given or it is chunked", async () => {
    expect(await signOut({}, "{}")).toEqual(notJson);
    expect(await send("POST", "/api/admin/logout", { "transfer-encoding": "chunked" }, ["{", "}"])).toEqual(notJson);
  });

  it("takes application/json in any case, with parameters after optional white space", async () => {
    for (const type of ["application/json", "Application/JSON", "application/json; charset=utf-8", "application/json ; charset=utf-8"]) {
      expect(await signOut({ "content-type": type }, "{}"), type).toEqual(signedOut);
    }
  });

  it("refuses a type that only contains or starts with application/json", async () => {
    for (const type of ["text/application/json", "application/jsonx", "application/json-patch+json", "text/plain"]) {
      expect(await signOut({ "content-type": type }, "{}"), type).toEqual(notJson);
    }
  });
});

describe("a file upload's content type", () => {
  // Without a session: a type the guard lets through meets the sign-in check next (401).
  const uploadAs = (type: string | null) => send("PUT", "/api/admin/feed-sources/1/file?name=feed.csv", { "content-length": "3", ...(type === null ? {} : { "content-type": type }) }, ["a,b"]);
  const passed = { status: 401, body: { error: "Sign in to the admin area" } };

  it("is its media type, whatever its case, parameters or white space", async () => {
    for (const type of ["text/csv", "Text/CSV", "text/csv; charset=utf-8", "text/csv ; charset=utf-8", " application/gzip "]) {
      expect(await uploadAs(type), type).toEqual(passed);
    }
  });

  it("is refused (415) when it is not one the route takes, or missing", async () => {
    for (const type of ["text/html", "text/csvx", "multipart/form-data; boundary=x", null]) {
      const answer = await uploadAs(type);
      expect(answer.status, String(type)).toBe(415);
      expect(answer.body).toEqual({ error: expect.stringMatching(/^Send the file as the body with Content-Type application\/octet-stream, text\/csv, /) });
    }
  });
});

describe("the guard keeps what it is made with", () => {
  it("takes a request whose Origin is the public origin, and refuses another site's", async () => {
    const publicOrigin = "https://www.pawprice.example";
    const guarded = await serve(createRequestGuard({ publicOrigin }));
    try {
      expect(await signOut({ "content-length": "0", origin: publicOrigin }, undefined, guarded)).toEqual(signedOut);
      expect(await signOut({ "content-length": "0", origin: "https://evil.example" }, undefined, guarded)).toEqual({ status: 403, body: { error: "Requests from other sites are refused" } });
    } finally {
      await guarded.close();
    }
  });

  it("counts each client behind a trusted proxy apart, by the address the proxy forwarded", async () => {
    const guarded = await serve(createRequestGuard({ trustedProxies: parseTrustedProxies("127.0.0.1"), limits: { visitor: { max: 1, windowMs: 60_000 } } }));
    const favourite = (client: string) =>
      send("POST", "/api/favorites", { "content-type": "application/json", "content-length": "0", "x-forwarded-for": client }, [], guarded).then(({ status }) => status);
    try {
      const first = await favourite("203.0.113.1");
      expect(first).not.toBe(429);
      expect(await favourite("203.0.113.1")).toBe(429);
      expect(await favourite("203.0.113.2")).toBe(first);
    } finally {
      await guarded.close();
    }
  });
});
