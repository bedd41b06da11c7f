/**
 * What a visitor may send to set a price alert, checked once at the API's edge and derived from
 * the kind table (alerts.ts): the kind (target when left out) and the one figure that kind takes,
 * in its own field. A figure sent for a kind that does not take it is refused, not ignored.
 */
import { z } from "zod";
import { alertFigures, alertKindOf, alertKinds, defaultAlertKind, maxDropPercent, minDropPercent, ruleOfRequest, type AlertFigure, type AlertRequest, type AlertRule } from "./alerts.ts";
import { emailSchema, productIdSchema, targetPriceSchema, visitorIdSchema } from "./visitor.ts";

const dropPercentMessage = `dropPercent must be a whole number from ${minDropPercent} to ${maxDropPercent}`;
/** A drop alert's percent: a whole number from 1 to 99. */
export const dropPercentSchema = z.number({ error: dropPercentMessage }).int(dropPercentMessage).min(minDropPercent, dropPercentMessage).max(maxDropPercent, dropPercentMessage);

/** Each figure's check, as its request field carries it (a target in pounds). */
const figureSchemas: Record<AlertFigure, z.ZodType<number>> = { targetPence: targetPriceSchema, percent: dropPercentSchema };
const figures = Object.keys(alertFigures) as AlertFigure[];

/** A new alert: who sets it, on which product, for which address, and its rule (a target already in pence). */
export const newAlertBody = z
  .object({
    userId: visitorIdSchema,
    productId: productIdSchema,
    email: emailSchema,
    kind: z.enum(alertKinds, { error: `kind must be one of ${alertKinds.join(", ")}` }).default(defaultAlertKind),
    ...Object.fromEntries(figures.map((figure) => [alertFigures[figure].requestField, z.unknown().optional()])),
  })
  .transform(({ userId, productId, email, kind, ...sent }, ctx): { userId: string; productId: number; email: string; rule: AlertRule } => {
    const fields = sent as Record<string, unknown>;
    const fail = (field: string, message: string) => {
      ctx.addIssue({ code: "custom", path: [field], message });
      return z.NEVER;
    };
    const taken = alertKindOf(kind).figure;
    for (const figure of figures) {
      const { requestField, onlyFor } = alertFigures[figure];
      if (figure !== taken && fields[requestField] !== undefined) return fail(requestField, `${requestField}: only for ${onlyFor}, not ${kind}`);
    }
    if (taken === null) return { userId, productId, email, rule: ruleOfRequest({ kind } as AlertRequest) };
    const { requestField } = alertFigures[taken];
    const parsed = figureSchemas[taken].safeParse(fields[requestField]);
    if (!parsed.success) return fail(requestField, parsed.error.issues[0]!.message);
    return { userId, productId, email, rule: ruleOfRequest({ kind, [requestField]: parsed.data } as AlertRequest) };
  });
export type NewAlertBody = z.infer<typeof newAlertBody>;
