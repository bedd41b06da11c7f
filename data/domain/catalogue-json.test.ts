/**
 * The API's product and offer JSON from the application's pence: each amount becomes pounds
 * exact to the penny under its API name, nothing else changes, and no pence field leaks out.
 */
import { describe, expect, it } from "vitest";
import type { Offer, Product } from "./catalogue.ts";
import { offerJson, productJson, productSizeJson } from "./catalogue-json.ts";
import type { ProductSize } from "./families.ts";
import { detailsOf } from "./product-details.ts";

const offer: Offer = {
  id: 11,
  productId: 7,
  retailerId: 1,
  retailer: { key: "zooplus", name: "Zooplus", logo: "/retailers/zooplus.svg" },
  pricePence: 4150,
  originalPricePence: 4599,
  url: "https://www.zooplus.co.uk/shop/7",
  inStock: true,
  freeDelivery: false,
  deliveryPence: 399,
  totalPence: 4549,
  priceOverride: true,
  manualPricePence: 4150,
  updatedAt: "2026-11-20T03:00:00.000Z",
  lastCheckedAt: null,
  stale: false,
  repeatPricePence: 3943,
  repeatTotalPence: 4342,
  repeatTerms: "5% off every order",
  multiBuy: "3 for 2",
  memberPricePence: 3899,
  memberScheme: "zooPoints",
  memberTotalPence: 4298,
};

const product: Product = {
  id: 7,
  name: "Kibble 12kg",
  slug: "kibble-12kg",
  ...detailsOf({ description: "Dry food" }),
  image: "",
  brand: "Acme",
  categoryId: 1,
  category: { name: "Dog Food", slug: "dog-food" },
  rating: 4.5,
  reviewCount: 12,
  bestPricePence: 4549,
  originalPricePence: 5001,
  bestDeliveryPence: 0,
  packSize: null,
  bestRetailerId: 1,
  bestRetailer: offer.retailer,
  prices: [offer, { ...offer, id: 12, retailerId: 2, pricePence: 1, originalPricePence: null, deliveryPence: null, totalPence: 1, manualPricePence: null, repeatPricePence: null, repeatTotalPence: null, memberPricePence: null, memberTotalPence: null }],
  isFeatured: false,
  rank: 3,
  createdAt: "2026-11-01T00:00:00.000Z",
  lastEditedAt: null,
  kcalPerKg: 3600,
  feedingGuide: null,
  foodFor: "dog",
  legalCategory: "none",
};

describe("offerJson", () => {
  it("gives every amount in pounds under its API name and keeps every other field as it is", () => {
    const { pricePence, originalPricePence, deliveryPence, totalPence, manualPricePence, repeatPricePence, repeatTotalPence, memberPricePence, memberTotalPence, ...rest } =
      offer;
    expect(offerJson(offer)).toStrictEqual({
      ...rest,
      price: 41.5,
      originalPrice: 45.99,
      delivery: 3.99,
      total: 45.49,
      manualPrice: 41.5,
      repeatPrice: 39.43,
      repeatTotal: 43.42,
      memberPrice: 38.99,
      memberTotal: 42.98,
    });
    expect([pricePence, originalPricePence, deliveryPence, totalPence, manualPricePence, repeatPricePence, repeatTotalPence, memberPricePence, memberTotalPence]).toEqual([
      4150, 4599, 399, 4549, 4150, 3943, 4342, 3899, 4298,
    ]);
  });

  it("keeps none as null and a penny as 0.01", () => {
    expect(offerJson(product.prices[1]!)).toMatchObject({
      price: 0.01,
      total: 0.01,
      originalPrice: null,
      delivery: null,
      manualPrice: null,
      repeatPrice: null,
      repeatTotal: null,
      memberPrice: null,
      memberTotal: null,
    });
  });
});

describe("productJson", () => {
  it("gives the best, was and delivery amounts in pounds, its offers as offerJson, and keeps the rest", () => {
    const { bestPricePence, originalPricePence, bestDeliveryPence, prices, ...rest } = product;
    expect(productJson(product)).toStrictEqual({
      ...rest,
      bestPrice: 45.49,
      originalPrice: 50.01,
      bestDelivery: 0,
      prices: prices.map(offerJson),
    });
    expect([bestPricePence, originalPricePence, bestDeliveryPence]).toEqual([4549, 5001, 0]);
  });

  it("keeps what a caller added to the product (a cost per day, a deal) and no best price as null", () => {
    const json = productJson({ ...product, bestPricePence: null, originalPricePence: null, bestDeliveryPence: null, extra: "kept" });
    expect(json).toMatchObject({ bestPrice: null, originalPrice: null, bestDelivery: null, extra: "kept" });
    expect(Object.keys(json).filter((key) => key.endsWith("Pence"))).toEqual([]);
  });
});

describe("productSizeJson", () => {
  it("gives a size's best and item prices and unit prices in pounds, and keeps the rest", () => {
    const size: ProductSize = {
      id: 3,
      slug: "kibble-2kg",
      label: "2kg",
      bestPricePence: 1399,
      unitPrice: { pence: 700, unit: "kg" },
      bestItemPricePence: 1000,
      itemUnitPrice: { pence: 500, unit: "kg" },
      bestValue: true,
      bestRetailer: "Amazon",
      packGrams: 2000,
    };
    expect(productSizeJson(size)).toStrictEqual({
      id: 3,
      slug: "kibble-2kg",
      label: "2kg",
      bestPrice: 13.99,
      unitPrice: { price: 7, unit: "kg" },
      bestItemPrice: 10,
      itemUnitPrice: { price: 5, unit: "kg" },
      bestValue: true,
      bestRetailer: "Amazon",
      packGrams: 2000,
    });
    expect(productSizeJson({ ...size, bestPricePence: null, unitPrice: null, bestItemPricePence: null, itemUnitPrice: null })).toMatchObject({
      bestPrice: null,
      unitPrice: null,
      bestItemPrice: null,
      itemUnitPrice: null,
    });
  });
});
