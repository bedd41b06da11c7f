/**
 * Runs the Astro static build in a child process (it needs its own memory and must not block
 * the server's event loop), against a given database file and into a given folder.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { projectRoot } from "../data/config.ts";

const astroBin = path.join(projectRoot, "node_modules/astro/bin/astro.mjs");

export interface BuildResult {
  ok: boolean;
  durationMs: number;
  /** The build's last output lines, for logs and the admin's Platform Health. */
  log: string;
}

export function buildSite(options: { databaseFile: string; outDir: string; quiet?: boolean }): Promise<BuildResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [astroBin, "build"], {
      cwd: projectRoot,
      env: {
        ...process.env,
        DATABASE_PATH: options.databaseFile,
        BUILD_OUT_DIR: options.outDir,
        ASTRO_TELEMETRY_DISABLED: "1",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let log = "";
    const collect = (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-20_000);
      if (!options.quiet) process.stdout.write(chunk);
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    child.on("close", (code) => {
      if (code === 0) precompressAssets(options.outDir);
      resolve({ ok: code === 0, durationMs: performance.now() - started, log });
    });
    child.on("error", (error) => resolve({ ok: false, durationMs: performance.now() - started, log: String(error) }));
  });
}

/**
 * Writes a .gz beside every hashed script and stylesheet (a few dozen files), which the server
 * sends to browsers that accept gzip (api/site.ts). Pages stay uncompressed: 50,000 of them would
 * add tens of seconds to every build.
 */
export function precompressAssets(outDir: string): void {
  const assets = path.join(outDir, "_astro");
  if (!fs.existsSync(assets)) return;
  for (const name of fs.readdirSync(assets)) {
    if (!/\.(js|css|svg)$/.test(name)) continue;
    const file = path.join(assets, name);
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(fs.readFileSync(file), { level: 9 }));
  }
}

/** The folder `npm start` serves and `npm run build` writes. */
export const defaultSiteDir = path.join(projectRoot, "dist/site");
