/**
 * A second server for a browser test file: `npm start`'s (site/test/server-entry.ts) over a copy of
 * the shared database and its current release, which does not rebuild. Tests whose writes the
 * other files must not meet (imported products, their pictures on hosts this machine cannot
 * reach) run against it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { spawnTestServer } from "./test-server.ts";

export interface IsolatedServer {
  baseUrl: string;
  databaseFile: string;
  /** Its own folder (database copy, releases, uploads). */
  dir: string;
  stop: () => Promise<void>;
}

export async function startIsolatedServer({ databaseFile, adminPassword }: { databaseFile: string; adminPassword: string }): Promise<IsolatedServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-import-server-"));
  const copy = path.join(dir, "site.db");
  const source = new Database(databaseFile, { readonly: true });
  await source.backup(copy);
  source.close();
  const releases = path.join(dir, "releases");
  fs.cpSync(path.join(path.dirname(databaseFile), "releases"), releases, { recursive: true, verbatimSymlinks: true });
  const server = await spawnTestServer({ databaseFile: copy, releasesDir: releases, dir, adminPassword, env: { SITE_BUILD: "never" } });
  return {
    baseUrl: server.baseUrl,
    databaseFile: copy,
    dir,
    async stop() {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
