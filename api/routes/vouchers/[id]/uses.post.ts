import { defineRoute } from "../../../context.ts";
import { noContent, notFound, parseWith, routeParam } from "../../../lib/http.ts";
import { idParam } from "../../../../data/domain/queries.ts";
import { statement } from "../../../../data/db/statements.ts";

/** Counts a copy of the code: the Popular tab orders vouchers by use (DECISIONS.md item 7). */
export default defineRoute((event, { db }) => {
  const id = parseWith(idParam(), routeParam(event, "id"));
  const result = statement(db, "UPDATE vouchers SET uses = uses + 1 WHERE id = ?").run(id);
  if (result.changes === 0) throw notFound("Voucher not found");
  return noContent();
});
