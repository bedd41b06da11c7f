/**
 * What a visitor may send for a basket quote, checked once at the API's edge: up to
 * basketLimits.products different products, each with a whole quantity from 1 to
 * basketLimits.quantity and whether repeat delivery is wanted where a retailer offers it.
 */
import { z } from "zod";
import { basketLimits } from "./limits.ts";
import { productIdSchema } from "./visitor.ts";

const quantityMessage = `quantity must be a whole number from 1 to ${basketLimits.quantity}`;

export const basketLineSchema = z.object({
  productId: productIdSchema,
  quantity: z.number({ error: quantityMessage }).int(quantityMessage).min(1, quantityMessage).max(basketLimits.quantity, quantityMessage),
  repeat: z.boolean({ error: "repeat must be true or false" }).default(false),
});

export const basketQuoteBody = z.object({
  lines: z
    .array(basketLineSchema, { error: (issue) => (issue.input === undefined ? "lines is required" : "lines must be a list of products") })
    .min(1, "lines must not be empty")
    .max(basketLimits.products, `lines: at most ${basketLimits.products} different products`)
    .refine((lines) => new Set(lines.map((line) => line.productId)).size === lines.length, "lines: each product at most once (give it a quantity instead)"),
});

export type BasketQuoteBody = z.output<typeof basketQuoteBody>;
