import { HTTPError } from "h3";
import { defineRoute } from "../../context.ts";
import { badRequest } from "../../http/http.ts";
import { storeWithinBudget } from "../../lib/storage-budget.ts";
import { newAlertBody } from "../../../data/domain/alerts.schema.ts";
import { activeAlertLimit } from "../../../data/domain/visitor.ts";
import { productLegalCategory } from "../../../data/db/products.ts";
import { isPrescriptionOnly } from "../../../data/domain/legal-category.ts";
import { createAlert } from "../../../data/db/alerts.ts";

/**
 * 201 with the new alert; 200 when it replaced the visitor's alert of the same kind for the same
 * product and address. `state` is "pending_confirmation" until this visitor has confirmed the
 * address, and `confirmationSent` says whether a confirmation mail goes out for this request.
 * 400 when the alert's kind refuses it now (a drop while nothing is in stock; a lowest-90 alert
 * while today's price is the lowest in 90 days already: it would mail at once). 422 for a
 * prescription-only medicine (POM-V, POM-VPS): it may not be advertised, so no alert of any kind
 * is set for it (nothing is stored, no mail goes out).
 */
export default defineRoute({ body: newAlertBody }, async (event, ctx, { body }) => {
  const { userId, productId, email, rule } = await body();
  const legalCategory = productLegalCategory(ctx.db, productId);
  if (legalCategory === undefined) throw badRequest("productId: unknown product");
  if (isPrescriptionOnly(legalCategory)) {
    throw new HTTPError({ status: 422, message: "productId: price alerts are not offered for prescription-only medicines (POM-V, POM-VPS)" });
  }
  // A new alert is a row stored, and so is the confirmation mail it queues.
  const result = storeWithinBudget(event, ctx.db, () => {
    const result = createAlert(ctx.db, { userId, productId, email, rule });
    return { value: result, rows: "alert" in result ? Number(result.created) + Number(result.confirmationSent) : 0 };
  });
  if ("limitReached" in result) throw badRequest(`You can have up to ${activeAlertLimit} price alerts. Delete one to add another.`);
  if ("refused" in result) throw badRequest(result.refused);
  // Sends the confirmation mail, or (for an active alert) checks now whether the alert is already due.
  ctx.onAlertsChanged?.();
  event.res.status = result.created ? 201 : 200;
  return { ...result.alert, confirmationSent: result.confirmationSent };
});
