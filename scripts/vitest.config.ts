import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import SlowestFirstSequencer from "./vitest-sequencer.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const exclude = ["**/node_modules/**", "**/.node/**", "**/dist/**"];

export default defineConfig({
  root,
  test: {
    // Vitest's own default in a run is one worker fewer than the CPUs: a single worker on CI's two
    // cores, which left one core idle for the whole unit+api project. The tests spend much of their
    // time waiting on servers, child processes and SQLite, so every core gets a worker.
    maxWorkers: Math.max(2, os.availableParallelism()),
    testTimeout: 30_000,
    hookTimeout: 180_000,
    sequence: { sequencer: SlowestFirstSequencer },
    projects: [
      {
        extends: true,
        test: { name: "unit+api", include: ["{data,api,scripts,site}/**/*.test.{ts,tsx}"], exclude: [...exclude, "**/*.browser.test.ts"] },
      },
      {
        extends: true,
        test: {
          name: "browser",
          include: ["site/**/*.browser.test.ts"],
          exclude,
          globalSetup: ["site/test/global-setup.ts"],
          // One Chromium per file; two files at a time on a 2-core machine.
          maxWorkers: 2,
          testTimeout: 60_000,
          // Islands hydrate on idle and the toast UI loads on demand: on a busy 2-core machine that
          // can take more than expect.poll's default 1 s.
          expect: { poll: { timeout: 8_000 } },
        },
      },
    ],
  },
});
