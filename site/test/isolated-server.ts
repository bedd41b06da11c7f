/**
 * A second server for a browser test file: `npm start`'s (site/test/server-entry.ts) over a copy of
 * the shared database and its current release, which does not rebuild. Tests whose writes the
 * other files must not meet (imported products, their pictures on hosts this machine cannot
 * reach) run against it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { createServer } from "node:http";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { hashPassword } from "../../api/lib/admin-auth.ts";
import { projectRoot } from "../../data/config.ts";

export interface IsolatedServer {
  baseUrl: string;
  databaseFile: string;
  /** Its own folder (database copy, releases, uploads). */
  dir: string;
  stop: () => Promise<void>;
}

/** A second server over a copy of the shared database and its current release; it does not rebuild. */
export async function startIsolatedServer({ databaseFile, adminPassword }: { databaseFile: string; adminPassword: string }): Promise<IsolatedServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-import-server-"));
  const copy = path.join(dir, "site.db");
  const source = new Database(databaseFile, { readonly: true });
  await source.backup(copy);
  source.close();
  const releases = path.join(dir, "releases");
  fs.cpSync(path.join(path.dirname(databaseFile), "releases"), releases, { recursive: true, verbatimSymlinks: true });
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port: free } = probe.address() as { port: number };
      probe.close(() => resolve(free));
    });
  });
  const child: ChildProcess = spawn(process.execPath, [path.join(projectRoot, "site/test/server-entry.ts")], {
    env: {
      ...process.env,
      DATABASE_PATH: copy,
      SITE_RELEASES_DIR: releases,
      SITE_BUILD: "never",
      PORT: String(port),
      HOST: "127.0.0.1",
      MAIL_OUTBOX: path.join(dir, "outbox"),
      SECRETS_DIR: path.join(dir, "secrets"),
      SMTP_URL: "",
      FEED_UPLOADS_DIR: path.join(dir, "uploads"),
      ADMIN_PASSWORD_HASH: await hashPassword(adminPassword),
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`import test server exited with code ${code}`)));
    child.stdout!.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("running at")) resolve();
    });
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    databaseFile: copy,
    dir,
    async stop() {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
