/**
 * The catalogue as the build and the server's reads see it. Money is integer pence throughout;
 * the API's JSON (catalogue-json.ts) is where it becomes pounds.
 */
import type { Pence } from "./money.ts";
import type { PackSize } from "./product-quantity.ts";
import type { FeedingGuide, Species } from "./feeding.ts";
import type { LegalCategory } from "./legal-category.ts";
import type { ProductDetailValues } from "./product-details.ts";

export interface Category {
  id: number;
  name: string;
  slug: string;
  icon: string;
  description: string;
}

export interface Retailer {
  id: number;
  /** Stable identity (`amazon`, `pets-at-home`): affiliate rules and feeds key on it, not on the name. */
  key: string;
  name: string;
  logo: string;
  website: string;
  description: string;
  /** Whether the site compares product prices here (else the retailer only has vouchers). */
  comparesPrices: boolean;
  /** Standard delivery charge per order in pounds; null when not known. */
  deliveryCharge: number | null;
  /** Delivery is free for an order worth at least this (pounds); null when never free by value. */
  freeDeliveryFrom: number | null;
  /** Hosts the site owner added for its offer URLs ("shop.co.uk"), besides the registry's and its website's. */
  hosts: string[];
  /** Every host its offer URLs may use: the registry's, the added ones and its website's (retailerHosts). */
  offerHosts: string[];
  /** Merchant names affiliate feeds give it besides its name. */
  feedNames: string[];
}

export interface RetailerRef {
  /** Stable identity: what outbound links are tagged by. */
  key: string;
  name: string;
  logo: string;
}

export interface Offer {
  id: number;
  productId: number;
  retailerId: number;
  retailer: RetailerRef;
  /** The item price the shopper pays (the manual price when the admin overrides it). */
  pricePence: Pence;
  /** The retailer's own claimed was-price (RRP) as its source gave it: never shown as a "was" price (Product.originalPricePence is the one the rule allows). */
  originalPricePence: Pence | null;
  url: string;
  inStock: boolean;
  /** The admin marked the offer as delivered free. */
  freeDelivery: boolean;
  /** Delivery for one unit bought on its own (the offer's own statement, else its retailer's rule); null: not known. */
  deliveryPence: Pence | null;
  /** What one unit costs to the door: price plus delivery (the price alone when delivery is not known). */
  totalPence: Pence;
  priceOverride: boolean;
  manualPricePence: Pence | null;
  updatedAt: string;
  /** When a source (feed, page check, the admin) last confirmed the price; null: never. */
  lastCheckedAt: string | null;
  /** Not confirmed within the freshness window (24 hours by default): shown with a warning, never the best price. */
  stale: boolean;
  /** The item price on the retailer's repeat-delivery scheme (Subscribe & Save, Repeat, Easy Repeat); null: none. */
  repeatPricePence: Pence | null;
  /** A repeat order to the door: the repeat price plus the delivery a one-off order at that price costs; null: no repeat price. */
  repeatTotalPence: Pence | null;
  /** The scheme's terms in a line; null: none stated. */
  repeatTerms: string | null;
  /** The retailer's multi-buy on it in the site's words ("3 for 2", "2 for £20.00": multi-buy.ts); null: none. */
  multiBuy: string | null;
  /** What members of memberScheme pay for the item, below pricePence (member-price.ts); null: no member price. */
  memberPricePence: Pence | null;
  /** The loyalty scheme the member price needs ("Pets Club"); null with no member price. */
  memberScheme: string | null;
  /** A member's order to the door: the member price plus the delivery a one-off order at it carries; null: no member price. */
  memberTotalPence: Pence | null;
}

/** The longest brand the catalogue stores, and so the longest a brand filter may name. */
export const maxBrandLength = 100;

/** A product with its details (product-details.ts: the description and any other typed text). */
export interface Product extends ProductDetailValues {
  id: number;
  name: string;
  slug: string;
  image: string;
  brand: string | null;
  categoryId: number;
  category: { name: string; slug: string };
  rating: number;
  reviewCount: number;
  /** The lowest total to the door (item plus delivery) among current in-stock offers. */
  bestPricePence: Pence | null;
  /**
   * The "was" price to the door the price history allows (wasPrice in deal-truth.ts: the best
   * offer's retailer charged it for 28 days in a row within six months, nothing higher since),
   * only when above the best price; the one a page, card or list may strike through.
   */
  originalPricePence: Pence | null;
  /** The delivery inside the best price; null when not known. */
  bestDeliveryPence: Pence | null;
  /** The net quantity its name states (for unit prices per kg, litre or item); null when none. */
  packSize: PackSize | null;
  bestRetailerId: number | null;
  bestRetailer: RetailerRef | null;
  prices: Offer[];
  isFeatured: boolean;
  rank: number;
  createdAt: string;
  lastEditedAt: string | null;
  /** A food's energy density, kcal per kg as sold; null when not a food or not known. */
  kcalPerKg: number | null;
  /** A food's feeding guide (daily grams by body weight for a normal adult); null when none is stored. */
  feedingGuide: FeedingGuide | null;
  /** The species the product feeds as a diet (from its category: dog food, cat food); null for everything else. */
  foodFor: Species | null;
  /** Its legal category as a veterinary medicine ("none" when it is not one); POM-V and POM-VPS need a prescription. */
  legalCategory: LegalCategory;
}

/** Where a product's best-deal link goes: its best retailer's offer, when in stock; else undefined. */
export function bestDealOffer<O extends Pick<Offer, "retailerId" | "inStock">>(product: { prices: readonly O[]; bestRetailerId: number | null }): O | undefined {
  return product.prices.find((offer) => offer.retailerId === product.bestRetailerId && offer.inStock);
}

/** An entry of the Recently Viewed strip. */
export interface RecentlyViewedItem {
  id: number;
  slug: string;
  name: string;
  image: string;
  bestPrice: number | null;
  viewedAt: string;
  /** How many retailers have an offer for the product. */
  retailerCount: number;
}

export interface Voucher {
  id: number;
  code: string;
  description: string;
  retailer: string;
  url: string;
  discount: string;
  expiryDate: string;
  uses: number;
  /** Not yet expired (the expiry date is today or later, UK time). */
  isValid: boolean;
}

/** The five affiliate settings keys. */
export const affiliateKeys = ["AMAZON", "PETS_AT_HOME", "JOLLYES", "ZOOPLUS", "EBAY"] as const;
export type AffiliateKey = (typeof affiliateKeys)[number];
export type AffiliateIds = Record<AffiliateKey, string>;
/** An affiliate ID goes into every outbound link: at most 100 characters, all URL-safe. */
export const maxAffiliateIdLength = 100;
export const affiliateIdPattern = /^[A-Za-z0-9._~-]+$/;
