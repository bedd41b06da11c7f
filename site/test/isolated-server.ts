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
import { releaseLayers } from "../../api/site-build/releases.ts";
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
  await copyCurrentRelease(path.join(path.dirname(databaseFile), "releases"), releases);
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

/**
 * Copies the shared server's current release (and the full release a fast one is laid over) into
 * `to` and points `to`'s current link at it. The shared server keeps rebuilding while other files'
 * tests edit the catalogue, and deletes old releases as it goes: a copy that loses a folder to
 * that starts again from the newer current release. (Node's fs.cpSync walks folders in C++, and a
 * folder deleted under it ended the whole test process with SIGABRT; fs.promises.cp fails with an
 * ordinary error.)
 */
async function copyCurrentRelease(from: string, to: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    fs.rmSync(to, { recursive: true, force: true });
    fs.mkdirSync(to, { recursive: true });
    try {
      const current = fs.readlinkSync(path.join(from, "current"));
      for (const layer of releaseLayers(path.join(from, current))) {
        await fs.promises.cp(layer, path.join(to, path.basename(layer)), { recursive: true, verbatimSymlinks: true });
      }
      fs.symlinkSync(current, path.join(to, "current"));
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT" || attempt === 5) throw error;
    }
  }
}
