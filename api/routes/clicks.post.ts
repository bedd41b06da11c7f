import { HTTPError } from "h3";
import { z } from "zod";
import { defineRoute } from "../context.ts";
import { badRequest, noContent } from "../http/http.ts";
import { storeWithinBudget } from "../lib/storage-budget.ts";
import { sessionIdSchema, visitorIdSchema } from "../../data/domain/visitor.ts";
import { dailyClickCap, recordClicks } from "../../data/db/behaviour.ts";

const click = z.object({
  retailer: z.string().trim().min(1, "retailer is required").max(100),
  productName: z.string().trim().min(1, "productName is required").max(300),
  productId: z.number().int().positive().optional(),
  price: z.number().nonnegative().max(1_000_000).nullable(),
  url: z.string().max(2000).optional(),
  timestamp: z.iso.datetime({ error: "timestamp must be an ISO date-time" }),
});

const bodySchema = z.object({
  userId: visitorIdSchema,
  sessionId: sessionIdSchema.optional(),
  events: z.array(click).min(1, "events must not be empty").max(20, "events: at most 20 at a time"),
});

/** Affiliate clicks from visitors who accepted analytics cookies, stored as user behaviour, capped per visitor per day. */
export default defineRoute({ body: bodySchema }, async (event, { db }, { body }) => {
  const { userId, sessionId, events } = await body();
  const outcome = storeWithinBudget(event, db, () => {
    const outcome = recordClicks(db, userId, sessionId, events);
    return { value: outcome, rows: outcome === "recorded" ? events.length : 0 };
  });
  if (outcome === "unknown-product") throw badRequest("productId: unknown product");
  if (outcome === "daily-cap") {
    throw new HTTPError({
      status: 429,
      message: `At most ${dailyClickCap} clicks are recorded per visitor in 24 hours`,
      headers: { "retry-after": String(60 * 60) },
    });
  }
  return noContent();
});
