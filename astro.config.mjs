// @ts-check
import react from "@astrojs/react";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "astro/config";

const site = (process.env.PUBLIC_BASE_URL || "http://localhost:4321").replace(/\/+$/, "");

export default defineConfig({
  site,
  srcDir: "./site",
  publicDir: "./site/public",
  // The rebuild runner builds into a fresh folder and swaps it in (see api/); default dist/site.
  outDir: process.env.BUILD_OUT_DIR || "./dist/site",
  output: "static",
  trailingSlash: "ignore",
  build: { format: "directory", concurrency: 32 },
  integrations: [react()],
  vite: { plugins: [tailwindcss()] },
  devToolbar: { enabled: false },
  telemetry: false,
});
