/**
 * The site build's child process (started by api/site-build.ts, never by hand). Its first job is
 * an Astro build into a fresh folder: every page, or, for a fast rebuild without a warm worker,
 * every page but the product pages of other products. It can then stay and keep Astro's built
 * server bundle loaded: a later fast rebuild only renders pages into a new folder with that
 * bundle, which takes about a second instead of a whole build's start-up (Vite bundling alone is
 * several seconds). Jobs and results travel over the IPC channel; Astro's log goes to stdout.
 *
 * Runs with the build folder's parent as its working directory: Astro writes the server bundle
 * (.prerender) inside the output folder only when that folder is under the working directory,
 * otherwise into the project's shared .astro folder, where two builds at once would collide.
 */
import fs from "node:fs";
import module from "node:module";
import path from "node:path";
import type { AstroIntegration, AstroPrerenderer } from "astro";
import { projectRoot, siteConfig } from "../data/config.ts";
import { endBuildPass, startBuildPass, currentBuildPass } from "../data/site-build-pass.ts";

module.enableCompileCache?.();

/** What the parent asks for. */
export type WorkerJob =
  | { type: "build"; outDir: string; databaseFile: string; productIds: readonly number[] | null; stay: boolean }
  | { type: "render"; outDir: string; databaseFile: string; productIds: readonly number[] };

/** What the worker answers, once per job. */
export type WorkerReply =
  { type: "done"; ok: true; pages: number; productPages: number; ms: number } | { type: "done"; ok: false; error: string; ms: number };

type RouteData = Parameters<AstroPrerenderer["render"]>[1]["routeData"];

/** Astro's own prerenderer after the build, with the app (and its route cache) it set up. */
type KeptPrerenderer = AstroPrerenderer & { app?: { routeCache?: { clearAll(): void } } };

let kept: KeptPrerenderer | undefined;
let rendered = 0;

/** Keeps Astro's default prerenderer for later renders and counts what it renders. */
const keepPrerenderer: AstroIntegration = {
  name: "pawprice:keep-prerenderer",
  hooks: {
    "astro:build:start": ({ setPrerenderer }) => {
      setPrerenderer((astroDefault) => {
        kept = astroDefault;
        return {
          name: "pawprice:counting",
          setup: () => astroDefault.setup?.() ?? Promise.resolve(),
          getStaticPaths: () => astroDefault.getStaticPaths(),
          render: (request, options) => {
            rendered++;
            return astroDefault.render(request, options);
          },
          teardown: () => astroDefault.teardown?.() ?? Promise.resolve(),
        };
      });
    },
  },
};

const origin = new URL(siteConfig.baseUrl).origin;

/**
 * The routes a fast pass renders: the pages that show product data. A product's own page (the
 * pass's getStaticPaths returns only the changed products), every category grid and the home
 * page (featured example, top sellers, the brand filter, counts) and the sitemaps (last
 * modified). The other pages (legal and about pages, vouchers, search and favourites shells)
 * show categories, retailers and vouchers only, whose changes get a full build.
 */
const fastPassRoutes = new Set(["/", "/category/[slug]", "/product/[slug]", "/sitemap.xml", "/sitemaps/[file].xml"]);

/**
 * Where Astro writes a path with `build.format: "directory"`: pages as folder/index.html (the
 * status pages as 404.html), endpoints (sitemaps, robots.txt) under their own name.
 */
function outputFile(outDir: string, pathname: string, route: RouteData): string {
  const relative = pathname.replace(/^\/+|\/+$/g, "");
  if (route.type === "endpoint") return path.join(outDir, relative);
  if (pathname === "/404" || pathname === "/500") return path.join(outDir, `${relative}.html`);
  return path.join(outDir, relative, "index.html");
}

/** The URL Astro renders a path at (pages with a trailing slash in the "directory" format). */
function renderUrl(pathname: string, route: RouteData): URL {
  if (route.type === "endpoint") return new URL(pathname, origin);
  const trimmed = pathname.replace(/^\/+|\/+$/g, "");
  return new URL(trimmed === "" ? "/" : `/${trimmed}/`, origin);
}

/** Hashed scripts and stylesheets get a .gz beside them, which the server sends to browsers that accept gzip. */
async function precompressAssets(outDir: string): Promise<void> {
  const assets = path.join(outDir, "_astro");
  if (!fs.existsSync(assets)) return;
  const zlib = await import("node:zlib");
  for (const name of fs.readdirSync(assets)) {
    if (!/\.(js|css|svg)$/.test(name)) continue;
    const file = path.join(assets, name);
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(fs.readFileSync(file), { level: 9 }));
  }
}

async function build(job: Extract<WorkerJob, { type: "build" }>): Promise<{ pages: number; productPages: number }> {
  startBuildPass({ databaseFile: job.databaseFile, productIds: job.productIds });
  const { build: astroBuild } = await import("astro");
  rendered = 0;
  await astroBuild({ root: projectRoot, outDir: job.outDir, integrations: [keepPrerenderer] });
  await precompressAssets(job.outDir);
  return { pages: rendered, productPages: currentBuildPass()?.productPages?.length ?? 0 };
}

/** Renders the pages of a fast pass into `outDir` with the bundle the first build loaded. */
async function render(job: Extract<WorkerJob, { type: "render" }>): Promise<{ pages: number; productPages: number }> {
  if (!kept) throw new Error("no build has run in this worker");
  const prerenderer = kept;
  startBuildPass({ databaseFile: job.databaseFile, productIds: job.productIds });
  // getStaticPaths answers are cached per route; this pass's data differs.
  prerenderer.app?.routeCache?.clearAll();
  const paths = await prerenderer.getStaticPaths();
  let pages = 0;
  let productPages = 0;
  const queue = paths.filter(({ route }) => fastPassRoutes.has(route.route));
  const renderNext = async (): Promise<void> => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const { pathname, route } = next;
      const result = await prerenderer.render(new Request(renderUrl(pathname, route)), { routeData: route });
      const response = result instanceof Response ? result : result.response;
      // The site has no redirects; a status page (404) is written with its body like any page.
      if (response.status >= 300 && response.status < 400) throw new Error(`rendering ${pathname} answered a redirect`);
      const file = outputFile(job.outDir, pathname, route);
      await fs.promises.mkdir(path.dirname(file), { recursive: true });
      await fs.promises.writeFile(file, Buffer.from(await response.arrayBuffer()));
      pages++;
      if (route.route === "/product/[slug]") productPages++;
    }
  };
  await Promise.all(Array.from({ length: 8 }, renderNext));
  return { pages, productPages };
}

/** Drops what the pass read (Astro's cached getStaticPaths answers hold every page's props). */
function idle(): void {
  kept?.app?.routeCache?.clearAll();
  endBuildPass();
}

const send = (reply: WorkerReply) => new Promise<void>((resolve) => process.send!(reply, undefined, {}, () => resolve()));

async function run(job: WorkerJob): Promise<boolean> {
  const started = performance.now();
  try {
    const result = job.type === "build" ? await build(job) : await render(job);
    idle();
    await send({ type: "done", ok: true, ...result, ms: Math.round(performance.now() - started) });
    // A full build leaves a heap of garbage (every page's props); collected now, the next fast
    // render does not pay for it.
    (globalThis as { gc?: () => void }).gc?.();
    return job.type === "render" || job.stay;
  } catch (error) {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    await send({
      type: "done",
      ok: false,
      error: error instanceof Error ? error.message : String(error),
      ms: Math.round(performance.now() - started),
    });
    return false;
  }
}

if (!process.send) {
  console.error("api/site-build-worker.ts is started by the site build (api/site-build.ts), not by hand.");
  process.exit(2);
}

// One job at a time: the parent sends the next only after the answer to the last.
process.on("message", (job: WorkerJob) => {
  void run(job).then((stay) => {
    if (!stay) process.exit(0);
  });
});
// The parent went away: nothing will ask for more.
process.on("disconnect", () => process.exit(0));
