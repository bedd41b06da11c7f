import { HTTPError } from "h3";
import { z } from "zod";
import { defineRoute } from "../../context.ts";
import { badRequest } from "../../lib/http.ts";
import { storeWithinBudget } from "../../lib/storage-budget.ts";
import { formatPence, toPence } from "../../../data/domain/money.ts";
import { alertKinds, maxDropPercent, minDropPercent } from "../../../data/domain/alerts.ts";
import { windowDays } from "../../../data/domain/deal-truth.ts";
import { activeAlertLimit, emailSchema, productIdSchema, targetPriceSchema, visitorIdSchema } from "../../../data/domain/visitor.ts";
import { productLegalCategory } from "../../../data/db/products.ts";
import { isPrescriptionOnly } from "../../../data/domain/legal-category.ts";
import { createAlert, type NewAlertRule } from "../../../data/db/alerts.ts";

const dropPercentMessage = `dropPercent must be a whole number from ${minDropPercent} to ${maxDropPercent}`;
const dropPercentSchema = z.number({ error: dropPercentMessage }).int(dropPercentMessage).min(minDropPercent, dropPercentMessage).max(maxDropPercent, dropPercentMessage);

/**
 * The alert's kind (target when left out) and the one figure it takes: targetPrice only for a
 * target alert, dropPercent (1 to 99) only for a drop alert, neither for back-in-stock or lowest-90.
 */
const bodySchema = z
  .object({
    userId: visitorIdSchema,
    productId: productIdSchema,
    email: emailSchema,
    kind: z.enum(alertKinds, { error: `kind must be one of ${alertKinds.join(", ")}` }).default("target"),
    targetPrice: z.unknown().optional(),
    dropPercent: z.unknown().optional(),
  })
  .transform(({ kind, targetPrice, dropPercent, ...rest }, ctx) => {
    const fail = (field: "targetPrice" | "dropPercent", message: string) => {
      ctx.addIssue({ code: "custom", path: [field], message });
      return z.NEVER;
    };
    if (kind !== "target" && targetPrice !== undefined) return fail("targetPrice", `targetPrice: only for a target-price alert, not ${kind}`);
    if (kind !== "drop" && dropPercent !== undefined) return fail("dropPercent", `dropPercent: only for a drop alert, not ${kind}`);
    let rule: NewAlertRule;
    if (kind === "target") {
      const parsed = targetPriceSchema.safeParse(targetPrice);
      if (!parsed.success) return fail("targetPrice", parsed.error.issues[0]!.message);
      rule = { kind, targetPricePence: toPence(parsed.data)! };
    } else if (kind === "drop") {
      const parsed = dropPercentSchema.safeParse(dropPercent);
      if (!parsed.success) return fail("dropPercent", dropPercentMessage);
      rule = { kind, dropPercent: parsed.data };
    } else {
      rule = { kind };
    }
    return { ...rest, rule };
  });

/**
 * 201 with the new alert; 200 when it replaced the visitor's alert of the same kind for the same
 * product and address. `state` is "pending_confirmation" until this visitor has confirmed the
 * address, and `confirmationSent` says whether a confirmation mail goes out for this request.
 * 400 for a lowest-90 alert while today's price is the lowest in 90 days already: it would mail
 * at once. 422 for a prescription-only medicine (POM-V, POM-VPS): it may not be advertised, so no
 * alert of any kind is set for it (nothing is stored, no mail goes out).
 */
export default defineRoute({ body: bodySchema }, async (event, ctx, { body }) => {
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
  if ("noPriceToDropFrom" in result) throw badRequest("A drop alert is measured from today's price, and this product is out of stock everywhere: choose back in stock instead.");
  if ("lowestAlready" in result) {
    throw badRequest(`The price is already ${formatPence(result.currentPence)}, the lowest in ${windowDays} days: no alert needed, you can buy at that price now.`);
  }
  // Sends the confirmation mail, or (for an active alert) checks now whether the alert is already due.
  ctx.onAlertsChanged?.();
  event.res.status = result.created ? 201 : 200;
  return { ...result.alert, confirmationSent: result.confirmationSent };
});
