/**
 * What the admin may send to create a machine token, checked once at the API's edge: a name of
 * 1 to 80 characters and at least one known scope (each once).
 */
import { z } from "zod";
import { machineScopes, maxTokenNameLength, type MachineScope } from "./machine-tokens.ts";

const scopesMessage = `scopes must be a list of one or more of ${machineScopes.join(", ")}`;

export const machineTokenInput = z
  .object({
    name: z
      .string({ error: "name is required" })
      .trim()
      .min(1, "name is required")
      .max(maxTokenNameLength, `name must be at most ${maxTokenNameLength} characters`),
    scopes: z
      .array(z.enum(machineScopes as [MachineScope, ...MachineScope[]], { error: scopesMessage }), { error: scopesMessage })
      .min(1, scopesMessage)
      .refine((scopes) => new Set(scopes).size === scopes.length, "scopes must name each scope once"),
  })
  .strict();
export type MachineTokenInput = z.infer<typeof machineTokenInput>;
