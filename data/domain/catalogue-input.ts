/**
 * What the admin may write into the catalogue, validated on the server before anything is
 * stored: every message names its field, so a 400 says exactly what to fix. Amounts arrive as
 * pounds and leave as integer pence.
 */
import { z } from "zod";
import { canonicalMultiBuy, maxMultiBuyLength } from "./multi-buy.ts";
import { maxMemberSchemeLength } from "./member-price.ts";
import { affiliateIdPattern, affiliateKeys, maxAffiliateIdLength, maxBrandLength, type AffiliateIds } from "./catalogue.ts";
import { affiliateProgramme, parseHostList } from "./retailers.ts";
import { formatPence, toPence, type Pence } from "./money.ts";
import { maxKcalPerKg, minKcalPerKg } from "./feeding.ts";
import { feedingGuideSchema } from "./feeding.schema.ts";
import { categoryIconName, categoryIconNames } from "./category-icons.ts";
import { effectivePence } from "./offers.ts";
import { maxRepeatTermsLength } from "./repeat-delivery.ts";
import { isPrescriptionOnly, legalCategories } from "./legal-category.ts";
import { maxSlugLength, slugify, slugPattern } from "./slug.ts";
import { canonicalDetail, productDetailList, type ProductDetail, type ProductDetailKey } from "./product-details.ts";
import { catalogueTextLimits as limits } from "./limits.ts";

/** The highest price accepted for an offer, in pounds (a typo guard, far above any pet product). */
export const maxOfferPounds = 100_000;
/** Offers one product may have: one per retailer, and no site compares more than this. */
export const maxOffersPerProduct = 50;

const text = (name: string, max: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `${name} is required` : `${name} must be text`) })
    .trim()
    .max(max, `${name} must be at most ${max} characters`);

const requiredText = (name: string, max: number) => text(name, max).min(1, `${name} is required`);

/**
 * A product detail: text of at most its length, empty when left out (an update left without it
 * clears it); a choice, one of its values (or several, comma-separated) stored in its own order.
 */
const detailInput = (detail: ProductDetail & { key: ProductDetailKey }) => {
  const input = text(detail.key, detail.maxLength);
  if (!detail.choices) return input.default("");
  const offered = detail.choices.map((choice) => choice.value).join(", ");
  return input
    .transform((value, context) => {
      const canonical = canonicalDetail(detail, value);
      if (canonical !== null) return canonical;
      context.addIssue({ code: "custom", message: `${detail.key} must be ${detail.multiple ? "any of" : "one of"} ${offered}` });
      return z.NEVER;
    })
    .default("");
};
const detailInputs = Object.fromEntries(productDetailList.map((detail) => [detail.key, detailInput(detail)])) as Record<
  ProductDetailKey,
  ReturnType<typeof detailInput>
>;

const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
};

/** An absolute http(s) URL. */
const httpUrl = (name: string) => requiredText(name, 2000).refine(isHttpUrl, `${name} must be an http or https URL`);

/** An image: an absolute http(s) URL or a path on this site ("/retailers/amazon.svg"); empty means none. */
const imageUrl = (name: string) =>
  text(name, 2000).refine(
    (value) => value === "" || isHttpUrl(value) || (/^\/(?!\/)/.test(value) && !/[\s\\]/.test(value)),
    `${name} must be an http or https URL or a path on this site`,
  );

const slug = (name: string) =>
  text(name, maxSlugLength)
    .min(1, `${name} is required`)
    .regex(slugPattern, `${name} must use only a-z, 0-9 and single hyphens between them`);

/** Pounds (number or numeric text) to pence: at least 0, at most two decimals. */
const pounds = (name: string) =>
  z
    .union([z.number(), z.string()], { error: `${name} must be an amount in pounds` })
    .transform((value, ctx): Pence => {
      const pence = toPence(value);
      if (pence === null) {
        ctx.addIssue({ code: "custom", message: `${name} must be an amount of at least 0 with at most two decimals` });
        return z.NEVER;
      }
      if (pence > maxOfferPounds * 100) {
        ctx.addIssue({ code: "custom", message: `${name} must be at most £${maxOfferPounds.toLocaleString("en-GB")}` });
        return z.NEVER;
      }
      return pence;
    });

const optionalPounds = (name: string) => z.union([z.null(), pounds(name)]).default(null);

const id = (name: string) =>
  z.number({ error: (issue) => (issue.input === undefined ? `${name} is required` : `${name} must be a whole number`) }).int(`${name} must be a whole number`).positive(`${name} must be a whole number`);

const flag = (name: string, fallback: boolean) => z.boolean({ error: `${name} must be true or false` }).default(fallback);

export const offerInput = z.object({
  retailerId: id("retailerId"),
  affiliateUrl: httpUrl("affiliateUrl"),
  price: pounds("price"),
  originalPrice: optionalPounds("originalPrice"),
  inStock: flag("inStock", true),
  priceOverride: flag("priceOverride", false),
  manualPrice: optionalPounds("manualPrice"),
  freeDelivery: flag("freeDelivery", false),
  /** The item price on the retailer's repeat-delivery scheme; null: none. At most the one-off price. */
  repeatPrice: optionalPounds("repeatPrice"),
  /** The scheme's terms in a line; empty means none. Only with a repeat price. */
  repeatTerms: z
    .nullable(text("repeatTerms", maxRepeatTermsLength))
    .default(null)
    .transform((value) => (value === "" ? null : value)),
  /** The retailer's multi-buy ("3 for 2", "buy 2 get 1 free", "2 for £20"); empty means none. Kept in the site's words ("3 for 2"). */
  multiBuy: z
    .nullable(text("multiBuy", maxMultiBuyLength))
    .default(null)
    .transform((value, ctx) => {
      if (value === null || value === "") return null;
      const canonical = canonicalMultiBuy(value);
      if (canonical === null) {
        ctx.addIssue({ code: "custom", message: 'multiBuy must be a multi-buy like "3 for 2" or "2 for £20"' });
        return z.NEVER;
      }
      return canonical;
    }),
  /** What members of the retailer's loyalty scheme pay; null: none. Below the one-off price, with the scheme named. */
  memberPrice: optionalPounds("memberPrice"),
  /** The loyalty scheme the member price needs ("Pets Club"); empty means none. */
  memberScheme: z
    .nullable(text("memberScheme", maxMemberSchemeLength))
    .default(null)
    .transform((value) => (value === "" ? null : value)),
});
export type OfferInput = z.infer<typeof offerInput>;

/**
 * What is wrong with an offer's member price, or null: a member price needs its scheme named (the
 * price rules want the condition shown beside it) and a scheme needs a price; the member price
 * must be below the one-off price the shopper pays (the manual price under an override), or it is
 * no member price.
 */
function memberProblem(link: Pick<OfferInput, "price" | "priceOverride" | "manualPrice" | "memberPrice" | "memberScheme">): { field: string; message: string } | null {
  if (link.memberPrice === null) return link.memberScheme === null ? null : { field: "memberScheme", message: "memberScheme needs a memberPrice" };
  if (link.memberScheme === null) return { field: "memberScheme", message: "memberScheme is required with a memberPrice (the scheme members join, e.g. Pets Club)" };
  const oneOff = oneOffPence(link);
  if (link.memberPrice >= oneOff) return { field: "memberPrice", message: `memberPrice must be below the one-off price (${formatPence(oneOff)})` };
  return null;
}

/** What the shopper pays for the offer once: the manual price under an override, else the listed one. */
const oneOffPence = (link: Pick<OfferInput, "price" | "priceOverride" | "manualPrice">): Pence =>
  effectivePence({ retailerId: 0, pricePence: link.price, inStock: true, priceOverride: link.priceOverride, manualPricePence: link.manualPrice });

/**
 * What is wrong with an offer's repeat-delivery fields, or null: terms need a repeat price, and a
 * repeat price above the one-off price the shopper pays (the manual price under an override) is
 * not a repeat-delivery discount. Equal is allowed (a scheme may offer no price saving).
 */
function repeatProblem(link: Pick<OfferInput, "price" | "priceOverride" | "manualPrice" | "repeatPrice" | "repeatTerms">): { field: string; message: string } | null {
  if (link.repeatPrice === null) return link.repeatTerms === null ? null : { field: "repeatTerms", message: "repeatTerms needs a repeatPrice" };
  const oneOff = oneOffPence(link);
  if (link.repeatPrice > oneOff) {
    return { field: "repeatPrice", message: `repeatPrice must not be above the one-off price (${formatPence(oneOff)})` };
  }
  return null;
}

const kcalMessage = `kcalPerKg must be a whole number from ${minKcalPerKg} to ${maxKcalPerKg.toLocaleString("en-GB")}`;

/** Why a prescription-only medicine cannot be featured: featuring it would advertise it to the public. */
export const featuredPrescriptionMessage = "isFeatured: a prescription-only medicine (POM-V or POM-VPS) cannot be featured";

export const productInput = z
  .object({
    name: requiredText("name", limits.productName),
    /** Derived from the name when absent or empty. */
    slug: z.union([z.literal(""), slug("slug")]).optional(),
    ...detailInputs,
    image: imageUrl("image").default(""),
    brand: z.union([z.null(), text("brand", maxBrandLength)]).default(null).transform((value) => (value === "" ? null : value)),
    categoryId: id("categoryId"),
    /**
     * The reviews' average, 0 to 5 with one decimal; null or absent for none. Only a product with
     * reviews has a rating: with reviewCount 0 it is stored as 0 and shown nowhere (the column is
     * NOT NULL, so review_count = 0 is what means "no rating"); with reviews it is required.
     */
    rating: z
      .number({ error: "rating must be a number from 0 to 5" })
      .min(0, "rating must be from 0 to 5")
      .max(5, "rating must be from 0 to 5")
      .refine((value) => Number.isInteger(Math.round(value * 10)) && Math.abs(value * 10 - Math.round(value * 10)) < 1e-9, "rating must have at most one decimal")
      .nullable()
      .default(null),
    reviewCount: z
      .number({ error: "reviewCount must be a whole number of at least 0" })
      .int("reviewCount must be a whole number of at least 0")
      .min(0, "reviewCount must be a whole number of at least 0")
      .max(100_000_000, "reviewCount is too large")
      .default(0),
    isFeatured: flag("isFeatured", false),
    retailerLinks: z.array(offerInput, { error: "retailerLinks must be a list" }).max(maxOffersPerProduct, `a product can have at most ${maxOffersPerProduct} offers`).default([]),
    /**
     * The family its sizes share (brand + line + recipe as a slug, e.g. royal-canin-maxi-adult);
     * null or "" for none; left out, an update keeps the stored one (a new product has none).
     */
    familyKey: z
      .union([z.null(), z.literal(""), slug("familyKey")], { error: "familyKey must use only a-z, 0-9 and single hyphens between them" })
      .optional()
      .transform((value) => (value === "" ? null : value)),
    /**
     * A food's energy as fed, in whole kcal per kg (100 to 9,000: wet food is about 800, dry about
     * 3,500-4,500, pure fat 9,000), from which feeding costs are estimated when there is no guide;
     * null for none; left out, an update keeps the stored one.
     */
    kcalPerKg: z
      .number({ error: kcalMessage })
      .int(kcalMessage)
      .min(minKcalPerKg, kcalMessage)
      .max(maxKcalPerKg, kcalMessage)
      .nullable()
      .optional(),
    /** A food's feeding guide (daily grams by body weight); null for none; left out, an update keeps the stored one. */
    feedingGuide: feedingGuideSchema.nullable().optional(),
    /**
     * Its legal category as a veterinary medicine (POM-V, POM-VPS, NFA-VPS, AVM-GSL) or "none";
     * left out, an update keeps the stored one (a new product has none).
     */
    legalCategory: z.enum(legalCategories, { error: `legalCategory must be one of ${legalCategories.join(", ")}` }).optional(),
  })
  .transform((input, ctx) => {
    const slugValue = input.slug ? input.slug : slugify(input.name);
    if (!slugPattern.test(slugValue)) {
      ctx.addIssue({ code: "custom", path: ["name"], message: "name must contain a letter or digit (the page address is made from it)" });
      return z.NEVER;
    }
    const seen = new Set<number>();
    for (const [index, link] of input.retailerLinks.entries()) {
      if (seen.has(link.retailerId)) {
        ctx.addIssue({ code: "custom", path: ["retailerLinks", index, "retailerId"], message: "each retailer may appear once per product" });
        return z.NEVER;
      }
      seen.add(link.retailerId);
      if (link.priceOverride && link.manualPrice === null) {
        ctx.addIssue({ code: "custom", path: ["retailerLinks", index, "manualPrice"], message: "manualPrice is required when priceOverride is on" });
        return z.NEVER;
      }
      const problem = repeatProblem(link) ?? memberProblem(link);
      if (problem !== null) {
        ctx.addIssue({ code: "custom", path: ["retailerLinks", index, problem.field], message: problem.message });
        return z.NEVER;
      }
    }
    if (input.isFeatured && isPrescriptionOnly(input.legalCategory)) {
      ctx.addIssue({ code: "custom", path: ["isFeatured"], message: featuredPrescriptionMessage });
      return z.NEVER;
    }
    if (input.reviewCount > 0 && input.rating === null) {
      ctx.addIssue({ code: "custom", path: ["rating"], message: "rating is required when reviewCount is above 0" });
      return z.NEVER;
    }
    // A rating without reviews is no rating: it is stored as 0 and never shown.
    return { ...input, slug: slugValue, rating: input.reviewCount > 0 ? (input.rating ?? 0) : 0 };
  });
export type ProductInput = z.infer<typeof productInput>;

export const categoryInput = z.object({
  name: requiredText("name", limits.categoryName),
  slug: slug("slug"),
  /** One of the tile icons, in any case or style ("Bone", "ShieldDog"), stored by its own name ("bone", "shield-dog"). */
  icon: requiredText("icon", limits.categoryIcon).transform((typed, ctx) => {
    const name = categoryIconName(typed);
    if (name === null) {
      ctx.addIssue({ code: "custom", message: `icon must be one of ${categoryIconNames.join(", ")}` });
      return z.NEVER;
    }
    return name;
  }),
  description: text("description", limits.categoryDescription).default(""),
});
export type CategoryInput = z.infer<typeof categoryInput>;

export const retailerInput = z.object({
  name: requiredText("name", limits.retailerName),
  /** Derived from the name on create when absent; never changed by an update that leaves it out. */
  key: slug("key").optional(),
  logo: requiredText("logo", 2000).pipe(imageUrl("logo")),
  website: httpUrl("website"),
  description: text("description", limits.retailerDescription).default(""),
  comparesPrices: flag("comparesPrices", false),
  /** Standard delivery charge per order, null when not known; left out of an update: kept. */
  deliveryCharge: pounds("deliveryCharge").nullable().optional(),
  /** Delivery is free from this order value on; null: never free by value; left out of an update: kept. */
  freeDeliveryFrom: pounds("freeDeliveryFrom").nullable().optional(),
  /** Hosts its offer URLs may use besides its registry's and its website's; left out of an update: kept. */
  hosts: z
    .array(z.string({ error: "hosts must be a list of host names" }).max(253, "a host name is at most 253 characters"), { error: "hosts must be a list of host names" })
    .max(20, "at most 20 hosts")
    .transform((list, ctx) => {
      const hosts: string[] = [];
      for (const [index, item] of list.entries()) {
        const parsed = parseHostList(item);
        const host = parsed.hosts[0];
        if (parsed.invalid.length > 0 || parsed.hosts.length !== 1 || host === undefined) {
          ctx.addIssue({ code: "custom", path: [index], message: `"${item}" is not a host name (like shop.co.uk)` });
        } else if (!hosts.includes(host)) hosts.push(host);
      }
      return hosts;
    })
    .optional(),
  /** Merchant names (or network merchant ids) feeds give it besides its name; left out of an update: kept. */
  feedNames: z
    .array(z.string({ error: "feedNames must be a list of names" }).trim().min(1, "a feed name cannot be empty").max(100, "a feed name is at most 100 characters"), {
      error: "feedNames must be a list of names",
    })
    .max(20, "at most 20 feed names")
    .optional(),
});
export type RetailerInput = z.infer<typeof retailerInput>;

export const voucherInput = z.object({
  code: requiredText("code", limits.voucherCode),
  description: requiredText("description", limits.voucherDescription),
  retailer: requiredText("retailer", limits.voucherRetailer),
  url: httpUrl("url"),
  discount: requiredText("discount", limits.voucherDiscount),
  expiryDate: z
    .string({ error: "expiryDate must be a date (YYYY-MM-DD)" })
    .regex(/^\d{4}-\d{2}-\d{2}$/, "expiryDate must be a date (YYYY-MM-DD)")
    .refine((value) => {
      const date = new Date(`${value}T00:00:00Z`);
      return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
    }, "expiryDate must be a real calendar date"),
});
export type VoucherInput = z.infer<typeof voucherInput>;

const affiliateId = (key: keyof AffiliateIds) =>
  z
    .string({ error: affiliateProgramme(key).required })
    .trim()
    .min(1, affiliateProgramme(key).required)
    .max(maxAffiliateIdLength, `${key} must be at most ${maxAffiliateIdLength} characters`)
    .regex(affiliateIdPattern, `${key} may use only letters, digits and . _ ~ -`);

/** All five IDs are required; each is a URL-safe token (it goes into every outbound link). */
export const affiliateIdsInput = z.object(
  Object.fromEntries(affiliateKeys.map((key) => [key, affiliateId(key)])) as Record<keyof AffiliateIds, ReturnType<typeof affiliateId>>,
);
