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
import { migrateDb, openDb } from "../../data/db/client.ts";
import { seedCatalogue } from "../../data/db/seed.ts";
import { generateCatalogue } from "../../data/seed/generate.ts";

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

/** The environment of a test server: its own database, port, folders; no site build. */
function serverEnv(databaseFile: string, port: number): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_PATH: databaseFile,
    PORT: String(port),
    HOST: "127.0.0.1",
    SITE_BUILD: "never",
    SITE_RELEASES_DIR: path.join(dir, "no-site"),
    MAIL_OUTBOX: path.join(dir, "outbox"),
    SECRETS_DIR: path.join(dir, "secrets"),
  };
}

/** Starts the server, calls `use` with its URL, then stops it (SIGTERM) and returns its output. */
async function withServer(databaseFile: string, use: (baseUrl: string) => Promise<void>): Promise<string> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(projectRoot, "api/server.ts")], {
    env: serverEnv(databaseFile, port),
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

/** Starts the server with `env` over the defaults and waits for it to exit; its exit code and output. */
async function failedStart(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [path.join(projectRoot, "api/server.ts")], {
    env: { ...serverEnv(path.join(dir, "unused", "pawprice.db"), await freePort()), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { code, output };
}

/** A migrated, seeded database file whose pages after the first few are overwritten with garbage. */
async function damagedDatabase(file: string): Promise<void> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = openDb(file);
  await migrateDb(db);
  seedCatalogue(db, generateCatalogue({ products: 200, today: new Date() }));
  db.$client.pragma("wal_checkpoint(TRUNCATE)");
  db.$client.close();
  damagePages(file);
}

/** Overwrites 60 pages in the middle of the file (the header page stays, so SQLite still opens it). */
function damagePages(file: string): void {
  const pageSize = 4096;
  const handle = fs.openSync(file, "r+");
  const pages = Math.floor(fs.fstatSync(handle).size / pageSize);
  const garbage = Buffer.alloc(pageSize, 0xab);
  for (let page = Math.max(2, Math.floor(pages / 3)), n = 0; n < 60 && page < pages; page++, n++) fs.writeSync(handle, garbage, 0, pageSize, page * pageSize);
  fs.closeSync(handle);
}

describe("start-up failures: one line naming the fix, exit code 1, no stack trace", () => {
  const expectOneLine = ({ code, output }: { code: number | null; output: string }, fix: RegExp) => {
    expect(code).toBe(1);
    // Lines before it are the start's ordinary progress ("Seeded the catalogue ..."); the failure is one line, last.
    const lines = output.trim().split("\n");
    expect(lines.filter((line) => line.startsWith("PawPrice could not start: ")), output).toHaveLength(1);
    expect(lines.at(-1)).toMatch(/^PawPrice could not start: /);
    expect(lines.at(-1)).toMatch(fix);
    expect(output).not.toMatch(/\n\s+at /);
  };

  it("PORT=abc, before the database is touched", async () => {
    const databaseFile = path.join(dir, "port-abc", "pawprice.db");
    const started = await failedStart({ PORT: "abc", DATABASE_PATH: databaseFile });
    expectOneLine(started, /PORT must be a port number .*"abc".*Fix PORT/);
    expect(started.output.trim().split("\n")).toHaveLength(1);
    expect(fs.existsSync(databaseFile)).toBe(false);
  });

  it("SITE_BUILD_PROCESSES=0", async () => {
    expectOneLine(await failedStart({ SITE_BUILD_PROCESSES: "0" }), /SITE_BUILD_PROCESSES must be a whole number from 1 to 16, got "0".*Fix SITE_BUILD_PROCESSES/);
  });

  it("SITE_BUILD_WORKER_IDLE_MS=3m", async () => {
    expectOneLine(
      await failedStart({ SITE_BUILD_WORKER_IDLE_MS: "3m" }),
      /SITE_BUILD_WORKER_IDLE_MS must be a whole number of milliseconds from 0 to 86400000 \(a day\), got "3m".*Fix SITE_BUILD_WORKER_IDLE_MS/,
    );
  });

  it("a malformed TRUSTED_PROXIES", async () => {
    expectOneLine(await failedStart({ TRUSTED_PROXIES: "10.0.0.0/8, proxy.internal" }), /"proxy\.internal" is not an IP address.*Fix TRUSTED_PROXIES/);
  });

  it("a METRICS_TOKEN too short, a bad METRICS_ALLOW, an unknown LOG_LEVEL", async () => {
    expectOneLine(await failedStart({ METRICS_TOKEN: "short" }), /METRICS_TOKEN must be 24 to 512 visible ASCII characters.*Fix METRICS_ALLOW or METRICS_TOKEN/);
    expectOneLine(await failedStart({ METRICS_ALLOW: "prometheus.internal" }), /METRICS_ALLOW: "prometheus\.internal" is not an IP address.*Fix METRICS_ALLOW or METRICS_TOKEN/);
    expectOneLine(await failedStart({ LOG_LEVEL: "loud" }), /LOG_LEVEL must be one of .*Fix LOG_LEVEL/);
  });

  it("a database folder that cannot be created or written", async () => {
    const blocker = path.join(dir, "a-file");
    fs.writeFileSync(blocker, "not a folder");
    expectOneLine(await failedStart({ DATABASE_PATH: path.join(blocker, "pawprice.db") }), /Cannot write the database at .*set DATABASE_PATH to a writable place/);
  });

  it("a file that is not a SQLite database, left as it was", async () => {
    const file = path.join(dir, "notes.txt");
    fs.writeFileSync(file, "shopping list: dog food, cat litter\n".repeat(200));
    const before = fs.readFileSync(file);
    expectOneLine(await failedStart({ DATABASE_PATH: file }), /is not a SQLite database\. Set DATABASE_PATH/);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
  });

  it("a damaged database", async () => {
    const file = path.join(dir, "damaged", "pawprice.db");
    await damagedDatabase(file);
    expectOneLine(await failedStart({ DATABASE_PATH: file }), /The database .* is damaged .*Restore it from a backup/);
  });

  it("a port already in use", async () => {
    const port = await freePort();
    const blocker = net.createServer().listen(port, "127.0.0.1");
    await new Promise((resolve) => blocker.once("listening", resolve));
    try {
      expectOneLine(await failedStart({ PORT: String(port), DATABASE_PATH: path.join(dir, "port-busy", "pawprice.db") }), new RegExp(`Port ${port} is already in use.*set PORT to a free port`));
    } finally {
      blocker.close();
    }
  });
});

describe("health on a database damaged while the server runs", () => {
  it("answers 503 database: corrupt, not ok over failing reads", async () => {
    const databaseFile = path.join(dir, "damaged-later", "pawprice.db");
    const output = await withServer(databaseFile, async (baseUrl) => {
      expect((await fetch(`${baseUrl}/api/health`)).status).toBe(200);
      // Everything into the main file first (a fresh database lives mostly in its WAL), then damage it.
      const other = openDb(databaseFile);
      other.$client.pragma("wal_checkpoint(TRUNCATE)");
      damagePages(databaseFile);
      // Another process's write (here only the header's user_version) makes the server's connection
      // drop its page cache, as time and memory pressure would on a large catalogue.
      other.$client.pragma("user_version = 7");
      other.$client.close();
      // Reads that hit the damage fail; health must say so from then on, not "ok".
      for (let page = 1; page <= 32; page++) await fetch(`${baseUrl}/api/products?page=${page}&limit=15&sort=name_asc`);
      await expect
        .poll(async () => {
          const response = await fetch(`${baseUrl}/api/health`);
          return { status: response.status, body: (await response.json()) as unknown };
        })
        .toMatchObject({ status: 503, body: { status: "error", database: "corrupt" } });
    });
    expect(output).toContain("running at");
  });
});

describe("shutdown", () => {
  it("does not wait forever on a request that never finishes: it exits after the grace period", async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [path.join(projectRoot, "api/server.ts")], {
      env: { ...serverEnv(path.join(dir, "shutdown", "pawprice.db"), port), SHUTDOWN_GRACE_MS: "1500" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
    await expect.poll(() => output, { timeout: 60_000 }).toContain("running at");
    // A client that sends half a body and then holds the connection open.
    const socket = net.connect(port, "127.0.0.1");
    // The server exits with this connection open: the reset that follows is expected.
    socket.on("error", () => {});
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.write(["POST /api/favorites HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json", "Content-Length: 1000", "", '{"userId":'].join("\r\n"));
    try {
      child.kill("SIGTERM");
      expect(await exited, output).toEqual({ code: 1, signal: null });
      expect(output).toContain("Shutdown took longer than 1.5 s: exiting without waiting for the rest.");
    } finally {
      socket.destroy();
    }
  });
});
