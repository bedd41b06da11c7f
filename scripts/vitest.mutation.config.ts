/**
 * The tests Stryker runs against each mutant (npm run test:mutation): unit and API tests, in
 * process. Browser tests are left out (a mutant must be killed in seconds, not per Chromium
 * build), and so is the first-start test, whose server runs in a child process where no mutant
 * is switched on. The real site build test is left out too: its Astro builds take tens of seconds
 * per run, and the rebuild job's own tests cover its logic with builders that run in process.
 * So is the split build test: its builds run in child processes, where no mutant is switched on,
 * and it failed Stryker's initial test run when data/domain/retailers.ts (which the site bundles)
 * was the file mutated, though it passes outside the sandbox. So are the tests of commands run as
 * processes of their own (the CLIs, the nightly script, a killed and restarted server, every
 * bench's smoke run): no mutant is switched on in a child process, so they can kill none, and on
 * a loaded machine they ran past the test timeout and failed Stryker's initial run. And so is the
 * admin screen registry's test: it loads the admin app's modules afresh inside its tests (to try
 * each import order), which loads the module-level code of everything they import (the retailer
 * registry's table among it) inside those tests, so Stryker tried those mutants against those
 * tests alone and counted them survived; it tests the admin app, which is not mutated.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export default defineConfig({
  root,
  test: {
    include: ["{data,api,scripts,site}/**/*.test.{ts,tsx}"],
    exclude: [
      "**/node_modules/**",
      "**/.node/**",
      "**/dist/**",
      "**/.stryker-tmp/**",
      "**/*.browser.test.ts",
      "api/test/server-start.test.ts",
      "api/test/site-build.test.ts",
      "api/test/site-build-split.test.ts",
      "api/test/pipeline-cli.test.ts",
      "api/test/seed-cli.test.ts",
      "api/test/nightly.test.ts",
      "api/test/restart-rebuild.test.ts",
      "scripts/backup-cli.test.ts",
      "scripts/bench-smoke.test.ts",
      "scripts/bench-rebuild-smoke.test.ts",
      "site/features/admin/routes.test.ts",
    ],
    testTimeout: 30_000,
    hookTimeout: 180_000,
    // One worker for every file: the database driver and migrations load once per run, not per file.
    isolate: false,
  },
});
