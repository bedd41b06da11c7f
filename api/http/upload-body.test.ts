/**
 * saveRequestBody on a real node:http server (the h3 app through toNodeHandler): a body of at
 * most the limit is stored whole; one byte over is refused with 413 and the connection closed,
 * refused before a file is made when the request says its length, and cut off at the limit when
 * it is streamed without one (the request is then left paused, with none of saveRequestBody's
 * listeners); the file must not exist beforehand, and a file that cannot be made fails the upload
 * at once, without waiting for the rest of the body; a body that stops half way is a 400; a body
 * that comes faster than the file takes it is paused until the file has caught up. A web request
 * (no node request behind it, as app.fetch gives) is read from its web stream, and one without a
 * body is a 400.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { Agent, createServer, request, type ClientRequest, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { H3, HTTPError, toNodeHandler, type H3Event } from "h3";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { saveRequestBody } from "./upload-body.ts";

const limit = 10;
/** The limit of /large: room for a body big enough to come faster than the file takes it. */
const largeLimit = 8 * 1024 * 1024;
let dir: string;
let server: Server;
let port: number;

type Listeners = Record<"data" | "end" | "error", number>;
const listenersOf = (req: IncomingMessage): Listeners => ({ data: req.listenerCount("data"), end: req.listenerCount("end"), error: req.listenerCount("error") });

/** How each refused upload left its request, by file name: the error, whether the request is paused, its listeners before and after. */
const refusals = new Map<string, { error: unknown; paused: boolean; before: Listeners; after: Listeners }>();
/** How often each upload's request was paused while saveRequestBody read it, by file name. */
const pauses = new Map<string, number>();

const nameOf = (event: H3Event) => new URL(event.req.url).searchParams.get("name")!;
const nodeRequestOf = (event: H3Event) => event.runtime!.node!.req as IncomingMessage;

/** Saves the body to the named file and keeps it (no clean-up, so the tests see what saveRequestBody leaves), noting what it did to the request. */
async function upload(event: H3Event, maxBytes: number) {
  const name = nameOf(event);
  const req = nodeRequestOf(event);
  const before = listenersOf(req);
  let paused = 0;
  const onPause = () => paused++;
  req.on("pause", onPause);
  try {
    return { bytes: await saveRequestBody(event, path.join(dir, name), maxBytes) };
  } catch (error) {
    refusals.set(name, { error, paused: req.isPaused(), before, after: listenersOf(req) });
    throw error;
  } finally {
    req.off("pause", onPause);
    pauses.set(name, paused);
  }
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-upload-"));
  const app = new H3();
  // The file's name comes in the query.
  app.put("/upload", (event) => upload(event, limit));
  app.put("/large", (event) => upload(event, largeLimit));
  // A request that whatever read it before paused.
  app.put("/paused", (event) => {
    nodeRequestOf(event).pause();
    return upload(event, limit);
  });
  server = createServer(toNodeHandler(app));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  fs.rmSync(dir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * Starts a PUT to `route`?name=`name` (with a Content-Length of `length` when given, else chunked)
 * on a keep-alive client, so a "connection: close" in the answer is the server's own. The answer
 * comes once its body has; the request is the caller's to write and end.
 */
function startPut(route: string, name: string, length?: number): { req: ClientRequest; answer: Promise<Answer> } {
  const agent = new Agent({ keepAlive: true });
  let req!: ClientRequest;
  const answer = new Promise<Answer>((resolve, reject) => {
    req = request(
      { host: "127.0.0.1", port, method: "PUT", path: `${route}?name=${name}`, agent, headers: length === undefined ? {} : { "content-length": String(length) } },
      (res) => {
        const parts: Buffer[] = [];
        res.on("data", (part: Buffer) => parts.push(part));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(parts).toString() }));
      },
    );
    // The server may answer and close before the whole body is sent.
    req.on("error", (error: NodeJS.ErrnoException) => (error.code === "ECONNRESET" || error.code === "EPIPE" ? undefined : reject(error)));
  }).finally(() => agent.destroy());
  return { req, answer };
}

/** PUTs `chunks` to `route`?name=`name`: with a Content-Length when `withLength`, else chunked, one write per chunk. */
function put(name: string, chunks: (string | Buffer)[], withLength: boolean, route = "/upload"): Promise<Answer> {
  const length = chunks.reduce((sum, chunk) => sum + Buffer.byteLength(chunk), 0);
  const { req, answer } = startPut(route, name, withLength ? length : undefined);
  for (const chunk of chunks) req.write(chunk);
  req.end();
  return answer;
}

const stored = (name: string) => (fs.existsSync(path.join(dir, name)) ? fs.readFileSync(path.join(dir, name), "utf8") : null);
const tooLarge = "The file is larger than the upload limit of 10 bytes";
/** Waiting for something the server does: long enough for a busy machine. */
const serverTime = { timeout: 10_000, interval: 20 };

describe("saveRequestBody", () => {
  it("stores a body of exactly the limit whole, with or without a Content-Length", async () => {
    const sized = await put("exact-sized.csv", ["0123456789"], true);
    expect([sized.status, JSON.parse(sized.body)]).toEqual([200, { bytes: 10 }]);
    expect(stored("exact-sized.csv")).toBe("0123456789");
    const streamed = await put("exact-streamed.csv", ["01234", "56789"], false);
    expect([streamed.status, JSON.parse(streamed.body)]).toEqual([200, { bytes: 10 }]);
    expect(stored("exact-streamed.csv")).toBe("0123456789");
  });

  it("refuses a body one byte over the limit that says its length before making a file: 413, connection closed", async () => {
    const answer = await put("over-sized.csv", ["0123456789a"], true);
    expect(answer.status).toBe(413);
    expect(answer.headers.connection).toBe("close");
    expect(JSON.parse(answer.body)).toMatchObject({ message: tooLarge });
    expect(stored("over-sized.csv")).toBeNull();
  });

  it("cuts a streamed body off once it passes the limit: 413, and nothing past the limit is written", async () => {
    const answer = await put("over-streamed.csv", ["01234", "56789", "a"], false);
    expect(answer.status).toBe(413);
    expect(answer.headers.connection).toBe("close");
    expect(JSON.parse(answer.body)).toMatchObject({ message: tooLarge });
    expect((stored("over-streamed.csv") ?? "").length).toBeLessThanOrEqual(limit);
    // The rest is not read: the request is left paused, and nothing of saveRequestBody's still listens to it.
    const refusal = refusals.get("over-streamed.csv")!;
    expect(refusal.paused).toBe(true);
    expect(refusal.after).toEqual(refusal.before);
  });

  it("never writes over a file that exists already, and fails even when the whole body came before the file's error", async () => {
    fs.writeFileSync(path.join(dir, "kept.csv"), "kept");
    // The body is short: it has all arrived before the file's open fails; that must not count as stored.
    const answer = await put("kept.csv", ["new"], true);
    expect(answer.status).toBe(500);
    expect(stored("kept.csv")).toBe("kept");
  });

  it("fails at once when the file cannot be made while the body is still coming: the answer comes before the body ends", async () => {
    fs.writeFileSync(path.join(dir, "taken.csv"), "kept");
    const { req, answer } = startPut("/upload", "taken.csv");
    req.write("new");
    // The request stays open: only the file's error can bring the answer.
    const response = await answer;
    req.destroy();
    expect(response.status).toBe(500);
    expect(stored("taken.csv")).toBe("kept");
    const refusal = refusals.get("taken.csv")!;
    expect((refusal.error as NodeJS.ErrnoException).code).toBe("EEXIST");
    expect(refusal.paused).toBe(true);
    expect(refusal.after).toEqual(refusal.before);
  });

  it("fails an upload whose connection drops half way through the body: 400, nothing of it left listening", async () => {
    const { req } = startPut("/upload", "cut-off.csv", 8);
    req.write("0123");
    // The file appears once saveRequestBody is reading the body; only then does the connection drop.
    await vi.waitFor(() => expect(fs.existsSync(path.join(dir, "cut-off.csv"))).toBe(true), serverTime);
    req.destroy();
    await vi.waitFor(() => expect(refusals.has("cut-off.csv")).toBe(true), serverTime);
    const { error, before, after } = refusals.get("cut-off.csv")!;
    expect(error).toBeInstanceOf(HTTPError);
    expect([(error as HTTPError).status, (error as HTTPError).message]).toEqual([400, "The file was not received completely"]);
    expect(after).toEqual(before);
  });

  it("pauses a body that comes faster than the file takes it until the file has caught up, and stores it whole", async () => {
    const body = randomBytes(4 * 1024 * 1024);
    const chunks = Array.from({ length: 64 }, (_, i) => body.subarray(i * 65_536, (i + 1) * 65_536));
    const answer = await put("large.bin", chunks, true, "/large");
    expect([answer.status, JSON.parse(answer.body)]).toEqual([200, { bytes: body.length }]);
    expect(fs.readFileSync(path.join(dir, "large.bin")).equals(body)).toBe(true);
    expect(pauses.get("large.bin")).toBeGreaterThan(0);
  });

  it("reads a request that whatever read it before left paused", async () => {
    const answer = await put("paused.csv", ["0123"], true, "/paused");
    expect([answer.status, JSON.parse(answer.body)]).toEqual([200, { bytes: 4 }]);
    expect(stored("paused.csv")).toBe("0123");
  });
});

describe("saveRequestBody on a web request (no node request behind it)", () => {
  const app = new H3();
  app.put("/upload", async (event) => ({ bytes: await saveRequestBody(event, path.join(dir, nameOf(event)), limit) }));

  it("stores the body read from the request's web stream", async () => {
    const response = await app.fetch(new Request("http://localhost/upload?name=web.csv", { method: "PUT", body: "0123456789" }));
    expect([response.status, await response.json()]).toEqual([200, { bytes: 10 }]);
    expect(stored("web.csv")).toBe("0123456789");
  });

  it("refuses a request without a body (400) and makes no file", async () => {
    const response = await app.fetch(new Request("http://localhost/upload?name=web-none.csv", { method: "PUT" }));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ message: "Send the feed file as the request body" });
    expect(stored("web-none.csv")).toBeNull();
  });
});
