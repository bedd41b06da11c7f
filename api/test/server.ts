/**
 * Test harness: the real h3 app on a real port over a real temporary SQLite file, seeded with
 * the real catalogue generator. No mocks of our own database or server.
 */
import fs from "node:fs";
import { createServer, type Server } from "node:http";
import os from "node:os";
import path from "node:path";
import { toNodeHandler } from "h3";
import { createApp } from "../app.ts";
import type { ResponseCache } from "../http/response-cache.ts";
import type { WriteLimits } from "../http/rate-limit.ts";
import type { StorageBudget } from "../lib/storage-budget.ts";
import { createMailer } from "../mail/mailer.ts";
import type { SiteBuilds } from "../context.ts";
import { hashPassword } from "../lib/admin-auth.ts";
import { createServices, type Services } from "../services.ts";
import { silentLogger } from "../http/log.ts";
import type { PageReader } from "../lib/page-price.ts";
import type { TestAllowance } from "../lib/guarded-fetch.ts";
import type { ProductSource } from "../product-sources.ts";
import { migrateDb, openDb, type Db } from "../../data/db/client.ts";
import { seedCatalogue } from "../../data/db/seed.ts";
import { generateCatalogue } from "../../data/seed/generate.ts";

/** The admin password of every test server (its hash is made once per test process). */
export const testAdminPassword = "test-admin-password-1";
let testHash: Promise<string> | undefined;
export const testAdminPasswordHash = () => (testHash ??= hashPassword(testAdminPassword));

export interface TestServer {
  baseUrl: string;
  db: Db;
  services: Services;
  /** Signs in as the admin: the session cookie to send (`cookie` header). */
  login(): Promise<string>;
  /** A same-origin JSON request with the admin's session cookie. */
  admin(method: string, path: string, body?: unknown, cookie?: string): Promise<Response>;
  cache: ResponseCache;
  databaseFile: string;
  dir: string;
  get(pathAndQuery: string): Promise<Response>;
  json<T = unknown>(pathAndQuery: string): Promise<T>;
  close(): Promise<void>;
}

/**
 * Migrated and seeded databases by catalogue size, kept as file images for the life of the test
 * process: every server after the first of a size starts from a copy instead of migrating and
 * seeding again (mutation testing starts servers thousands of times).
 */
const seededImages = new Map<string, Buffer>();

async function seededImage(products: number, today: Date | undefined): Promise<Buffer> {
  const key = `${products}|${today?.toISOString() ?? "now"}`;
  const cached = seededImages.get(key);
  if (cached) return cached;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-image-"));
  try {
    const db = openDb(path.join(dir, "image.db"));
    await migrateDb(db);
    seedCatalogue(db, generateCatalogue({ products, today: today ?? new Date() }));
    const image = db.$client.serialize();
    db.$client.close();
    seededImages.set(key, image);
    return image;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export interface TestServerOptions {
  products?: number;
  today?: Date;
  site?: SiteBuilds;
  /** Reads retailer pages (tests pass one allowed to read fixture pages on loopback). */
  pageReader?: PageReader;
  /** Product sources (default: none configured but the sample feed). */
  sources?: Map<string, ProductSource>;
  /** Per-client write limits (default: the production ones; every test client is 127.0.0.1). */
  writeLimits?: Partial<WriteLimits>;
  /** Rows each client may store per UTC day (default: the production budget on the real clock). */
  storageBudget?: StorageBudget;
  /** The largest feed upload (default 1 MiB). Uploads go to a folder in the test's own directory. */
  uploadMaxBytes?: number;
  /** Lets feed sources download fixture feeds from loopback. */
  feedAllowance?: TestAllowance;
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-test-"));
  const databaseFile = path.join(dir, "test.db");
  fs.writeFileSync(databaseFile, await seededImage(options.products ?? 300, options.today));
  // Mail goes to a temporary outbox; no alert checks run by themselves, so a test's database stands still.
  const services = await createServices({
    databaseFile,
    prepare: false,
    mailer: createMailer({ smtpUrl: undefined, from: "PawPrice <alerts@pawprice.example>", outboxDir: path.join(dir, "outbox") }),
    alertsOnChange: false,
    adminPasswordHash: await testAdminPasswordHash(),
    site: options.site,
    pageReader: options.pageReader,
    sources: options.sources,
    refreshCron: null,
    writeLimits: options.writeLimits,
    storageBudget: options.storageBudget,
    uploadsDir: path.join(dir, "uploads"),
    uploadMaxBytes: options.uploadMaxBytes ?? 1024 * 1024,
    feedAllowance: options.feedAllowance,
    demoRefresh: false,
    // Quiet: a test that reads the logs builds its own logger.
    logger: silentLogger(),
    backup: { dir: path.join(dir, "backups"), keep: 14, every: null },
  });
  const { db } = services;
  const cache = services.cache!;
  const server: Server = createServer(toNodeHandler(createApp(services.context)));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("server has no port");
  const baseUrl = `http://127.0.0.1:${address.port}`;

  const get = (pathAndQuery: string) => fetch(baseUrl + pathAndQuery);
  const login = async () => {
    const response = await fetch(`${baseUrl}/api/admin/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ password: testAdminPassword }),
    });
    if (response.status !== 200) throw new Error(`login: ${response.status} ${await response.text()}`);
    const cookie = /^[^;]+/.exec(response.headers.get("set-cookie") ?? "")?.[0];
    if (!cookie) throw new Error("login set no cookie");
    return cookie;
  };
  let session: string | undefined;
  const admin = async (method: string, path: string, body?: unknown, cookie?: string) => {
    const headers: Record<string, string> = { cookie: cookie ?? (session ??= await login()) };
    if (body !== undefined) headers["content-type"] = "application/json";
    return fetch(baseUrl + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  };
  return {
    baseUrl,
    db,
    services,
    login,
    admin,
    cache,
    databaseFile,
    dir,
    get,
    async json<T>(pathAndQuery: string) {
      const response = await get(pathAndQuery);
      if (!response.ok) throw new Error(`${pathAndQuery}: ${response.status} ${await response.text()}`);
      return (await response.json()) as T;
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await services.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
