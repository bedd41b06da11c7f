/**
 * A client that goes away in the middle of sending a body is not a server failure: the server
 * answers it as a bad request (nobody is there to read it) and logs nothing as an error.
 */
import { createServer, type Server } from "node:http";
import net from "node:net";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { toNodeHandler } from "h3";
import { createApp } from "../app.ts";
import { startTestServer, type TestServer } from "./server.ts";

let api: TestServer;
let server: Server;
let port: number;
/** Status of every finished or abandoned request, in order. */
const finished: number[] = [];

beforeAll(async () => {
  api = await startTestServer({ products: 5 });
  server = createServer(toNodeHandler(createApp(api.services.context)));
  server.on("request", (_request, response) => response.on("close", () => finished.push(response.statusCode)));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as net.AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await api.close();
});

it("a body cut off by the client is a 400, not a logged 500", async () => {
  const errors = vi.spyOn(console, "error");
  try {
    const socket = net.connect(port, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.write(
      ["POST /api/favorites HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json", "Content-Length: 1000", "", '{"userId":"user_'].join("\r\n"),
    );
    await new Promise((resolve) => setImmediate(resolve));
    socket.destroy();
    await expect.poll(() => finished.length, { timeout: 10_000 }).toBe(1);
    expect(finished[0]).toBeLessThan(500);
    expect(errors).not.toHaveBeenCalled();
  } finally {
    errors.mockRestore();
  }
});
