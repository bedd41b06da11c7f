import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export default defineConfig({
  root,
  test: {
    include: ["{data,api,scripts,site}/**/*.test.{ts,tsx}"],
    exclude: ["**/node_modules/**", "**/.node/**", "**/dist/**"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
