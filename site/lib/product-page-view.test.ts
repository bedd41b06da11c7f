import { describe, expect, it } from "vitest";
import type { AffiliateIds, Offer, Product } from "../../data/domain/catalogue.ts";
import type { DealFacts } from "../../data/domain/deal-facts.ts";
import type { OfferPricing } from "../../data/domain/offers.ts";
import { packSizeOf } from "../../data/domain/product-quantity.ts";
import { productPageView, type ProductPageInput } from "./product-page-view.ts";
import { fromPounds } from "../../data/domain/money.ts";
import { detailsOf } from "../../data/domain/product-details.ts";

const now = new Date("2026-03-15T12:00:00.000Z");
const hour = 60 * 60 * 1000;
const freshForMs = 24 * hour;
const affiliateIds: AffiliateIds = { AMAZON: "paw-21", PETS_AT_HOME: "", JOLLYES: "", ZOOPLUS: "", EBAY: "" };
const retailers = {
  1: { key: "amazon", name: "Amazon", logo: "/logos/amazon.svg" },
  2: { key: "zooplus", name: "Zooplus", logo: "/logos/zooplus.svg" },
  3: { key: "jollyes", name: "Jollyes", logo: "/logos/jollyes.svg" },
} as const;

/** An offer at an item price and delivery in pounds (null: delivery not known). */
function offer(retailerId: 1 | 2 | 3, price: number, delivery: number | null, extra: Partial<Offer> = {}): Offer {
  const pricePence = fromPounds(price);
  const deliveryPence = fromPounds(delivery);
  return {
    id: retailerId * 10,
    productId: 7,
    retailerId,
    retailer: retailers[retailerId],
    pricePence,
    originalPricePence: null,
    url: `https://www.${retailers[retailerId].key}.co.uk/p/7`,
    inStock: true,
    freeDelivery: delivery === 0,
    deliveryPence,
    totalPence: pricePence + (deliveryPence ?? 0),
    priceOverride: false,
    manualPricePence: null,
    updatedAt: "2026-03-15T06:00:00.000Z",
    lastCheckedAt: "2026-03-15T06:00:00.000Z",
    stale: false,
    repeatPricePence: null,
    repeatTotalPence: null,
    repeatTerms: null,
    multiBuy: null,
    memberPricePence: null,
    memberScheme: null,
    memberTotalPence: null,
    ...extra,
  };
}

function product(prices: Offer[], extra: Partial<Product> = {}): Product {
  return {
    id: 7,
    name: "Crunchy Kibble 2kg",
    slug: "crunchy-kibble-2kg",
    ...detailsOf({}),
    description: "Dry food for adult dogs.",
    image: "/images/crunchy.jpg",
    brand: "Crunchy",
    categoryId: 1,
    category: { name: "Dog Food", slug: "dog-food" },
    rating: 4.5,
    reviewCount: 1234,
    bestPricePence: null,
    originalPricePence: null,
    bestDeliveryPence: null,
    packSize: null,
    bestRetailerId: null,
    bestRetailer: null,
    prices,
    isFeatured: false,
    rank: 1,
    createdAt: "2026-01-01T00:00:00.000Z",
    lastEditedAt: null,
    kcalPerKg: null,
    feedingGuide: null,
    foodFor: "dog",
    legalCategory: "none",
    ...extra,
  };
}

const pricingOf = (offers: readonly Offer[]): OfferPricing[] =>
  offers.map((o) => ({ retailerId: o.retailerId, pricePence: o.pricePence, inStock: o.inStock, priceOverride: false, manualPricePence: null, deliveryPence: o.deliveryPence }));

const dealFacts = (lowestBeforeTodayPence: number | null): DealFacts => ({
  isLowestIn90Days: false,
  todayPence: 1500,
  lowestPence: 1400,
  typicalPence: 1600,
  isDeal: false,
  wasPence: null,
  lowestBeforeTodayPence,
});

function input(p: Product, extra: Partial<ProductPageInput> = {}): ProductPageInput {
  return {
    product: p,
    history: [],
    sizes: [],
    pricing: pricingOf(p.prices),
    dealFacts: dealFacts(1450),
    affiliateIds,
    now,
    freshForMs,
    historyDays: 90,
    site: { baseUrl: "https://pawprice.example", siteName: "PawPrice" },
    ...extra,
  };
}

type JsonLdProduct = { offers?: { lowPrice: string; highPrice: string; offerCount: number; availability: string }; aggregateRating?: unknown };
const jsonLdProduct = (view: ReturnType<typeof productPageView>) => (view.jsonLd["@graph"] as JsonLdProduct[])[0]!;

describe("productPageView", () => {
  it("shows a was price and its saving, the best offer by total to the door, and the offers in the order given", () => {
    // Zooplus has the lower item price, but Amazon's free delivery makes it cheaper to the door.
    const offers = [offer(2, 14.0, 2.99), offer(1, 15.0, 0), offer(3, 18.5, null, { inStock: false })];
    const view = productPageView(input(product(offers, { bestPricePence: 1500, originalPricePence: 2000, bestRetailerId: 1, bestRetailer: retailers[1] })));

    expect(view.best?.offer).toBe(offers[1]);
    expect(view.best?.retailer.name).toBe("Amazon");
    expect(view.best?.priceText).toBe("£15.00");
    expect(view.best?.deliveryNote).toBe("with free delivery");
    expect(view.discount).toBe(25);
    expect(view.wasPriceText).toBe("£20.00");
    expect(view.showDealPanel).toBe(true);
    expect(view.showPriceAlert).toBe(true);
    expect(view.lowestBeforeTodayPence).toBe(1450);
    expect(view.offers.map((row) => row.offer.retailer.name)).toEqual(["Zooplus", "Amazon", "Jollyes"]);
    expect(view.offers.map((row) => row.isBest)).toEqual([false, true, false]);
    expect(view.offers.map((row) => row.totalText)).toEqual(["£16.99", "£15.00", "£18.50"]);
    expect(view.offers.map((row) => row.deliveryText)).toEqual(["+ £2.99 delivery", "Free delivery", "Delivery not stated"]);
    expect(view.offers[1]!.link).toMatchObject({ rel: "sponsored noopener", target: "_blank", "data-retailer": "Amazon", "data-price": "15.00" });
    expect(view.offers[1]!.link.href).toContain("paw-21");
    expect(view.retailersText).toBe("3 UK retailers");
    expect(view.meta).toEqual({
      title: "Crunchy Kibble 2kg",
      fullTitle: "Crunchy Kibble 2kg - PawPrice",
      description: "Compare Crunchy Kibble 2kg prices from 3 UK retailers: best price £15.00 at Amazon.",
      canonicalPath: "/product/crunchy-kibble-2kg",
    });
    expect(jsonLdProduct(view).offers).toEqual({
      "@type": "AggregateOffer",
      priceCurrency: "GBP",
      lowPrice: "15.00",
      highPrice: "18.50",
      offerCount: 3,
      availability: "https://schema.org/InStock",
    });
    expect(view.rating).toEqual({ stars: 4, text: "4.5", reviewCountText: "1,234" });
  });

  it("shows no was price when it is not above the best price", () => {
    const offers = [offer(1, 15.0, 0)];
    const view = productPageView(input(product(offers, { bestPricePence: 1500, originalPricePence: 1500 })));
    expect(view.discount).toBeNull();
    expect(view.wasPriceText).toBeNull();
  });

  it("gives a prescription-only medicine no was price, saving, deal panel or price alert", () => {
    const offers = [offer(1, 30.0, 0)];
    const view = productPageView(input(product(offers, { bestPricePence: 3000, originalPricePence: 4000, legalCategory: "POM-V" })));
    expect(view.prescriptionOnly).toBe(true);
    expect(view.discount).toBeNull();
    expect(view.wasPriceText).toBeNull();
    expect(view.showDealPanel).toBe(false);
    expect(view.showPriceAlert).toBe(false);
    expect(view.lowestBeforeTodayPence).toBeNull();
    // Its prices are still listed.
    expect(view.best?.offer).toBe(offers[0]);

    const exempt = productPageView(input(product(offers, { bestPricePence: 3000, originalPricePence: 4000, legalCategory: "NFA-VPS" })));
    expect(exempt.prescriptionOnly).toBe(false);
    expect(exempt.wasPriceText).toBe("£40.00");
  });

  it("with no offers: no best offer, no last seen price, no offers in the JSON-LD", () => {
    const view = productPageView(input(product([]), { pricing: [] }));
    expect(view.best).toBeUndefined();
    expect(view.lastSeen).toBeUndefined();
    expect(view.offers).toEqual([]);
    expect(view.retailersText).toBe("0 UK retailers");
    expect(view.hasRepeat).toBe(false);
    expect(view.meta.description).toBe("Compare Crunchy Kibble 2kg prices from 0 UK retailers. Currently out of stock at all retailers.");
    expect(jsonLdProduct(view).offers).toBeUndefined();
    expect(view.chart.lines).toEqual([]);
  });

  it("when every offer is stale: no best offer, the lowest last seen (the first listed of a tie), out of stock in the JSON-LD", () => {
    const offers = [offer(2, 12.0, 1.0, { stale: true }), offer(1, 13.0, 0, { stale: true }), offer(3, 11.0, 3.0, { stale: true })];
    const view = productPageView(input(product(offers)));
    expect(view.best).toBeUndefined();
    expect(view.offers.some((row) => row.isBest)).toBe(false);
    expect(view.lastSeen).toEqual({ totalText: "£13.00", retailerName: "Zooplus" });
    expect(view.meta.description).toContain("Currently out of stock at all retailers.");
    expect(jsonLdProduct(view).offers?.availability).toBe("https://schema.org/OutOfStock");
  });

  it("counts a price confirmed exactly the freshness window ago, not one a millisecond older", () => {
    const at = (ms: number) => new Date(now.getTime() - ms).toISOString();
    const offers = [offer(1, 10.0, 0, { lastCheckedAt: at(freshForMs + 1) }), offer(2, 11.0, 0, { lastCheckedAt: at(freshForMs) })];
    const view = productPageView(input(product(offers)));
    expect(view.best?.retailer.name).toBe("Zooplus");
  });

  it("breaks a tie for the best total to the door by the lower retailer id, whatever the listing order", () => {
    const offers = [offer(3, 12.0, 1.0), offer(2, 13.0, 0), offer(1, 14.0, 0)];
    const view = productPageView(input(product(offers, { bestPricePence: 1300 })));
    expect(view.best?.offer).toBe(offers[1]);
    expect(view.offers.filter((row) => row.isBest).map((row) => row.offer.retailerId)).toEqual([2]);
  });

  it("gives unit prices for a stated pack size and draws the history to the door", () => {
    const offers = [offer(1, 10.0, 2.0), offer(2, 13.0, 0, { repeatPricePence: 1200, repeatTotalPence: 1200 })];
    const view = productPageView(
      input(product(offers, { packSize: packSizeOf("Crunchy Kibble 2kg") }), {
        history: [{ retailerId: 1, retailerName: "Amazon", pricePence: 1000, recordedAt: "2026-03-01T00:00:00.000Z" }],
      }),
    );
    expect(view.unitHeading).toBe("Per kg");
    expect(view.best?.unitTotalText).toBe("£6.00 per kg");
    expect(view.best?.unitItemText).toBe("£5.00 per kg");
    expect(view.hasRepeat).toBe(true);
    expect(view.chart.lines.map((line) => [line.retailerName, line.lastPricePence])).toEqual([["Amazon", 1200]]);
  });

  it("shows each member price with its scheme beside the standard price, and each scheme once for the member choice", () => {
    const club = { memberPricePence: 900, memberScheme: "Pets Club", memberTotalPence: 1299 };
    const offers = [offer(1, 10.0, 3.99, club), offer(2, 12.0, 0), offer(3, 11.0, 0, { ...club, memberPricePence: 1000, memberTotalPence: 1000 }), offer(1, 14.0, 0, { memberPricePence: 1300, memberScheme: "zooPoints", memberTotalPence: 1300 })];
    const view = productPageView(input(product(offers)));
    expect(view.offers.map((row) => row.member)).toEqual([
      { scheme: "Pets Club", itemText: "£9.00", totalText: "£12.99" },
      null,
      { scheme: "Pets Club", itemText: "£10.00", totalText: "£10.00" },
      { scheme: "zooPoints", itemText: "£13.00", totalText: "£13.00" },
    ]);
    expect(view.memberSchemes).toEqual(["Pets Club", "zooPoints"]);
    // The best price stays what anyone pays: £11.00 delivered free, not a member's £10.00.
    expect(view.best?.totalText).toBe("£11.00");
    expect(productPageView(input(product([offer(1, 10.0, 0)]))).memberSchemes).toEqual([]);
  });

  it("shows no rating without reviews", () => {
    const view = productPageView(input(product([offer(1, 10.0, 0)], { rating: 4.8, reviewCount: 0 })));
    expect(view.rating).toBeNull();
    expect(jsonLdProduct(view).aggregateRating).toBeUndefined();
  });
});
