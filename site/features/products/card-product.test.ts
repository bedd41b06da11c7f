import { describe, expect, it } from "vitest";
import type { OfferJson as Offer, ProductJson as Product } from "../../../data/domain/catalogue-json.ts";
import type { LegalCategory } from "../../../data/domain/legal-category.ts";
import { toCardProduct } from "./card-product.ts";
import { detailsOf } from "../../../data/domain/product-details.ts";

const offer: Offer = {
  id: 1,
  productId: 7,
  retailerId: 3,
  retailer: { key: "amazon", name: "Amazon", logo: "/retailers/amazon.svg" },
  price: 12.99,
  originalPrice: null,
  url: "https://www.amazon.co.uk/dp/B0WORMER",
  inStock: true,
  freeDelivery: true,
  delivery: 0,
  total: 12.99,
  priceOverride: false,
  manualPrice: null,
  updatedAt: "2026-11-20T03:00:00.000Z",
  lastCheckedAt: "2026-11-20T03:00:00.000Z",
  stale: false,
  repeatPrice: null,
  repeatTotal: null,
  repeatTerms: null,
  multiBuy: null,
  memberPrice: null,
  memberScheme: null,
  memberTotal: null,
};

/** A wormer in stock at Amazon, with a was price the history supports. */
const wormer = (legalCategory: LegalCategory): Product => ({
  id: 7,
  name: "Wormer Tablets 4 pack",
  slug: "wormer-tablets-4-pack",
  ...detailsOf({}),
  image: "",
  brand: "Vetcare",
  categoryId: 1,
  category: { name: "Flea, Tick & Worming", slug: "pet-health" },
  rating: 4.6,
  reviewCount: 40,
  bestPrice: 12.99,
  originalPrice: 15.99,
  bestDelivery: 0,
  packSize: null,
  bestRetailerId: 3,
  bestRetailer: offer.retailer,
  prices: [offer],
  isFeatured: false,
  rank: 1,
  createdAt: "2026-11-01T00:00:00.000Z",
  lastEditedAt: null,
  kcalPerKg: null,
  feedingGuide: null,
  foodFor: null,
  legalCategory,
});

describe("toCardProduct", () => {
  it.each(["POM-V", "POM-VPS"] as const)("shows a %s medicine as a plain price: no was price, no best-deal link, marked prescription-only", (category) => {
    const card = toCardProduct(wormer(category));
    expect(card).toMatchObject({ prescriptionOnly: true, originalPrice: null, bestDeal: null, bestPrice: 12.99 });
    expect(card.offers).toHaveLength(1);
  });

  it.each(["none", "NFA-VPS", "AVM-GSL"] as const)("keeps the was price and best-deal link of a %s product, and adds no mark", (category) => {
    const card = toCardProduct(wormer(category));
    expect(card).toMatchObject({ originalPrice: 15.99, bestDeal: { retailerKey: "amazon", url: offer.url } });
    expect("prescriptionOnly" in card).toBe(false);
  });
});
