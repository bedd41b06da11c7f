import { z } from "zod";
import { maxNotesLength, maxTargetPounds } from "./limits.ts";

/**
 * The anonymous visitor id: `user_` and 8 to 64 letters, digits, '_' or '-'. The browser makes
 * `user_` + 24 random characters (site/lib/browser/visitor.ts); the server checks every id it is sent.
 */
export const visitorIdPattern = /^user_[A-Za-z0-9_-]{8,64}$/;

export const visitorIdSchema = z
  .string({ error: "userId is required" })
  .regex(visitorIdPattern, "userId must be an anonymous visitor id (user_ followed by 8 to 64 letters or digits)");

export const sessionIdSchema = z.string().regex(/^session_[A-Za-z0-9_-]{8,64}$/, "sessionId must be session_ followed by 8 to 64 letters or digits");

/** A normalised e-mail address: trimmed, lower-case, at most 254 characters. */
export const emailSchema = z
  .string({ error: "email is required" })
  .trim()
  .toLowerCase()
  .max(254, "Please enter a valid email address")
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
 * (SPEC.md section 5: 'Please enter a valid price').
 */
export const targetPriceSchema = z
  .number({ error: "Please enter a valid price" })
  .refine((value) => Number.isFinite(value) && value > 0 && value <= maxTargetPounds && Math.abs(Math.round(value * 100) - value * 100) < 1e-6, {
    message: "Please enter a valid price",
  });
