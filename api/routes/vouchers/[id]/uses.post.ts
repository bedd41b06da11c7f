import { z } from "zod";
import { defineRoute } from "../../../context.ts";
import { noContent, notFound, parseWith, readJson, routeParam } from "../../../lib/http.ts";
import { idParam } from "../../../../data/domain/queries.ts";
import { visitorIdSchema } from "../../../../data/domain/visitor.ts";
import { recordVoucherUse } from "../../../../data/db/vouchers.ts";

const body = z.object({ userId: visitorIdSchema });

/**
 * Counts a copy of the code: the Popular tab orders vouchers by use. One visitor's use of one
 * voucher counts once per (UK) day however often it is posted; 204 either way.
 */
export default defineRoute(async (event, { db }) => {
  const id = parseWith(idParam(), routeParam(event, "id"));
  const { userId } = await readJson(event, body);
  if (recordVoucherUse(db, id, userId) === "unknown") throw notFound("Voucher not found");
  return noContent();
});
