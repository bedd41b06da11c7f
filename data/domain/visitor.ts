import { z } from "zod";
import { maxEmailLength, maxNotesLength, maxTargetPounds } from "./limits.ts";
import { sessionIdPattern, visitorIdPattern } from "./visitor-id.ts";

export { visitorIdPattern } from "./visitor-id.ts";

/** The anonymous visitor id, exactly as the browser makes it (./visitor-id.ts). */
export const visitorIdSchema = z
  .string({ error: "userId is required" })
  .regex(visitorIdPattern, "userId must be an anonymous visitor id (user_ followed by 24 lower-case letters or digits)");

export const sessionIdSchema = z.string().regex(sessionIdPattern, "sessionId must be session_ followed by 24 lower-case letters or digits");

/** A normalised e-mail address: trimmed, lower-case, at most 254 characters. */
export const emailSchema = z
  .string({ error: "email is required" })
  .trim()
  .toLowerCase()
  .max(maxEmailLength, "Please enter a valid email address")
  .pipe(z.email({ error: "Please enter a valid email address" }));

export { activeAlertLimit, favoriteLimit, maxNotesLength, maxTargetPounds } from "./limits.ts";

export const productIdSchema = z
  .number({ error: "productId must be a product id" })
  .int("productId must be a product id")
  .positive("productId must be a product id");

export const notesSchema = z
  .string({ error: "notes must be text" })
  .trim()
  .max(maxNotesLength, `notes must be at most ${maxNotesLength} characters`);

/**
 * A target price in pounds: a number above 0, at most £100,000, with at most two decimals
 * (else 'Please enter a valid price').
 */
export const targetPriceSchema = z
  .number({ error: "Please enter a valid price" })
  .refine((value) => Number.isFinite(value) && value > 0 && value <= maxTargetPounds && Math.abs(Math.round(value * 100) - value * 100) < 1e-6, {
    message: "Please enter a valid price",
  });
