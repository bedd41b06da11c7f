/**
 * The site build's child process (started by api/site-build/builder.ts, never by hand). Its first job is
 * an Astro build into a fresh folder: every page, or, for a fast rebuild without a warm worker,
 * every page but the product pages of other products; or, as a split build's first process, the
 * bundling only, leaving a render kit (the server bundle); or, as a split build's helper,
 * rendering its share of product pages (and the first helper every other page) with that render
 * kit (the helper can then stay, like a worker after its build). It can then stay and keep
 * Astro's built server bundle loaded: a later fast rebuild only renders pages into a new folder with that
 * bundle, which takes about a second instead of a whole build's start-up (Vite bundling alone is
 * several seconds). Jobs and results travel over the IPC channel; Astro's log goes to stdout.
 *
 * It writes what Astro renders itself, precompressed (api/site-build/output.ts: product pages as brotli
 * only, packed by a full build: api/site-build/page-pack.ts), and lists the hashes of the inline
 * scripts in those pages in the folder's .csp.json, which the server allows in its
 * Content-Security-Policy.
 *
 * Runs with the build folder's parent as its working directory: Astro writes the server bundle
 * (.prerender) inside the output folder only when that folder is under the working directory,
 * otherwise into the project's shared .astro folder, where two builds at once would collide.
 */
import fs from "node:fs";
import module from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { AstroIntegration, AstroPrerenderer } from "astro";
import { projectRoot, siteConfig } from "../../data/config.ts";
import { endBuildPass, startBuildPass, currentBuildPass } from "../../data/site-build-pass.ts";
import {
  bodyBytes,
  compressibleFile,
  compressProductPage,
  flatPagesFolder,
  inlineScriptHashes,
  precompressFolder,
  storedPagePath,
  writeBrotliOnly,
  writeWithVariants,
} from "./output.ts";
import { PagePackWriter } from "./page-pack.ts";
import { writeScriptHashes } from "./releases.ts";

module.enableCompileCache?.();

/** What the parent asks for. */
export type WorkerJob =
  | {
      type: "build";
      outDir: string;
      databaseFile: string;
      productIds: readonly number[] | null;
      stay: boolean;
    }
  /**
   * A split full build's first step: the Astro build of the site's bundles and assets into
   * `outDir`, rendering no page, with its server bundle copied into `kitDir` as a render kit (the
   * helpers render every page with it instead of bundling the site again). The assets are left
   * as they are: the builder precompresses them while the helpers render.
   */
  | { type: "bundle"; outDir: string; databaseFile: string; kitDir: string }
  | { type: "render"; outDir: string; databaseFile: string; productIds: readonly number[] }
  /**
   * These products' pages (and with `otherPages`, every page that is not a product page),
   * rendered with the render kit another worker's build left in `kitDir`; with `stay`, the worker
   * then keeps the kit loaded for fast renders.
   */
  | {
      type: "render-kit";
      kitDir: string;
      outDir: string;
      databaseFile: string;
      productIds: readonly number[];
      otherPages: boolean;
      stay: boolean;
    };

/** What the worker answers, once per job. */
export type WorkerReply =
  { type: "done"; ok: true; pages: number; productPages: number; ms: number } | { type: "done"; ok: false; error: string; ms: number };

type RouteData = Parameters<AstroPrerenderer["render"]>[1]["routeData"];

/** Astro's own prerenderer after the build, with the app (and its route cache) it set up. */
type KeptPrerenderer = AstroPrerenderer & { app?: { routeCache?: { clearAll(): void } } };

let kept: KeptPrerenderer | undefined;
let rendered = 0;
/** Where the build under way writes. */
let outDir = "";
/** Where the build under way copies its render kit ("" for none). */
let kitDir = "";
/** The CSP hashes of the inline scripts in the HTML the job under way wrote. */
let scriptHashes = new Set<string>();
/** The folders the job under way has made (each made once, not once per page). */
let madeFolders = new Set<string>();
/** Where the job under way packs product pages: a full build's (null: a file each, as a fast rebuild writes them). */
let pagePack: PagePackWriter | null = null;
/** When the build's phases began and ended (performance.now()), for the log's timing line. */
const phaseMarks = { start: 0, firstRender: 0, lastRender: 0 };

/**
 * Keeps Astro's default prerenderer for later renders, counts what it renders, and stores each
 * rendered file itself (`store`): Astro is handed back an empty answer, so it writes nothing.
 */
const keepPrerenderer: AstroIntegration = {
  name: "pawprice:keep-prerenderer",
  hooks: {
    "astro:build:start": ({ setPrerenderer }) => {
      setPrerenderer((astroDefault) => {
        kept = astroDefault;
        return {
          name: "pawprice:storing",
          setup: async () => {
            if (!kitDir) return astroDefault.setup?.();
            const internals = await captureInternals(path.join(outDir, ".prerender"), () => astroDefault.setup?.() ?? Promise.resolve());
            await writeKit(path.join(outDir, ".prerender"), kitDir, internals, (astroDefault as unknown as { app: KitApp }).app);
          },
          // A bundling build renders nothing: its kit's users render the pages.
          getStaticPaths: async () => (kitDir ? [] : astroDefault.getStaticPaths()),
          render: async (request, options) => {
            rendered++;
            phaseMarks.firstRender ||= performance.now();
            const result = await astroDefault.render(request, options);
            const response = result instanceof Response ? result : result.response;
            const stored = await store(outDir, decodeURI(new URL(request.url).pathname), options.routeData, response);
            phaseMarks.lastRender = performance.now();
            if (!stored) return result;
            const empty = new Response(null, { status: response.status, headers: response.headers });
            return result instanceof Response ? empty : { ...result, response: empty };
          },
          teardown: () => astroDefault.teardown?.() ?? Promise.resolve(),
        };
      });
    },
  },
};

/** What the render kit uses of the prerender bundle's app (Astro's BuildApp). */
interface KitApp {
  logger: { options: { destination: unknown } };
  setInternals(internals: unknown): void;
  setOptions(options: unknown): void;
  getSettings(): { scripts: unknown[] };
  render(request: Request, options: { routeData: RouteData }): Promise<Response>;
}

/**
 * The part of Astro's build internals rendering reads (the head of each page: its stylesheets,
 * and the built file of the page script): all a render kit needs besides the bundle itself.
 */
interface KitInternals {
  pagesByKeys: Map<string, { styles: unknown[] }>;
  entrySpecifierToBundleMap: Map<string, string>;
}

/** A render kit's description, beside its copy of the bundle: the entry file, those internals and the integrations' scripts. */
interface KitFile {
  entry: string;
  pages: [string, { styles: unknown[] }][];
  entries: [string, string][];
  scripts: unknown[];
}

const kitFile = "kit.json";

/** The prerender bundle's entry file in `dir` (Astro names it prerender-entry.<hash>.mjs). */
function prerenderEntryIn(dir: string): string {
  const entries = fs.readdirSync(dir).filter((name) => /^prerender-entry\.[^/]*\.mjs$/.test(name));
  if (entries.length !== 1) throw new Error(`expected one prerender entry in ${dir}, found ${entries.length}`);
  return entries[0]!;
}

/**
 * Runs Astro's prerenderer setup (`setup`) and returns the build internals it hands the bundle's
 * app, which Astro exposes nowhere else: the bundle is imported first (the same module the setup
 * then imports) and its app's setInternals is watched for the duration.
 */
async function captureInternals(bundleDir: string, setup: () => Promise<void>): Promise<KitInternals> {
  const { app } = (await import(pathToFileURL(path.join(bundleDir, prerenderEntryIn(bundleDir))).href)) as { app: KitApp };
  let captured: KitInternals | undefined;
  const own = app.setInternals;
  app.setInternals = (internals) => {
    captured = internals as KitInternals;
    own.call(app, internals);
  };
  try {
    await setup();
  } finally {
    delete (app as Partial<KitApp>).setInternals;
  }
  if (!captured) throw new Error(`Astro's prerenderer did not load the server bundle in ${bundleDir}`);
  return captured;
}

/**
 * Copies the built server bundle into `dir` with what rendering needs from the build (a render
 * kit): Astro deletes its own copy at the end of its build, which can come before another process
 * is done rendering with it. (fs.promises.cp: Node's fs.cpSync ends the process with SIGABRT,
 * not an error, when a folder goes away while it copies.)
 */
async function writeKit(bundleDir: string, dir: string, internals: KitInternals, app: KitApp): Promise<void> {
  await fs.promises.cp(bundleDir, dir, { recursive: true });
  const kit: KitFile = {
    entry: prerenderEntryIn(bundleDir),
    pages: [...internals.pagesByKeys].map(([key, page]) => [key, { styles: page.styles }]),
    entries: [...internals.entrySpecifierToBundleMap],
    scripts: app.getSettings().scripts,
  };
  fs.writeFileSync(path.join(dir, kitFile), JSON.stringify(kit));
}

/** A prerenderer over the render kit in `dir`, set up as Astro sets up its own, without a build. */
async function loadKit(dir: string): Promise<KeptPrerenderer> {
  const kit = JSON.parse(fs.readFileSync(path.join(dir, kitFile), "utf8")) as KitFile;
  const { app } = (await import(pathToFileURL(path.join(dir, kit.entry)).href)) as { app: KitApp };
  app.setInternals({ pagesByKeys: new Map(kit.pages), entrySpecifierToBundleMap: new Map(kit.entries) } satisfies KitInternals);
  // The logger keeps the bundle's own output; the settings are the integrations' scripts, all the page head reads.
  app.setOptions({ settings: { scripts: kit.scripts }, logger: { options: { destination: app.logger.options.destination } } });
  const { StaticPaths } = await import("astro/runtime/prerender/static-paths.js");
  return {
    name: "pawprice:render-kit",
    app: app as unknown as KeptPrerenderer["app"],
    getStaticPaths: () => new StaticPaths(app as unknown as ConstructorParameters<typeof StaticPaths>[0]).getAll(),
    render: async (request, { routeData }) => ({ response: await app.render(request, { routeData }) }),
  };
}

const origin = new URL(siteConfig.baseUrl).origin;

/**
 * The routes a fast pass renders: the pages that show product data. A product's own page (the
 * pass's getStaticPaths returns only the changed products), every category grid and the home
 * page (featured example, top sellers, the brand filter, counts) and the sitemaps (last
 * modified). The other pages (legal and about pages, vouchers, search and favourites shells)
 * show categories, retailers and vouchers only, whose changes get a full build.
 */
const fastPassRoutes = new Set(["/", "/category/[slug]", "/product/[slug]", "/sitemap.xml", "/sitemaps/[file].xml"]);
const productRoute = "/product/[slug]";
const productRoutes = new Set([productRoute]);

/**
 * Where a rendered path is stored (Astro's `build.format: "directory"` layout, but product pages
 * one file each: api/site-build/output.ts `storedPagePath`), the status pages as 404.html, endpoints
 * (sitemaps, robots.txt) under their own name.
 */
function outputFile(dir: string, pathname: string, route: RouteData): string {
  const relative = pathname.replace(/^\/+|\/+$/g, "");
  if (route.type === "endpoint") return path.join(dir, relative);
  if (relative === "404" || relative === "500") return path.join(dir, `${relative}.html`);
  return path.join(dir, storedPagePath(relative));
}

/** The URL Astro renders a path at (pages with a trailing slash in the "directory" format). */
function renderUrl(pathname: string, route: RouteData): URL {
  if (route.type === "endpoint") return new URL(pathname, origin);
  const trimmed = pathname.replace(/^\/+|\/+$/g, "");
  return new URL(trimmed === "" ? "/" : `/${trimmed}/`, origin);
}

/**
 * Writes a rendered page or endpoint into `dir` precompressed (api/site-build/output.ts: product pages
 * as brotli only, into the job's pack when it has one; the rest as they are plus gzip and brotli)
 * and notes its inline scripts' hashes.
 * Returns false for what it leaves to Astro (redirects, empty answers).
 */
async function store(dir: string, pathname: string, route: RouteData, response: Response): Promise<boolean> {
  if ((response.status >= 300 && response.status < 400) || !response.body) return false;
  const body = await bodyBytes(response.body);
  const file = outputFile(dir, pathname, route);
  if (route.type === "page") inlineScriptHashes(body, scriptHashes);
  if (route.route === productRoute && pagePack) {
    pagePack.add(path.relative(dir, file), compressProductPage(body));
    return true;
  }
  const folder = path.dirname(file);
  if (!madeFolders.has(folder)) {
    await fs.promises.mkdir(folder, { recursive: true });
    madeFolders.add(folder);
  }
  if (route.route === productRoute) writeBrotliOnly(file, body);
  else if (compressibleFile.test(file)) await writeWithVariants(file, body);
  else await fs.promises.writeFile(file, body);
  return true;
}

/**
 * Starts a job's bookkeeping: where it writes, no hashes yet; with `packPages` (a job that renders
 * every product page of a full build, or its share of them), a new pack for the product pages.
 */
function startJob(dir: string, options: { kitDir?: string; packPages?: boolean } = {}): void {
  outDir = dir;
  kitDir = options.kitDir ?? "";
  scriptHashes = new Set();
  madeFolders = new Set();
  pagePack?.abandon();
  pagePack = null;
  if (options.packPages) pagePack = new PagePackWriter(dir);
}

/** Ends a job's pack: the index written once every page is in. */
function finishPack(): void {
  pagePack?.finish();
  pagePack = null;
}

/**
 * Astro's build of the site into `outDir`: the bundles and assets, and the pages its static paths
 * list (none for a bundling build), written by `store` (Astro writes none itself).
 */
async function astroBuildInto(outDir: string): Promise<void> {
  const { build: astroBuild } = await import("astro");
  rendered = 0;
  Object.assign(phaseMarks, { start: performance.now(), firstRender: 0, lastRender: 0 });
  // Warnings and errors only: Astro's line per page (tens of thousands, each saying "file not
  // created", as `store` writes the files) would fill the log the build status shows.
  await astroBuild({ root: projectRoot, outDir, integrations: [keepPrerenderer], logLevel: "warn" });
}

async function bundle(job: Extract<WorkerJob, { type: "bundle" }>): Promise<{ pages: number; productPages: number }> {
  startBuildPass({ databaseFile: job.databaseFile, productIds: [] });
  startJob(job.outDir, { kitDir: job.kitDir });
  await astroBuildInto(job.outDir);
  console.log(`bundled in ${((performance.now() - phaseMarks.start) / 1000).toFixed(1)} s, the render kit written`);
  return { pages: 0, productPages: 0 };
}

async function build(job: Extract<WorkerJob, { type: "build" }>): Promise<{ pages: number; productPages: number }> {
  startBuildPass({ databaseFile: job.databaseFile, productIds: job.productIds });
  startJob(job.outDir, { packPages: job.productIds === null });
  await astroBuildInto(job.outDir);
  finishPack();
  const built = performance.now();
  // What Vite emitted and the public folder's files; the rendered files have their variants already.
  await precompressFolder(job.outDir, new Set([flatPagesFolder]));
  writeScriptHashes(job.outDir, [...scriptHashes]);
  const s = (from: number, to: number) => `${((to - from) / 1000).toFixed(1)} s`;
  const done = performance.now();
  console.log(
    `${rendered} files built in ${s(phaseMarks.start, done)}: bundling ${s(phaseMarks.start, phaseMarks.firstRender)}, ` +
      `rendering and writing ${s(phaseMarks.firstRender, phaseMarks.lastRender)}, finishing ${s(phaseMarks.lastRender, built)}, ` +
      `precompressing assets ${s(built, done)}`,
  );
  return { pages: rendered, productPages: currentBuildPass()?.productPages?.length ?? 0 };
}

/**
 * Renders the pages of a fast pass (or of `routes`; null: every route) into `outDir` with the
 * bundle the first build loaded; with `packPages` (a split build's share of product pages), the
 * product pages into a pack.
 */
async function render(
  job: Omit<Extract<WorkerJob, { type: "render" }>, "type">,
  routes: ReadonlySet<string> | null = fastPassRoutes,
  packPages = false,
): Promise<{ pages: number; productPages: number }> {
  if (!kept) throw new Error("no build has run in this worker");
  const prerenderer = kept;
  startBuildPass({ databaseFile: job.databaseFile, productIds: job.productIds });
  startJob(job.outDir, { packPages });
  // getStaticPaths answers are cached per route; this pass's data differs.
  prerenderer.app?.routeCache?.clearAll();
  const paths = await prerenderer.getStaticPaths();
  let pages = 0;
  let productPages = 0;
  const queue = routes ? paths.filter(({ route }) => routes.has(route.route)) : paths;
  const renderNext = async (): Promise<void> => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const { pathname, route } = next;
      const result = await prerenderer.render(new Request(renderUrl(pathname, route)), { routeData: route });
      const response = result instanceof Response ? result : result.response;
      // The site has no redirects; a status page (404) is written with its body like any page.
      if (response.status >= 300 && response.status < 400) throw new Error(`rendering ${pathname} answered a redirect`);
      await store(job.outDir, pathname, route, response);
      pages++;
      if (route.route === productRoute) productPages++;
    }
  };
  await Promise.all(Array.from({ length: 8 }, renderNext));
  finishPack();
  writeScriptHashes(job.outDir, [...scriptHashes]);
  return { pages, productPages };
}

/**
 * A helper's share of a split build: its product pages (and the other pages, for the helper that
 * has them), rendered with another worker's render kit.
 */
async function renderKit(job: Extract<WorkerJob, { type: "render-kit" }>): Promise<{ pages: number; productPages: number }> {
  const started = performance.now();
  kept = await loadKit(job.kitDir);
  const loaded = performance.now();
  const result = await render(job, job.otherPages ? null : productRoutes, true);
  const s = (from: number, to: number) => `${((to - from) / 1000).toFixed(1)} s`;
  const done = performance.now();
  console.log(`${result.pages} files built in ${s(started, done)}: loading the render kit ${s(started, loaded)}, rendering and writing ${s(loaded, done)}`);
  return result;
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
    const result =
      job.type === "build"
        ? await build(job)
        : job.type === "bundle"
          ? await bundle(job)
          : job.type === "render"
            ? await render(job)
            : await renderKit(job);
    idle();
    await send({ type: "done", ok: true, ...result, ms: Math.round(performance.now() - started) });
    // A full build leaves a heap of garbage (every page's props); collected now, the next fast
    // render does not pay for it.
    (globalThis as { gc?: () => void }).gc?.();
    return job.type === "render" || (job.type !== "bundle" && job.stay);
  } catch (error) {
    pagePack?.abandon();
    pagePack = null;
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
  console.error("api/site-build/worker.ts is started by the site build (api/site-build/builder.ts), not by hand.");
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
