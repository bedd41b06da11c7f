import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ResponseCache } from "./response-cache.ts";
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
    // 1,600 bytes: sixteen 100-byte bodies fit exactly.
    const cache = new ResponseCache(db, { maxBytes: 1600 });
    for (let i = 1; i <= 16; i++) cache.set(`/${i}`, { body: body(i), headers });
    expect(cache.size).toBe(16);
    expect(cache.get("/1")?.body).toBe(body(1)); // now the most recently used
    cache.set("/17", { body: body(17), headers });
    expect(cache.size).toBe(16);
    expect(cache.get("/2")).toBeUndefined();
    expect(cache.get("/1")?.body).toBe(body(1));
    expect(cache.get("/17")?.body).toBe(body(17));
    // A larger body pushes out as many of the oldest as it needs.
    cache.set("/big", { body: body(0, 100), headers });
    cache.set("/big2", { body: body(0, 100), headers });
    expect(cache.get("/3")).toBeUndefined();
    expect(cache.get("/4")).toBeUndefined();
    expect(cache.get("/5")?.body).toBe(body(5));
  });

  it("counts a replaced entry once", () => {
    const cache = new ResponseCache(db, { maxBytes: 1600 });
    for (let i = 1; i <= 16; i++) cache.set("/same", { body: body(i), headers });
    expect(cache.size).toBe(1);
    for (let i = 1; i <= 15; i++) cache.set(`/${i}`, { body: body(i), headers });
    // 16 entries of 100 bytes: still within the cap, so nothing was evicted.
    expect(cache.size).toBe(16);
    expect(cache.get("/same")?.body).toBe(body(16));
    expect(cache.get("/1")?.body).toBe(body(1));
  });

  it("counts storing a key again as its latest use", () => {
    const cache = new ResponseCache(db, { maxBytes: 1600 });
    for (let i = 1; i <= 16; i++) cache.set(`/${i}`, { body: body(i), headers });
    cache.set("/1", { body: body(1), headers });
    cache.set("/17", { body: body(17), headers });
    expect(cache.get("/1")?.body).toBe(body(1));
    expect(cache.get("/2")).toBeUndefined();
  });

  it("by default keeps responses of up to 4 MiB (a sixteenth of 64 MiB)", () => {
    const cache = new ResponseCache(db);
    cache.set("/page", { body: "x".repeat(4 * 1024 * 1024), headers });
    cache.set("/huge", { body: "x".repeat(4 * 1024 * 1024 + 1), headers });
    expect(cache.get("/page")?.body.length).toBe(4 * 1024 * 1024);
    expect(cache.get("/huge")).toBeUndefined();
  });

  it("keeps no body larger than a sixteenth of the cap", () => {
    const cache = new ResponseCache(db, { maxBytes: 1600 });
    cache.set("/fits", { body: body(1, 100), headers });
    cache.set("/large", { body: body(2, 101), headers });
    expect(cache.get("/fits")?.body).toBe(body(1, 100));
    expect(cache.get("/large")).toBeUndefined();
    expect(cache.size).toBe(1);
  });

  it("gives a dropped stale entry's bytes back", () => {
    const cache = new ResponseCache(db, { maxBytes: 1600 });
    for (let i = 1; i <= 16; i++) cache.set(`/${i}`, { body: body(i), headers });
    const other = openDb(path.join(dir, "cache.db"));
    other.$client.prepare("INSERT INTO t VALUES (3)").run();
    other.$client.close();
    for (let i = 1; i <= 16; i++) expect(cache.get(`/${i}`)).toBeUndefined();
    for (let i = 21; i <= 36; i++) cache.set(`/${i}`, { body: body(i), headers });
    expect(cache.size).toBe(16);
    expect(cache.get("/21")?.body).toBe(body(21));
  });
});
