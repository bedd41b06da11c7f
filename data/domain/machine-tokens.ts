/**
 * Machine tokens: what a program that is not a browser (the nightly workflow) presents to call
 * the server's machine routes, each with the scopes it was given. Pure, no zod: the admin island
 * imports it; the input schema is in machine-tokens.schema.ts.
 */

/** Each scope a token can hold, with what the admin reads beside its checkbox. */
export const machineScopeLabels = {
  "nightly:run": "Start the nightly job and follow its runs",
  "releases:read": "Download the built site",
} as const;
export type MachineScope = keyof typeof machineScopeLabels;
export const machineScopes = Object.keys(machineScopeLabels) as MachineScope[];

/** A token is this prefix and 32 random bytes in base64url (43 characters). */
export const machineTokenPrefix = "ppm_";
export const machineTokenPattern = /^ppm_[A-Za-z0-9_-]{43}$/;
/** How many of a token's first characters are kept to tell tokens apart in the admin. */
export const shownPrefixLength = 12;
export const maxTokenNameLength = 80;

/** A token as the admin sees it: never the token itself, only its first characters. */
export interface MachineTokenView {
  id: number;
  name: string;
  /** The token's first characters (`ppm_` and 8 more). */
  prefix: string;
  scopes: MachineScope[];
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** The answer to creating a token: the token itself, shown this once. */
export type CreatedMachineToken = MachineTokenView & { token: string };
