// @ts-check
import react from "@astrojs/react";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "astro/config";

/**
 * Hydration directives of our own (their code is inlined in each page that uses them):
 * client:toast (the Toaster, on the first toast), client:companion (islands that show
 * nothing until the visitor has used another island or has state from earlier in the visit) and
 * client:interaction (the product grid, whose HTML is complete: on the visitor's first touch).
 * @type {import("astro").AstroIntegration}
 */
const directives = {
  name: "pawprice-directives",
  hooks: {
    "astro:config:setup": ({ addClientDirective }) => {
      addClientDirective({ name: "toast", entrypoint: "./site/directives/toast.ts" });
      addClientDirective({ name: "companion", entrypoint: "./site/directives/companion.ts" });
      addClientDirective({ name: "interaction", entrypoint: "./site/directives/interaction.ts" });
    },
  },
};

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
  integrations: [react(), directives],
  vite: { plugins: [tailwindcss()] },
  devToolbar: { enabled: false },
  telemetry: false,
});
