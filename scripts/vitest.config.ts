import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const exclude = ["**/node_modules/**", "**/.node/**", "**/dist/**"];

export default defineConfig({
  root,
  test: {
    testTimeout: 30_000,
    hookTimeout: 180_000,
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
