import type Database from "better-sqlite3";
import type { Db } from "./client.ts";

const caches = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/**
 * A prepared statement for this SQL on this connection, prepared once and reused: the hot read
 * paths build SQL from a small, fixed set of filter/sort shapes, so the cache stays small.
 *
 * `Row` is the shape of one result row: a `Pick<>` of the table's row type in data/db/rows.ts for
 * the columns the SQL selects, so `.get()`, `.all()` and `.iterate()` return typed rows and a
 * column renamed in the schema fails the type check where it is read.
 */
export function statement<Row = unknown>(db: Db, sql: string): Database.Statement<unknown[], Row> {
  let cache = caches.get(db.$client);
  if (!cache) caches.set(db.$client, (cache = new Map()));
  let prepared = cache.get(sql);
  if (!prepared) cache.set(sql, (prepared = db.$client.prepare(sql)));
  // One statement serves every caller of this SQL; the caller names what its rows hold.
  return prepared as Database.Statement<unknown[], Row>;
}
