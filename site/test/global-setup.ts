/**
 * Browser-test setup: seeds a temporary SQLite file, builds the site from it into a release (as
 * `npm run build` does), and starts the real server (api/start-server.ts, what `npm start`
 * runs, with a page reader allowed to read fixture pages on loopback) on a free port, serving that release. The tests get the URL
 * and the database path through vitest's provide/inject.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { buildRelease } from "../../api/jobs/site-rebuild.ts";
import { createAstroBuilder } from "../../api/site-build/builder.ts";
import { createReleaseStore } from "../../api/site-build/releases.ts";
import { migrateDb, openDb } from "../../data/db/client.ts";
import { seedCatalogue } from "../../data/db/seed.ts";
import { generateCatalogue } from "../../data/seed/generate.ts";
import { spawnTestServer, type TestServerProcess } from "./test-server.ts";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    databaseFile: string;
    outboxDir: string;
    adminPassword: string;
  }
}

let server: TestServerProcess | undefined;
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

  // The admin tests sign in with this password; the server knows only its hash.
  const adminPassword = "browser-test-admin-password";
  const outboxDir = path.join(dir, "outbox");
  // `npm start`'s server, allowed to read fixture retailer pages on loopback (server-entry.ts).
  server = await spawnTestServer({ databaseFile, releasesDir, dir, adminPassword });
  project.provide("baseUrl", server.baseUrl);
  project.provide("databaseFile", databaseFile);
  project.provide("outboxDir", outboxDir);
  project.provide("adminPassword", adminPassword);
}

export async function teardown(): Promise<void> {
  await server?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
}
