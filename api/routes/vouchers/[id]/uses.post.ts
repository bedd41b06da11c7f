import { z } from "zod";
import { defineRoute } from "../../../context.ts";
import { noContent, notFound } from "../../../http/http.ts";
import { storeWithinBudget } from "../../../lib/storage-budget.ts";
import { idParam } from "../../../../data/domain/queries.ts";
import { visitorIdSchema } from "../../../../data/domain/visitor.ts";
import { recordVoucherUse } from "../../../../data/db/vouchers.ts";

const bodySchema = z.object({ userId: visitorIdSchema });

/**
 * Counts a copy of the code: the Popular tab orders vouchers by use. One visitor's use of one
 * voucher counts once per (UK) day however often it is posted; 204 either way.
 */
export default defineRoute({ params: { id: idParam() }, body: bodySchema }, async (event, { db }, { params: { id }, body }) => {
  const { userId } = await body();
  const outcome = storeWithinBudget(event, db, () => {
    const outcome = recordVoucherUse(db, id, userId);
    return { value: outcome, rows: outcome === "counted" ? 1 : 0 };
  });
  if (outcome === "unknown") throw notFound("Voucher not found");
  return noContent();
});
