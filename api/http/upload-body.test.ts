/**
 * saveRequestBody on a real node:http server (the h3 app through toNodeHandler): a body of at
 * most the limit is stored whole; one byte over is refused with 413 and the connection closed,
 * refused before a file is made when the request says its length, and cut off at the limit when
 * it is streamed without one; the file must not exist beforehand.
 */
import fs from "node:fs";
import { Agent, createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { H3, toNodeHandler } from "h3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saveRequestBody } from "./upload-body.ts";

const limit = 10;
let dir: string;
let server: Server;
let port: number;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-upload-"));
  const app = new H3();
  // The file's name comes in the query; the route keeps what saveRequestBody leaves (no clean-up), so the tests see it.
  app.put("/upload", async (event) => ({ bytes: await saveRequestBody(event, path.join(dir, new URL(event.req.url).searchParams.get("name")!), limit) }));
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

/** PUTs `chunks` to /upload?name=`name`: with a Content-Length when `withLength`, else chunked, one write per chunk. */
function put(name: string, chunks: string[], withLength: boolean): Promise<Answer> {
  // A keep-alive client, so a "connection: close" in the answer is the server's own.
  const agent = new Agent({ keepAlive: true });
  return new Promise<Answer>((resolve, reject) => {
    const length = chunks.reduce((sum, chunk) => sum + Buffer.byteLength(chunk), 0);
    const req = request(
      { host: "127.0.0.1", port, method: "PUT", path: `/upload?name=${name}`, agent, headers: withLength ? { "content-length": String(length) } : {} },
      (res) => {
        const parts: Buffer[] = [];
        res.on("data", (part: Buffer) => parts.push(part));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(parts).toString() }));
      },
    );
    // The server may answer 413 and close before the whole body is sent.
    req.on("error", (error: NodeJS.ErrnoException) => (error.code === "ECONNRESET" || error.code === "EPIPE" ? undefined : reject(error)));
    for (const chunk of chunks) req.write(chunk);
    req.end();
  }).finally(() => agent.destroy());
}

const stored = (name: string) => (fs.existsSync(path.join(dir, name)) ? fs.readFileSync(path.join(dir, name), "utf8") : null);
const tooLarge = "The file is larger than the upload limit of 10 bytes";

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
  });

  it("never writes over a file that exists already, and fails even when the whole body came before the file's error", async () => {
    fs.writeFileSync(path.join(dir, "kept.csv"), "kept");
    // The body is short: it has all arrived before the file's open fails; that must not count as stored.
    const answer = await put("kept.csv", ["new"], true);
    expect(answer.status).toBe(500);
    expect(stored("kept.csv")).toBe("kept");
  });
});
