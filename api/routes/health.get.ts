import { defineRoute } from "../context.ts";
import { cacheNone } from "../lib/http.ts";
import { statement } from "../../data/db/statements.ts";

export default defineRoute((event, { db }) => {
  cacheNone(event);
  const { products } = statement(db, "SELECT count(*) AS products FROM products").get() as { products: number };
  return { status: "ok", database: "ok", products, time: new Date().toISOString() };
});
