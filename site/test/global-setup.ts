/**
 * Browser-test setup: seeds a temporary SQLite file, builds the site from it into a release (as
 * `npm run build` does), and starts the real server (api/start-server.ts, what `npm start`
 * runs, with a page reader allowed to read fixture pages on loopback) on a free port, serving that release. The tests get the URL
 * and the database path through vitest's provide/inject.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { hashPassword } from "../../api/lib/admin-auth.ts";
import { buildRelease } from "../../api/jobs/site-rebuild.ts";
import { createAstroBuilder } from "../../api/site-build.ts";
import { createReleaseStore } from "../../api/site-releases.ts";
import { projectRoot } from "../../data/config.ts";
import { migrateDb, openDb } from "../../data/db/client.ts";
import { seedCatalogue } from "../../data/db/seed.ts";
import { generateCatalogue } from "../../data/seed/generate.ts";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    databaseFile: string;
    outboxDir: string;
    adminPassword: string;
  }
}

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

let server: ChildProcess | undefined;
let dir: string | undefined;

export async function setup(project: TestProject): Promise<void> {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-browser-"));
  const databaseFile = path.join(dir, "site.db");
  const db = openDb(databaseFile);
  await migrateDb(db);
  seedCatalogue(db, generateCatalogue({ products: 120, today: new Date() }));
  const releasesDir = path.join(dir, "releases");
  const build = await buildRelease(
    { db, store: createReleaseStore(releasesDir), builder: createAstroBuilder({ quiet: true, keepWarm: false }), log: () => {} },
    "full",
  );
  db.$client.close();
  if (!build.ok) throw new Error(`site build failed:\n${build.record?.logTail}`);

  const port = await freePort();
  // The admin tests sign in with this password; the server knows only its hash.
  const adminPassword = "browser-test-admin-password";
  const outboxDir = path.join(dir, "outbox");
  // `npm start`'s server, allowed to read fixture retailer pages on loopback (server-entry.ts).
  server = spawn(process.execPath, [path.join(projectRoot, "site/test/server-entry.ts")], {
    env: {
      ...process.env,
      DATABASE_PATH: databaseFile,
      SITE_RELEASES_DIR: releasesDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      // Mail goes to a temporary outbox (no SMTP_URL), secrets to a temporary folder.
      MAIL_OUTBOX: outboxDir,
      SECRETS_DIR: path.join(dir, "secrets"),
      SMTP_URL: "",
      // Feed uploads go to the temporary folder too, never into the project.
      FEED_UPLOADS_DIR: path.join(dir, "uploads"),
      ADMIN_PASSWORD_HASH: await hashPassword(adminPassword),
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    server!.once("exit", (code) => reject(new Error(`server exited with code ${code}`)));
    server!.stdout!.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("running at")) resolve();
    });
  });
  project.provide("baseUrl", `http://127.0.0.1:${port}`);
  project.provide("databaseFile", databaseFile);
  project.provide("outboxDir", outboxDir);
  project.provide("adminPassword", adminPassword);
}

export async function teardown(): Promise<void> {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once("exit", resolve));
    server.kill("SIGTERM");
    await exited;
  }
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
}
