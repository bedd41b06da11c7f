/**
 * Starts `npm start`'s server for the browser tests (site/test/server-entry.ts) on a free port
 * over a database and a releases folder, with mail, secrets and feed uploads kept in the test's
 * own folder (never in the project), and waits until it listens.
 */
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { hashPassword } from "../../api/lib/admin-auth.ts";
import { projectRoot } from "../../data/config.ts";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

export interface TestServerProcess {
  baseUrl: string;
  child: ChildProcess;
  /** Stops the server and waits for it to exit. */
  stop(): Promise<void>;
}

export async function spawnTestServer(options: {
  databaseFile: string;
  releasesDir: string;
  /** The test's folder: outbox, secrets and uploads go in it. */
  dir: string;
  /** The admin password; the server knows only its hash. */
  adminPassword: string;
  env?: Record<string, string>;
}): Promise<TestServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(projectRoot, "site/test/server-entry.ts")], {
    env: {
      ...process.env,
      DATABASE_PATH: options.databaseFile,
      SITE_RELEASES_DIR: options.releasesDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      // Mail goes to a temporary outbox (no SMTP_URL); secrets and feed uploads to the test's folder.
      MAIL_OUTBOX: path.join(options.dir, "outbox"),
      SECRETS_DIR: path.join(options.dir, "secrets"),
      FEED_UPLOADS_DIR: path.join(options.dir, "uploads"),
      SMTP_URL: "",
      // No scheduled page reads: a test run must never fetch retailers' real pages.
      REFRESH_CRON: "off",
      // Every browser test file writes as the one client 127.0.0.1 to this one server: the daily
      // storage budget is tested in api/test/storage-budget.test.ts, not spent across files here.
      VISITOR_ROWS_PER_DAY: "1000000",
      ADMIN_PASSWORD_HASH: await hashPassword(options.adminPassword),
      ...options.env,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`test server exited with code ${code}`)));
    child.stdout!.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("running at")) resolve();
    });
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    child,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}
