/**
 * The visitor's pet (species, weight, life stage, activity, neutered, name): what feeding costs
 * are worked out for, on product, category and compare pages. Kept in this browser's local
 * storage only, never sent to the server; read through petProfileSchema, so a damaged or
 * hand-edited value counts as no pet. Components read $petProfile and change it only through
 * savePetProfile / forgetPetProfile.
 */
// First: petProfileSchema must be constructed with Zod jitless (CSP without eval).
import "../../lib/zod-jitless.ts";
import { atom } from "nanostores";
import type { PetProfile } from "../../../data/domain/feeding.ts";
import { petProfileSchema } from "../../../data/domain/feeding.schema.ts";

export const petProfileKey = "pet_profile";

export function readPetProfile(): PetProfile | null {
  try {
    const stored = localStorage.getItem(petProfileKey);
    if (stored === null) return null;
    const parsed = petProfileSchema.safeParse(JSON.parse(stored));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Null until read in the browser (the server render and the first client render agree on null). */
export const $petProfile = atom<PetProfile | null>(null);

let loaded = false;
/** Reads the stored pet once, after hydration (call from an effect). */
export function loadPetProfile(): void {
  if (loaded) return;
  loaded = true;
  $petProfile.set(readPetProfile());
}

/** Validates and stores a pet; returns the schema's issues when it is not valid (nothing stored). */
export function savePetProfile(input: unknown): { ok: true; pet: PetProfile } | { ok: false; issues: { path: string; message: string }[] } {
  const parsed = petProfileSchema.safeParse(input);
  if (!parsed.success) return { ok: false, issues: parsed.error.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message })) };
  try {
    localStorage.setItem(petProfileKey, JSON.stringify(parsed.data));
  } catch {
    // Storage blocked: the pet holds for this page only.
  }
  loaded = true;
  $petProfile.set(parsed.data);
  return { ok: true, pet: parsed.data };
}

export function forgetPetProfile(): void {
  try {
    localStorage.removeItem(petProfileKey);
  } catch {
    // Nothing stored.
  }
  loaded = true;
  $petProfile.set(null);
}
