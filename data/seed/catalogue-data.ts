/**
 * The raw material of the demo catalogue: categories, retailers, real UK pet brands and their
 * product lines with typical UK shelf prices, eight vouchers and the
 * default affiliate IDs. Pure data; data/seed/generate.ts turns it into products and offers.
 *
 * Prices are integer pence (base prices around which retailer offers are spread).
 */
import { categoryIconNames, defaultCategoryIcon } from "../domain/category-icons.ts";
import type { AffiliateIds } from "../domain/catalogue.ts";
import type { DeliveryRule } from "../domain/delivery.ts";
import { retailerLogo, retailerRegistry } from "../domain/retailers.ts";

export interface CategorySeed {
  name: string;
  slug: string;
  /** One of the category tile icons (data/domain/category-icons.ts). */
  icon: string;
  /** The zooplus.co.uk shop section used in generated Zooplus URLs. */
  zooplusSection: string;
}

export interface RetailerSeed {
  name: string;
  /** File stem of the wordmark in site/public/retailers/. */
  slug: string;
  logo: string;
  website: string;
  /** Whether the site compares product prices at this retailer (else it only has vouchers). */
  comparesPrices: boolean;
  /** Standard home delivery, as the retailer advertises it to a customer without a membership. */
  delivery: DeliveryRule;
}

export interface PackVariant {
  /** Pack size or size label shown at the end of the product name ("15kg", "40 x 100g", "Large"). */
  pack: string;
  pricePence: number;
}

export interface ProductLineSeed {
  brand: string;
  /** Product line as it follows the brand in the name ("Medium Adult Dry Dog Food"). */
  line: string;
  categorySlug: string;
  /**
   * The key benefit in one or two sentences; `{pack}` is replaced by the pack size and
   * `{flavour}` by the recipe, colour or model in lower case (it sits mid-sentence).
   */
  about: string;
  variants: readonly PackVariant[];
  /** Recipes, colours or models sold under the line; each makes a separate product. */
  flavours?: readonly string[];
  /** Relative sales weight, 1 (niche) to 10 (household name); drives best-seller rank. */
  popularity: number;
  /** Overrides the category's Zooplus shop section (cat products in a mixed category). */
  zooplusSection?: string;
  /** A complete food's energy density and feeding guide; absent for treats, complementary foods and non-food. */
  food?: FoodSeed;
}

/** What a complete food's pack states about feeding it. */
export interface FoodSeed {
  /** Metabolisable energy, kcal per kg as sold. */
  kcalPerKg: number;
  /** Daily grams by body weight for a normal adult, rows by rising weight; absent when the pack's guide is by age (puppy, kitten). */
  guide?: readonly { weightKg: number; gramsPerDay: number }[];
}

/** Body weights a guide table lists, and the metabolic-weight exponent its grams follow (0.75 dogs, 0.67 cats). */
interface GuideWeights {
  exponent: number;
  weights: readonly number[];
}
const smallDog: GuideWeights = { exponent: 0.75, weights: [2, 4, 6, 8, 10] };
const mediumDog: GuideWeights = { exponent: 0.75, weights: [10, 15, 20, 25] };
const anyDog: GuideWeights = { exponent: 0.75, weights: [5, 10, 15, 20, 30, 40] };
const anyCat: GuideWeights = { exponent: 0.67, weights: [2, 3, 4, 5, 6] };

/**
 * A food with a guide as manufacturers print them: the grams that give `kcalPerKgBodyWeight`
 * kcal per kg of metabolic body weight a day (their guides sit around FEDIAF's 110 for dogs and
 * a little under 100 for mostly indoor cats), rounded to 5 g for dry food and 10 g for wet.
 */
function food(kcalPerKg: number, kcalPerKgBodyWeight: number, table: GuideWeights, step: number): FoodSeed {
  return {
    kcalPerKg,
    guide: table.weights.map((weightKg) => ({
      weightKg,
      gramsPerDay: Math.max(step, Math.round((kcalPerKgBodyWeight * weightKg ** table.exponent * 1000) / kcalPerKg / step) * step),
    })),
  };
}
const dryFood = (kcalPerKg: number, factor: number, table: GuideWeights) => food(kcalPerKg, factor, table, 5);
const wetFood = (kcalPerKg: number, factor: number, table: GuideWeights) => food(kcalPerKg, factor, table, 10);
/** Puppy and kitten packs print their guide by age and expected adult weight, which a pet profile does not hold: energy only. */
const energyOnly = (kcalPerKg: number): FoodSeed => ({ kcalPerKg });

export interface VoucherSeed {
  code: string;
  description: string;
  retailer: string;
  url: string;
  discount: string;
  uses: number;
}

/** Builds pack variants from [pack, pence] pairs, keeping the data table compact. */
function packs(...pairs: readonly (readonly [string, number])[]): PackVariant[] {
  return pairs.map(([pack, pricePence]) => ({ pack, pricePence }));
}

/**
 * The 16 categories. Every category tile icon is used at least once, and the slugs
 * carry the words the home-page tile colours key on (dog, cat, toy, bed, health, grooming,
 * training, small-animal, bird, fish). `dog-food` and `cat-food` are the hero button targets.
 */
export const categorySeeds: readonly CategorySeed[] = [
  { name: "Dog Food", slug: "dog-food", icon: "bone", zooplusSection: "dogs" },
  { name: "Cat Food", slug: "cat-food", icon: "fish", zooplusSection: "cats" },
  { name: "Dog Treats & Chews", slug: "dog-treats", icon: "bone", zooplusSection: "dogs" },
  { name: "Dog Toys", slug: "dog-toys", icon: "baseball", zooplusSection: "dogs" },
  { name: "Cat Toys & Scratchers", slug: "cat-toys", icon: "toy", zooplusSection: "cats" },
  { name: "Dog Beds & Bedding", slug: "dog-beds", icon: "bed", zooplusSection: "dogs" },
  { name: "Cat Litter & Trays", slug: "cat-litter", icon: "house", zooplusSection: "cats" },
  { name: "Flea, Tick & Worming", slug: "pet-health", icon: "shield-dog", zooplusSection: "dogs" },
  { name: "Vitamins & Supplements", slug: "health-supplements", icon: "heart", zooplusSection: "dogs" },
  { name: "Grooming", slug: "dog-grooming", icon: "scissors", zooplusSection: "dogs" },
  { name: "Training & Walking", slug: "dog-training", icon: "whistle", zooplusSection: "dogs" },
  { name: "Small Animal", slug: "small-animal", icon: "rabbit", zooplusSection: "small_pets" },
  { name: "Bird Food & Care", slug: "bird-food", icon: "bird", zooplusSection: "birds" },
  { name: "Fish & Aquatics", slug: "fish-aquatics", icon: "fish", zooplusSection: "aquatics" },
  { name: "Kennels, Crates & Carriers", slug: "dog-kennels-crates", icon: "house", zooplusSection: "dogs" },
  { name: "Reptile Supplies", slug: "reptile-supplies", icon: "house", zooplusSection: "reptiles" },
];

/** The icons a category tile can show besides the default one: the seed's categories use every one of them. */
export const categoryIcons = categoryIconNames.filter((name) => name !== defaultCategoryIcon);

/** Retailers in id order: the registry's, whose prices the site compares first (see retailers.ts). */
export const retailerSeeds: readonly RetailerSeed[] = retailerRegistry.map((entry) => ({
  name: entry.name,
  slug: entry.key,
  logo: retailerLogo(entry.key),
  website: entry.website,
  comparesPrices: entry.comparesPrices,
  delivery: entry.delivery,
}));

/** Retailers that carry product offers, in id order. */
export const comparisonRetailerNames = ["Amazon", "Pets at Home", "Jollyes", "Zooplus", "eBay"] as const;
export type ComparisonRetailerName = (typeof comparisonRetailerNames)[number];

/** Default affiliate IDs; an admin's saved IDs always win (the seed never overwrites them). */
export const defaultAffiliateIds: AffiliateIds = {
  AMAZON: "pawprice-21",
  PETS_AT_HOME: "pawprice-pah",
  JOLLYES: "pawprice",
  ZOOPLUS: "pawprice-uk",
  EBAY: "5339071234",
};

/** The eight demo vouchers; expiry dates are set by the generator. */
export const voucherSeeds: readonly VoucherSeed[] = [
  {
    code: "PAWS10",
    description: "10% off your first online order at Pets at Home when you spend £25 or more",
    retailer: "Pets at Home",
    url: "https://www.petsathome.com",
    discount: "10%",
    uses: 1842,
  },
  {
    code: "ZOOPLUS5",
    description: "5% off your first Zooplus order of dry dog or cat food over £29",
    retailer: "Zooplus",
    url: "https://www.zooplus.co.uk",
    discount: "5%",
    uses: 1365,
  },
  {
    code: "JOLLY15",
    description: "15% off dog and cat toys, beds and accessories at Jollyes",
    retailer: "Jollyes",
    url: "https://www.jollyes.co.uk",
    discount: "15%",
    uses: 904,
  },
  {
    code: "PETSAVE10",
    description: "£10 off pet food and supplies at Amazon when you spend £50 or more",
    retailer: "Amazon",
    url: "https://www.amazon.co.uk",
    discount: "£10",
    uses: 2217,
  },
  {
    code: "VETUK12",
    description: "12% off flea, tick and worming treatments at VetUK",
    retailer: "VetUK",
    url: "https://www.vetuk.co.uk",
    discount: "12%",
    uses: 611,
  },
  {
    code: "PLANET8",
    description: "8% off everything at Pet Planet, including sale items",
    retailer: "Pet Planet",
    url: "https://www.pet-planet.co.uk",
    discount: "8%",
    uses: 438,
  },
  {
    code: "FREEGROOM",
    description: "Free UK delivery on all grooming tools and shampoos at Grooming Gang",
    retailer: "Grooming Gang",
    url: "https://www.groominggang.co.uk",
    discount: "Free Delivery",
    uses: 297,
  },
  {
    code: "BIRD20",
    description: "20% off wild bird seed mixes and suet at Birdfood Direct",
    retailer: "Birdfood Direct",
    url: "https://www.birdfooddirect.co.uk",
    discount: "20%",
    uses: 523,
  },
];

/**
 * Product lines of real UK pet brands. Names are built as "{brand} {line} {flavour} {pack}",
 * so a line reads naturally before a recipe and a pack size.
 */
export const productLineSeeds: readonly ProductLineSeed[] = [
  // Dog food
  {
    brand: "Royal Canin",
    line: "Medium Adult Dry Dog Food",
    categorySlug: "dog-food",
    about:
      "Complete dry food for medium breed adult dogs (11-25kg), with antioxidants and EPA/DHA to support natural defences and a healthy coat. Supplied in a {pack} bag.",
    variants: packs(["4kg", 2899], ["10kg", 5999], ["15kg", 7999]),
    popularity: 10,
    food: dryFood(3760, 112, mediumDog),
  },
  {
    brand: "Royal Canin",
    line: "Mini Adult Dry Dog Food",
    categorySlug: "dog-food",
    about:
      "Small kibble sized for dogs up to 10kg, with a precise energy level to help maintain ideal weight and support dental health. Supplied in a {pack} bag.",
    variants: packs(["2kg", 1699], ["4kg", 2999], ["8kg", 5299]),
    popularity: 9,
    food: dryFood(3850, 108, smallDog),
  },
  {
    brand: "Royal Canin",
    line: "Maxi Puppy Dry Dog Food",
    categorySlug: "dog-food",
    about:
      "Growth formula for large breed puppies up to 15 months, with calcium and phosphorus balanced for developing bones and joints. Supplied in a {pack} bag.",
    variants: packs(["4kg", 3199], ["15kg", 8499]),
    popularity: 7,
    food: energyOnly(3960),
  },
  {
    brand: "Hill's Science Plan",
    line: "Adult Medium Dry Dog Food",
    categorySlug: "dog-food",
    about:
      "Vet-recommended complete food for adult medium breeds, made {flavour} and clinically proven antioxidants for a healthy immune system. Supplied in a {pack} bag.",
    flavours: ["with Chicken", "with Lamb & Rice", "with Tuna & Rice"],
    variants: packs(["2.5kg", 2299], ["14kg", 7999], ["18kg", 9499]),
    popularity: 8,
    food: dryFood(3710, 110, mediumDog),
  },
  {
    brand: "Hill's Science Plan",
    line: "Puppy Small & Mini Dry Dog Food",
    categorySlug: "dog-food",
    about:
      "Small kibble for puppies of small and mini breeds, with DHA from fish oil for brain and eye development. Made {flavour}; supplied in a {pack} bag.",
    flavours: ["with Chicken", "with Lamb & Rice"],
    variants: packs(["1.5kg", 1499], ["3kg", 2699], ["6kg", 4699]),
    popularity: 6,
    food: energyOnly(4040),
  },
  {
    brand: "Purina Pro Plan",
    line: "Medium Adult Dry Dog Food",
    categorySlug: "dog-food",
    about:
      "OPTIBALANCE formula for medium adult dogs, rich in {flavour} as the first ingredient, with colostrum to support natural defences. Supplied in a {pack} bag.",
    flavours: ["Chicken", "Lamb", "Salmon"],
    variants: packs(["3kg", 2399], ["7kg", 4599], ["14kg", 7499]),
    popularity: 8,
    food: dryFood(3830, 111, mediumDog),
  },
  {
    brand: "Purina ONE",
    line: "Mini Active Dry Dog Food",
    categorySlug: "dog-food",
    about:
      "Complete food for active small dogs (1-10kg) made with {flavour}, with high-quality protein to support lean muscles. Supplied in a {pack} bag.",
    flavours: ["Chicken & Rice", "Beef & Rice"],
    variants: packs(["1.5kg", 749], ["2.8kg", 1249], ["8kg", 2999]),
    popularity: 6,
    food: dryFood(3870, 120, smallDog),
  },
  {
    brand: "Bakers",
    line: "Complete Adult Dry Dog Food",
    categorySlug: "dog-food",
    about:
      "Tasty complete kibble for adult dogs with {flavour}, added vitamins and minerals and a crunchy texture dogs love. Supplied in a {pack} bag.",
    flavours: ["Beef & Vegetables", "Chicken & Vegetables"],
    variants: packs(["2.85kg", 850], ["5.7kg", 1550], ["14kg", 2999]),
    popularity: 8,
    food: dryFood(3520, 114, anyDog),
  },
  {
    brand: "Lily's Kitchen",
    line: "Adult Dry Dog Food",
    categorySlug: "dog-food",
    about:
      "Naturally healthy grain-free recipe of {flavour} with freshly prepared meat, botanicals and no fillers or nasties. Supplied in a {pack} bag.",
    flavours: ["Chicken & Duck Countryside Casserole", "Lamb Hotpot", "Salmon & Trout"],
    variants: packs(["2.5kg", 2049], ["7kg", 4599], ["12kg", 6499]),
    popularity: 7,
    food: dryFood(3620, 110, anyDog),
  },
  {
    brand: "Lily's Kitchen",
    line: "Adult Wet Dog Food Tins Multipack",
    categorySlug: "dog-food",
    about:
      "Complete wet food made with 60% freshly prepared meat and offal, vegetables and herbs, in a {pack} multipack of favourite recipes.",
    variants: packs(["6 x 400g", 1799], ["12 x 400g", 3299]),
    popularity: 5,
    food: wetFood(1050, 110, anyDog),
  },
  {
    brand: "Harringtons",
    line: "Complete Adult Dry Dog Food",
    categorySlug: "dog-food",
    about:
      "Affordable complete food made with {flavour}, no added artificial colours or flavours and no dairy or wheat. Supplied in a {pack} bag.",
    flavours: ["Lamb & Rice", "Turkey & Veg", "Chicken & Rice"],
    variants: packs(["2kg", 649], ["12kg", 2599], ["15kg", 3199]),
    popularity: 7,
    food: dryFood(3600, 112, anyDog),
  },
  {
    brand: "Burns",
    line: "Adult Original Dry Dog Food",
    categorySlug: "dog-food",
    about:
      "Vet-formulated, hypoallergenic food made with {flavour} and no artificial additives, gentle on sensitive stomachs. Supplied in a {pack} bag.",
    flavours: ["Chicken & Brown Rice", "Lamb & Brown Rice", "Fish & Brown Rice"],
    variants: packs(["2kg", 1399], ["6kg", 3399], ["12kg", 5799]),
    popularity: 6,
    food: dryFood(3560, 106, anyDog),
  },
  {
    brand: "James Wellbeloved",
    line: "Adult Dry Dog Food",
    categorySlug: "dog-food",
    about:
      "Naturally hypoallergenic food for adult dogs made with {flavour}, a single animal protein and no wheat or beef. Supplied in a {pack} bag.",
    flavours: ["Turkey & Rice", "Lamb & Rice", "Fish & Rice"],
    variants: packs(["2kg", 1599], ["7.5kg", 4299], ["15kg", 6999]),
    popularity: 7,
    food: dryFood(3590, 109, anyDog),
  },
  {
    brand: "Arden Grange",
    line: "Adult Dry Dog Food",
    categorySlug: "dog-food",
    about:
      "Naturally hypoallergenic recipe with fresh {flavour}, added prebiotics and glucosamine for joint care. Supplied in a {pack} bag.",
    flavours: ["Chicken & Rice", "Lamb & Rice", "Salmon & Rice"],
    variants: packs(["2kg", 1599], ["6kg", 3999], ["12kg", 6499]),
    popularity: 6,
    food: dryFood(3800, 110, anyDog),
  },
  {
    brand: "Forthglade",
    line: "Complete Natural Wet Dog Food",
    categorySlug: "dog-food",
    about:
      "Grain-free wet food cooked gently in trays, {flavour}, 75% meat and no artificial nasties. Supplied as {pack}.",
    flavours: ["Chicken with Brown Rice", "Lamb with Brown Rice", "Turkey with Brown Rice"],
    variants: packs(["12 x 395g", 1999], ["18 x 395g", 2799]),
    popularity: 6,
    food: wetFood(940, 108, anyDog),
  },
  {
    brand: "Butcher's",
    line: "Classic Mixed Selection Wet Dog Food Tins",
    categorySlug: "dog-food",
    about:
      "Traditional loaf-style wet food with no artificial colours or preservatives, in a {pack} pack of meaty classics.",
    variants: packs(["6 x 400g", 675], ["12 x 400g", 1249], ["24 x 400g", 2299]),
    popularity: 7,
    food: wetFood(880, 112, anyDog),
  },
  {
    brand: "Pedigree",
    line: "Adult Wet Dog Food Pouches",
    categorySlug: "dog-food",
    about: "Complete and balanced pouches, {flavour}, with vitamins and minerals for everyday health. Supplied as {pack}.",
    flavours: ["Mixed Selection in Gravy", "Mixed Selection in Jelly", "Vital Protection in Gravy"],
    variants: packs(["12 x 100g", 549], ["40 x 100g", 1599]),
    popularity: 9,
    food: wetFood(830, 110, smallDog),
  },
  {
    brand: "Pedigree",
    line: "Complete Adult Dry Dog Food",
    categorySlug: "dog-food",
    about: "Crunchy complete kibble with {flavour} and Vital Protection for healthy digestion, skin and coat. Supplied in a {pack} bag.",
    flavours: ["Beef & Vegetables", "Chicken & Vegetables"],
    variants: packs(["2.6kg", 799], ["12kg", 2499]),
    popularity: 8,
    food: dryFood(3560, 115, anyDog),
  },
  {
    brand: "Wagg",
    line: "Complete Worker Dry Dog Food",
    categorySlug: "dog-food",
    about: "High-energy complete food for working dogs made with {flavour}, great value in a {pack} sack.",
    flavours: ["Chicken & Veg", "Beef & Veg"],
    variants: packs(["16kg", 1899]),
    popularity: 6,
    food: dryFood(3600, 125, anyDog),
  },
  {
    brand: "Skinner's",
    line: "Field & Trial Adult Dry Dog Food",
    categorySlug: "dog-food",
    about: "Hypoallergenic working dog food made with {flavour}, trusted by gundog owners across the UK. Supplied in a {pack} sack.",
    flavours: ["Duck & Rice", "Salmon & Rice", "Turkey & Rice"],
    variants: packs(["2.5kg", 1199], ["15kg", 3999]),
    popularity: 5,
    food: dryFood(3700, 118, anyDog),
  },

  // Cat food
  {
    brand: "Royal Canin",
    line: "Indoor Adult Dry Cat Food",
    categorySlug: "cat-food",
    about:
      "Complete food for indoor cats aged 1-7, with highly digestible proteins to reduce litter box odour and fibres to limit hairballs. Supplied in a {pack} bag.",
    variants: packs(["400g", 699], ["2kg", 2599], ["4kg", 4299]),
    popularity: 9,
    food: dryFood(3850, 80, anyCat),
  },
  {
    brand: "Royal Canin",
    line: "Kitten Wet Food in Gravy",
    categorySlug: "cat-food",
    about: "Thin slices in gravy for kittens up to 12 months, supporting healthy growth and natural defences. Supplied as {pack}.",
    variants: packs(["12 x 85g", 1199], ["24 x 85g", 2199]),
    popularity: 7,
    food: energyOnly(870),
  },
  {
    brand: "Hill's Science Plan",
    line: "Adult Dry Cat Food",
    categorySlug: "cat-food",
    about: "Vet-recommended complete food for adult cats {flavour}, with omega-6 for skin and coat and controlled minerals for urinary health. Supplied in a {pack} bag.",
    flavours: ["with Chicken", "with Tuna", "with Lamb"],
    variants: packs(["1.5kg", 1899], ["3kg", 3399], ["7kg", 6299]),
    popularity: 7,
    food: dryFood(4000, 85, anyCat),
  },
  {
    brand: "Purina Pro Plan",
    line: "Sterilised Adult Dry Cat Food",
    categorySlug: "cat-food",
    about: "Tailored nutrition for neutered cats, rich in {flavour}, helping maintain kidney health and an ideal weight. Supplied in a {pack} bag.",
    flavours: ["Salmon", "Turkey", "Rabbit"],
    variants: packs(["1.5kg", 1499], ["3kg", 2699], ["10kg", 6999]),
    popularity: 7,
    food: dryFood(3950, 78, anyCat),
  },
  {
    brand: "Purina ONE",
    line: "Adult Dry Cat Food",
    categorySlug: "cat-food",
    about: "Complete food for adult cats made with {flavour}, with visible results in 3 weeks for a shiny coat and healthy teeth. Supplied in a {pack} bag.",
    flavours: ["Chicken & Whole Grains", "Beef & Whole Grains", "Salmon & Whole Grains"],
    variants: packs(["800g", 549], ["1.5kg", 899], ["2.8kg", 1499]),
    popularity: 8,
    food: dryFood(3900, 84, anyCat),
  },
  {
    brand: "Whiskas",
    line: "1+ Adult Wet Cat Food Pouches",
    categorySlug: "cat-food",
    about: "Complete and balanced wet food for adult cats, {flavour}, with all the nutrients they need. Supplied as {pack}.",
    flavours: ["Poultry Feasts in Jelly", "Fish Favourites in Jelly", "Mixed Menu in Gravy"],
    variants: packs(["12 x 85g", 499], ["40 x 85g", 1499], ["80 x 85g", 2799]),
    popularity: 10,
    food: wetFood(760, 88, anyCat),
  },
  {
    brand: "Whiskas",
    line: "1+ Adult Complete Dry Cat Food",
    categorySlug: "cat-food",
    about: "Crunchy complete kibble made {flavour}, helping to care for teeth, with omega-6 for a shiny coat. Supplied in a {pack} bag.",
    flavours: ["with Chicken", "with Tuna"],
    variants: packs(["825g", 399], ["1.9kg", 799], ["3.8kg", 1499]),
    popularity: 8,
    food: dryFood(3700, 86, anyCat),
  },
  {
    brand: "Felix",
    line: "As Good As It Looks",
    categorySlug: "cat-food",
    about: "Chunky pieces of meat and fish in a tasty jelly, {flavour}, complete and balanced for adult cats. Supplied as a {pack} multipack.",
    flavours: ["Mixed Selection in Jelly", "Meaty Selection in Jelly", "Ocean Feasts in Jelly", "Country Selection in Jelly"],
    variants: packs(["12 x 100g", 549], ["40 x 100g", 1599], ["80 x 100g", 2999]),
    popularity: 10,
    food: wetFood(800, 88, anyCat),
  },
  {
    brand: "Sheba",
    line: "Delicacy in Jelly Wet Cat Food Trays",
    categorySlug: "cat-food",
    about: "Fine cuts in a delicate jelly, {flavour}, with no added artificial colours or flavours. Supplied as {pack}.",
    flavours: ["Poultry Collection", "Fish Collection", "Mixed Collection"],
    variants: packs(["8 x 85g", 449], ["28 x 85g", 1399]),
    popularity: 8,
    food: wetFood(780, 86, anyCat),
  },
  {
    brand: "Applaws",
    line: "Natural Wet Cat Food Tins",
    categorySlug: "cat-food",
    about: "Only a few natural ingredients: {flavour} in broth, with no added preservatives or colours. Supplied as {pack}.",
    flavours: ["Chicken Breast", "Tuna Fillet with Seaweed", "Chicken with Pumpkin"],
    variants: packs(["12 x 70g", 1199], ["24 x 70g", 2199]),
    popularity: 6,
  },
  {
    brand: "Encore",
    line: "100% Natural Wet Cat Food Tins",
    categorySlug: "cat-food",
    about: "Hand-prepared {flavour} in broth, 100% natural with no artificial additives. Supplied as {pack}.",
    flavours: ["Tuna Fillet", "Chicken Breast", "Tuna with Prawn"],
    variants: packs(["12 x 70g", 1049], ["24 x 70g", 1999]),
    popularity: 5,
  },
  {
    brand: "Lily's Kitchen",
    line: "Adult Wet Cat Food Pouches",
    categorySlug: "cat-food",
    about: "Grain-free pouches made with proper meat and fish and no fillers, in a {pack} multipack of tasty recipes.",
    variants: packs(["8 x 85g", 799], ["16 x 85g", 1499]),
    popularity: 5,
    food: wetFood(920, 85, anyCat),
  },
  {
    brand: "James Wellbeloved",
    line: "Adult Dry Cat Food",
    categorySlug: "cat-food",
    about: "Naturally hypoallergenic food for adult cats made with {flavour}, gentle on sensitive digestion. Supplied in a {pack} bag.",
    flavours: ["Turkey & Rice", "Fish & Rice"],
    variants: packs(["1.5kg", 1249], ["4kg", 2699], ["10kg", 5199]),
    popularity: 6,
    food: dryFood(3750, 84, anyCat),
  },
  {
    brand: "Harringtons",
    line: "Complete Adult Dry Cat Food",
    categorySlug: "cat-food",
    about: "Complete dry food rich in {flavour}, with no added artificial colours or flavours. Supplied in a {pack} bag.",
    flavours: ["Chicken", "Salmon"],
    variants: packs(["2kg", 649], ["4 x 2kg", 2399]),
    popularity: 5,
    food: dryFood(3680, 86, anyCat),
  },
  {
    brand: "Burns",
    line: "Adult Dry Cat Food",
    categorySlug: "cat-food",
    about: "Simple, natural recipe of {flavour} for adult cats, with no artificial additives. Supplied in a {pack} bag.",
    flavours: ["Chicken & Brown Rice", "Fish & Brown Rice"],
    variants: packs(["2kg", 1499], ["5kg", 3299]),
    popularity: 4,
    food: dryFood(3710, 84, anyCat),
  },
  {
    brand: "Arden Grange",
    line: "Adult Dry Cat Food",
    categorySlug: "cat-food",
    about: "Grain-free recipe with fresh {flavour}, added taurine for heart and eye health and prebiotics for digestion. Supplied in a {pack} bag.",
    flavours: ["Chicken & Potato", "Salmon & Potato"],
    variants: packs(["2kg", 1899], ["4kg", 3299], ["8kg", 5699]),
    popularity: 4,
    food: dryFood(4060, 82, anyCat),
  },

  // Dog treats and chews
  {
    brand: "Pedigree",
    line: "Dentastix Daily Dental Chews Medium Dog",
    categorySlug: "dog-treats",
    about: "Clinically proven to reduce tartar build-up by up to 80% when fed daily, with a unique X-shape for medium dogs (10-25kg). Pack size: {pack}.",
    variants: packs(["28 Sticks", 899], ["56 Sticks", 1599], ["112 Sticks", 2899]),
    popularity: 10,
  },
  {
    brand: "Pedigree",
    line: "Rodeo Duos Dog Treats",
    categorySlug: "dog-treats",
    about: "Twisted chewy treats in {flavour} flavour, low in fat and great for rewarding good behaviour. Pack size: {pack}.",
    flavours: ["Chicken & Bacon", "Beef & Cheese"],
    variants: packs(["7 Sticks", 249], ["70 Sticks", 1899]),
    popularity: 7,
  },
  {
    brand: "Whimzees",
    line: "Natural Dental Chews Medium",
    categorySlug: "dog-treats",
    about: "Vegetable-based, grain-free dental chews whose knobbly shape helps clean teeth and freshen breath. Pack size: {pack}.",
    flavours: ["Toothbrush", "Stix", "Alligator"],
    variants: packs(["7 Chews", 799], ["30 Chews", 2599]),
    popularity: 7,
  },
  {
    brand: "Lily's Kitchen",
    line: "Bedtime Biscuits Dog Treats",
    categorySlug: "dog-treats",
    about: "Baked organic biscuits with chamomile, lime flowers and peppermint to help dogs settle at night. Supplied in a {pack} box.",
    variants: packs(["100g", 299], ["4 x 100g", 1099]),
    popularity: 5,
  },
  {
    brand: "Forthglade",
    line: "Natural Soft Bite Dog Treats",
    categorySlug: "dog-treats",
    about: "Grain-free soft bites of {flavour}, 70% meat and easy to break for training. Supplied as {pack}.",
    flavours: ["Turkey with Cranberry", "Duck with Plum", "Lamb with Mint"],
    variants: packs(["90g", 249], ["6 x 90g", 1399]),
    popularity: 4,
  },
  {
    brand: "Wagg",
    line: "Training Treats",
    categorySlug: "dog-treats",
    about: "Small, tasty {flavour} training rewards that are low in fat and perfect for pocket-sized praise. Supplied as {pack}.",
    flavours: ["Chicken", "Beef", "Liver"],
    variants: packs(["125g", 129], ["6 x 125g", 699]),
    popularity: 5,
  },
  {
    brand: "Nylabone",
    line: "Healthy Edibles Natural Chew",
    categorySlug: "dog-treats",
    about: "Fully edible chew in {flavour} flavour with no added salt, sugar or preservatives. Pack size: {pack}.",
    flavours: ["Roast Beef", "Chicken", "Bacon"],
    variants: packs(["Regular 2 Pack", 399], ["Large 2 Pack", 599]),
    popularity: 4,
  },

  // Dog toys
  {
    brand: "Kong",
    line: "Classic Dog Toy",
    categorySlug: "dog-toys",
    about: "The iconic red natural-rubber toy with an unpredictable bounce; stuff it with treats for hours of enrichment. Size: {pack}.",
    variants: packs(["Small", 899], ["Medium", 1199], ["Large", 1399], ["X-Large", 1999]),
    popularity: 10,
  },
  {
    brand: "Kong",
    line: "Extreme Dog Toy",
    categorySlug: "dog-toys",
    about: "The toughest black Kong rubber for power chewers, stuffable with food and treats. Size: {pack}.",
    variants: packs(["Medium", 1499], ["Large", 1699], ["X-Large", 2299]),
    popularity: 8,
  },
  {
    brand: "Chuckit!",
    line: "Ultra Ball",
    categorySlug: "dog-toys",
    about: "High-bounce, floating rubber balls in bright orange and blue that are easy to spot; launcher compatible. Pack size: {pack}.",
    variants: packs(["Medium 2 Pack", 749], ["Large 2 Pack", 999]),
    popularity: 8,
  },
  {
    brand: "Chuckit!",
    line: "Classic Ball Launcher",
    categorySlug: "dog-toys",
    about: "Throw further with less effort and pick up balls without touching them; includes a Chuckit! ball. Length: {pack}.",
    variants: packs(["18in", 899], ["25in", 1099]),
    popularity: 7,
  },
  {
    brand: "Nylabone",
    line: "Dura Chew Textured Bone",
    categorySlug: "dog-toys",
    about: "Long-lasting nylon chew in {flavour} flavour with raised bristles that help clean teeth, for strong chewers. Size: {pack}.",
    flavours: ["Original", "Chicken", "Bacon"],
    variants: packs(["Medium", 699], ["Large", 899], ["X-Large", 1199]),
    popularity: 6,
  },
  {
    brand: "Trixie",
    line: "Dog Activity Strategy Game",
    categorySlug: "dog-toys",
    about: "Brain-training puzzle ({flavour}) with hidden treat compartments to keep dogs mentally busy. Difficulty: {pack}.",
    flavours: ["Flip Board", "Poker Box", "Move2Win"],
    variants: packs(["Level 2", 1599], ["Level 3", 2199]),
    popularity: 5,
  },
  {
    brand: "Petface",
    line: "Squeaky Plush Dog Toy",
    categorySlug: "dog-toys",
    about: "Soft plush {flavour} with a squeaker and reinforced seams for gentle play. Size: {pack}.",
    flavours: ["Fox", "Hedgehog", "Pheasant"],
    variants: packs(["Small", 499], ["Large", 799]),
    popularity: 4,
  },

  // Cat toys and scratchers
  {
    brand: "Trixie",
    line: "Baza Cat Scratching Post",
    categorySlug: "cat-toys",
    about: "Sisal-wrapped scratching post in {flavour} with a plush platform and hanging toy to save your furniture. Height: {pack}.",
    flavours: ["Grey", "Beige"],
    variants: packs(["62cm", 1499], ["78cm", 2299]),
    popularity: 6,
  },
  {
    brand: "Kong",
    line: "Kickeroo Cat Toy",
    categorySlug: "cat-toys",
    about: "Long plush {flavour} kicker filled with premium North American catnip for bunny-kicking play. Size: {pack}.",
    flavours: ["Mouse", "Fish", "Bird"],
    variants: packs(["Regular", 699]),
    popularity: 5,
  },
  {
    brand: "Petface",
    line: "Catnip Cat Toys",
    categorySlug: "cat-toys",
    about: "Colourful catnip-filled mice, balls and fish to encourage natural hunting play. Pack size: {pack}.",
    variants: packs(["5 Pack", 399], ["10 Pack", 699]),
    popularity: 5,
  },
  {
    brand: "Catit",
    line: "Senses 2.0",
    categorySlug: "cat-toys",
    about: "Track-and-ball circuit with a motion-triggered light ball that stimulates your cat's hunting instinct. Supplied as the {pack}.",
    variants: packs(["Play Circuit", 1699], ["Play Circuit & Super Roller", 2999]),
    popularity: 4,
  },
  {
    brand: "Trixie",
    line: "Cat Activity Fun Board",
    categorySlug: "cat-toys",
    about: "Puzzle board with five different activity inserts for hiding treats and dry food. Board size: {pack}.",
    variants: packs(["30 x 40cm", 1899]),
    popularity: 3,
  },

  // Dog beds and bedding
  {
    brand: "Scruffs",
    line: "Chester Box Bed",
    categorySlug: "dog-beds",
    about: "Plush box bed in {flavour} with a removable, machine-washable cushion and bolstered sides for head support. Size: {pack}.",
    flavours: ["Graphite", "Chocolate", "Burgundy"],
    variants: packs(["Medium", 4499], ["Large", 5999], ["X-Large", 6999]),
    popularity: 6,
  },
  {
    brand: "Scruffs",
    line: "Cosy Memory Foam Dog Mattress",
    categorySlug: "dog-beds",
    about: "Orthopaedic memory foam mattress in {flavour}, ideal for older dogs and crates, with a washable cover. Size: {pack}.",
    flavours: ["Grey", "Navy"],
    variants: packs(["Medium", 3999], ["Large", 4999], ["X-Large", 5999]),
    popularity: 5,
  },
  {
    brand: "Petface",
    line: "Orthopaedic Foam Dog Bed",
    categorySlug: "dog-beds",
    about: "Supportive foam bed in {flavour} with a water-resistant base and removable, washable cover. Size: {pack}.",
    flavours: ["Grey", "Charcoal"],
    variants: packs(["Medium", 3499], ["Large", 4999]),
    popularity: 4,
  },
  {
    brand: "Ancol",
    line: "Sleepy Paws Donut Dog Bed",
    categorySlug: "dog-beds",
    about: "Calming round donut bed in soft faux fur ({flavour}) that dogs can curl up and burrow into. Size: {pack}.",
    flavours: ["Grey", "Cream"],
    variants: packs(["Small", 1999], ["Medium", 2999], ["Large", 3999]),
    popularity: 5,
  },
  {
    brand: "Mikki",
    line: "Fleece Dog Blanket",
    categorySlug: "dog-beds",
    about: "Soft, warm fleece blanket for beds, crates and car seats, machine washable at 40 degrees. Size: {pack}.",
    variants: packs(["Medium", 899], ["Large", 1299]),
    popularity: 3,
  },

  // Cat litter and trays
  {
    brand: "Catsan",
    line: "Hygiene Plus Non-Clumping Cat Litter",
    categorySlug: "cat-litter",
    about: "White mineral litter with natural odour control that absorbs moisture quickly and keeps paws clean. Supplied as {pack}.",
    variants: packs(["10L", 799], ["20L", 1399], ["2 x 20L", 2599]),
    popularity: 8,
  },
  {
    brand: "Catsan",
    line: "Ultra Clumping Cat Litter",
    categorySlug: "cat-litter",
    about: "Fine clumping litter that forms firm clumps for easy scooping and lasts longer between changes. Supplied as {pack}.",
    variants: packs(["10L", 1099], ["15L", 1499]),
    popularity: 6,
  },
  {
    brand: "World's Best Cat Litter",
    line: "Original Clumping Corn Litter",
    categorySlug: "cat-litter",
    about: "Natural, flushable whole-kernel corn litter ({flavour}) that clumps quickly and traps odours without chemicals. Supplied in a {pack} bag.",
    flavours: ["Unscented", "Lavender Scented"],
    variants: packs(["6.35kg", 1999], ["12.7kg", 3499]),
    popularity: 6,
  },
  {
    brand: "Cat's Best",
    line: "Original Wood Fibre Cat Litter",
    categorySlug: "cat-litter",
    about: "Clumping litter made from natural wood fibres that absorb up to seven times their weight in liquid. Supplied as {pack}.",
    variants: packs(["10L", 899], ["20L", 1599], ["40L", 2699]),
    popularity: 5,
  },
  {
    brand: "Trixie",
    line: "Hooded Cat Litter Tray",
    categorySlug: "cat-litter",
    about: "Covered litter tray in {flavour} with a swing flap, carbon filter and carry handle to contain odours. Size: {pack}.",
    flavours: ["Grey", "Blue"],
    variants: packs(["Standard", 1899], ["XXL", 2999]),
    popularity: 4,
  },

  // Flea, tick and worming
  {
    brand: "Seresto",
    line: "Flea & Tick Collar",
    categorySlug: "pet-health",
    about: "Up to 8 months of continuous flea and tick protection from one odourless, water-resistant collar ({flavour}). Pack size: {pack}.",
    flavours: ["for Large Dogs over 8kg", "for Small Dogs up to 8kg", "for Cats"],
    variants: packs(["1 Collar", 2799], ["2 Collars", 5199]),
    popularity: 9,
  },
  {
    brand: "Frontline",
    line: "Spot On Flea & Tick Treatment",
    categorySlug: "pet-health",
    about: "Kills fleas, ticks and biting lice ({flavour}), with each pipette lasting up to 8 weeks against fleas. Pack size: {pack}.",
    flavours: ["for Small Dogs 2-10kg", "for Medium Dogs 10-20kg", "for Large Dogs 20-40kg", "for Cats"],
    variants: packs(["3 Pipettes", 1899], ["6 Pipettes", 3299]),
    popularity: 8,
  },
  {
    brand: "Drontal",
    line: "Dog Tasty Bone Wormer Tablets",
    categorySlug: "pet-health",
    about: "Bone-shaped, meat-flavoured tablets that treat all common UK intestinal worms in dogs. Each tablet treats 10kg. Pack size: {pack}.",
    variants: packs(["2 Tablets", 1099], ["6 Tablets", 2799]),
    popularity: 7,
  },
  {
    brand: "Drontal",
    line: "Cat Wormer Tablets",
    categorySlug: "pet-health",
    about: "Small, film-coated tablets that treat roundworms and tapeworms in cats. Each tablet treats 4kg. Pack size: {pack}.",
    variants: packs(["2 Tablets", 899], ["4 Tablets", 1499]),
    popularity: 6,
    zooplusSection: "cats",
  },
  {
    brand: "Johnson's",
    line: "4fleas Tablets",
    categorySlug: "pet-health",
    about: "Fast-acting oral flea treatment ({flavour}) that starts killing adult fleas within 15 minutes. Pack size: {pack}.",
    flavours: ["for Cats & Kittens", "for Small Dogs & Puppies"],
    variants: packs(["3 Treatments", 699], ["6 Treatments", 1199]),
    popularity: 5,
  },
  {
    brand: "Beaphar",
    line: "FIPROtec Spot On",
    categorySlug: "pet-health",
    about: "Fipronil spot-on that kills fleas and ticks ({flavour}) with protection lasting up to 8 weeks. Pack size: {pack}.",
    flavours: ["for Small Dogs", "for Medium Dogs", "for Cats"],
    variants: packs(["3 Pipettes", 1299], ["6 Pipettes", 2199]),
    popularity: 5,
  },

  // Vitamins and supplements
  {
    brand: "YuMOVE",
    line: "Adult Dog Joint Supplement",
    categorySlug: "health-supplements",
    about: "Vet-recommended joint care with ActivEase Green Lipped Mussel, glucosamine and hyaluronic acid for stiff dogs. Pack size: {pack}.",
    variants: packs(["60 Tablets", 2299], ["120 Tablets", 3999], ["300 Tablets", 7999]),
    popularity: 8,
  },
  {
    brand: "Pro-Kolin",
    line: "Advanced Probiotic Paste for Dogs",
    categorySlug: "health-supplements",
    about: "Fast-acting probiotic paste with kaolin and pectin to support digestive upsets in dogs. Supplied as a {pack} syringe.",
    variants: packs(["15ml", 999], ["30ml", 1599], ["60ml", 2499]),
    popularity: 5,
  },
  {
    brand: "Pet Remedy",
    line: "Natural Calming Plug-in Diffuser",
    categorySlug: "health-supplements",
    about: "Valerian-based calming diffuser for dogs, cats and small pets during fireworks, travel and vet visits. Pack size: {pack}.",
    variants: packs(["40ml Diffuser", 1999], ["2 x 40ml Refills", 1899]),
    popularity: 5,
  },
  {
    brand: "Adaptil",
    line: "Calm Home Diffuser",
    categorySlug: "health-supplements",
    about: "Releases a copy of the natural comforting pheromone to help dogs feel secure at home. Pack size: {pack}.",
    variants: packs(["48ml Starter Kit", 2499], ["48ml Refill", 1999], ["3 x 48ml Refills", 5199]),
    popularity: 6,
  },
  {
    brand: "Feliway",
    line: "Optimum Diffuser",
    categorySlug: "health-supplements",
    about: "Enhanced pheromone complex that helps cats cope with stress, scratching and spraying at home. Pack size: {pack}.",
    variants: packs(["48ml Starter Kit", 2599], ["48ml Refill", 2099]),
    popularity: 6,
    zooplusSection: "cats",
  },
  {
    brand: "Beaphar",
    line: "Multi-Vit Dog Vitamin Supplement",
    categorySlug: "health-supplements",
    about: "Balanced vitamins and minerals with taurine for dogs on home-prepared or mixed diets. Pack size: {pack}.",
    variants: packs(["100 Tablets", 599], ["250 Tablets", 1199]),
    popularity: 3,
  },

  // Grooming
  {
    brand: "FURminator",
    line: "deShedding Tool for Dogs",
    categorySlug: "dog-grooming",
    about: "Stainless-steel edge that reaches through the topcoat to remove loose undercoat hair ({flavour}), reducing shedding by up to 90%. Size: {pack}.",
    flavours: ["Long Hair", "Short Hair"],
    variants: packs(["Small", 2499], ["Medium", 3299], ["Large", 3699]),
    popularity: 8,
  },
  {
    brand: "Mikki",
    line: "Dog Nail Clipper",
    categorySlug: "dog-grooming",
    about: "Sharp stainless-steel clippers with a safety guard and non-slip handles for stress-free nail trims. Size: {pack}.",
    variants: packs(["Small", 599], ["Large", 799]),
    popularity: 5,
  },
  {
    brand: "Mikki",
    line: "Pin Slicker Brush",
    categorySlug: "dog-grooming",
    about: "Fine pin slicker that removes tangles and loose hair and leaves the coat smooth and shiny. Size: {pack}.",
    variants: packs(["Small", 549], ["Medium", 699], ["Large", 849]),
    popularity: 4,
  },
  {
    brand: "Johnson's",
    line: "Clean 'n' Fresh Dog Shampoo",
    categorySlug: "dog-grooming",
    about: "Gentle cleansing shampoo ({flavour}) with a fresh fragrance that leaves the coat soft and manageable. Supplied as a {pack} bottle.",
    flavours: ["Original", "Tea Tree", "Aloe Vera"],
    variants: packs(["200ml", 349], ["500ml", 599]),
    popularity: 4,
  },
  {
    brand: "Beaphar",
    line: "Aloe Vera Dog Shampoo",
    categorySlug: "dog-grooming",
    about: "Mild, pH-balanced shampoo with aloe vera to soothe sensitive skin and condition the coat. Supplied as a {pack} bottle.",
    variants: packs(["250ml", 499], ["1L", 1299]),
    popularity: 4,
  },
  {
    brand: "Animology",
    line: "Dog's Body Shampoo",
    categorySlug: "dog-grooming",
    about: "Deep-cleansing, conditioning shampoo with a long-lasting fragrance, made in Britain. Supplied as a {pack} bottle.",
    variants: packs(["250ml", 549], ["5L", 3499]),
    popularity: 4,
  },
  {
    brand: "Wahl",
    line: "Pro Pet Dog Clipper",
    categorySlug: "dog-grooming",
    about: "Quiet, low-vibration clipper with self-sharpening blades and four comb attachments for grooming at home. Supplied as the {pack}.",
    variants: packs(["Standard Kit", 3999], ["Cordless Kit", 5999]),
    popularity: 5,
  },

  // Training and walking
  {
    brand: "Company of Animals",
    line: "Halti Headcollar",
    categorySlug: "dog-training",
    about: "Padded headcollar that gently stops pulling on the lead, with a safety link to the collar. {pack}.",
    variants: packs(["Size 1", 1349], ["Size 2", 1349], ["Size 3", 1399], ["Size 4", 1449], ["Size 5", 1499]),
    popularity: 7,
  },
  {
    brand: "Company of Animals",
    line: "Halti No Pull Harness",
    categorySlug: "dog-training",
    about: "Front-control harness with padded straps that reduces pulling without restricting movement. Size: {pack}.",
    variants: packs(["Small", 2099], ["Medium", 2299], ["Large", 2499]),
    popularity: 7,
  },
  {
    brand: "Company of Animals",
    line: "Pet Corrector Spray",
    categorySlug: "dog-training",
    about: "Hiss of compressed gas that interrupts unwanted behaviour such as barking and jumping up. Supplied as a {pack} can.",
    variants: packs(["30ml", 899], ["50ml", 1199], ["200ml", 2299]),
    popularity: 6,
  },
  {
    brand: "Ancol",
    line: "Viva Padded Buckle Collar",
    categorySlug: "dog-training",
    about: "Soft padded nylon collar in {flavour} with a strong metal buckle and D-ring. {pack}.",
    flavours: ["Black", "Red", "Blue"],
    variants: packs(["Size 2", 699], ["Size 4", 799], ["Size 6", 899]),
    popularity: 4,
  },
  {
    brand: "Ancol",
    line: "Viva Padded Nylon Dog Lead",
    categorySlug: "dog-training",
    about: "Comfortable padded-handle lead in {flavour} with a secure trigger hook. Length: {pack}.",
    flavours: ["Black", "Red", "Blue"],
    variants: packs(["1m", 799], ["1.8m", 999]),
    popularity: 4,
  },
  {
    brand: "Mikki",
    line: "Puppy Training Pads",
    categorySlug: "dog-training",
    about: "Super-absorbent, leak-proof pads with an attractant to help house-train puppies. Pack size: {pack}.",
    variants: packs(["30 Pack", 799], ["60 Pack", 1399], ["100 Pack", 1999]),
    popularity: 6,
  },
  {
    brand: "Ancol",
    line: "Dog Training Whistle",
    categorySlug: "dog-training",
    about: "Adjustable-pitch whistle for recall and gundog training, audible over long distances. Supplied as a {pack}.",
    variants: packs(["Single Whistle", 349], ["Twin Pack", 599]),
    popularity: 3,
  },

  // Small animal
  {
    brand: "Burgess",
    line: "Excel Adult Rabbit Nuggets with Mint",
    categorySlug: "small-animal",
    about: "Vet-recommended, high-fibre nuggets with natural mint that support healthy teeth and digestion. Supplied in a {pack} bag.",
    variants: packs(["1.5kg", 649], ["4kg", 1399], ["10kg", 2799]),
    popularity: 7,
  },
  {
    brand: "Burgess",
    line: "Excel Guinea Pig Nuggets with Blackcurrant & Oregano",
    categorySlug: "small-animal",
    about: "High-fibre nuggets with added vitamin C, which guinea pigs cannot make themselves. Supplied in a {pack} bag.",
    variants: packs(["1.5kg", 649], ["4kg", 1449], ["10kg", 2899]),
    popularity: 6,
  },
  {
    brand: "Burgess",
    line: "Excel Feeding Hay",
    categorySlug: "small-animal",
    about: "Long-stranded, dust-extracted Timothy hay {flavour} to keep teeth and tummies healthy. Supplied as {pack}.",
    flavours: ["with Dandelion & Marigold", "with Chamomile"],
    variants: packs(["1kg", 499], ["3kg", 1099]),
    popularity: 5,
  },
  {
    brand: "Science Selective",
    line: "Adult Rabbit Food",
    categorySlug: "small-animal",
    about: "Single-component, high-fibre kibble with no added sugar that prevents selective feeding. Supplied in a {pack} bag.",
    variants: packs(["1.5kg", 649], ["3kg", 1099], ["10kg", 2799]),
    popularity: 5,
  },
  {
    brand: "Science Selective",
    line: "Guinea Pig Food",
    categorySlug: "small-animal",
    about: "Timothy-hay based nuggets with stabilised vitamin C and no added sugar for adult guinea pigs. Supplied in a {pack} bag.",
    variants: packs(["1.5kg", 699], ["3kg", 1149]),
    popularity: 4,
  },
  {
    brand: "Versele-Laga",
    line: "Cuni Complete Rabbit Food",
    categorySlug: "small-animal",
    about: "Extruded all-in-one granules with Timothy grass and high fibre for dwarf and adult rabbits. Supplied in a {pack} bag.",
    variants: packs(["500g", 349], ["1.75kg", 1099], ["8kg", 3999]),
    popularity: 4,
  },
  {
    brand: "Versele-Laga",
    line: "Crispy Muesli Hamster & Co",
    categorySlug: "small-animal",
    about: "Varied muesli of seeds, grains and vegetables with added vitamins for hamsters and gerbils. Supplied in a {pack} bag.",
    variants: packs(["400g", 249], ["1kg", 499], ["2.75kg", 1099]),
    popularity: 3,
  },

  // Birds
  {
    brand: "Peckish",
    line: "Complete Seed Mix for Wild Birds",
    categorySlug: "bird-food",
    about: "No-mess, no-grow seed blend with sunflower hearts and peanut granules to attract a wide range of garden birds. Supplied in a {pack} bag.",
    variants: packs(["2kg", 699], ["5kg", 1399], ["12.75kg", 2999]),
    popularity: 7,
  },
  {
    brand: "Peckish",
    line: "Sunflower Hearts",
    categorySlug: "bird-food",
    about: "High-energy, husk-free sunflower hearts loved by finches, tits and robins, with no mess under the feeder. Supplied in a {pack} bag.",
    variants: packs(["2kg", 999], ["5kg", 1999], ["12.75kg", 3999]),
    popularity: 6,
  },
  {
    brand: "Peckish",
    line: "Extra Goodness Energy Balls",
    categorySlug: "bird-food",
    about: "Suet balls packed with seeds and fruit to give garden birds energy through the colder months. Pack size: {pack}.",
    variants: packs(["6 Pack", 449], ["50 Pack", 1799], ["100 Pack", 2999]),
    popularity: 5,
  },
  {
    brand: "Versele-Laga",
    line: "Prestige Budgie Seed",
    categorySlug: "bird-food",
    about: "Balanced seed mixture with millet and canary seed, enriched with vitamins for healthy budgies. Supplied in a {pack} bag.",
    variants: packs(["1kg", 399], ["4kg", 1299], ["20kg", 4499]),
    popularity: 4,
  },
  {
    brand: "Johnston & Jeff",
    line: "Robin & Songbird Food",
    categorySlug: "bird-food",
    about: "Soft-bill blend of insects, seeds and fruit that attracts robins, wrens and blackbirds. Supplied in a {pack} bag.",
    variants: packs(["1kg", 699], ["3kg", 1699]),
    popularity: 3,
  },

  // Fish and aquatics
  {
    brand: "Tetra",
    line: "TetraMin Tropical Flake Fish Food",
    categorySlug: "fish-aquatics",
    about: "Complete flake food for all tropical fish, with Clean & Clear Water formula to reduce waste. Supplied as a {pack} tub.",
    variants: packs(["100ml", 399], ["250ml", 899], ["500ml", 1499], ["1L", 2499]),
    popularity: 6,
  },
  {
    brand: "Tetra",
    line: "AquaSafe Water Conditioner",
    categorySlug: "fish-aquatics",
    about: "Makes tap water safe for fish instantly by neutralising chlorine and heavy metals. Supplied as a {pack} bottle.",
    variants: packs(["100ml", 499], ["250ml", 899], ["500ml", 1399]),
    popularity: 5,
  },
  {
    brand: "Tetra",
    line: "Goldfish Flake Food",
    categorySlug: "fish-aquatics",
    about: "Balanced flakes for goldfish and other coldwater fish, supporting health and vitality. Supplied as a {pack} tub.",
    variants: packs(["100ml", 349], ["250ml", 699]),
    popularity: 5,
  },
  {
    brand: "JBL",
    line: "NovoBel Tropical Flake Food",
    categorySlug: "fish-aquatics",
    about: "Main food flakes for tropical ornamental fish, with vitamins and no artificial colours. Supplied as a {pack} tub.",
    variants: packs(["100ml", 499], ["250ml", 999]),
    popularity: 3,
  },
  {
    brand: "JBL",
    line: "Biotopol Water Conditioner",
    categorySlug: "fish-aquatics",
    about: "Conditions tap water for freshwater aquariums, binding heavy metals and protecting fish mucous membranes. Supplied as a {pack} bottle.",
    variants: packs(["100ml", 599], ["250ml", 999]),
    popularity: 3,
  },
  {
    brand: "Fluval",
    line: "Flex Aquarium Kit",
    categorySlug: "fish-aquatics",
    about: "Curved-front {flavour} aquarium with built-in 3-stage filtration and a remote-controlled LED light. Capacity: {pack}.",
    flavours: ["Black", "White"],
    variants: packs(["34L", 12999], ["57L", 16999], ["123L", 27999]),
    popularity: 4,
  },
  {
    brand: "Fluval",
    line: "Underwater Filter",
    categorySlug: "fish-aquatics",
    about: "Quiet internal filter with mechanical, chemical and biological filtration and an adjustable flow. Model: {pack}.",
    variants: packs(["U1", 2999], ["U2", 3699], ["U3", 4499], ["U4", 5499]),
    popularity: 3,
  },

  // Kennels, crates and carriers
  {
    brand: "Ancol",
    line: "Folding Metal Dog Crate",
    categorySlug: "dog-kennels-crates",
    about: "Two-door folding crate with a removable plastic tray, ideal for house training and travel. Size: {pack}.",
    variants: packs(["Small 24in", 3999], ["Medium 30in", 4999], ["Large 36in", 6499], ["X-Large 42in", 7999]),
    popularity: 6,
  },
  {
    brand: "Trixie",
    line: "Natura Dog Kennel with Flat Roof",
    categorySlug: "dog-kennels-crates",
    about: "Weatherproof pine kennel with a hinged flat roof, adjustable feet and a removable floor for cleaning. Size: {pack}.",
    variants: packs(["Medium", 12999], ["Large", 17999], ["X-Large", 22999]),
    popularity: 4,
  },
  {
    brand: "Ferplast",
    line: "Atlas Pet Carrier",
    categorySlug: "dog-kennels-crates",
    about: "Sturdy plastic carrier with secure closure, ventilation grilles and a carry handle for cats and small dogs. Size: {pack}.",
    variants: packs(["Atlas 10", 1999], ["Atlas 20", 2799], ["Atlas 30", 3999]),
    popularity: 4,
  },
  {
    brand: "Trixie",
    line: "Capri Pet Carrier",
    categorySlug: "dog-kennels-crates",
    about: "Lightweight carrier with a top opening and a quick-release door for vet trips. Size: {pack}.",
    variants: packs(["XS", 1499], ["S", 1899], ["M", 2499]),
    popularity: 3,
  },

  // Reptiles
  {
    brand: "Exo Terra",
    line: "Glass Terrarium",
    categorySlug: "reptile-supplies",
    about: "Front-opening glass terrarium with escape-proof locks, a ventilated mesh top and a raised bottom frame. Size: {pack}.",
    variants: packs(["45 x 45 x 45cm", 14999], ["60 x 45 x 60cm", 21999], ["90 x 45 x 45cm", 26999]),
    popularity: 3,
  },
  {
    brand: "ProRep",
    line: "Calci Dust Reptile Supplement",
    categorySlug: "reptile-supplies",
    about: "Fine calcium powder with vitamin D3 for dusting live food to prevent metabolic bone disease. Supplied as a {pack} tub.",
    variants: packs(["100g", 599], ["500g", 1699]),
    popularity: 3,
  },
  {
    brand: "Komodo",
    line: "Reptile Heat Mat",
    categorySlug: "reptile-supplies",
    about: "Slim, energy-efficient heat mat that provides gentle belly heat; use with a thermostat. Size: {pack}.",
    variants: packs(["Small 6W", 1599], ["Medium 12W", 1999], ["Large 24W", 2799]),
    popularity: 3,
  },
];
