/**
 * The key of a data-rights request as the admin sends it: exactly one of an e-mail address
 * (trimmed, lower case, at most 254 characters) or an anonymous visitor id, nothing else.
 */
import { z } from "zod";
import { emailSchema, visitorIdSchema } from "./visitor.ts";

export type PrivacyKey = { kind: "email"; email: string } | { kind: "visitor"; userId: string };

export const privacyKeySchema = z
  .object({ email: emailSchema.optional(), userId: visitorIdSchema.optional() })
  .strict()
  .refine((key) => key.email !== undefined || key.userId !== undefined, { message: "Give an e-mail address (email) or a visitor id (userId)" })
  .refine((key) => key.email === undefined || key.userId === undefined, { message: "Give an e-mail address or a visitor id, not both" })
  .transform((key): PrivacyKey => (key.email !== undefined ? { kind: "email", email: key.email } : { kind: "visitor", userId: key.userId! }));
