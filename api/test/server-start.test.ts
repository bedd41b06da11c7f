/**
 * `npm start` on an empty machine: the real entry point (api/server.ts) creates, migrates and
 * seeds the database on first start, and leaves it alone on the next.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { projectRoot } from "../../data/config.ts";
import { openDb } from "../../data/db/client.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-start-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Starts the server, calls `use` with its URL, then stops it (SIGTERM) and returns its output. */
async function withServer(databaseFile: string, use: (baseUrl: string) => Promise<void>): Promise<string> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(projectRoot, "api/server.ts")], {
    env: {
      ...process.env,
      DATABASE_PATH: databaseFile,
      PORT: String(port),
      HOST: "127.0.0.1",
      SITE_BUILD: "never",
      SITE_RELEASES_DIR: path.join(dir, "no-site"),
      MAIL_OUTBOX: path.join(dir, "outbox"),
      SECRETS_DIR: path.join(dir, "secrets"),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
    const timer = setInterval(() => {
      if (output.includes("running at")) {
        clearInterval(timer);
        resolve();
      }
    }, 50);
  });
  try {
    await use(`http://127.0.0.1:${port}`);
  } finally {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
  return output;
}

describe("first start", () => {
  it("creates, migrates and seeds an empty database, then keeps it on the next start", async () => {
    const databaseFile = path.join(dir, "fresh", "pawprice.db");
    const first = await withServer(databaseFile, async (baseUrl) => {
      const health = (await (await fetch(`${baseUrl}/api/health`)).json()) as { status: string; products: number };
      expect(health).toMatchObject({ status: "ok", products: 480 });
      const categories = (await (await fetch(`${baseUrl}/api/categories`)).json()) as unknown[];
      expect(categories.length).toBeGreaterThanOrEqual(12);
      const response = await fetch(`${baseUrl}/api/favorites`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ userId: "user_firststarttester00000000", productId: 1 }),
      });
      expect(response.status).toBe(201);
    });
    expect(first).toContain("Seeded the catalogue");
    expect(first).toMatch(/running at http:\/\/localhost:\d+/);

    const second = await withServer(databaseFile, async (baseUrl) => {
      const favorites = (await (await fetch(`${baseUrl}/api/favorites?userId=user_firststarttester00000000`)).json()) as unknown[];
      expect(favorites).toHaveLength(1);
    });
    expect(second).not.toContain("Seeded the catalogue");
    const db = openDb(databaseFile);
    expect((db.$client.prepare("SELECT count(*) AS n FROM products").get() as { n: number }).n).toBe(480);
    db.$client.close();
  });
});
