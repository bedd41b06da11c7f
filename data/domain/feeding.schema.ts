/**
 * The schemas of feeding: a pet profile read from local storage or typed in the pet form, and a
 * food's feeding guide as stored or sent by the admin. The limits they check are in feeding.ts.
 * The pet-profile store bundles this module (with Zod jitless, as the pages' Content Security
 * Policy has no eval); the admin islands import only feeding.ts.
 */
import { z } from "zod";
import {
  activities,
  feedingGuideLimits,
  lifeStages,
  maxPetNameLength,
  maxPetWeightKg,
  minPetWeightKg,
  species,
  youngStage,
  type FeedingGuide,
  type PetProfile,
} from "./feeding.ts";

const gramsText = feedingGuideLimits.maxGramsPerDay.toLocaleString("en-GB");

/**
 * A pet profile as stored in local storage: name 1 to 40 characters after trimming, weight
 * 0.5 to 100 kg for a dog and 0.5 to 15 kg for a cat, and a life stage the species has (no
 * puppy cats, no kitten dogs). Unknown keys are dropped.
 * @example petProfileSchema.safeParse({ name: " Rex ", species: "dog", weightKg: 12, lifeStage: "adult", activity: "normal", neutered: true }).data?.name // "Rex"
 * @example petProfileSchema.safeParse({ name: "Tom", species: "cat", weightKg: 20, lifeStage: "adult", activity: "normal", neutered: false }).success // false
 */
export const petProfileSchema = z
  .object({
    name: z.string().trim().min(1, "Give your pet a name").max(maxPetNameLength, `A name of at most ${maxPetNameLength} characters`),
    species: z.enum(species),
    weightKg: z.number().min(minPetWeightKg, `At least ${minPetWeightKg} kg`).max(maxPetWeightKg.dog, `At most ${maxPetWeightKg.dog} kg`),
    lifeStage: z.enum(lifeStages),
    activity: z.enum(activities),
    neutered: z.boolean(),
  })
  .superRefine((pet, ctx) => {
    if (pet.weightKg > maxPetWeightKg[pet.species]) {
      ctx.addIssue({ code: "custom", path: ["weightKg"], message: `At most ${maxPetWeightKg[pet.species]} kg for a ${pet.species}` });
    }
    const young = pet.lifeStage === "puppy" || pet.lifeStage === "kitten";
    if (young && pet.lifeStage !== youngStage[pet.species]) {
      ctx.addIssue({ code: "custom", path: ["lifeStage"], message: `A ${pet.species} cannot be a ${pet.lifeStage}` });
    }
  }) satisfies z.ZodType<PetProfile>;

/**
 * A feeding guide as stored (products.feeding_guide, JSON) or typed by the admin: 2 to 30 rows,
 * body weights strictly increasing from above 0 to 100 kg, daily grams above 0 and at most 5,000,
 * not falling as weight rises.
 */
export const feedingGuideSchema = z
  .object({
    rows: z
      .array(
        z.object({
          weightKg: z.number().gt(0, "A body weight above 0 kg").max(feedingGuideLimits.maxWeightKg, `A body weight of at most ${feedingGuideLimits.maxWeightKg} kg`),
          gramsPerDay: z.number().gt(0, "Daily grams above 0").max(feedingGuideLimits.maxGramsPerDay, `Daily grams of at most ${gramsText}`),
        }),
      )
      .min(feedingGuideLimits.minRows, "At least two rows")
      .max(feedingGuideLimits.maxRows, `At most ${feedingGuideLimits.maxRows} rows`),
  })
  .superRefine((guide, ctx) => {
    for (let i = 1; i < guide.rows.length; i++) {
      const [before, row] = [guide.rows[i - 1]!, guide.rows[i]!];
      if (row.weightKg <= before.weightKg) ctx.addIssue({ code: "custom", path: ["rows", i, "weightKg"], message: "Body weights must rise row by row" });
      if (row.gramsPerDay < before.gramsPerDay) ctx.addIssue({ code: "custom", path: ["rows", i, "gramsPerDay"], message: "Daily grams must not fall as weight rises" });
    }
  }) satisfies z.ZodType<FeedingGuide>;

/**
 * The stored JSON of a feeding guide, or null when there is none or it does not hold a valid guide
 * (a damaged value is treated as no guide: the energy method still works).
 * @example parseFeedingGuide('{"rows":[{"weightKg":5,"gramsPerDay":95},{"weightKg":10,"gramsPerDay":160}]}')?.rows.length // 2
 * @example parseFeedingGuide("not json") // null
 */
export function parseFeedingGuide(json: string | null | undefined): FeedingGuide | null {
  if (!json) return null;
  try {
    const parsed = feedingGuideSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
