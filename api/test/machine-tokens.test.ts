/**
 * Machine tokens through the real server on a port over a real SQLite file: the admin creates,
 * lists and revokes them; the machine routes take only a live token with the route's scope (never
 * the admin's session or password); the database holds only each token's hash.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import * as tar from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SiteBuilds } from "../context.ts";
import { writeFiles } from "./files.ts";
import { startTestServer, testAdminPassword, type TestServer } from "./server.ts";
import type { CreatedMachineToken, MachineTokenView } from "../../data/domain/machine-tokens.ts";

let api: TestServer;
let cookie: string;
/** The folder the stand-in site serves as its current release (null: none built yet). */
let releaseRoot: string | null = null;
const site: SiteBuilds = { request: () => undefined, status: () => ({ state: "idle", lastBuild: null }), currentRoot: () => releaseRoot };

beforeAll(async () => {
  api = await startTestServer({ products: 5, site });
  cookie = await api.login();
});
afterAll(() => api.close());

const tokenRows = () => api.db.$client.prepare("SELECT * FROM machine_tokens ORDER BY id").all() as Record<string, unknown>[];
const auditCount = () => (api.db.$client.prepare("SELECT count(*) AS n FROM audit_log").get() as { n: number }).n;

async function create(name: string, scopes: string[]): Promise<CreatedMachineToken> {
  const response = await api.admin("POST", "/api/admin/machine-tokens", { name, scopes }, cookie);
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as CreatedMachineToken;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A finished nightly run in the database, to read through the machine route. */
function finishedRun(): number {
  return (
    api.db.$client
      .prepare("INSERT INTO nightly_runs (trigger, status, started_at, finished_at, step, summary, release_id) VALUES ('schedule', 'succeeded', ?, ?, 'build', ?, 'r1') RETURNING id")
      .get(new Date().toISOString(), new Date().toISOString(), JSON.stringify({ alerts: { durationMs: 5, sent: 1, failed: 0, rearmed: 0 } })) as { id: number }
  ).id;
}

describe("creating and listing tokens", () => {
  it("answers the token once; the database holds only its SHA-256 and first characters", async () => {
    const created = await create("GitHub nightly", ["nightly:run", "releases:read"]);
    expect(created.token).toMatch(/^ppm_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({ name: "GitHub nightly", prefix: created.token.slice(0, 12), scopes: ["nightly:run", "releases:read"], lastUsedAt: null, revokedAt: null });

    const row = tokenRows().find((r) => r.id === created.id)!;
    expect(JSON.stringify(row)).not.toContain(created.token);
    expect(JSON.stringify(row)).not.toContain(created.token.slice(12));
    expect(row.token_hash).toBe(crypto.createHash("sha256").update(created.token).digest("hex"));
    expect(row.prefix).toBe(created.token.slice(0, 12));

    const list = (await (await api.admin("GET", "/api/admin/machine-tokens", undefined, cookie)).json()) as MachineTokenView[];
    const listed = list.find((token) => token.id === created.id)!;
    expect(listed).toEqual({ id: created.id, name: "GitHub nightly", prefix: created.token.slice(0, 12), scopes: ["nightly:run", "releases:read"], createdAt: created.createdAt, lastUsedAt: null, revokedAt: null });
    expect(JSON.stringify(list)).not.toContain(created.token);
  });

  it("refuses bad input with 400 naming the field, and stores nothing", async () => {
    const before = JSON.stringify(tokenRows());
    const audits = auditCount();
    const cases: [unknown, RegExp][] = [
      [{}, /name is required/],
      [{ name: "", scopes: ["nightly:run"] }, /name is required/],
      [{ name: "   ", scopes: ["nightly:run"] }, /name is required/],
      [{ name: "x".repeat(81), scopes: ["nightly:run"] }, /name must be at most 80 characters/],
      [{ name: "CI" }, /scopes must be a list/],
      [{ name: "CI", scopes: [] }, /scopes must be a list of one or more of nightly:run, releases:read/],
      [{ name: "CI", scopes: ["admin"] }, /scopes must be a list of one or more/],
      [{ name: "CI", scopes: "nightly:run" }, /scopes must be a list/],
      [{ name: "CI", scopes: ["nightly:run", "nightly:run"] }, /each scope once/],
      [{ name: "CI", scopes: ["nightly:run"], token: "ppm_mine" }, /token/],
    ];
    for (const [body, error] of cases) {
      const response = await api.admin("POST", "/api/admin/machine-tokens", body, cookie);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(((await response.json()) as { error: string }).error).toMatch(error);
    }
    const notJson = await fetch(`${api.baseUrl}/api/admin/machine-tokens`, { method: "POST", headers: { cookie, "content-type": "application/json" }, body: "{name" });
    expect(notJson.status).toBe(400);
    expect(JSON.stringify(tokenRows())).toBe(before);
    expect(auditCount()).toBe(audits);
  });

  it("is for the admin only: without a session 401, and nothing stored", async () => {
    const before = tokenRows().length;
    for (const headers of [{}, { cookie: "pawprice_admin=forged" }] as Record<string, string>[]) {
      const response = await fetch(`${api.baseUrl}/api/admin/machine-tokens`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify({ name: "Sneaky", scopes: ["nightly:run"] }),
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: "Sign in to the admin area" });
      expect((await fetch(`${api.baseUrl}/api/admin/machine-tokens`, { headers })).status).toBe(401);
    }
    expect(tokenRows()).toHaveLength(before);
  });
});

describe("using a token", () => {
  it("works on a route its scope covers, and records its last use once the call has succeeded", async () => {
    const { token, id } = await create("Reader", ["nightly:run"]);
    const runId = finishedRun();
    const lastUsed = () => (api.db.$client.prepare("SELECT last_used_at FROM machine_tokens WHERE id = ?").get(id) as { last_used_at: string | null }).last_used_at;
    // A refused request (an unknown run) is no use.
    expect((await fetch(`${api.baseUrl}/api/machine/nightly/999999`, { headers: bearer(token) })).status).toBe(404);
    expect(lastUsed()).toBeNull();
    const response = await fetch(`${api.baseUrl}/api/machine/nightly/${runId}`, { headers: bearer(token) });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const run = await response.json();
    expect(run).toEqual({
      id: runId,
      status: "succeeded",
      step: "build",
      summary: { alerts: { durationMs: 5, sent: 1, failed: 0, rearmed: 0 } },
      error: null,
      releaseId: "r1",
      queuedAt: expect.any(String),
      startedAt: expect.any(String),
      finishedAt: expect.any(String),
    });
    const used = lastUsed();
    expect(used).not.toBeNull();
    expect(Date.now() - Date.parse(used!)).toBeLessThan(60_000);
    // Within the minute a second use writes nothing.
    await fetch(`${api.baseUrl}/api/machine/nightly/${runId}`, { headers: bearer(token) });
    expect(lastUsed()).toBe(used);
    const listed = ((await (await api.admin("GET", "/api/admin/machine-tokens", undefined, cookie)).json()) as MachineTokenView[]).find((t) => t.id === id);
    expect(listed?.lastUsedAt).toBe(used);
  });

  it("reads the header's scheme in any case, with any number of spaces before the token and after it", async () => {
    const { token } = await create("Spaced", ["nightly:run"]);
    const url = `${api.baseUrl}/api/machine/nightly/${finishedRun()}`;
    for (const authorization of [`bearer ${token}`, `BEARER ${token}`, `Bearer  ${token}`, `Bearer    ${token}`, `Bearer ${token}   `]) {
      const response = await fetch(url, { headers: { authorization } });
      expect(response.status, authorization).toBe(200);
    }
  });

  it("answers 403 naming the scope for a token without it", async () => {
    const reader = await create("Releases only", ["releases:read"]);
    const runner = await create("Nightly only", ["nightly:run"]);
    const runs = api.db.$client.prepare("SELECT count(*) AS n FROM nightly_runs").pluck();
    const before = runs.get();
    const start = await fetch(`${api.baseUrl}/api/machine/nightly`, { method: "POST", headers: bearer(reader.token) });
    expect(start.status).toBe(403);
    expect(await start.json()).toEqual({ error: "This token may not do this: it needs the scope nightly:run" });
    expect(start.headers.get("www-authenticate")).toBe('Bearer realm="pawprice", error="insufficient_scope", scope="nightly:run"');
    expect(runs.get()).toBe(before);
    const download = await fetch(`${api.baseUrl}/api/machine/releases/current.tar.gz`, { headers: bearer(runner.token) });
    expect(download.status).toBe(403);
    expect(await download.json()).toEqual({ error: "This token may not do this: it needs the scope releases:read" });
    expect(download.headers.get("www-authenticate")).toBe('Bearer realm="pawprice", error="insufficient_scope", scope="releases:read"');
  });

  it("answers 401 without a token, for a malformed, unknown or revoked one, and for the admin's session or password", async () => {
    const { token, id } = await create("Soon revoked", ["nightly:run", "releases:read"]);
    const runId = finishedRun();
    const url = `${api.baseUrl}/api/machine/nightly/${runId}`;
    expect((await fetch(url, { headers: bearer(token) })).status).toBe(200);

    const revoke = await api.admin("DELETE", `/api/admin/machine-tokens/${id}`, undefined, cookie);
    expect(revoke.status).toBe(200);
    const revoked = (await revoke.json()) as MachineTokenView;
    expect(revoked.revokedAt).not.toBeNull();
    // Revoking again keeps the first time; an unknown token is a 404.
    expect(((await (await api.admin("DELETE", `/api/admin/machine-tokens/${id}`, undefined, cookie)).json()) as MachineTokenView).revokedAt).toBe(revoked.revokedAt);
    expect((await api.admin("DELETE", "/api/admin/machine-tokens/999999", undefined, cookie)).status).toBe(404);
    const listed = ((await (await api.admin("GET", "/api/admin/machine-tokens", undefined, cookie)).json()) as MachineTokenView[]).find((t) => t.id === id);
    expect(listed?.revokedAt).toBe(revoked.revokedAt);

    const sessionId = cookie.split("=")[1]!;
    const cases: [Record<string, string>, string][] = [
      [{}, "Send a machine token: Authorization: Bearer <token>"],
      [bearer(token), "The machine token is unknown or revoked"],
      [bearer(`ppm_${crypto.randomBytes(32).toString("base64url")}`), "The machine token is unknown or revoked"],
      [{ authorization: "Bearer " }, "The machine token is malformed"],
      [{ authorization: "Bearer" }, "The machine token is malformed"],
      [{ authorization: "garbage" }, "The machine token is malformed"],
      [{ authorization: `Basic ${Buffer.from(`admin:${testAdminPassword}`).toString("base64")}` }, "The machine token is malformed"],
      [bearer(`${token}x`), "The machine token is malformed"],
      [{ authorization: `xBearer ${token}` }, "The machine token is malformed"],
      [{ authorization: `Bearer ${token} extra` }, "The machine token is malformed"],
      [{ authorization: `Bearer${token}` }, "The machine token is malformed"],
      [bearer(token.slice(0, -1)), "The machine token is malformed"],
      [bearer(testAdminPassword), "The machine token is malformed"],
      [bearer(sessionId), "The machine token is malformed"],
      [{ cookie }, "Send a machine token: Authorization: Bearer <token>"],
      [{ cookie, ...bearer("nonsense") }, "The machine token is malformed"],
    ];
    for (const path of [url, `${api.baseUrl}/api/machine/releases/current.tar.gz`]) {
      for (const [headers, error] of cases) {
        const response = await fetch(path, { headers });
        expect(response.status, `${path} ${JSON.stringify(headers)}`).toBe(401);
        expect(await response.json()).toEqual({ error });
        expect(response.headers.get("www-authenticate")).toBe('Bearer realm="pawprice"');
      }
    }
    const runs = api.db.$client.prepare("SELECT count(*) AS n FROM nightly_runs").pluck();
    const before = runs.get();
    for (const headers of [{ cookie }, bearer(token), {}] as Record<string, string>[]) {
      expect((await fetch(`${api.baseUrl}/api/machine/nightly`, { method: "POST", headers })).status).toBe(401);
    }
    expect(runs.get()).toBe(before);
  });

  it("is not an admin session: a token on an admin route is a 401", async () => {
    const { token } = await create("Not an admin", ["nightly:run", "releases:read"]);
    for (const [method, path] of [["GET", "/api/admin/machine-tokens"], ["GET", "/api/admin/nightly-runs"], ["GET", "/api/admin/session"], ["POST", "/api/admin/rebuild"]] as const) {
      const response = await fetch(api.baseUrl + path, { method, headers: { ...bearer(token), ...(method === "POST" ? { "content-type": "application/json" } : {}) }, body: method === "POST" ? "{}" : undefined });
      expect(response.status, path).toBe(401);
      expect(await response.json()).toEqual({ error: "Sign in to the admin area" });
    }
  });
});

describe("POST /api/machine/nightly while a run is going", () => {
  it("answers the run under way (202), from anywhere: the same-site rule for browsers does not apply to a token", async () => {
    const { token } = await create("Starter", ["nightly:run"]);
    const running = (api.db.$client.prepare("INSERT INTO nightly_runs (trigger, status, started_at, step) VALUES ('schedule', 'running', ?, 'prices') RETURNING id").get(new Date().toISOString()) as { id: number }).id;
    try {
      const count = api.db.$client.prepare("SELECT count(*) FROM nightly_runs").pluck();
      const before = count.get();
      for (const headers of [{}, { origin: "https://ci.example", "sec-fetch-site": "cross-site" }] as Record<string, string>[]) {
        const response = await fetch(`${api.baseUrl}/api/machine/nightly`, { method: "POST", headers: { ...bearer(token), ...headers } });
        expect(response.status).toBe(202);
        expect(await response.json()).toEqual({ id: running, status: "running" });
        expect(response.headers.get("location")).toBe(`/api/machine/nightly/${running}`);
      }
      expect(count.get()).toBe(before);
    } finally {
      api.db.$client.prepare("UPDATE nightly_runs SET status = 'failed', finished_at = ? WHERE id = ?").run(new Date().toISOString(), running);
    }
  });
});

describe("GET /api/machine/releases/current.tar.gz", () => {
  it("answers 404 before the first build, then the served release as a gzip tarball named after it", async () => {
    const { token } = await create("Downloader", ["releases:read"]);
    releaseRoot = null;
    const none = await fetch(`${api.baseUrl}/api/machine/releases/current.tar.gz`, { headers: bearer(token) });
    expect(none.status).toBe(404);
    expect(await none.json()).toEqual({ error: "No release is built yet" });

    releaseRoot = path.join(api.dir, "releases", "20260101T000000000Z-abcdef");
    writeFiles(releaseRoot, { "index.html": "<h1>home</h1>", "product/kibble.html": "<h1>kibble</h1>", ".csp.json": '{"scriptHashes":[]}' });
    const response = await fetch(`${api.baseUrl}/api/machine/releases/current.tar.gz`, { headers: bearer(token) });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/gzip");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="pawprice-site-20260101T000000000Z-abcdef.tar.gz"');
    const file = path.join(api.dir, "site.tar.gz");
    await pipeline(Readable.fromWeb(response.body as import("node:stream/web").ReadableStream), fs.createWriteStream(file));
    expect(fs.readFileSync(file).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    const listed: string[] = [];
    await tar.t({ file, onReadEntry: (entry) => listed.push(entry.path) });
    expect(listed.filter((entry) => !entry.endsWith("/")).sort()).toEqual(["./.csp.json", "./index.html", "./product/kibble.html"]);

    const head = await fetch(`${api.baseUrl}/api/machine/releases/current.tar.gz`, { method: "HEAD", headers: bearer(token) });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe("application/gzip");
  });
});
