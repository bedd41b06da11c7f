import { z } from "zod";
import { defineRoute } from "../../context.ts";
import { storeWithinBudget } from "../../lib/storage-budget.ts";
import { emailSchema } from "../../../data/domain/visitor.ts";
import { subscribe } from "../../../data/db/subscribers.ts";

const bodySchema = z.object({
  email: emailSchema,
  source: z.string().trim().min(1).max(40, "source must be at most 40 characters").regex(/^[a-z0-9_-]+$/i, "source must be a short word").default("website"),
});

/**
 * Newsletter sign-up: 201 when new, 200 when the address was on the list already (not an error).
 * `status` is "pending_confirmation" until the address follows its confirmation link, and
 * `confirmationSent` says whether a confirmation mail goes out for this request.
 */
export default defineRoute({ body: bodySchema }, async (event, ctx, { body }) => {
  const { email, source } = await body();
  // A new subscriber is a row stored, and so is the confirmation mail it queues.
  const result = storeWithinBudget(event, ctx.db, () => {
    const result = subscribe(ctx.db, email, source);
    return { value: result, rows: Number(result.created) + Number(result.confirmationSent) };
  });
  // The mail job sends queued confirmation mails.
  if (result.confirmationSent) ctx.onAlertsChanged?.();
  event.res.status = result.created ? 201 : 200;
  return { subscribed: result.state === "active", status: result.state, confirmationSent: result.confirmationSent };
});
