/**
 * Admin authentication on the server: the password is checked against a scrypt hash, a
 * successful login opens a session kept in the database (only its SHA-256 is stored) and
 * carried in an HttpOnly, SameSite=Strict cookie. Nothing the browser claims grants rights.
 */
import { createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";
import { getCookie, HTTPError, setCookie, deleteCookie, type H3Event } from "h3";
import type { Db } from "../../data/db/client.ts";
import { deleteExpiredSessions, deleteSession, findSession, insertSession, storedPasswordHash, storePasswordHash, touchSession } from "../../data/db/admin-auth.ts";

// --- Password hashing -------------------------------------------------------------------------

/** scrypt cost: N = 2^17, r = 8, p = 1 (128 MiB of memory per hash, a few hundred ms of CPU). */
const costLog2 = 17;
const blockSize = 8;
const parallelism = 1;
const keyLength = 32;
/** Hashes stored with a higher cost than this are refused (a typo in the env must not stall the server). */
const maxCostLog2 = 20;

let hashesStarted = 0;

/** How many scrypt hashes this process has started (each holds 128 MiB while it runs): the limits' effect, observable. */
export const passwordHashesStarted = () => hashesStarted;

function scryptAsync(password: string, salt: Buffer, length: number, options: ScryptOptions): Promise<Buffer> {
  hashesStarted++;
  return new Promise((resolve, reject) => {
    scrypt(password, salt, length, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** Room for the hash's memory (128 * N * r bytes) plus scrypt's own overhead. */
const scryptOptions = (log2N: number, r: number, p: number): ScryptOptions => ({ N: 2 ** log2N, r, p, maxmem: 256 * 2 ** log2N * r + 2 ** 20 });

/** `scrypt$17$8$1$<salt, base64>$<key, base64>`: the cost travels with the hash. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, keyLength, scryptOptions(costLog2, blockSize, parallelism));
  return ["scrypt", costLog2, blockSize, parallelism, salt.toString("base64"), key.toString("base64")].join("$");
}

interface ParsedHash {
  log2N: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

export function parsePasswordHash(hash: string): ParsedHash | null {
  const match = /^scrypt\$(\d{1,2})\$(\d{1,2})\$(\d{1,2})\$([A-Za-z0-9+/]+=*)\$([A-Za-z0-9+/]+=*)$/.exec(hash.trim());
  if (!match) return null;
  const [, log2N, r, p, salt, key] = match;
  const parsed = { log2N: Number(log2N), r: Number(r), p: Number(p), salt: Buffer.from(salt!, "base64"), key: Buffer.from(key!, "base64") };
  if (parsed.log2N < 10 || parsed.log2N > maxCostLog2 || parsed.r < 1 || parsed.r > 32 || parsed.p < 1 || parsed.p > 4) return null;
  if (parsed.salt.length < 16 || parsed.key.length < 16) return null;
  return parsed;
}

/** Constant-time comparison of the derived key; a malformed hash never matches. */
export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  const parsed = parsePasswordHash(hash);
  if (!parsed) return false;
  const key = await scryptAsync(password, parsed.salt, parsed.key.length, scryptOptions(parsed.log2N, parsed.r, parsed.p));
  return timingSafeEqual(key, parsed.key);
}

export const minPasswordLength = 12;

/** A random password for the first start: 18 bytes, base64url (24 characters, 144 bits). */
export function generatePassword(): string {
  return randomBytes(18).toString("base64url");
}

export interface PasswordSource {
  /** Where the hash came from: the environment, the database, or generated on this start. */
  source: "environment" | "database" | "generated";
  hash: string;
  /** Only when generated: the password, to be shown once. */
  password?: string;
}

/**
 * The admin password hash: `ADMIN_PASSWORD_HASH` when set (it must be a valid scrypt hash),
 * else the one stored by `npm run admin:password`, else a random password is generated, its hash
 * stored, and the password returned so the caller can print it once. There is no default password.
 */
export async function resolvePasswordHash(db: Db, envHash: string | undefined): Promise<PasswordSource> {
  if (envHash !== undefined && envHash.trim() !== "") {
    if (!parsePasswordHash(envHash)) throw new Error("ADMIN_PASSWORD_HASH is not a scrypt hash made by `npm run admin:password -- --print`");
    return { source: "environment", hash: envHash.trim() };
  }
  const stored = storedPasswordHash(db);
  if (stored !== null && parsePasswordHash(stored)) return { source: "database", hash: stored };
  const password = generatePassword();
  const hash = await hashPassword(password);
  storePasswordHash(db, hash);
  return { source: "generated", hash, password };
}

// --- Sessions ---------------------------------------------------------------------------------

export const sessionCookie = "pawprice_admin";
/** A session ends after 30 minutes without a request, and 8 hours after login whatever happens. */
export const sessionIdleMs = 30 * 60 * 1000;
export const sessionAbsoluteMs = 8 * 60 * 60 * 1000;
/** last_seen_at is rewritten at most this often (a request burst costs one write). */
const touchEveryMs = 60 * 1000;

const digest = (token: string) => createHash("sha256").update(token).digest("hex");

/** A session id: 128 random bits. */
const newToken = () => randomBytes(16).toString("base64url");

/**
 * Whether the cookie must be Secure: the request came over https, or the site's public address is
 * https (a TLS-terminating proxy in front forwards plain http to this server).
 */
function isHttps(event: H3Event, publicOrigin = ""): boolean {
  return event.url.protocol === "https:" || publicOrigin.startsWith("https:");
}

export function openSession(db: Db, event: H3Event, publicOrigin: string, now = new Date()): void {
  const token = newToken();
  insertSession(db, digest(token), now);
  setCookie(event, sessionCookie, token, {
    httpOnly: true,
    sameSite: "strict",
    secure: isHttps(event, publicOrigin),
    path: "/",
    maxAge: sessionAbsoluteMs / 1000,
  });
}

export function closeSession(db: Db, event: H3Event, publicOrigin: string): void {
  const token = getCookie(event, sessionCookie);
  if (token) deleteSession(db, digest(token));
  deleteCookie(event, sessionCookie, { httpOnly: true, sameSite: "strict", secure: isHttps(event, publicOrigin), path: "/" });
}

/** Whether the request carries a live session; an expired one is deleted. */
export function hasSession(db: Db, event: H3Event, now = new Date()): boolean {
  const token = getCookie(event, sessionCookie);
  if (!token || token.length > 64) return false;
  const hash = digest(token);
  const session = findSession(db, hash);
  if (!session) return false;
  const idleMs = now.getTime() - Date.parse(session.lastSeenAt);
  const ageMs = now.getTime() - Date.parse(session.createdAt);
  if (idleMs >= sessionIdleMs || ageMs >= sessionAbsoluteMs) {
    deleteSession(db, hash);
    return false;
  }
  if (idleMs >= touchEveryMs) touchSession(db, hash, now);
  return true;
}

export function pruneSessions(db: Db, now = new Date()): number {
  return deleteExpiredSessions(db, new Date(now.getTime() - sessionIdleMs), new Date(now.getTime() - sessionAbsoluteMs));
}

// --- Requests from other sites ----------------------------------------------------------------


// --- Login limits ----------------------------------------------------------------------------

export interface LoginLimiter {
  /** Throws 429 when this client may not try now (counts nothing). */
  check(client: string, now?: number): void;
  /** Counts an attempt, before its password is hashed; throws 429 (counting nothing) when this client may not try now. */
  attempt(client: string, now?: number): void;
  succeeded(client: string): void;
}

/**
 * At most `maxAttempts` logins per client in any `windowMs`, counted when they start (before the
 * password is hashed, so concurrent attempts cannot slip past the count); the next is a 429 with
 * Retry-After until the oldest attempt leaves the window. A success clears the client.
 */
export function createLoginLimiter(maxAttempts = 5, windowMs = 60_000): LoginLimiter {
  const attempts = new Map<string, number[]>();
  const recent = (client: string, now: number) => (attempts.get(client) ?? []).filter((at) => now - at < windowMs);
  const check = (client: string, now: number) => {
    const times = recent(client, now);
    if (times.length === 0) attempts.delete(client);
    else attempts.set(client, times);
    if (times.length < maxAttempts) return times;
    const retryAfter = Math.max(1, Math.ceil((times[0]! + windowMs - now) / 1000));
    throw new HTTPError({
      status: 429,
      message: `Too many failed logins. Try again in ${retryAfter} seconds.`,
      headers: { "retry-after": String(retryAfter) },
    });
  };
  return {
    check(client, now = Date.now()) {
      check(client, now);
    },
    attempt(client, now = Date.now()) {
      attempts.set(client, [...check(client, now), now]);
      // Forget clients that stopped trying, so the map cannot grow without bound.
      if (attempts.size > 10_000) {
        for (const [key, times] of attempts) if (times.every((at) => now - at >= windowMs)) attempts.delete(key);
      }
    },
    succeeded(client) {
      attempts.delete(client);
    },
  };
}

export interface HashGate {
  /** Throws 429 with Retry-After when the queue is full (nothing waits, nothing is hashed). */
  refuseWhenFull(): void;
  /** Runs `hash` once a slot is free; refused as by `refuseWhenFull` when the queue is full. */
  run<T>(hash: () => Promise<T>): Promise<T>;
}

export interface HashGateOptions {
  /** Hashes running at once, server-wide (each holds 128 MiB and a libuv thread, of the 4 shared with file reads). */
  concurrent: number;
  /** Logins waiting for a slot; one more is refused at once. */
  queued: number;
  /** Retry-After, in seconds, of a refusal. */
  retryAfterSeconds: number;
}

/**
 * At most `concurrent` password hashes at a time server-wide, `queued` more waiting in arrival
 * order; beyond that a login is refused at once with 429 + Retry-After (the client is sending too
 * many logins for now: a 503 would tell monitors and proxies the whole server is down, while
 * pages and the API are answering as usual). The defaults: 2 running (256 MiB, half the threadpool),
 * 8 waiting (about 2 s of work at ~0.4 s a hash).
 */
export function createHashGate(options: Partial<HashGateOptions> = {}): HashGate {
  const { concurrent = 2, queued = 8, retryAfterSeconds = 2 } = options;
  let running = 0;
  const waiting: (() => void)[] = [];
  const refuseWhenFull = () => {
    if (running < concurrent || waiting.length < queued) return;
    throw new HTTPError({
      status: 429,
      message: `Too many logins at once. Try again in ${retryAfterSeconds} seconds.`,
      headers: { "retry-after": String(retryAfterSeconds) },
    });
  };
  return {
    refuseWhenFull,
    async run(hash) {
      refuseWhenFull();
      if (running < concurrent) running++;
      // A finished hash hands its slot straight to the longest waiting login.
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await hash();
      } finally {
        const next = waiting.shift();
        if (next) next();
        else running--;
      }
    },
  };
}
