/**
 * Schemas for the public read API's query parameters. Every message names its parameter, so
 * a 400 tells the caller exactly what to fix.
 */
import { z } from "zod";
import { maxSearchLength } from "./search.ts";
import { sortKeys, defaultSort, searchSortKeys, defaultSearchSort, sortOffered, pricePerKgSort, soldByWeightCategories, costPerDaySort, type ProductSortKey } from "./sorting.ts";
import { activities, lifeStages, species, type PetBody } from "./feeding.ts";
import { petProfileSchema } from "./feeding.schema.ts";
import { foodSpeciesOf } from "./food.ts";
import { maxBrandLength } from "./catalogue.ts";
import { defaultPageSize, maxPageSize } from "./query-values.ts";
import { maxSlugLength, slugPattern } from "./slug.ts";

const maxOffset = 1_000_000;
const maxPounds = 1_000_000;

/**
 * Query strings carry text; an empty value means the parameter was not given. Optional on the
 * outside too, so the API's documentation lists the parameter as optional.
 */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === "" ? undefined : value), schema.optional()).optional();

const single = (name: string) =>
  z.string({ error: (issue) => (issue.input === undefined ? `${name} is required` : `${name} must be given once`) });

const integerParam = (name: string, min: number, max: number) =>
  single(name)
    .regex(/^\d+$/, `${name} must be a whole number`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `${name} must be between ${min} and ${max}`);

const poundsParam = (name: string) =>
  single(name)
    .regex(/^\d{1,7}(\.\d{1,2})?$/, `${name} must be an amount in pounds, like 12.99`)
    .transform(Number)
    .refine((n) => n <= maxPounds, `${name} must be at most ${maxPounds}`);

export const idParam = (name = "id") => integerParam(name, 1, Number.MAX_SAFE_INTEGER);

export const slugParam = (name = "slug") =>
  single(name).max(maxSlugLength, `${name} is too long`).regex(slugPattern, `${name} must be a slug (a-z, 0-9 and hyphens)`);

export const pagingShape = {
  offset: optional(integerParam("offset", 0, maxOffset)).default(0),
  limit: optional(integerParam("limit", 1, maxPageSize)).default(defaultPageSize),
};

export const productFilterShape = {
  category: optional(slugParam("category")),
  retailer: optional(idParam("retailer")),
  brand: optional(single("brand").trim().min(1, "brand must not be blank").max(maxBrandLength, "brand is too long")),
  minPrice: optional(poundsParam("minPrice")),
  maxPrice: optional(poundsParam("maxPrice")),
};

const priceOrder = (value: { minPrice?: number | undefined; maxPrice?: number | undefined }) =>
  value.minPrice === undefined || value.maxPrice === undefined || value.minPrice <= value.maxPrice;
const priceOrderMessage = { message: "minPrice must not be above maxPrice", path: ["minPrice"] };

export const productCountQuery = z.object(productFilterShape).refine(priceOrder, priceOrderMessage);

/** A sort parameter taking the keys of one sort table, with its default. */
const sortParam = <K extends string>(keys: readonly [K, ...K[]], fallback: K) =>
  optional(single("sort").refine((s) => (keys as readonly string[]).includes(s), `sort must be one of ${keys.join(", ")}`))
    .default(fallback)
    .transform((s) => s as K);

const choiceParam = <T extends string>(name: string, values: readonly [T, ...T[]]) =>
  optional(single(name).refine((v) => (values as readonly string[]).includes(v), `${name} must be one of ${values.join(", ")}`).transform((v) => v as T));

/** The pet's body for sort=cost_per_day (never its name): what the cost per day is worked out for. */
export const petQueryShape = {
  species: choiceParam("species", species),
  weightKg: optional(
    single("weightKg")
      .regex(/^\d{1,3}(\.\d{1,2})?$/, "weightKg must be a weight in kg, like 12.5")
      .transform(Number),
  ),
  lifeStage: choiceParam("lifeStage", lifeStages),
  activity: choiceParam("activity", activities),
  neutered: optional(single("neutered").refine((v) => v === "true" || v === "false", "neutered must be true or false").transform((v) => v === "true")),
};
const petQueryNames = Object.keys(petQueryShape) as (keyof typeof petQueryShape)[];

/**
 * sort=cost_per_day needs a food category and the whole pet, a valid one of that category's
 * species (petProfileSchema's bounds: 0.5 to 100 kg a dog, to 15 kg a cat, no puppy cats); the
 * pet's parameters come with that sort only, so they never split the cache of other sorts.
 */
function costSortRules(query: { sort: ProductSortKey; category?: string | undefined } & { [K in keyof typeof petQueryShape]?: unknown }, ctx: z.RefinementCtx): void {
  const given = petQueryNames.filter((name) => query[name] !== undefined);
  if (query.sort !== costPerDaySort.value) {
    if (given.length > 0) ctx.addIssue({ code: "custom", path: [given[0]!], message: `${given[0]} is only taken with sort=cost_per_day` });
    return;
  }
  const pet = wholePet(query, ctx, "sort", "sort=cost_per_day needs");
  if (pet && foodSpeciesOf(query.category) !== pet.species) {
    ctx.addIssue({ code: "custom", path: ["sort"], message: `sort=cost_per_day needs a ${pet.species} food category` });
  }
}

/**
 * The pet's body from its parameters, which come all together: a valid pet (petProfileSchema's
 * bounds), or undefined with an issue added at `path` ("<needs> the pet's weightKg, ..." for
 * missing ones) or at the parameter at fault.
 */
function wholePet(query: { [K in keyof typeof petQueryShape]?: unknown }, ctx: z.RefinementCtx, path: string, needs: string): PetBody | undefined {
  const missing = petQueryNames.filter((name) => query[name] === undefined);
  if (missing.length > 0) {
    ctx.addIssue({ code: "custom", path: [path], message: `${needs} the pet's ${missing.join(", ")}` });
    return undefined;
  }
  const pet = petProfileSchema.safeParse({ ...query, name: "pet" });
  if (!pet.success) {
    const issue = pet.error.issues[0]!;
    ctx.addIssue({ code: "custom", path: issue.path, message: `${issue.path.join(".")}: ${issue.message}` });
    return undefined;
  }
  return { species: pet.data.species, weightKg: pet.data.weightKg, lifeStage: pet.data.lifeStage, activity: pet.data.activity, neutered: pet.data.neutered };
}

/**
 * A food's cheaper equivalents: for the visitor's pet when its parameters come (all of them, a
 * valid pet), else per kg.
 */
export const alternativesQuery = z.object(petQueryShape).superRefine((query, ctx) => {
  const given = petQueryNames.filter((name) => query[name] !== undefined);
  if (given.length > 0) wholePet(query, ctx, given[0]!, `${given[0]} needs`);
});

/** The pet an alternatives query describes; null when it describes none (its rule lets the pet's parameters come all together or not at all). */
export function petOfQuery(query: z.infer<typeof alternativesQuery>): PetBody | null {
  const { species, weightKg, lifeStage, activity, neutered } = query;
  return species === undefined ? null : { species, weightKg: weightKg!, lifeStage: lifeStage!, activity: activity!, neutered: neutered! };
}

export const productListQuery = z
  .object({
    ...productFilterShape,
    sort: sortParam<ProductSortKey>([...sortKeys, costPerDaySort.value], defaultSort),
    ...pagingShape,
    ...petQueryShape,
  })
  .refine(priceOrder, priceOrderMessage)
  .refine((value) => value.sort === costPerDaySort.value || sortOffered(value.sort, value.category), {
    message: `sort ${pricePerKgSort.value} needs a category sold by weight (${soldByWeightCategories.join(", ")})`,
    path: ["sort"],
  })
  .superRefine(costSortRules);

export type ProductListQuery = z.infer<typeof productListQuery>;
export type ProductFilters = z.infer<typeof productCountQuery>;

export const featuredQuery = z.object({
  limit: optional(integerParam("limit", 1, maxPageSize)).default(12),
});

const searchTextParam = optional(single("q").max(maxSearchLength, `q must be at most ${maxSearchLength} characters`));

/** The search page's query: the text, the grid's filters, a sort of the search page's table (relevance by default), paging. */
export const searchQuery = z
  .object({
    q: searchTextParam.default(""),
    ...productFilterShape,
    sort: sortParam(searchSortKeys, defaultSearchSort),
    ...pagingShape,
  })
  .refine(priceOrder, priceOrderMessage);

/** The filters that scope a facet: the product filters but the facet's own (the brand). */
const { brand: _brandFilter, ...facetScopeShape } = productFilterShape;

/**
 * GET /api/brands/counts: the brands of a view (the grid's filters but the brand, and a search's text),
 * each with its count.
 */
export const brandFacetQuery = z.object({ q: searchTextParam, ...facetScopeShape }).refine(priceOrder, priceOrderMessage);

export type BrandScope = z.infer<typeof brandFacetQuery>;

export const voucherQuery = z.object({
  status: optional(z.enum(["all", "active"], { error: "status must be all or active" })).default("all"),
  sort: optional(z.enum(["expiry", "popular"], { error: "sort must be expiry or popular" })).default("expiry"),
  retailer: optional(single("retailer").trim().min(1).max(100, "retailer is too long")),
  offset: pagingShape.offset,
  limit: optional(integerParam("limit", 1, maxPageSize)).default(maxPageSize),
});

export const affiliateLinksQuery = z.object({ productId: idParam("productId") });

export const placeholderParams = z.object({
  width: single("width").regex(/^\d{1,6}$/, "width must be a whole number of pixels").transform(Number),
  height: single("height").regex(/^\d{1,6}$/, "height must be a whole number of pixels").transform(Number),
  text: optional(single("text").max(60, "text must be at most 60 characters")),
});
