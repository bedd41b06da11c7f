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

function scryptAsync(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** Room for the hash's memory (128 * N * r bytes) plus scrypt's own overhead. */
const scryptOptions = (log2N: number, r: number, p: number): ScryptOptions => ({ N: 2 ** log2N, r, p, maxmem: 256 * 2 ** log2N * r + 2 ** 20 });

/** `scrypt$17$8$1$<salt, base64>$<key, base64>`: the cost travels with the hash. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, scryptOptions(costLog2, blockSize, parallelism));
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
  const key = await new Promise<Buffer>((resolve, reject) => {
    scrypt(password, parsed.salt, parsed.key.length, scryptOptions(parsed.log2N, parsed.r, parsed.p), (error, derived) =>
      error ? reject(error) : resolve(derived),
    );
  });
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


// --- Failed-login limit -----------------------------------------------------------------------

export interface LoginLimiter {
  /** Throws 429 when this client may not try now. */
  check(client: string, now?: number): void;
  failed(client: string, now?: number): void;
  succeeded(client: string): void;
}

/**
 * At most `maxFailures` failed logins per client in any `windowMs`; the next attempt is a 429
 * with Retry-After until the oldest failure leaves the window. A success clears the client.
 */
export function createLoginLimiter(maxFailures = 5, windowMs = 60_000): LoginLimiter {
  const failures = new Map<string, number[]>();
  const recent = (client: string, now: number) => (failures.get(client) ?? []).filter((at) => now - at < windowMs);
  return {
    check(client, now = Date.now()) {
      const times = recent(client, now);
      if (times.length === 0) failures.delete(client);
      else failures.set(client, times);
      if (times.length < maxFailures) return;
      const retryAfter = Math.max(1, Math.ceil((times[0]! + windowMs - now) / 1000));
      throw new HTTPError({
        status: 429,
        message: `Too many failed logins. Try again in ${retryAfter} seconds.`,
        headers: { "retry-after": String(retryAfter) },
      });
    },
    failed(client, now = Date.now()) {
      failures.set(client, [...recent(client, now), now]);
      // Forget clients that stopped trying, so the map cannot grow without bound.
      if (failures.size > 10_000) {
        for (const [key, times] of failures) if (times.every((at) => now - at >= windowMs)) failures.delete(key);
      }
    },
    succeeded(client) {
      failures.delete(client);
    },
  };
}

