/**
 * `npm run bench:rebuild`: how long an admin's edit takes to show on the public pages of a large
 * catalogue. Seeds 50,000 products into a temporary database, starts the real server
 * (`node api/server.ts`) on a free port, waits for its first (full) build, signs in to the admin
 * API and then:
 * - edits one product's price (PUT /api/products/:id, as the edit form saves it) a few times,
 *   polling the product page until the new price shows (a fast rebuild: target 10 s);
 * - renames a category (PUT /api/categories/:id), polling its page until the new name shows (a
 *   site-wide change: a full build);
 * - restarts the server over the existing release and edits a product at once (the build
 *   worker is still getting ready) and once more when it is ready.
 * Each figure runs from sending the edit to the first response showing it. The memory figures
 * are resident sizes (RSS) of the server and of its build worker, read from /proc.
 * With --idle-ms N the server's build worker exits after N ms without a job
 * (SITE_BUILD_WORKER_IDLE_MS; N longer than an edit takes, e.g. 30000, or the warm edits find no
 * worker): after the warm edits the bench waits for it to exit, takes the server's memory at
 * rest (the whole process tree) and edits a product once more (a fresh worker bundles the site
 * first). Figures go to data/bench/rebuild.json.
 *
 * Options: --products 50000 --edits 3 --idle-ms N
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { hashPassword } from "../api/lib/admin-auth.ts";
import { projectRoot } from "../data/config.ts";
import { migrateDb, openDb } from "../data/db/client.ts";
import { seedCatalogue } from "../data/db/seed.ts";
import { formatPrice } from "../data/domain/display.ts";
import { generateCatalogue } from "../data/seed/generate.ts";
import type { AdminProduct } from "../api/http/responses.ts";
import { benchResultsFile } from "./bench-results.ts";

const { values } = parseArgs({
  options: { products: { type: "string", default: "50000" }, edits: { type: "string", default: "3" }, "idle-ms": { type: "string" } },
});
const productCount = Number(values.products);
const edits = Number(values.edits);
const idleMs = values["idle-ms"] === undefined ? null : Number(values["idle-ms"]);
const password = "bench-rebuild-password";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-bench-rebuild-"));
const databaseFile = path.join(dir, "bench.db");
const releasesDir = path.join(dir, "releases");

interface Server {
  child: ChildProcess;
  baseUrl: string;
  output(): string;
  stop(): Promise<void>;
}

async function startServer(): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(projectRoot, "api/server.ts")], {
    env: {
      ...process.env,
      DATABASE_PATH: databaseFile,
      SITE_RELEASES_DIR: releasesDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      ADMIN_PASSWORD_HASH: await hashPassword(password),
      ALERT_CHECK_INTERVAL_MINUTES: "0",
      MAIL_OUTBOX: path.join(dir, "outbox"),
      SECRETS_DIR: path.join(dir, "secrets"),
      SMTP_URL: "",
      ...(idleMs === null ? {} : { SITE_BUILD_WORKER_IDLE_MS: String(idleMs) }),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    for (const line of chunk.toString().split("\n")) if (/Site build|build worker/.test(line)) console.log(`  server: ${line.trim()}`);
  };
  child.stdout!.on("data", collect);
  child.stderr!.on("data", collect);
  await waitFor(async () => output.includes("running at"), 60_000, "the server to start");
  return {
    child,
    baseUrl: `http://127.0.0.1:${port}`,
    output: () => output,
    async stop() {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Seconds from now until `check` passes (polled every 50 ms). */
async function secondsUntil(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<number> {
  const started = performance.now();
  await waitFor(check, timeoutMs, what);
  return Math.round((performance.now() - started) / 100) / 10;
}

async function pageContains(server: Server, pathname: string, text: string): Promise<boolean> {
  const response = await fetch(server.baseUrl + pathname, { cache: "no-store" });
  return response.ok && (await response.text()).includes(text);
}

async function signIn(server: Server): Promise<string> {
  const response = await fetch(`${server.baseUrl}/api/admin/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ password }),
  });
  if (!response.ok) throw new Error(`login: ${response.status} ${await response.text()}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

async function adminJson<T>(server: Server, cookie: string, method: string, pathname: string, body?: unknown): Promise<T> {
  const response = await fetch(server.baseUrl + pathname, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} ${pathname}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}


let nextPence = 17;

/** Sets a product's offers to a new lowest price no other product has, as the edit form would; seconds until its page shows it. */
async function editPrice(server: Server, cookie: string, id: number): Promise<{ seconds: number; price: string }> {
  const product = await adminJson<AdminProduct & Record<string, unknown>>(server, cookie, "GET", `/api/admin/products/${id}`);
  // Below any seeded price, and a different one each time.
  const price = (nextPence += 2) / 100;
  const retailerLinks = product.retailerLinks.map((link, index) => ({
    ...link,
    price: index === 0 ? price : link.price,
    inStock: index === 0 ? true : link.inStock,
    priceOverride: index === 0 ? false : link.priceOverride,
    manualPrice: index === 0 ? null : link.manualPrice,
    // A repeat-delivery price may not be above the one-off price, and the new price is below every seeded one.
    repeatPrice: index === 0 ? null : link.repeatPrice,
    repeatTerms: index === 0 ? null : link.repeatTerms,
    // Nor may a member price be at or above it.
    memberPrice: index === 0 ? null : link.memberPrice,
    memberScheme: index === 0 ? null : link.memberScheme,
  }));
  const shown = formatPrice(price);
  const started = performance.now();
  await adminJson(server, cookie, "PUT", `/api/products/${id}`, { ...product, retailerLinks });
  await waitFor(() => pageContains(server, `/product/${product.slug}`, `>${shown}<`), 600_000, `the new price of product ${id}`);
  return { seconds: Math.round((performance.now() - started) / 100) / 10, price: shown };
}

interface BuildStatus {
  state: string;
  lastBuild: { kind: string; result: string; durationMs: number | null; pages: number | null; logTail?: string | null } | null;
}

/**
 * The last build, once it is recorded as finished (a release is served a moment before its
 * record is completed), without its log.
 */
async function buildStatus(server: Server, cookie: string): Promise<BuildStatus> {
  let status: BuildStatus;
  await waitFor(
    async () => {
      status = await adminJson<BuildStatus>(server, cookie, "GET", "/api/admin/build-status");
      return status.lastBuild !== null && status.lastBuild.result !== "running";
    },
    60_000,
    "the build record",
  );
  if (status!.lastBuild) delete status!.lastBuild.logTail;
  return status!;
}

/** The server's child processes (its build worker, when one is loaded). */
function childPids(server: Server): string[] {
  try {
    return fs.readFileSync(`/proc/${server.child.pid}/task/${server.child.pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
  } catch {
    return [];
  }
}

/** A process's resident memory in MB, or null once it has ended. */
function rssMb(pid: number | string): number | null {
  try {
    const rss = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return rss ? Math.round(Number(rss) / 1024) : null;
  } catch {
    return null;
  }
}

/** The resident memory of the server's build worker (its child process), in MB. */
function workerRssMb(server: Server): number | null {
  for (const pid of childPids(server)) {
    const rss = rssMb(pid);
    if (rss !== null) return rss;
  }
  return null;
}

/** The server's own resident memory and its process tree's (the server and its build worker), in MB. */
function serverMemory(server: Server): { serverRssMb: number | null; treeRssMb: number } {
  const serverRssMb = rssMb(server.child.pid!);
  return { serverRssMb, treeRssMb: (serverRssMb ?? 0) + childPids(server).reduce((sum, pid) => sum + (rssMb(pid) ?? 0), 0) };
}

/** The server's high-water resident memory since it started, in MB. */
function serverPeakRssMb(server: Server): number | null {
  try {
    const peak = /VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${server.child.pid}/status`, "utf8"))?.[1];
    return peak ? Math.round(Number(peak) / 1024) : null;
  } catch {
    return null;
  }
}

/**
 * The server's memory once it has settled after its last job: V8 gives freed heap back to the
 * system only after a while, so right after a build the figure is higher than at rest. Read every
 * 2 s until two reads agree within 5 MB (at most 30 s).
 */
async function settledMemory(server: Server): Promise<{ serverRssMb: number | null; treeRssMb: number; settledAfterSeconds: number }> {
  const started = performance.now();
  let last = serverMemory(server);
  for (let waited = 0; waited < 30_000; waited += 2000) {
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const next = serverMemory(server);
    const settled = Math.abs(next.treeRssMb - last.treeRssMb) <= 5;
    last = next;
    if (settled) break;
  }
  return { ...last, settledAfterSeconds: Math.round((performance.now() - started) / 100) / 10 };
}

const results: Record<string, unknown> = { date: new Date().toISOString(), cores: os.cpus().length, products: productCount };
let server: Server | undefined;
try {
  console.log(`Seeding ${productCount} products...`);
  const db = openDb(databaseFile);
  await migrateDb(db);
  seedCatalogue(db, generateCatalogue({ products: productCount, today: new Date() }));
  const ids = (db.$client.prepare("SELECT id FROM products ORDER BY id").all() as { id: number }[]).map((row) => row.id);
  const category = db.$client.prepare("SELECT id, slug FROM categories ORDER BY id LIMIT 1").get() as { id: number; slug: string };
  db.$client.close();

  console.log("Starting the server (first start: a full build)...");
  server = await startServer();
  const firstBuildSeconds = await secondsUntil(() => pageContains(server!, "/", "</html>"), 1_800_000, "the first build");
  const cookie = await signIn(server);
  results.firstBuild = { secondsAfterStart: firstBuildSeconds, ...(await buildStatus(server, cookie)).lastBuild };
  results.idleWorkerRssMb = workerRssMb(server);
  const afterFirstBuild = serverMemory(server);
  results.afterFirstBuild = afterFirstBuild;
  console.log(
    `First build served ${firstBuildSeconds} s after the server started; idle build worker ${results.idleWorkerRssMb} MB, server ${afterFirstBuild.serverRssMb} MB`,
  );

  const productEdits = [];
  for (let i = 0; i < edits; i++) {
    const id = ids[Math.floor(((i + 1) * ids.length) / (edits + 1))]!;
    const edit = await editPrice(server, cookie, id);
    const status = await buildStatus(server, cookie);
    productEdits.push({ productId: id, ...edit, build: status.lastBuild });
    console.log(
      `Product ${id}: ${edit.price} live after ${edit.seconds} s (${status.lastBuild?.kind} build of ${status.lastBuild?.pages} pages, ${status.lastBuild?.durationMs} ms)`,
    );
  }
  results.productEdits = productEdits;

  if (idleMs !== null) {
    const exitStarted = performance.now();
    await waitFor(async () => childPids(server!).length === 0, idleMs + 120_000, "the idle build worker to exit");
    const justExited = serverMemory(server);
    const atRest = await settledMemory(server);
    const peakRssMb = serverPeakRssMb(server);
    const edit = await editPrice(server, cookie, ids[ids.length - 1]!);
    const status = await buildStatus(server, cookie);
    results.afterIdleExit = {
      workerExitedAfterSeconds: Math.round((performance.now() - exitStarted) / 100) / 10,
      justExited,
      atRest,
      serverPeakRssMb: peakRssMb,
      edit: { ...edit, build: status.lastBuild },
    };
    console.log(
      `Build worker exited when idle: at rest the server holds ${atRest.serverRssMb} MB (${atRest.treeRssMb} MB with its children; ` +
        `${justExited.treeRssMb} MB as the worker exited, ${peakRssMb} MB at most so far); ` +
        `an edit then live after ${edit.seconds} s (${status.lastBuild?.kind} build, ${status.lastBuild?.durationMs} ms)`,
    );
  }

  const before = await adminJson<Record<string, unknown>>(server, cookie, "GET", `/api/categories/${category.id}`);
  const newName = `${String(before.name)} (renamed)`;
  const renameStarted = performance.now();
  await adminJson(server, cookie, "PUT", `/api/categories/${category.id}`, {
    name: newName,
    slug: before.slug,
    icon: before.icon,
    description: before.description ?? "",
  });
  await waitFor(() => pageContains(server!, `/category/${category.slug}`, `${newName}</h1>`), 1_800_000, "the renamed category");
  const renameSeconds = Math.round((performance.now() - renameStarted) / 100) / 10;
  const renameBuild = (await buildStatus(server, cookie)).lastBuild;
  results.siteWide = { change: "category rename", seconds: renameSeconds, build: renameBuild };
  console.log(`Category renamed: live after ${renameSeconds} s (${renameBuild?.kind} build)`);

  console.log("Restarting the server over the existing release...");
  await server.stop();
  server = await startServer();
  const restartCookie = await signIn(server);
  const atOnce = await editPrice(server, restartCookie, ids[1]!);
  console.log(`Right after the restart: live after ${atOnce.seconds} s`);
  const warm = await editPrice(server, restartCookie, ids[2]!);
  console.log(`Once the worker is ready: live after ${warm.seconds} s`);
  results.afterRestart = { editAtOnce: atOnce, editWhenReady: warm };
} finally {
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}

const out = benchResultsFile("rebuild.json");
fs.writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
console.log(`\nwritten to ${path.relative(projectRoot, out)} (target: a product edit live within 10 s at 50,000 products)`);
