/**
 * Deterministic demo catalogue: turns the brand and product-line table of catalogue-data.ts
 * into products with retailer offers, price history, vouchers and affiliate IDs.
 *
 * Pure (no I/O, no clock): the same options always give the same catalogue, so a re-seed
 * keeps product slugs (and with them the visitors' favourites and alerts). Product k depends
 * only on the seed and k, never on the requested count, so a smaller catalogue is a prefix of
 * a larger one apart from the count-dependent rank, featured flags and review counts.
 */
import type { AffiliateIds, Voucher } from "../domain/catalogue.ts";
import type { DeliveryRule } from "../domain/delivery.ts";
import { packshotPath } from "../domain/paths.ts";
import { mulberry32 } from "../domain/seeded-random.ts";
import { slugify } from "../domain/slug.ts";
import { parsePackQuantity } from "../domain/pack-size.ts";
import {
  categorySeeds,
  comparisonRetailerNames,
  defaultAffiliateIds,
  productLineSeeds,
  retailerSeeds,
  voucherSeeds,
  type ComparisonRetailerName,
  type PackVariant,
  type ProductLineSeed,
} from "./catalogue-data.ts";

/** Products seeded when no count is given (scripts/seed.ts, first server start). */
export const defaultProductCount = 480;
/** How many products carry the featured flag. */
export const featuredProductCount = 12;

export interface CatalogueOptions {
  products: number;
  /** "Now" for price history and voucher expiry; passed in so the output is reproducible. */
  today: Date;
  seed?: number;
}

export interface GeneratedCategory {
  name: string;
  slug: string;
  icon: string;
}

export interface GeneratedRetailer {
  /** Stable identity (`pets-at-home`). */
  key: string;
  name: string;
  logo: string;
  website: string;
  comparesPrices: boolean;
  delivery: DeliveryRule;
}

export interface GeneratedOffer {
  retailerName: string;
  pricePence: number;
  /** The retailer's was-price, only ever above pricePence. */
  originalPricePence: number | null;
  url: string;
  inStock: boolean;
  /** Delivered free whatever the basket (Prime-style listings, free postage); else the retailer's rule applies. */
  freeDelivery: boolean;
  /** Postage the listing itself states (marketplace sellers); null: the retailer's rule applies. */
  deliveryPence: number | null;
  /** The item price on the retailer's repeat-delivery scheme (consumables only); null: none. */
  repeatPricePence: number | null;
  /** That scheme's terms; null when there is no repeat price. */
  repeatTerms: string | null;
  /** The retailer's multi-buy on it ("3 for 2"); null: none. */
  multiBuy: string | null;
  /** What members of memberScheme pay; null: none. */
  memberPricePence: number | null;
  memberScheme: string | null;
}

export interface GeneratedPricePoint {
  retailerName: string;
  pricePence: number;
  /** ISO-8601 UTC; per retailer strictly increasing, the last one is the current price. */
  recordedAt: string;
}

export interface GeneratedProduct {
  slug: string;
  name: string;
  brand: string;
  categorySlug: string;
  description: string;
  image: string;
  rating: number;
  reviewCount: number;
  /** 1..N, unique; 1 is the best seller. */
  rank: number;
  isFeatured: boolean;
  offers: GeneratedOffer[];
  history: GeneratedPricePoint[];
  /**
   * The sizes of one product share it: brand + line + recipe without the size (and a repeat's
   * number, since each repeat of the catalogue is a product of its own); multipacks included.
   */
  familyKey: string;
  /** A complete food's energy density (kcal per kg); null for everything else. */
  kcalPerKg: number | null;
  /** A complete food's feeding guide (daily grams by body weight for a normal adult); null when the pack has none by weight. */
  feedingGuide: { rows: { weightKg: number; gramsPerDay: number }[] } | null;
}

/** A voucher as the seed writes it: the stored fields, before the database gives it an id. */
export type GeneratedVoucher = Omit<Voucher, "id" | "isValid">;

export interface GeneratedCatalogue {
  categories: GeneratedCategory[];
  retailers: GeneratedRetailer[];
  products: GeneratedProduct[];
  vouchers: GeneratedVoucher[];
  affiliateIds: AffiliateIds;
}

const defaultSeed = 20_240_601;
const minuteMs = 60_000;
const dayMs = 86_400_000;

/** Multipack sizes used once the natural brand x line x recipe x pack combinations run out. */
const multipackFactors = [2, 3, 4, 6] as const;
/** Per-unit discount a multipack gets over single packs. */
const multipackDiscount: Record<number, number> = { 2: 0.97, 3: 0.95, 4: 0.93, 6: 0.9 };
/** Consumables, the only things sensibly sold as multipacks (no "pack of 2" kennels). */
const multipackCategories = new Set([
  "dog-food",
  "cat-food",
  "dog-treats",
  "cat-litter",
  "pet-health",
  "health-supplements",
  "small-animal",
  "bird-food",
]);
/** Small, stable price differences between recipes of one line (salmon costs a little more). */
const flavourPriceSteps = [0, 0.02, -0.01, 0.03] as const;

/**
 * Retailer pricing habits: typical offset from the base price and how often a listing is
 * delivered free whatever the basket (below the retailer's free-delivery threshold, which is
 * the retailer's delivery rule in catalogue-data.ts). A retailer with `postage` has no rule: its
 * listings state their own postage, picked from these amounts when not free.
 */
interface RetailerProfile {
  priceBias: number;
  freeDeliveryChance: number;
  postage?: readonly number[];
}

const retailerProfiles: Record<ComparisonRetailerName, RetailerProfile> = {
  Amazon: { priceBias: -0.02, freeDeliveryChance: 0.35 },
  "Pets at Home": { priceBias: 0.04, freeDeliveryChance: 0.05 },
  Jollyes: { priceBias: 0.01, freeDeliveryChance: 0 },
  Zooplus: { priceBias: -0.03, freeDeliveryChance: 0 },
  eBay: { priceBias: -0.04, freeDeliveryChance: 0.65, postage: [249, 299, 349, 399, 495] },
};

/**
 * Repeat-delivery schemes, for consumables (the categories sold as multipacks): the share off
 * the one-off item price and the scheme's terms as the retailer states them. zooplus says "up to
 * 5%"; the seed uses the full 5%.
 */
const repeatSchemes: Partial<Record<ComparisonRetailerName, { discount: number; terms: string }>> = {
  Amazon: { discount: 0.05, terms: "Subscribe & Save: 5% off, up to 15% with 5 or more subscriptions in one monthly delivery; skip or cancel any time" },
  Zooplus: { discount: 0.05, terms: "zooplus Repeat: up to 5% off every repeat order; change the date or cancel any time" },
  "Pets at Home": { discount: 0.05, terms: "Easy Repeat: 5% off food and consumables delivered on your schedule; change or cancel any time" },
};

/** Offer count per product: mostly 3 or 4 of the 5 retailers. */
const offerCountWeights: readonly (readonly [number, number])[] = [
  [2, 0.2],
  [3, 0.35],
  [4, 0.3],
  [5, 0.15],
];

interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  uniform(min: number, max: number): number;
  chance(probability: number): boolean;
  /** Approximately standard normal (sum of uniforms), enough for popularity noise. */
  normal(): number;
}

/** A seeded Random over mulberry32: the same demo catalogue on every platform. */
function createRandom(seed: number): Random {
  const next = mulberry32(seed);
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    uniform: (min, max) => min + next() * (max - min),
    chance: (probability) => next() < probability,
    normal: () => next() + next() + next() + next() + next() + next() - 3,
  };
}

/** Mixes two integers into one 32-bit seed, so each product gets its own independent stream. */
function mixSeed(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x7f4a7c15, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function shuffle<T>(random: Random, items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = random.int(0, i);
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

function at<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new RangeError(`index ${index} outside 0..${items.length - 1}`);
  return item;
}

/**
 * Rounds a raw price to a shelf price: 29p..99p in 10p steps below £1, else ending in 9p,
 * and for larger items often £x.99.
 */
function shelfPrice(random: Random, rawPence: number): number {
  if (rawPence < 100) return Math.max(29, Math.round(rawPence / 10) * 10 - 1);
  if (rawPence >= 2000 && random.chance(0.45)) return Math.round(rawPence / 100) * 100 - 1;
  return Math.round(rawPence / 10) * 10 - 1;
}

function digits(random: Random, count: number): string {
  let text = "";
  for (let i = 0; i < count; i++) text += String(random.int(0, 9));
  return text;
}

const asinAlphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** A retailer product URL in the shape that retailer really uses. */
function offerUrl(random: Random, retailerName: ComparisonRetailerName, slug: string, zooplusSection: string): string {
  switch (retailerName) {
    case "Amazon": {
      let asin = "B0";
      for (let i = 0; i < 8; i++) asin += asinAlphabet[random.int(0, asinAlphabet.length - 1)];
      return `https://www.amazon.co.uk/dp/${asin}`;
    }
    case "Pets at Home":
      return `https://www.petsathome.com/product/${slug}/P${random.int(1, 9)}${digits(random, random.int(4, 5))}`;
    case "Jollyes":
      return `https://www.jollyes.co.uk/${slug}.html`;
    case "Zooplus":
      return `https://www.zooplus.co.uk/shop/${zooplusSection}/${slug}/${random.int(1, 9)}${digits(random, 5)}`;
    case "eBay":
      return `https://www.ebay.co.uk/itm/${random.int(1, 3)}${digits(random, 11)}`;
  }
}

/** One natural product: a line, one of its recipes (or none) and one pack size. */
interface BaseCombo {
  line: ProductLineSeed;
  flavour: string;
  flavourIndex: number;
  variant: PackVariant;
}

/** A base combo possibly sold as a multipack: the unit a product is made from. */
interface Listing {
  combo: BaseCombo;
  packOf: number;
}

/**
 * All listings before any numeric suffix is needed: first every natural combination, taken
 * round-robin over the (shuffled) lines so even a small catalogue covers every brand and
 * category, then the multipacks of consumables in the same order.
 */
function buildListings(seed: number): Listing[] {
  const random = createRandom(mixSeed(seed, 0x11_57));
  const perLine = productLineSeeds.map((line) => {
    const flavours = line.flavours && line.flavours.length > 0 ? line.flavours : [""];
    const combos: BaseCombo[] = [];
    flavours.forEach((flavour, flavourIndex) => {
      for (const variant of line.variants) combos.push({ line, flavour, flavourIndex, variant });
    });
    return shuffle(random, combos);
  });
  const lineOrder = shuffle(
    random,
    perLine.map((_, index) => index),
  );
  const rounds = Math.max(...perLine.map((combos) => combos.length));
  const natural: BaseCombo[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const lineIndex of lineOrder) {
      const combo = at(perLine, lineIndex)[round];
      if (combo) natural.push(combo);
    }
  }
  const listings: Listing[] = natural.map((combo) => ({ combo, packOf: 1 }));
  for (const packOf of multipackFactors) {
    for (const combo of natural) {
      if (multipackCategories.has(combo.line.categorySlug)) listings.push({ combo, packOf });
    }
  }
  return listings;
}

const categoryBySlug = new Map(categorySeeds.map((category) => [category.slug, category]));

/** Lower-cases the first letter unless the word is an acronym ("OPTIBALANCE" stays). */
function lowerFirst(text: string): string {
  const [first = "", second = ""] = text;
  return second !== "" && second === second.toUpperCase() && /[A-Z]/.test(second) ? text : first.toLowerCase() + text.slice(1);
}

/** "a 8kg bag" -> "an 8kg bag": numbers read as eight..., eleven or eighteen take "an". */
const anBeforeNumber = /\ba (?=8|1[18](?!\d))/g;

function describe(listing: Listing): string {
  const { line, flavour, variant } = listing.combo;
  const about = line.about
    .replaceAll("{pack}", variant.pack)
    .replaceAll("{flavour}", flavour.toLowerCase())
    .replace(anBeforeNumber, "an ");
  const multipack = listing.packOf > 1 ? ` Sold as a multipack of ${listing.packOf}.` : "";
  return `${line.brand} ${line.line}: ${lowerFirst(about)}${multipack}`;
}

/**
 * A multipack's size as a name states it, so it reads as a size of its single pack's product:
 * "12kg" x 2 -> "2 x 12kg", "12 x 400g" x 2 -> "24 x 400g"; where that would not read as the
 * multiplied quantity ("Large"), "Large (Pack of 2)".
 * @example multipackSize("12kg", 2) // "2 x 12kg"
 */
export function multipackSize(pack: string, packOf: number): string {
  const single = parsePackQuantity(pack);
  const nested = /^(\d+) x (.+)$/.exec(pack);
  const size = nested ? `${Number(nested[1]) * packOf} x ${nested[2]}` : `${packOf} x ${pack}`;
  const sized = parsePackQuantity(size);
  return single !== null && sized !== null && sized.unit === single.unit && Math.abs(sized.amount - single.amount * packOf) < 1e-6
    ? size
    : `${pack} (Pack of ${packOf})`;
}

function pickOfferCount(random: Random): number {
  let roll = random.next();
  for (const [count, weight] of offerCountWeights) {
    if (roll < weight) return count;
    roll -= weight;
  }
  return 3;
}

function rating(random: Random): number {
  const roll = random.next();
  let value: number;
  if (roll < 0.08) value = random.uniform(3.0, 3.8);
  else if (roll < 0.12) value = random.uniform(4.85, 5.0);
  else value = 3.8 + 1.1 * ((random.next() + random.next()) / 2);
  return Math.min(5, Math.max(0, Math.round(value * 10) / 10));
}

/**
 * Price-change points of one offer over the last 6 to 17 weeks: 2 to 7 points on distinct days,
 * strictly increasing in time, each a few percent from the current price and different from the
 * point after it; the last one is the current price, recorded in the past week. One offer in four
 * (those whose history starts on a day divisible by 4, so no extra draw) was about 12% dearer
 * before that recent price: a cut the deal facts can see (a typical price above today's, a
 * was-price held for weeks). A history starting over 90 days ago covers the whole window.
 */
function priceHistory(random: Random, retailerName: string, currentPence: number, todayMs: number): GeneratedPricePoint[] {
  const count = random.int(2, 7);
  const oldestDay = random.int(42, 120);
  const recentCut = oldestDay % 4 === 0 ? 0.12 : 0;
  const newestDay = random.int(0, 6);
  const days = new Set<number>([oldestDay, newestDay]);
  while (days.size < count) days.add(random.int(newestDay + 1, oldestDay - 1));
  const daysAgo = [...days].sort((a, b) => b - a);

  const prices = new Array<number>(count);
  prices[count - 1] = currentPence;
  for (let i = count - 2; i >= 0; i--) {
    const later = prices[i + 1] as number;
    let price = shelfPrice(random, currentPence * (1 + recentCut + random.uniform(-0.06, 0.08)));
    if (price === later) price = later + (later > 100 && random.chance(0.5) ? -50 : 50);
    prices[i] = price;
  }
  // A point `day` days ago lies on that UTC day (the day deal facts count it on), up to 12 hours
  // before today's clock time: so a catalogue made just after midnight still has today's prices
  // recorded today, and distinct days never overlap.
  const latestOffset = Math.min(720, Math.floor((todayMs % dayMs) / minuteMs));
  return daysAgo.map((day, i) => {
    const time = Math.floor((todayMs - day * dayMs - random.int(0, latestOffset) * minuteMs) / minuteMs) * minuteMs;
    return { retailerName, pricePence: prices[i] as number, recordedAt: new Date(time).toISOString() };
  });
}

function offersFor(
  random: Random,
  basePence: number,
  slug: string,
  zooplusSection: string,
  todayMs: number,
  consumable: boolean,
): { offers: GeneratedOffer[]; history: GeneratedPricePoint[] } {
  const chosen = new Set(shuffle(random, comparisonRetailerNames).slice(0, pickOfferCount(random)));
  const offers: GeneratedOffer[] = [];
  const history: GeneratedPricePoint[] = [];
  for (const retailerName of comparisonRetailerNames) {
    if (!chosen.has(retailerName)) continue;
    const profile = retailerProfiles[retailerName];
    const spread = Math.min(0.15, Math.max(-0.12, profile.priceBias + random.uniform(-0.1, 0.1)));
    const pricePence = shelfPrice(random, basePence * (1 + spread));
    const originalPricePence = random.chance(0.3) ? Math.max(pricePence + 50, shelfPrice(random, pricePence * random.uniform(1.08, 1.35))) : null;
    const inStock = random.chance(0.92);
    const free = random.chance(profile.freeDeliveryChance);
    const postage = profile.postage;
    offers.push({
      retailerName,
      pricePence,
      originalPricePence,
      url: offerUrl(random, retailerName, slug, zooplusSection),
      inStock,
      // A listing with its own postage states it (0 when free); the others follow the retailer's rule.
      freeDelivery: free,
      deliveryPence: postage === undefined ? null : free ? 0 : postage[random.int(0, postage.length - 1)]!,
      // Worked out from the price, drawing no random number: the rest of the catalogue is unchanged by it.
      ...repeatOf(retailerName, pricePence, consumable),
      multiBuy: multiBuyOf(retailerName, pricePence, consumable),
      ...memberPriceOf(retailerName, pricePence, consumable),
    });
    history.push(...priceHistory(random, retailerName, pricePence, todayMs));
  }
  return { offers, history };
}

/** A consumable's repeat-delivery price and terms at a retailer with a scheme. */
function repeatOf(retailerName: ComparisonRetailerName, pricePence: number, consumable: boolean): Pick<GeneratedOffer, "repeatPricePence" | "repeatTerms"> {
  const scheme = repeatSchemes[retailerName];
  if (!consumable || scheme === undefined) return { repeatPricePence: null, repeatTerms: null };
  return { repeatPricePence: Math.round(pricePence * (1 - scheme.discount)), repeatTerms: scheme.terms };
}

/**
 * The demo's multi-buys, worked out from the price (no random number drawn): Pets at Home's and
 * Jollyes' "3 for 2" on consumables under £15 (treats, pouches, chews), as those shops run them.
 */
function multiBuyOf(retailerName: ComparisonRetailerName, pricePence: number, consumable: boolean): string | null {
  return consumable && pricePence < 1500 && (retailerName === "Pets at Home" || retailerName === "Jollyes") ? "3 for 2" : null;
}

/** The loyalty schemes of the demo's retailers that have one. */
const memberSchemes: Partial<Record<ComparisonRetailerName, string>> = { "Pets at Home": "Pets Club", Jollyes: "PetCLUB", Zooplus: "zooPoints" };

/**
 * The demo's member prices, worked out from the price (no random number drawn): 10% off food and
 * consumables of £25 or more at the retailers with a loyalty scheme.
 */
function memberPriceOf(retailerName: ComparisonRetailerName, pricePence: number, consumable: boolean): Pick<GeneratedOffer, "memberPricePence" | "memberScheme"> {
  const scheme = memberSchemes[retailerName];
  if (!consumable || pricePence < 2500 || scheme === undefined) return { memberPricePence: null, memberScheme: null };
  return { memberPricePence: Math.round(pricePence * 0.9), memberScheme: scheme };
}

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function validate(options: CatalogueOptions): void {
  if (!Number.isSafeInteger(options.products) || options.products < 1) {
    throw new RangeError(`products must be a positive integer, got ${options.products}`);
  }
  if (!(options.today instanceof Date) || Number.isNaN(options.today.getTime())) {
    throw new RangeError("today must be a valid Date");
  }
  if (options.seed !== undefined && !Number.isSafeInteger(options.seed)) {
    throw new RangeError(`seed must be an integer, got ${options.seed}`);
  }
}

/** Builds the whole demo catalogue; see the module comment for the determinism guarantees. */
export function generateCatalogue(options: CatalogueOptions): GeneratedCatalogue {
  validate(options);
  const seed = options.seed ?? defaultSeed;
  const todayMs = options.today.getTime();
  const listings = buildListings(seed);

  const usedNames = new Set<string>();
  const usedSlugs = new Set<string>();
  const drafts: { product: GeneratedProduct; random: Random; popularity: number }[] = [];

  for (let index = 0; index < options.products; index++) {
    const random = createRandom(mixSeed(seed, index + 1));
    const listing = at(listings, index % listings.length);
    /** 0 for the first pass over all listings, then 1, 2, ...: shown as "#2", "#3", ... */
    const repeat = Math.floor(index / listings.length);
    const { line, flavour, flavourIndex, variant } = listing.combo;

    const stem = [line.brand, line.line, flavour].filter((part) => part !== "").join(" ");
    let name = `${stem} ${variant.pack}`;
    if (listing.packOf > 1) {
      // A multipack is a size of its single pack's product; where the size reads as a size that
      // is already taken (a "24 x 400g" of its own), it keeps "(Pack of N)".
      const sized = `${stem} ${multipackSize(variant.pack, listing.packOf)}`;
      name = usedNames.has(repeat > 0 ? `${sized} #${repeat + 1}` : sized) ? `${name} (Pack of ${listing.packOf})` : sized;
    }
    const baseName = repeat > 0 ? `${name} #${repeat + 1}` : name;
    name = baseName;
    for (let n = 2; usedNames.has(name); n++) name = `${baseName} (${n})`;
    usedNames.add(name);

    const baseSlug = slugify(name);
    let slug = baseSlug;
    for (let n = 2; usedSlugs.has(slug); n++) slug = `${baseSlug}-${n}`;
    usedSlugs.add(slug);

    const category = categoryBySlug.get(line.categorySlug);
    if (!category) throw new Error(`product line ${line.brand} ${line.line} names unknown category ${line.categorySlug}`);

    const multipackFactor = listing.packOf > 1 ? listing.packOf * (multipackDiscount[listing.packOf] ?? 1) : 1;
    const repeatFactor = repeat > 0 ? 1 + random.uniform(-0.05, 0.05) : 1;
    const basePence = variant.pricePence * (1 + at(flavourPriceSteps, flavourIndex % flavourPriceSteps.length)) * multipackFactor * repeatFactor;
    const { offers, history } = offersFor(random, basePence, slug, line.zooplusSection ?? category.zooplusSection, todayMs, multipackCategories.has(line.categorySlug));

    const listingWeight = repeat > 0 ? 0.2 : listing.packOf > 1 ? 0.35 : 1;
    const popularity = line.popularity * listingWeight * Math.exp(0.6 * random.normal());

    drafts.push({
      random,
      popularity,
      product: {
        slug,
        name,
        brand: line.brand,
        categorySlug: line.categorySlug,
        description: describe(listing),
        // The demo catalogue has no photos: an illustration of the pack, drawn from name, brand and category.
        image: packshotPath(slug),
        rating: rating(random),
        reviewCount: 0,
        rank: 0,
        isFeatured: false,
        offers,
        history,
        familyKey: slugify(repeat > 0 ? `${stem} ${repeat + 1}` : stem),
        kcalPerKg: line.food?.kcalPerKg ?? null,
        feedingGuide: line.food?.guide ? { rows: line.food.guide.map((row) => ({ ...row })) } : null,
      },
    });
  }

  // Best-seller rank from popularity; review counts follow it (best sellers have more reviews).
  const byPopularity = drafts.map((draft, index) => ({ draft, index }));
  byPopularity.sort((a, b) => b.draft.popularity - a.draft.popularity || a.index - b.index);
  const total = drafts.length;
  byPopularity.forEach(({ draft }, position) => {
    draft.product.rank = position + 1;
    const share = (total - position) / total;
    draft.product.reviewCount = Math.round((12 + 9000 * share ** 3) * draft.random.uniform(0.4, 1.6));
  });

  markFeatured(
    byPopularity.map(({ draft }) => draft.product),
    seed,
  );

  const voucherRandom = createRandom(mixSeed(seed, 0x70_0c));
  const vouchers = voucherSeeds.map((voucher) => ({
    ...voucher,
    expiryDate: isoDay(todayMs + voucherRandom.int(30, 200) * dayMs),
  }));

  return {
    categories: categorySeeds.map(({ name, slug, icon }) => ({ name, slug, icon })),
    retailers: retailerSeeds.map(({ slug, name, logo, website, comparesPrices, delivery }) => ({ key: slug, name, logo, website, comparesPrices, delivery })),
    products: drafts.map((draft) => draft.product),
    vouchers,
    affiliateIds: { ...defaultAffiliateIds },
  };
}

/**
 * Features a handful of best sellers: picked from the top of the ranking, one per category
 * first so the home page shows variety, then topped up from the same pool.
 */
function markFeatured(productsByRank: readonly GeneratedProduct[], seed: number): void {
  const random = createRandom(mixSeed(seed, 0xfea7));
  const pool = shuffle(random, productsByRank.slice(0, Math.max(featuredProductCount, 60)));
  const wanted = Math.min(featuredProductCount, pool.length);
  const chosen = new Set<GeneratedProduct>();
  const categoriesSeen = new Set<string>();
  for (const product of pool) {
    if (chosen.size >= wanted) break;
    if (categoriesSeen.has(product.categorySlug)) continue;
    categoriesSeen.add(product.categorySlug);
    chosen.add(product);
  }
  for (const product of pool) {
    if (chosen.size >= wanted) break;
    chosen.add(product);
  }
  for (const product of chosen) product.isFeatured = true;
}
