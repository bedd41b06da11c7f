/**
 * What feeding a pet costs: how many grams of a food it eats a day (from the food's feeding
 * guide, else from its energy density and the pet's FEDIAF energy requirement), and what that
 * costs a day and a month at a pack's price, and the limits of a pet profile and of a food's
 * facts. Pure, no zod: the islands and the admin form import it; the schemas that check a pet
 * profile and a feeding guide are in feeding.schema.ts.
 */
import type { Pence } from "./money.ts";

export const species = ["dog", "cat"] as const;
export const lifeStages = ["puppy", "kitten", "adult", "senior"] as const;
export const activities = ["less-active", "normal", "active"] as const;

export type Species = (typeof species)[number];
/** Puppy only for dogs, kitten only for cats. */
export type LifeStage = (typeof lifeStages)[number];
export type Activity = (typeof activities)[number];

/** A pet's name: 1 to 40 characters after trimming. */
export const maxPetNameLength = 40;
/** The lightest pet, in kg, of either species. */
export const minPetWeightKg = 0.5;
/** The heaviest pet, in kg, by species. */
export const maxPetWeightKg: Readonly<Record<Species, number>> = { dog: 100, cat: 15 };
/** The life stage of a young pet: puppy for dogs, kitten for cats. */
export const youngStage: Readonly<Record<Species, LifeStage>> = { dog: "puppy", cat: "kitten" };

/**
 * A pet profile as stored in local storage (checked by `petProfileSchema`): name 1 to 40
 * characters after trimming, weight 0.5 to 100 kg for a dog and 0.5 to 15 kg for a cat, and a
 * life stage the species has (no puppy cats, no kitten dogs).
 */
export interface PetProfile {
  name: string;
  species: Species;
  weightKg: number;
  lifeStage: LifeStage;
  activity: Activity;
  neutered: boolean;
}
/** What the arithmetic needs of a pet: everything but its name. */
export type PetBody = Omit<PetProfile, "name">;

/** A food's stored feeding guide: daily grams by body weight, rows sorted by weight (manufacturer tables). */
export interface FeedingGuide {
  rows: readonly { weightKg: number; gramsPerDay: number }[];
}

/**
 * The bounds of a feeding guide as stored (products.feeding_guide, JSON) or typed by the admin:
 * 2 to 30 rows, body weights strictly increasing from above 0 to 100 kg, daily grams above 0 and
 * at most 5,000, not falling as weight rises.
 */
export const feedingGuideLimits = { minRows: 2, maxRows: 30, maxWeightKg: 100, maxGramsPerDay: 5000 } as const;

/**
 * A food's energy as fed, in whole kcal per kg: 100 to 9,000 (wet food is about 800, dry about
 * 3,500-4,500, pure fat 9,000).
 */
export const minKcalPerKg = 100;
export const maxKcalPerKg = 9000;

/** What a food tells us about how much to feed: its energy density and its feeding guide, when known. */
export interface FoodFacts {
  kcalPerKg: number | null;
  guide: FeedingGuide | null;
}

/** Body weight is raised to this power for energy need (metabolic body weight), as FEDIAF does. */
const metabolicExponent: Readonly<Record<Species, number>> = { dog: 0.75, cat: 0.67 };

/** FEDIAF adult maintenance, kcal per kg of metabolic body weight, by activity. */
const adultFactor: Readonly<Record<Species, Readonly<Record<Activity, number>>>> = {
  dog: { "less-active": 95, normal: 110, active: 130 },
  cat: { "less-active": 75, normal: 100, active: 100 },
};

/** Neutering lowers the energy need by one activity step. */
const neuteredActivity: Readonly<Record<Activity, Activity>> = { active: "normal", normal: "less-active", "less-active": "less-active" };

/** Growth doubles a normal adult's need: FEDIAF's figure for a puppy under half its adult weight (about 4 months), and for most of a kitten's growth. */
const growthMultiplier = 2;
/** Older dogs need about a tenth less than adults of the same activity; older cats do not need less. */
const seniorMultiplier: Readonly<Record<Species, number>> = { dog: 0.9, cat: 1 };

/** kcal per kg of metabolic body weight for this pet's species, life stage, activity and neutering. */
function energyFactor(pet: PetBody): number {
  if (pet.lifeStage === "puppy" || pet.lifeStage === "kitten") return growthMultiplier * adultFactor[pet.species].normal;
  const activity = pet.neutered ? neuteredActivity[pet.activity] : pet.activity;
  const adult = adultFactor[pet.species][activity];
  return pet.lifeStage === "senior" ? adult * seniorMultiplier[pet.species] : adult;
}

/**
 * A pet's daily energy need in kcal, unrounded, after FEDIAF: factor × kg^0.75 for dogs and
 * factor × kg^0.67 for cats, where the factor is
 * - adult dog: 95 less active, 110 normal, 130 active;
 * - adult cat: 75 less active, 100 normal or active;
 * - neutered adult or senior: one activity step lower (active counts as normal, normal as less
 *   active), so a neutered normal cat gets the indoor/neutered 75 and a neutered normal dog 95;
 * - senior dog: 0.9 × the adult factor for its activity; senior cat: the adult factor;
 * - puppy or kitten: 2 × the normal adult factor (220 dog, 200 cat) at its current weight,
 *   whatever its activity and neutering. Age is not stored, so this is the young puppy's figure
 *   all through growth; an older puppy needs less (1.6 ×, then 1.2 × near adult weight).
 * @example maintenanceEnergyKcal({ species: "dog", weightKg: 10, lifeStage: "adult", activity: "normal", neutered: false }) // 618.575… (110 × 10^0.75)
 * @example maintenanceEnergyKcal({ species: "cat", weightKg: 4, lifeStage: "adult", activity: "normal", neutered: true }) // 189.863… (75 × 4^0.67)
 */
export function maintenanceEnergyKcal(pet: PetBody): number {
  return energyFactor(pet) * pet.weightKg ** metabolicExponent[pet.species];
}

export type DailyGrams =
  | {
      method: "guide";
      /** Whole grams a day. */
      grams: number;
      pet: PetBody;
      /** The pet's energy need over a normal adult's of the same species and weight: the guide's grams are multiplied by it. */
      scale: number;
    }
  | {
      method: "energy";
      /** Whole grams a day. */
      grams: number;
      pet: PetBody;
      /** Unrounded, from `maintenanceEnergyKcal`. */
      kcalPerDay: number;
      kcalPerKg: number;
    };

/**
 * Grams of the guide a normal adult of `weightKg` gets: the row's figure on a row; between two
 * rows, the straight line between them; outside the table, the nearest end row scaled by
 * metabolic weight ((weight ÷ row weight)^0.75 for dogs, ^0.67 for cats), since a straight line
 * past the end of the table would run to nothing or to too much.
 */
function guideGrams(rows: readonly { weightKg: number; gramsPerDay: number }[], weightKg: number, exponent: number): number {
  const first = rows[0]!;
  const last = rows[rows.length - 1]!;
  if (weightKg < first.weightKg) return first.gramsPerDay * (weightKg / first.weightKg) ** exponent;
  if (weightKg > last.weightKg) return last.gramsPerDay * (weightKg / last.weightKg) ** exponent;
  for (let index = 0; index + 1 < rows.length; index++) {
    const row = rows[index]!;
    const next = rows[index + 1]!;
    // On a row the line gives the row's own grams.
    if (weightKg < next.weightKg) {
      return row.gramsPerDay + ((next.gramsPerDay - row.gramsPerDay) * (weightKg - row.weightKg)) / (next.weightKg - row.weightKg);
    }
  }
  return last.gramsPerDay;
}

/**
 * How many whole grams of a food the pet eats a day. The food's feeding guide wins when it has a
 * usable row (positive weight, non-negative grams): the row's grams on a row, a straight line
 * between rows, and past either end the end row scaled by metabolic weight. The guide is printed
 * for a normal adult, so that figure is multiplied by the pet's energy need over a normal adult's
 * at the same weight (2 for a puppy, 95/110 for a neutered normal dog, 0.9 for a senior dog).
 * Otherwise the energy method: kcal a day ÷ kcal per kg × 1000. Null when the food has neither.
 * @example dailyGrams(tenKgAdultDog, { kcalPerKg: 3800, guide: null }) // { method: "energy", grams: 163, … } (618.58 ÷ 3800 × 1000)
 * @example dailyGrams(sevenAndAHalfKgAdultDog, { kcalPerKg: null, guide: { rows: [{ weightKg: 5, gramsPerDay: 100 }, { weightKg: 10, gramsPerDay: 170 }] } }).grams // 135
 */
export function dailyGrams(pet: PetBody, food: FoodFacts): DailyGrams | null {
  const rows = (food.guide?.rows ?? [])
    .filter((row) => Number.isFinite(row.weightKg) && row.weightKg > 0 && Number.isFinite(row.gramsPerDay) && row.gramsPerDay >= 0)
    .toSorted((a, b) => a.weightKg - b.weightKg);
  if (rows.length > 0) {
    const scale = energyFactor(pet) / adultFactor[pet.species].normal;
    const grams = Math.round(guideGrams(rows, pet.weightKg, metabolicExponent[pet.species]) * scale);
    return { method: "guide", grams, pet, scale };
  }
  const kcalPerKg = food.kcalPerKg;
  if (kcalPerKg === null || !Number.isFinite(kcalPerKg) || kcalPerKg <= 0) return null;
  const kcalPerDay = maintenanceEnergyKcal(pet);
  return { method: "energy", grams: Math.round((kcalPerDay / kcalPerKg) * 1000), pet, kcalPerDay, kcalPerKg };
}

/** Days in an average month, 365.25 ÷ 12, as the fraction 1461/48. */
const monthDaysNumerator = 1461;
const monthDaysDenominator = 48;

export interface FeedingCost {
  /** Whole pence a day, rounded half up. */
  perDayPence: Pence;
  /** Whole pence for an average month (30.4375 days), from the unrounded daily cost, rounded half up once. */
  perMonthPence: Pence;
  /** How long one pack lasts, rounded down to a tenth of a day so it is never overstated. */
  daysPerPack: number;
}

/**
 * The cost of feeding `grams` a day from a pack of `packGrams` costing `totalPence`: a day is
 * totalPence × grams ÷ packGrams; a month is the unrounded day × 365.25 ÷ 12, rounded once;
 * both round half up, computed on integers (grams to a hundredth) so the rounding is exact.
 * Null when grams or the pack are not positive or the price is not whole, non-negative pence.
 * @example feedingCost({ grams: 163, packGrams: 12000, totalPence: 6499 }) // { perDayPence: 88, perMonthPence: 2687, daysPerPack: 73.6 }
 */
export function feedingCost(input: { grams: number; packGrams: number; totalPence: Pence }): FeedingCost | null {
  const gramsHundredths = Math.round(input.grams * 100);
  const packHundredths = Math.round(input.packGrams * 100);
  if (!(gramsHundredths > 0) || !(packHundredths > 0) || !Number.isSafeInteger(input.totalPence) || input.totalPence < 0) return null;
  const dayNumerator = input.totalPence * gramsHundredths;
  const monthNumerator = dayNumerator * monthDaysNumerator;
  const monthDenominator = packHundredths * monthDaysDenominator;
  if (!Number.isSafeInteger(2 * monthNumerator + monthDenominator)) return null;
  return {
    perDayPence: divideRoundingHalfUp(dayNumerator, packHundredths),
    perMonthPence: divideRoundingHalfUp(monthNumerator, monthDenominator),
    daysPerPack: Math.floor((packHundredths * 10) / gramsHundredths) / 10,
  };
}

/** numerator / denominator for non-negative integers, a half rounded up, without float error. */
function divideRoundingHalfUp(numerator: number, denominator: number): number {
  const doubled = 2 * numerator + denominator;
  return (doubled - (doubled % (2 * denominator))) / (2 * denominator);
}

/** One way to buy the food: a pack size at a retailer. */
export interface FeedingOption {
  key: string;
  packGrams: number;
  /** Price to the door for one unit, delivery included. */
  totalPence: Pence;
  /** The same to the door on repeat delivery, when the retailer offers it. */
  repeatTotalPence?: Pence | null;
}

export interface CheapestFeeding extends FeedingCost {
  option: FeedingOption;
  /** Whether the figures use the repeat-delivery price. */
  repeat: boolean;
  /** The price the figures use: `option.totalPence`, or its repeat price when `repeat`. */
  totalPence: Pence;
  daily: DailyGrams;
}

/**
 * The cheapest way to feed the pet this food for a month: the option, and its one-off or
 * repeat-delivery price, with the lowest price per gram (so the lowest monthly cost, compared
 * before rounding). Ties go to the smaller pack (less money up front), then the key that sorts
 * first, then the one-off price over repeat delivery (no subscription). Options whose cost
 * cannot be worked out are skipped; null when none is left or the daily grams are unknown.
 * @example cheapestWayToFeed(tenKgAdultDog, { kcalPerKg: 3800, guide: null }, [{ key: "2kg", packGrams: 2000, totalPence: 1499 }, { key: "12kg", packGrams: 12000, totalPence: 6499 }])?.option.key // "12kg"
 */
export function cheapestWayToFeed(pet: PetBody, food: FoodFacts, options: readonly FeedingOption[]): CheapestFeeding | null {
  const daily = dailyGrams(pet, food);
  if (daily === null) return null;
  let best: CheapestFeeding | null = null;
  for (const option of options) {
    const prices: [Pence, boolean][] = [[option.totalPence, false]];
    if (option.repeatTotalPence !== undefined && option.repeatTotalPence !== null) prices.push([option.repeatTotalPence, true]);
    for (const [totalPence, repeat] of prices) {
      const cost = feedingCost({ grams: daily.grams, packGrams: option.packGrams, totalPence });
      if (cost === null) continue;
      const candidate: CheapestFeeding = { ...cost, option, repeat, totalPence, daily };
      if (best === null || cheaper(candidate, best)) best = candidate;
    }
  }
  return best;
}

function cheaper(a: CheapestFeeding, b: CheapestFeeding): boolean {
  // Price per gram, a.total / a.pack against b.total / b.pack, cross-multiplied.
  const difference = a.totalPence * b.option.packGrams - b.totalPence * a.option.packGrams;
  if (difference !== 0) return difference < 0;
  if (a.option.packGrams !== b.option.packGrams) return a.option.packGrams < b.option.packGrams;
  if (a.option.key !== b.option.key) return a.option.key < b.option.key;
  return !a.repeat && b.repeat;
}

const groupThousands = (value: number) => String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
/** Weight as typed, to at most two decimals: "12", "7.5", "0.75". */
const formatKg = (weightKg: number) => `${Math.round(weightKg * 100) / 100} kg`;
/**
 * The text with "a" or "an" before it, by how it is read aloud: "an 8 kg dog", "an 11 kg dog",
 * "an adult dog", but "a 10 kg dog", "a 110 kg dog".
 */
const withArticle = (text: string) => `${/^(?:8|1[18](?!\d)|[aeiou])/i.test(text) ? "an" : "a"} ${text}`;
const activityText: Readonly<Record<Activity, string>> = { "less-active": "less active", normal: "normal activity", active: "active" };

/** "puppy", "kitten", or e.g. "neutered adult dog, normal activity" / "senior cat, less active". */
function profileText(pet: PetBody): string {
  if (pet.lifeStage === "puppy" || pet.lifeStage === "kitten") return pet.lifeStage;
  return `${pet.neutered ? "neutered " : ""}${pet.lifeStage} ${pet.species}, ${activityText[pet.activity]}`;
}

/**
 * The line shown under a feeding figure, saying where it came from. From the guide: "Based on
 * the feeding guide for a {weight} {species}", plus ", adjusted to {scale}% for a {profile}" when
 * the pet's need differs from a normal adult's ("a" is "an" where read so). From energy:
 * "Estimated from energy: {kcal} kcal a day (FEDIAF maintenance for a {weight} {profile}) and
 * {kcal} kcal per kg of food", with "FEDIAF growth" for puppies and kittens; kcal in whole
 * numbers with thousands commas.
 * @example describeMethod(dailyGrams(twelveKgAdultDog, guideFood)!) // "Based on the feeding guide for a 12 kg dog"
 * @example describeMethod(dailyGrams(tenKgAdultDog, { kcalPerKg: 3800, guide: null })!) // "Estimated from energy: 619 kcal a day (FEDIAF maintenance for a 10 kg adult dog, normal activity) and 3,800 kcal per kg of food"
 */
export function describeMethod(result: DailyGrams): string {
  const { pet } = result;
  if (result.method === "guide") {
    const base = `Based on the feeding guide for ${withArticle(`${formatKg(pet.weightKg)} ${pet.species}`)}`;
    return result.scale === 1 ? base : `${base}, adjusted to ${Math.round(result.scale * 100)}% for ${withArticle(profileText(pet))}`;
  }
  const young = pet.lifeStage === "puppy" || pet.lifeStage === "kitten";
  return (
    `Estimated from energy: ${groupThousands(Math.round(result.kcalPerDay))} kcal a day ` +
    `(FEDIAF ${young ? "growth" : "maintenance"} for ${withArticle(`${formatKg(pet.weightKg)} ${profileText(pet)}`)}) ` +
    `and ${groupThousands(Math.round(result.kcalPerKg))} kcal per kg of food`
  );
}

/**
 * What feeding `grams` a day costs, in whole pence, from a pack of `packGrams` at `totalPence` to
 * the door: the grams times the price per gram, rounded half up (feedingCost). Null when the
 * grams, the pack or the price are not known, or the cost cannot be worked out. The one place a
 * cost per day is put together: the cost-per-day sort, the card's "a day" figure, the compare page.
 * @example dailyCostFor(163, 12000, 6499) // 88
 */
export function dailyCostFor(grams: number | null, packGrams: number | null, totalPence: Pence | null): Pence | null {
  if (grams === null || packGrams === null || totalPence === null) return null;
  return feedingCost({ grams, packGrams, totalPence })?.perDayPence ?? null;
}

/**
 * What feeding the pet this food costs a day, in whole pence, at one pack's price to the door:
 * its daily grams (dailyGrams) costed by dailyCostFor. Null when the daily grams, the pack or
 * the price are not known.
 * @example costPerDayPence(tenKgAdultDog, { kcalPerKg: 3800, guide: null }, 12000, 4599) // 62 (163 g × 4599p ÷ 12000 g = 62.47p)
 */
export function costPerDayPence(pet: PetBody, food: FoodFacts, packGrams: number | null, totalPence: Pence | null): Pence | null {
  if (packGrams === null || totalPence === null) return null;
  return dailyCostFor(dailyGrams(pet, food)?.grams ?? null, packGrams, totalPence);
}
