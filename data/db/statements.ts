import type Database from "better-sqlite3";
import type { Db } from "./client.ts";

const caches = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/**
 * A prepared statement for this SQL on this connection, prepared once and reused: the hot read
 * paths build SQL from a small, fixed set of filter/sort shapes, so the cache stays small.
 */
export function statement(db: Db, sql: string): Database.Statement {
  let cache = caches.get(db.$client);
  if (!cache) caches.set(db.$client, (cache = new Map()));
  let prepared = cache.get(sql);
  if (!prepared) cache.set(sql, (prepared = db.$client.prepare(sql)));
  return prepared;
}
