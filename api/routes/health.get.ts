import { defineRoute } from "../context.ts";
import { cacheNone } from "../http/http.ts";
import { statement } from "../../data/db/statements.ts";
import { databaseIntegrity, isDamagedDatabaseError, noteDamage } from "../../data/db/integrity.ts";

/**
 * 200 `{ status: "ok", database: "ok", ... }` when the database answers and its file passes
 * SQLite's quick check; 503 `{ status: "error", database: "corrupt" }` when it is damaged, so a
 * monitor or load balancer sees the truth rather than "ok" over failing reads.
 */
export default defineRoute((event, { db }) => {
  cacheNone(event);
  const corrupt = () => {
    event.res.status = 503;
    return { status: "error", database: "corrupt", time: new Date().toISOString() };
  };
  try {
    if (databaseIntegrity(db).state === "corrupt") return corrupt();
    const { products } = statement<{ products: number }>(db, "SELECT count(*) AS products FROM products").get()!;
    return { status: "ok", database: "ok", products, time: new Date().toISOString() };
  } catch (error) {
    if (!isDamagedDatabaseError(error)) throw error;
    noteDamage(db, error);
    return corrupt();
  }
});
