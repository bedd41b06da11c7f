import { z } from "zod";
import { defineRoute } from "../../context.ts";
import { badRequest, readJson } from "../../lib/http.ts";
import { toPence } from "../../../data/domain/money.ts";
import { activeAlertLimit, emailSchema, productIdSchema, targetPriceSchema, visitorIdSchema } from "../../../data/domain/visitor.ts";
import { productExists } from "../../../data/db/products.ts";
import { createAlert } from "../../../data/db/alerts.ts";

const body = z.object({ userId: visitorIdSchema, productId: productIdSchema, email: emailSchema, targetPrice: targetPriceSchema });

/**
 * 201 with the new alert; 200 when it replaced the visitor's alert for the same product and
 * address. `state` is "pending_confirmation" until this visitor has confirmed the address, and
 * `confirmationSent` says whether a confirmation mail goes out for this request.
 */
export default defineRoute(async (event, ctx) => {
  const { userId, productId, email, targetPrice } = await readJson(event, body);
  if (!productExists(ctx.db, productId)) throw badRequest("productId: unknown product");
  const result = createAlert(ctx.db, { userId, productId, email, targetPricePence: toPence(targetPrice)! });
  if ("limitReached" in result) throw badRequest(`You can have up to ${activeAlertLimit} price alerts. Delete one to add another.`);
  // Sends the confirmation mail, or (for an active alert) checks now whether the target is already met.
  ctx.onAlertsChanged?.();
  event.res.status = result.created ? 201 : 200;
  return { ...result.alert, confirmationSent: result.confirmationSent };
});
