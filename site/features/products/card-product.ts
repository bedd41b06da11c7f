/**
 * What a product card shows, and nothing more: the grid's first page is serialised into every
 * home and category page as island props, so each field here costs bytes on every visit.
 * Products from the API are reshaped the same way before they reach a card.
 */
import { bestDealOffer } from "../../../data/domain/catalogue.ts";
import type { ProductJson } from "../../../data/domain/catalogue-json.ts";
import type { CompareItem } from "../../../data/domain/compare.ts";
import type { PackSize } from "../../../data/domain/product-quantity.ts";
import { isPrescriptionOnly } from "../../../data/domain/legal-category.ts";
import { fromPounds } from "../../../data/domain/money.ts";
import { lastSeenOffer } from "../../../data/domain/offers.ts";

/** How many offers a card lists under the best price. */
export const cardOfferCount = 3;

export interface CardOffer {
  /** A product has one offer per retailer: the name tells its offers apart. */
  retailerName: string;
  retailerLogo: string;
  /** Price to the door (item plus delivery) and the item alone. */
  total: number;
  price: number;
  inStock: boolean;
}

export interface CardProduct extends CompareItem {
  brand: string | null;
  rating: number;
  reviewCount: number;
  originalPrice: number | null;
  /** The delivery inside bestPrice (a total to the door); null when not known or no best price. */
  bestDelivery: number | null;
  /** The pack's net quantity, for the unit price; null when its name states none. */
  packSize: PackSize | null;
  /** Nothing in stock: the lowest price to the door last seen, for "Out of stock at every retailer". */
  lastSeenPrice: number | null;
  /** The first offers, cheapest in stock first, as the card lists them. */
  offers: CardOffer[];
  /** All the product's offers, for "+N more retailers". */
  offerCount: number;
  /** The best retailer's in-stock offer, where View Best Deal goes; null: no such offer. */
  bestDeal: { retailerKey: string; url: string } | null;
  /** Listed by cost per day for the visitor's pet: what a day of this food costs it at the best price (pounds); null when unknown. */
  costPerDay?: number | null;
  /** A prescription-only medicine (POM-V, POM-VPS): a plain price list with "Prescription needed"; absent otherwise. */
  prescriptionOnly?: true;
}

/**
 * A product as its card shows it. A prescription-only medicine may not be advertised: its card
 * has no was price (so no "Save N%" and nothing struck through) and no "View Best Deal" link
 * (it links to its page, "See prices"), and says "Prescription needed".
 */
export function toCardProduct(product: ProductJson): CardProduct {
  const prescriptionOnly = isPrescriptionOnly(product.legalCategory);
  const bestOffer = prescriptionOnly ? undefined : bestDealOffer(product);
  return {
    id: product.id,
    slug: product.slug,
    name: product.name,
    image: product.image,
    brand: product.brand,
    rating: product.rating,
    reviewCount: product.reviewCount,
    bestPrice: product.bestPrice,
    bestRetailer: product.bestRetailer?.name ?? null,
    originalPrice: prescriptionOnly ? null : product.originalPrice,
    bestDelivery: product.bestDelivery,
    packSize: product.packSize,
    lastSeenPrice: product.bestPrice === null ? (lastSeenOffer(product.prices, (offer) => fromPounds(offer.total))?.total ?? null) : null,
    offers: product.prices.slice(0, cardOfferCount).map((offer) => ({
      retailerName: offer.retailer.name,
      retailerLogo: offer.retailer.logo,
      total: offer.total,
      price: offer.price,
      inStock: offer.inStock,
    })),
    offerCount: product.prices.length,
    bestDeal: bestOffer ? { retailerKey: bestOffer.retailer.key, url: bestOffer.url } : null,
    ...("costPerDay" in product ? { costPerDay: (product as ProductJson & { costPerDay: number | null }).costPerDay } : {}),
    ...(prescriptionOnly ? { prescriptionOnly: true as const } : {}),
  };
}

/** The compare tray's entry for a card's product. */
export function toCompareEntry(product: CardProduct): CompareItem {
  const { id, slug, name, image, bestPrice, bestRetailer, packSize } = product;
  return { id, slug, name, image, bestPrice, bestRetailer, packSize };
}
