/**
 * The real server (api/server.ts) killed with SIGKILL in the middle of a site rebuild, then
 * started again: the catalogue write whose rebuild was cut off reaches the served pages, and the
 * database snapshot the killed build was reading (a copy of the whole database) was readable by
 * its owner only and is deleted at the next start.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { projectRoot } from "../../data/config.ts";
import { bumpCatalogueRevision } from "../../data/db/catalogue-revision.ts";
import { migrateDb, openDb } from "../../data/db/client.ts";
import { recomputeBestPrices } from "../../data/db/offers.ts";
import { seedCatalogue } from "../../data/db/seed.ts";
import { formatPrice } from "../../data/domain/display.ts";
import { generateCatalogue } from "../../data/seed/generate.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-restart-"));
const databaseFile = path.join(dir, "db", "pawprice.db");
const releasesDir = path.join(dir, "releases");
/** Every process these tests started (servers and their build workers), ended by id afterwards. */
const started = new Set<number>();

afterAll(() => {
  for (const pid of started) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Ended already.
    }
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

interface Server {
  child: ChildProcess;
  url: string;
  output(): string;
}

/** Starts the server with its site build on; resolves once it listens. */
async function startServer(): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(projectRoot, "api/server.ts")], {
    env: {
      ...process.env,
      DATABASE_PATH: databaseFile,
      PORT: String(port),
      HOST: "127.0.0.1",
      SITE_BUILD: "",
      SITE_RELEASES_DIR: releasesDir,
      MAIL_OUTBOX: path.join(dir, "outbox"),
      SECRETS_DIR: path.join(dir, "secrets"),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.add(child.pid!);
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const exited = (code: number | null) => reject(new Error(`server exited with ${code}:\n${output}`));
    child.once("exit", exited);
    const timer = setInterval(() => {
      if (output.includes("running at")) {
        clearInterval(timer);
        child.off("exit", exited);
        resolve();
      }
    }, 20);
  });
  return { child, url: `http://127.0.0.1:${port}`, output: () => output };
}

/** The served product page's HTML, or null while it does not answer 200. */
async function productPage(server: Server, slug: string): Promise<string | null> {
  const response = await fetch(`${server.url}/product/${slug}`);
  return response.status === 200 ? await response.text() : null;
}

const running = () => {
  const db = openDb(databaseFile, { readonly: true });
  try {
    return db.$client.prepare("SELECT id FROM site_builds WHERE result = 'running'").all() as { id: number }[];
  } finally {
    db.$client.close();
  }
};

describe("a server killed during a rebuild", () => {
  it("rebuilds on its next start: the write whose build was cut off shows on the served page; the killed build's snapshot was owner-only and is gone", async () => {
    fs.mkdirSync(path.dirname(databaseFile), { recursive: true });
    const setup = openDb(databaseFile);
    await migrateDb(setup);
    seedCatalogue(setup, generateCatalogue({ products: 30, today: new Date() }));
    const product = setup.$client.prepare("SELECT id, slug FROM products ORDER BY id LIMIT 1 OFFSET 4").get() as { id: number; slug: string };
    setup.$client.close();
    const newPrice = formatPrice(1.23);

    // First start: the first build; the page shows the seeded price.
    const first = await startServer();
    await vi.waitFor(async () => expect(await productPage(first, product.slug)).not.toBeNull(), { timeout: 170_000, interval: 250 });
    expect(await productPage(first, product.slug)).not.toContain(newPrice);

    // Another process changes the price (as `npm run import` would); the server notices and rebuilds.
    const writer = openDb(databaseFile);
    writer.$client
      .transaction(() => {
        writer.$client
          .prepare("UPDATE product_prices SET price_pence = 123, price_override = 0, in_stock = 1 WHERE product_id = ?")
          .run(product.id);
        recomputeBestPrices(writer, [product.id]);
        bumpCatalogueRevision(writer);
      })
      .immediate();
    writer.$client.close();

    // Killed while that rebuild reads its snapshot.
    const snapshotOf = (pid: number) =>
      fs
        .readdirSync(releasesDir)
        .filter((name) => name.startsWith(".snapshot-") && name.endsWith(`-${pid}`))
        .map((name) => path.join(releasesDir, name));
    const killedPid = first.child.pid!;
    await vi.waitFor(
      () => {
        expect(running()).toHaveLength(1);
        expect(snapshotOf(killedPid).filter((folder) => fs.existsSync(path.join(folder, "catalogue.db")))).toHaveLength(1);
      },
      { timeout: 60_000, interval: 20 },
    );
    const workers = execFileSync("ps", ["-o", "pid=", "--ppid", String(killedPid)], { encoding: "utf8" })
      .split("\n")
      .map((line) => Number(line.trim()))
      .filter((pid) => pid > 0);
    for (const pid of workers) started.add(pid);
    const exited = new Promise((resolve) => first.child.once("exit", resolve));
    first.child.kill("SIGKILL");
    await exited;
    expect(running()).toHaveLength(1);

    // The copy of the database the killed build left: its owner's only.
    const [leftover] = snapshotOf(killedPid);
    expect.soft(fs.statSync(leftover!).mode & 0o777).toBe(0o700);
    expect.soft(fs.statSync(path.join(leftover!, "catalogue.db")).mode & 0o777).toBe(0o600);

    const second = await startServer();
    // Deleted at start, before anything else.
    expect.soft(snapshotOf(killedPid)).toEqual([]);
    // The old release is served meanwhile; then the rebuild shows the new price.
    await vi.waitFor(async () => expect(await productPage(second, product.slug)).toContain(newPrice), {
      timeout: 170_000,
      interval: 250,
    });
    expect(second.output()).toMatch(/The last site build \(#\d+\) was cut off: rebuilding the whole site/);
    const ended = new Promise((resolve) => second.child.once("exit", resolve));
    second.child.kill("SIGTERM");
    await ended;
  }, 400_000);
});
