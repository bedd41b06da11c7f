/**
 * A flood of admin logins on the real server: each client's attempts are counted before their
 * password is hashed (5 a minute), hashes run 2 at a time server-wide with 8 waiting, and pages
 * and the API keep answering meanwhile. Hashes are counted by admin-auth's own counter, not timed.
 */
import fs from "node:fs";
import { createServer, type Server } from "node:http";
import path from "node:path";
import { toNodeHandler } from "h3";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createApp } from "../app.ts";
import { createHashGate, createLoginLimiter, passwordHashesStarted } from "../lib/admin-auth.ts";
import { noTrustedProxies, parseTrustedProxies } from "../http/client-address.ts";
import { startTestServer, testAdminPassword, type TestServer } from "./server.ts";

let api: TestServer;
/** The same app as `api`, also serving a one-page site from disk (file reads use libuv's threadpool, as scrypt does). */
let site: Server;
let baseUrl: string;

beforeAll(async () => {
  api = await startTestServer({ products: 20 });
  const root = path.join(api.dir, "site");
  fs.mkdirSync(root);
  fs.writeFileSync(path.join(root, "index.html"), "<h1>PawPrice home</h1>");
  site = createServer(toNodeHandler(createApp(api.services.context, { siteRoot: () => root })));
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => site.close(() => resolve()));
  await api.close();
});

const admin = () => api.services.context.admin!;
const requests = () => api.services.context.requests!;

beforeEach(() => {
  // Every test starts with the production limits and no attempts counted.
  admin().limiter = createLoginLimiter();
  admin().hashing = createHashGate();
  requests().trustedProxies = noTrustedProxies;
});

interface Answer {
  status: number;
  retryAfter: string | null;
  error?: string;
}

/** A login; `from` is sent as X-Forwarded-For (honoured only when 127.0.0.1 is a trusted proxy). */
async function login(password: string, from?: string): Promise<Answer> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (from) headers["x-forwarded-for"] = from;
  const response = await fetch(`${baseUrl}/api/admin/login`, { method: "POST", headers, body: JSON.stringify({ password }) });
  const body = (await response.json()) as { error?: string };
  return { status: response.status, retryAfter: response.headers.get("retry-after"), error: body.error };
}

const statusCount = (answers: Answer[], status: number) => answers.filter((answer) => answer.status === status).length;

async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 2));
}

describe("a flood of wrong admin passwords from one address", () => {
  it("hashes only the first 5 (the rest are 429 at once), and pages and the API answer before the first hash ends", async () => {
    const hashesBefore = passwordHashesStarted();
    const finished: string[] = [];
    const storm = Array.from({ length: 30 }, (_, i) =>
      login(`wrong-password-${i}`).then((answer) => {
        finished.push(`login ${answer.status}`);
        return answer;
      }),
    );
    // Ask for a page and the API once hashing is under way: they must not queue behind the hashes.
    await until(() => passwordHashesStarted() - hashesBefore >= 2);
    const page = fetch(`${baseUrl}/`).then(async (response) => {
      finished.push("page");
      return { status: response.status, text: await response.text() };
    });
    const health = fetch(`${baseUrl}/api/health`).then(async (response) => {
      finished.push("health");
      return response.status;
    });
    const answers = await Promise.all(storm);

    expect(await page).toEqual({ status: 200, text: "<h1>PawPrice home</h1>" });
    expect(await health).toBe(200);
    const firstHashed = finished.indexOf("login 401");
    expect(firstHashed, finished.join(", ")).toBeGreaterThan(-1);
    expect(finished.indexOf("page"), finished.join(", ")).toBeLessThan(firstHashed);
    expect(finished.indexOf("health"), finished.join(", ")).toBeLessThan(firstHashed);

    expect(statusCount(answers, 401)).toBe(5);
    expect(statusCount(answers, 429)).toBe(25);
    expect(passwordHashesStarted() - hashesBefore).toBe(5);
    for (const answer of answers.filter((a) => a.status === 429)) {
      expect(answer.error).toMatch(/^Too many failed logins\. Try again in \d+ seconds\.$/);
      expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(answer.retryAfter)).toBeLessThanOrEqual(60);
    }
  });

  it("does not stop another address signing in meanwhile, nor the right password from that address once its window passes", async () => {
    requests().trustedProxies = parseTrustedProxies("127.0.0.1");
    const attacker = "203.0.113.7";
    const hashesBefore = passwordHashesStarted();
    const storm = Array.from({ length: 30 }, (_, i) => login(`wrong-password-${i}`, attacker));
    const other = login(testAdminPassword, "198.51.100.9");
    const answers = await Promise.all(storm);

    expect((await other).status).toBe(200);
    expect(statusCount(answers, 401)).toBe(5);
    expect(statusCount(answers, 429)).toBe(25);
    expect(passwordHashesStarted() - hashesBefore).toBe(6);

    // Within the minute even the right password is refused, unhashed.
    const early = await login(testAdminPassword, attacker);
    expect(early.status).toBe(429);
    expect(Number(early.retryAfter)).toBeLessThanOrEqual(60);
    expect(passwordHashesStarted() - hashesBefore).toBe(6);
    // A minute on (only the clock moves), it signs in.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 60_000 });
    try {
      expect((await login(testAdminPassword, attacker)).status).toBe(200);
      expect(passwordHashesStarted() - hashesBefore).toBe(7);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("the server-wide hashing queue", () => {
  it("refuses a login beyond its bound at once with 429 + Retry-After, unhashed and not counted against its address", async () => {
    requests().trustedProxies = parseTrustedProxies("127.0.0.1");
    // One hash running, one waiting; each address may try once a minute.
    admin().hashing = createHashGate({ concurrent: 1, queued: 1 });
    admin().limiter = createLoginLimiter(1);
    const addresses = ["192.0.2.1", "192.0.2.2", "192.0.2.3"];
    const hashesBefore = passwordHashesStarted();
    const answers = await Promise.all(addresses.map((address) => login("wrong-password", address)));

    expect(answers.map((answer) => answer.status).sort()).toEqual([401, 401, 429]);
    expect(passwordHashesStarted() - hashesBefore).toBe(2);
    const refused = answers.find((answer) => answer.status === 429)!;
    expect(refused).toEqual({ status: 429, retryAfter: "2", error: "Too many logins at once. Try again in 2 seconds." });
    // The refused address still has its one attempt: it is hashed (401), not limited (429).
    const again = await login("wrong-password", addresses[answers.indexOf(refused)]);
    expect(again.status).toBe(401);
    expect(passwordHashesStarted() - hashesBefore).toBe(3);
  });

  it("runs at most `concurrent` hashes at once, the waiting ones in arrival order, and frees every slot", async () => {
    const gate = createHashGate({ concurrent: 2, queued: 3 });
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const releases: (() => void)[] = [];
    const hash = (n: number) => () =>
      new Promise<number>((resolve) => {
        started.push(n);
        most = Math.max(most, ++running);
        releases.push(() => {
          running--;
          resolve(n);
        });
      });
    const runs = [0, 1, 2, 3, 4].map((n) => gate.run(hash(n)));
    await expect(gate.run(hash(5))).rejects.toMatchObject({ status: 429 });
    while (releases.length > 0 || started.length < 5) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      releases.shift()?.();
    }
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
    // All slots are free again: two run at once, three more wait.
    const again = [5, 6, 7, 8, 9].map((n) => gate.run(hash(n)));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(running).toBe(2);
    for (let i = 0; i < 5; i++) {
      releases.shift()!();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    expect(await Promise.all(again)).toEqual([5, 6, 7, 8, 9]);
  });
});
