import { z } from "zod";
import { defineRoute } from "../../context.ts";
import { readJson } from "../../lib/http.ts";
import { emailSchema } from "../../../data/domain/visitor.ts";
import { subscribe } from "../../../data/db/subscribers.ts";

const body = z.object({
  email: emailSchema,
  source: z.string().trim().min(1).max(40, "source must be at most 40 characters").regex(/^[a-z0-9_-]+$/i, "source must be a short word").default("website"),
});

/** Newsletter sign-up: 201 when new, 200 when the address was already subscribed (not an error). */
export default defineRoute(async (event, { db }) => {
  const { email, source } = await readJson(event, body);
  const { created } = subscribe(db, email, source);
  event.res.status = created ? 201 : 200;
  return { subscribed: true };
});
