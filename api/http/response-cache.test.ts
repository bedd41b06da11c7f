import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { entryBytes, entryOverheadBytes, ResponseCache } from "./response-cache.ts";
import { openDb, type Db } from "../../data/db/client.ts";

let dir: string;
let db: Db;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "response-cache-"));
  db = openDb(path.join(dir, "cache.db"));
  db.$client.exec("CREATE TABLE t (x INTEGER)");
});
afterAll(() => {
  db.$client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const headers = { "content-type": "application/json" };
const body = (n: number, size = 100) => String(n).padEnd(size, "x");
/** Keys of one length, so every 100-byte body costs the same against the cap. */
const k = (n: number) => `/${String(n).padStart(2, "0")}`;
/** A cap that fits exactly sixteen entries of a 100-byte body. */
const sixteen = 16 * entryBytes(k(1), { body: body(1), headers });

describe("ResponseCache", () => {
  it("returns what was stored under a key, and nothing for other keys", () => {
    const cache = new ResponseCache(db);
    expect(cache.get("/a")).toBeUndefined();
    cache.set("/a", { body: "[1]", headers });
    expect(cache.get("/a")).toMatchObject({ body: "[1]", headers });
    expect(cache.get("/b")).toBeUndefined();
    expect(cache.size).toBe(1);
  });

  it("drops everything when invalidated", () => {
    const cache = new ResponseCache(db);
    cache.set("/a", { body: "[1]", headers });
    cache.set("/b", { body: "[2]", headers });
    cache.invalidate();
    expect(cache.size).toBe(0);
    expect(cache.get("/a")).toBeUndefined();
    // Entries stored after an invalidation are served again.
    cache.set("/a", { body: "[3]", headers });
    expect(cache.get("/a")?.body).toBe("[3]");
  });

  it("misses, and forgets the entry, once another connection has written to the database", () => {
    const cache = new ResponseCache(db);
    cache.set("/a", { body: "[1]", headers });
    cache.set("/b", { body: "[2]", headers });
    // A write on this same connection does not move SQLite's data_version (that is what invalidate() is for).
    db.$client.prepare("INSERT INTO t VALUES (1)").run();
    expect(cache.get("/a")?.body).toBe("[1]");
    const other = openDb(path.join(dir, "cache.db"));
    other.$client.prepare("INSERT INTO t VALUES (2)").run();
    other.$client.close();
    expect(cache.get("/a")).toBeUndefined();
    expect(cache.size).toBe(1);
    expect(cache.get("/b")).toBeUndefined();
    expect(cache.size).toBe(0);
    cache.set("/a", { body: "[4]", headers });
    expect(cache.get("/a")?.body).toBe("[4]");
  });

  it("evicts the least recently used entries beyond its size cap", () => {
    const cache = new ResponseCache(db, { maxBytes: sixteen });
    for (let i = 1; i <= 16; i++) cache.set(k(i), { body: body(i), headers });
    expect(cache.size).toBe(16);
    expect(cache.get(k(1))?.body).toBe(body(1)); // now the most recently used
    cache.set(k(17), { body: body(17), headers });
    expect(cache.size).toBe(16);
    expect(cache.get(k(2))).toBeUndefined();
    expect(cache.get(k(1))?.body).toBe(body(1));
    expect(cache.get(k(17))?.body).toBe(body(17));
    // Each new entry pushes out the oldest.
    cache.set(k(98), { body: body(0, 100), headers });
    cache.set(k(99), { body: body(0, 100), headers });
    expect(cache.get(k(3))).toBeUndefined();
    expect(cache.get(k(4))).toBeUndefined();
    expect(cache.get(k(5))?.body).toBe(body(5));
  });

  it("counts a replaced entry once", () => {
    const cache = new ResponseCache(db, { maxBytes: sixteen });
    for (let i = 1; i <= 16; i++) cache.set(k(0), { body: body(i), headers });
    expect(cache.size).toBe(1);
    for (let i = 1; i <= 15; i++) cache.set(k(i), { body: body(i), headers });
    // 16 entries of 100 bytes: still within the cap, so nothing was evicted.
    expect(cache.size).toBe(16);
    expect(cache.get(k(0))?.body).toBe(body(16));
    expect(cache.get(k(1))?.body).toBe(body(1));
  });

  it("counts storing a key again as its latest use", () => {
    const cache = new ResponseCache(db, { maxBytes: sixteen });
    for (let i = 1; i <= 16; i++) cache.set(k(i), { body: body(i), headers });
    cache.set(k(1), { body: body(1), headers });
    cache.set(k(17), { body: body(17), headers });
    expect(cache.get(k(1))?.body).toBe(body(1));
    expect(cache.get(k(2))).toBeUndefined();
  });

  it("by default keeps entries counted as up to 4 MiB (a sixteenth of 64 MiB)", () => {
    const cache = new ResponseCache(db);
    const length = (4 * 1024 * 1024 - entryBytes("/page", { body: "", headers })) / 2;
    cache.set("/page", { body: "x".repeat(length), headers });
    cache.set("/huge", { body: "x".repeat(length + 1), headers });
    expect(cache.get("/page")?.body.length).toBe(length);
    expect(cache.get("/huge")).toBeUndefined();
    expect(cache.maxBytes).toBe(64 * 1024 * 1024);
    expect(new ResponseCache(db, { maxBytes: sixteen }).maxBytes).toBe(sixteen);
  });

  it("keeps no entry larger than a sixteenth of the cap", () => {
    const cache = new ResponseCache(db, { maxBytes: sixteen });
    cache.set(k(1), { body: body(1, 100), headers });
    cache.set(k(2), { body: body(2, 101), headers });
    expect(cache.get(k(1))?.body).toBe(body(1, 100));
    expect(cache.get(k(2))).toBeUndefined();
    expect(cache.size).toBe(1);
  });

  it("counts keys and a per-entry overhead against the cap, not only bodies", () => {
    // 1,000 tiny answers under 8,000-character keys: the keys are what fills memory.
    const maxBytes = 1024 * 1024;
    const cache = new ResponseCache(db, { maxBytes });
    for (let i = 0; i < 1000; i++) cache.set(`/api/products/count?junk${i}=${"x".repeat(8000)}`, { body: '{"count":1}', headers });
    expect(cache.bytes).toBeLessThanOrEqual(maxBytes);
    expect(cache.size).toBeLessThanOrEqual(Math.floor(maxBytes / (16_000 + entryOverheadBytes)));
    expect(cache.size).toBeGreaterThan(0);
    // Even empty answers under empty keys cost their overhead.
    const small = new ResponseCache(db, { maxBytes: 100 * entryOverheadBytes });
    for (let i = 0; i < 1000; i++) small.set(String(i), { body: "", headers: {} });
    expect(small.size).toBeLessThanOrEqual(100);
  });

  it("counts what it keeps of a sent answer against the cap", () => {
    const cache = new ResponseCache(db, { maxBytes: sixteen });
    for (let i = 1; i <= 16; i++) cache.set(k(i), { body: body(i), headers });
    cache.attachSent(k(16), ["content-type", "application/json"]);
    expect(cache.bytes).toBeLessThanOrEqual(sixteen);
    // The oldest entry made room for it.
    expect(cache.get(k(1))).toBeUndefined();
    expect(cache.getSent(k(16))).toEqual({
      statusText: undefined,
      headers: ["content-type", "application/json", "content-length", "100"],
      body: new TextEncoder().encode(body(16)),
    });
    // Nothing is attached to an entry that is gone.
    cache.attachSent(k(1), ["x", "y"]);
    expect(cache.getSent(k(1))).toBeUndefined();
  });

  it("counts a sent answer as its entry plus the headers and body bytes it adds", () => {
    const cache = new ResponseCache(db);
    cache.set(k(1), { body: body(1), headers });
    cache.set(k(2), { body: "£1", headers }); // 2 characters, 3 bytes in UTF-8
    // The overhead, then key, body and header names and values at two bytes a character.
    expect(entryBytes(k(2), { body: "£1", headers })).toBe(entryOverheadBytes + 2 * (3 + 2 + 12 + 16));
    const stored = entryBytes(k(1), { body: body(1), headers }) + entryBytes(k(2), { body: "£1", headers });
    expect(cache.bytes).toBe(stored);
    cache.attachSent(k(2), ["content-type", "application/json"]);
    // Strings at two bytes a character (content-type, application/json, content-length, 3), then the body's 3 bytes.
    expect(cache.bytes).toBe(stored + 2 * (12 + 16 + 14 + 1) + 3);
    expect(cache.getSent(k(2))?.headers).toEqual(["content-type", "application/json", "content-length", "3"]);
  });

  it("with dataVersionOncePerTurn, sees another connection's write from the next event-loop turn on", async () => {
    const cache = new ResponseCache(db, { dataVersionOncePerTurn: true });
    cache.set("/a", { body: "[1]", headers });
    const other = openDb(path.join(dir, "cache.db"));
    other.$client.prepare("INSERT INTO t VALUES (4)").run();
    other.$client.close();
    // The same turn reuses the data_version its first lookup read.
    expect(cache.get("/a")?.body).toBe("[1]");
    await new Promise((resolve) => setImmediate(resolve));
    expect(cache.get("/a")).toBeUndefined();
    cache.set("/a", { body: "[2]", headers });
    await new Promise((resolve) => setImmediate(resolve));
    expect(cache.get("/a")?.body).toBe("[2]");
  });

  it("gives a dropped stale entry's bytes back", () => {
    const cache = new ResponseCache(db, { maxBytes: sixteen });
    for (let i = 1; i <= 16; i++) cache.set(k(i), { body: body(i), headers });
    const other = openDb(path.join(dir, "cache.db"));
    other.$client.prepare("INSERT INTO t VALUES (3)").run();
    other.$client.close();
    for (let i = 1; i <= 16; i++) expect(cache.get(k(i))).toBeUndefined();
    for (let i = 21; i <= 36; i++) cache.set(k(i), { body: body(i), headers });
    expect(cache.size).toBe(16);
    expect(cache.get(k(21))?.body).toBe(body(21));
  });
});
