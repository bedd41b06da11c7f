/**
 * Admin access on the real server over a real SQLite file: every admin route and catalogue
 * write refuses anonymous calls (found from the route table, so a new unguarded route fails
 * here), sessions expire when idle and at their absolute limit, logout ends them, failed logins
 * are limited, and requests another site could forge are refused.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServices } from "../services.ts";
import { projectRoot } from "../../data/config.ts";
import { routes } from "../app.ts";
import { createLoginLimiter, hashPassword, pruneSessions, parsePasswordHash, resolvePasswordHash, sessionAbsoluteMs, sessionIdleMs, verifyPassword } from "../lib/admin-auth.ts";
import { startTestServer, testAdminPassword, type TestServer } from "./server.ts";
import { tempDb } from "../../data/db/fixtures/temp-db.ts";
import { storedPasswordHash } from "../../data/db/admin-auth.ts";

let api: TestServer;

beforeAll(async () => {
  api = await startTestServer({ products: 20 });
});
afterAll(async () => {
  await api.close();
});

const sessionCount = () => (api.db.$client.prepare("SELECT count(*) AS n FROM admin_sessions").get() as { n: number }).n;
const concrete = (path: string) => path.replace(/:[a-zA-Z]+/g, "1");
const isCatalogueWrite = (method: string, path: string) => method !== "GET" && /^\/api\/(products|categories|retailers)(\/|$)/.test(path);
/** Admin-only beyond /api/admin: reading a page's price makes the server fetch a URL (never for visitors). */
const adminElsewhere = new Set(["/api/extract-price"]);
const isAdminPath = (path: string) =>
  (path.startsWith("/api/admin/") && path !== "/api/admin/login" && path !== "/api/admin/logout") || adminElsewhere.has(path);

describe("the route table", () => {
  const guarded = routes.filter(([method, path]) => isAdminPath(path) || isCatalogueWrite(method, path));

  it("marks every admin route and every catalogue write auth: admin", () => {
    expect(guarded.length).toBeGreaterThan(20);
    for (const [method, path, , options] of guarded) expect(options?.auth, `${method} ${path}`).toBe("admin");
    // Machine routes take a machine token instead; nothing public is guarded by mistake.
    for (const [method, path, , options] of routes.filter((route) => !guarded.includes(route))) {
      if (path.startsWith("/api/machine/")) expect(options?.auth, `${method} ${path}`).toMatch(/^machine:/);
      else expect(options?.auth, `${method} ${path}`).toBeUndefined();
    }
  });

  it.each(guarded.map(([method, path]) => `${method} ${path}`))("%s answers 401 without a session, and changes nothing", async (key) => {
    const [method, path] = key.split(" ") as [string, string];
    const upload = routes.find(([m, p]) => m === method && p === path)?.[3]?.upload;
    const before = api.db.$client.prepare("SELECT (SELECT count(*) FROM products) || '/' || (SELECT count(*) FROM audit_log) AS n").get();
    const init: RequestInit = { method };
    // A file upload's body is the file (a JSON body is refused before the session is looked at).
    if (method !== "GET") {
      init.headers = { "content-type": upload ? upload[0]! : "application/json" };
      init.body = upload ? "product_name,search_price\n" : "{}";
    }
    for (const cookie of [undefined, "pawprice_admin=not-a-session", "admin_authenticated=true"]) {
      const response = await fetch(api.baseUrl + concrete(path), cookie ? { ...init, headers: { ...init.headers, cookie } } : init);
      expect(response.status, `${key} ${cookie ?? ""}`).toBe(401);
      expect(await response.json()).toEqual({ error: "Sign in to the admin area" });
      expect(response.headers.get("cache-control")).toBe("no-store");
    }
    expect(api.db.$client.prepare("SELECT (SELECT count(*) FROM products) || '/' || (SELECT count(*) FROM audit_log) AS n").get()).toEqual(before);
  });
});

describe("sessions", () => {
  const ask = (cookie: string) => fetch(`${api.baseUrl}/api/admin/session`, { headers: { cookie } });
  const tokenHashes = () => (api.db.$client.prepare("SELECT token_hash FROM admin_sessions").all() as { token_hash: string }[]).map((r) => r.token_hash);
  /** Moves the newest session's clock back, as if time had passed. */
  function age(newHashes: string[], field: "last_seen_at" | "created_at", ms: number) {
    for (const hash of newHashes) {
      api.db.$client.prepare(`UPDATE admin_sessions SET ${field} = ? WHERE token_hash = ?`).run(new Date(Date.now() - ms).toISOString(), hash);
    }
  }

  it("end after 30 minutes without a request", async () => {
    const before = tokenHashes();
    const cookie = await api.login();
    const mine = tokenHashes().filter((hash) => !before.includes(hash));
    expect(mine).toHaveLength(1);
    age(mine, "last_seen_at", sessionIdleMs - 5_000);
    expect((await ask(cookie)).status).toBe(200);
    const lastSeen = (api.db.$client.prepare("SELECT last_seen_at FROM admin_sessions WHERE token_hash = ?").get(mine[0]) as { last_seen_at: string }).last_seen_at;
    expect(Date.now() - Date.parse(lastSeen)).toBeLessThan(60_000);
    // That request counted as activity: idle time starts again.
    age(mine, "last_seen_at", sessionIdleMs + 1_000);
    expect((await ask(cookie)).status).toBe(401);
    // An expired session is deleted, not just refused.
    expect(tokenHashes()).not.toContain(mine[0]);
  });

  it("end 8 hours after login however active", async () => {
    const before = tokenHashes();
    const cookie = await api.login();
    const mine = tokenHashes().filter((hash) => !before.includes(hash));
    age(mine, "created_at", sessionAbsoluteMs - 60_000);
    expect((await ask(cookie)).status).toBe(200);
    age(mine, "created_at", sessionAbsoluteMs + 1_000);
    expect((await ask(cookie)).status).toBe(401);
  });

  it("end at logout, and only the one logged out", async () => {
    const [first, second] = [await api.login(), await api.login()];
    const count = sessionCount();
    const out = await fetch(`${api.baseUrl}/api/admin/logout`, { method: "POST", headers: { cookie: first } });
    expect(out.status).toBe(200);
    expect(sessionCount()).toBe(count - 1);
    expect((await ask(first)).status).toBe(401);
    expect((await ask(second)).status).toBe(200);
  });
});

describe("requests from other sites", () => {
  it("are refused for writes whatever the session, and the site's own origin is accepted", async () => {
    const cookie = await api.login();
    const body = JSON.stringify({ name: "X", slug: "x-cat", icon: "PawPrint" });
    const send = (headers: Record<string, string>) =>
      fetch(`${api.baseUrl}/api/categories`, { method: "POST", headers: { cookie, "content-type": "application/json", ...headers }, body });
    const forged: Record<string, string>[] = [{ origin: "https://evil.example" }, { origin: "null" }, { "sec-fetch-site": "cross-site" }, { origin: api.baseUrl.replace("127.0.0.1", "localhost") }];
    for (const headers of forged) {
      const response = await send(headers);
      expect(response.status, JSON.stringify(headers)).toBe(403);
      expect(await response.json()).toEqual({ error: "Requests from other sites are refused" });
    }
    expect(api.db.$client.prepare("SELECT count(*) AS n FROM categories WHERE slug = 'x-cat'").get()).toEqual({ n: 0 });
    // A form post (no JSON) is refused too: forms are what another site can send without asking.
    const form = await fetch(`${api.baseUrl}/api/categories`, { method: "POST", headers: { cookie, "content-type": "text/plain" }, body });
    expect(form.status).toBe(415);
    const same = await send({ origin: api.baseUrl, "sec-fetch-site": "same-origin" });
    expect(same.status).toBe(201);
  });
});

describe("expired sessions", () => {
  it("are deleted by the hourly prune, live ones kept", () => {
    const now = new Date("2026-11-22T12:00:00Z");
    const insert = api.db.$client.prepare("INSERT INTO admin_sessions (token_hash, created_at, last_seen_at) VALUES (?, ?, ?)");
    const at = (ms: number) => new Date(now.getTime() - ms).toISOString();
    insert.run("prune-idle", at(sessionIdleMs + 1), at(sessionIdleMs + 1));
    insert.run("prune-old", at(sessionAbsoluteMs + 1), at(1000));
    insert.run("prune-live", at(sessionAbsoluteMs - 60_000), at(sessionIdleMs - 60_000));
    pruneSessions(api.db, now);
    const left = (api.db.$client.prepare("SELECT token_hash FROM admin_sessions WHERE token_hash LIKE 'prune-%'").all() as { token_hash: string }[]).map((r) => r.token_hash);
    expect(left).toEqual(["prune-live"]);
  });
});

describe("behind an https address", () => {
  it("the session cookie is Secure and the public origin is accepted as the site's own", async () => {
    const admin = api.services.context.admin!;
    const requests = api.services.context.requests!;
    const original = admin.publicOrigin;
    // Both read PUBLIC_BASE_URL at start: the cookie's Secure flag and the origin writes may come from.
    admin.publicOrigin = requests.publicOrigin = "https://www.pawprice.example";
    try {
      const response = await fetch(`${api.baseUrl}/api/admin/login`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: "https://www.pawprice.example" },
        body: JSON.stringify({ password: testAdminPassword }),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get("set-cookie")).toMatch(/; Secure/i);
    } finally {
      admin.publicOrigin = requests.publicOrigin = original;
    }
  });
});

describe("failed logins", () => {
  it("are limited to 5 a minute per client: the 6th attempt is a 429, even with the right password", async () => {
    const login = (password: string) =>
      fetch(`${api.baseUrl}/api/admin/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ password }) });
    // The route-table tests ran elsewhere; this server has seen no failures yet.
    for (let i = 0; i < 5; i++) expect((await login(`wrong-${i}`)).status).toBe(401);
    const limited = await login(testAdminPassword);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    expect((await limited.json()) as { error: string }).toEqual({ error: expect.stringMatching(/^Too many failed logins\. Try again in \d+ seconds\.$/) });
  });

  it("limit each client on its own, and forget attempts after the window", () => {
    const limiter = createLoginLimiter(2, 1000);
    limiter.attempt("a", 0);
    limiter.attempt("a", 100);
    expect(() => limiter.check("a", 999)).toThrow(/Try again in 1 seconds/);
    expect(() => limiter.check("b", 999)).not.toThrow();
    // At 1000 ms the first attempt is out of the window: one left, under the limit.
    expect(() => limiter.check("a", 1000)).not.toThrow();
    limiter.attempt("a", 1000);
    expect(() => limiter.check("a", 1050)).toThrow();
    // An attempt over the limit is refused and not counted: at 1100 ms one is left in the window.
    expect(() => limiter.attempt("a", 1050)).toThrow(/Try again in 1 seconds/);
    expect(() => limiter.check("a", 1100)).not.toThrow();
    limiter.succeeded("a");
    expect(() => limiter.check("a", 1050)).not.toThrow();
  });
});

describe("password hashes", () => {
  it("are scrypt N=2^17 r=8 p=1 with a per-hash salt, and verify only the right password", async () => {
    const [one, two] = await Promise.all([hashPassword("correct horse"), hashPassword("correct horse")]);
    expect(one).toMatch(/^scrypt\$17\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    expect(one).not.toBe(two);
    expect(await verifyPassword("correct horse", one)).toBe(true);
    expect(await verifyPassword("correct horsf", one)).toBe(false);
    expect(await verifyPassword("correct horse", "plain-text")).toBe(false);
    expect(parsePasswordHash(one.replace("$17$", "$25$"))).toBeNull();
  });

  it("come from the environment, else the database, else are generated once (never a default)", async () => {
    const temp = await tempDb(5);
    try {
      await expect(resolvePasswordHash(temp.db, "not a hash")).rejects.toThrow(/ADMIN_PASSWORD_HASH/);
      const generated = await resolvePasswordHash(temp.db, undefined);
      expect(generated.source).toBe("generated");
      expect(generated.password).toMatch(/^[A-Za-z0-9_-]{24}$/);
      expect(storedPasswordHash(temp.db)).toBe(generated.hash);
      expect(await verifyPassword(generated.password!, generated.hash)).toBe(true);
      const again = await resolvePasswordHash(temp.db, "");
      expect(again).toEqual({ source: "database", hash: generated.hash });
      const env = await hashPassword("from the environment");
      expect(await resolvePasswordHash(temp.db, env)).toEqual({ source: "environment", hash: env });
    } finally {
      temp.remove();
    }
  });
});

describe("npm run admin:password", () => {
  it("reads one line from stdin, stores its hash, ends open sessions, and the running server takes it at the next login", async () => {
    const temp = await tempDb(5);
    const services = await createServices({ databaseFile: temp.file, prepare: false, adminPasswordHash: "", log: () => {} });
    try {
      expect(services.adminPassword.source).toBe("generated");
      const admin = services.context.admin!;
      expect(await verifyPassword(services.adminPassword.password!, admin.passwordHash())).toBe(true);
      temp.db.$client.prepare("INSERT INTO admin_sessions (token_hash, last_seen_at) VALUES ('x', '2026-01-01')").run();
      const run = (input: string) =>
        spawnSync(process.execPath, [path.join(projectRoot, "scripts/admin-password.ts")], { input, env: { ...process.env, DATABASE_PATH: temp.file, ADMIN_PASSWORD_HASH: "" }, encoding: "utf8" });
      const short = run("too-short\n");
      expect(short.status).toBe(1);
      expect(short.stderr).toContain("at least 12 characters; nothing changed");
      expect(await verifyPassword(services.adminPassword.password!, admin.passwordHash())).toBe(true);
      const changed = run("a brand new admin password\n");
      expect(changed.status, changed.stderr).toBe(0);
      expect(await verifyPassword("a brand new admin password", admin.passwordHash())).toBe(true);
      expect(await verifyPassword(services.adminPassword.password!, admin.passwordHash())).toBe(false);
      expect(temp.db.$client.prepare("SELECT count(*) AS n FROM admin_sessions").get()).toEqual({ n: 0 });
    } finally {
      await services.close();
      temp.remove();
    }
  });
});
