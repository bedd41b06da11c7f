import { describe, expect, it } from "vitest";
import { categoryIcons, comparisonRetailerNames } from "./catalogue-data.ts";
import { generateCatalogue, multipackSize, type GeneratedCatalogue } from "./generate.ts";
import { slugify } from "../domain/slug.ts";
import { packSizeOf } from "../domain/product-quantity.ts";
import { feedingGuideSchema } from "../domain/feeding.schema.ts";

const today = new Date("2025-03-14T10:30:00.000Z");
const dayMs = 86_400_000;
const catalogue = generateCatalogue({ products: 480, today });

function expectUnique(values: readonly string[]) {
  expect(new Set(values).size).toBe(values.length);
}

describe("generateCatalogue", () => {
  it("is deterministic: the same options give the same catalogue", () => {
    expect(generateCatalogue({ products: 480, today })).toEqual(catalogue);
    expect(generateCatalogue({ products: 480, today, seed: 7 })).not.toEqual(catalogue);
  });

  it("keeps product k the same whatever the count, so a re-seed keeps slugs", () => {
    const smaller = generateCatalogue({ products: 100, today });
    expect(smaller.products.map((p) => p.slug)).toEqual(catalogue.products.slice(0, 100).map((p) => p.slug));
  });

  it("makes the requested number of products with unique slugs, names and ranks", () => {
    const { products } = catalogue;
    expect(products).toHaveLength(480);
    expectUnique(products.map((p) => p.slug));
    expectUnique(products.map((p) => p.name));
    expect(products.map((p) => p.rank).sort((a, b) => a - b)).toEqual(products.map((_, i) => i + 1));
    for (const product of products) expect(product.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it("uses every category icon and has the dog-food and cat-food categories", () => {
    const icons = new Set(catalogue.categories.map((c) => c.icon));
    for (const icon of categoryIcons) expect(icons).toContain(icon);
    const slugs = catalogue.categories.map((c) => c.slug);
    expect(slugs).toContain("dog-food");
    expect(slugs).toContain("cat-food");
    expectUnique(slugs);
    // The 480-product default covers every category.
    expect(new Set(catalogue.products.map((p) => p.categorySlug))).toEqual(new Set(slugs));
  });

  it("gives realistic product fields", () => {
    const featured = catalogue.products.filter((p) => p.isFeatured);
    expect(featured).toHaveLength(12);
    const typicalRatings = catalogue.products.filter((p) => p.rating >= 3.8 && p.rating <= 4.9).length;
    expect(typicalRatings / catalogue.products.length).toBeGreaterThan(0.8);
    for (const product of catalogue.products) {
      expect(product.rating).toBeGreaterThanOrEqual(0);
      expect(product.rating).toBeLessThanOrEqual(5);
      expect(Math.round(product.rating * 10) / 10).toBe(product.rating);
      expect(Number.isInteger(product.reviewCount) && product.reviewCount >= 0).toBe(true);
      expect(product.image).toBe(`/api/packshot/${product.slug}.svg`);
      expect(product.description).not.toMatch(/[{}]/);
      expect(product.name.startsWith(product.brand)).toBe(true);
    }
    expect(catalogue.products.some((p) => p.name === "Royal Canin Medium Adult Dry Dog Food 15kg")).toBe(true);
  });

  it("gives consumables at Amazon, Zooplus and Pets at Home a 5% repeat-delivery price with the scheme's terms, and nothing else one", () => {
    const consumables = new Set(["dog-food", "cat-food", "dog-treats", "cat-litter", "pet-health", "health-supplements", "small-animal", "bird-food"]);
    const schemes: Record<string, string> = { Amazon: "Subscribe & Save:", Zooplus: "zooplus Repeat:", "Pets at Home": "Easy Repeat:" };
    let repeatOffers = 0;
    for (const product of catalogue.products) {
      for (const offer of product.offers) {
        const scheme = schemes[offer.retailerName];
        if (!consumables.has(product.categorySlug) || scheme === undefined) {
          expect([offer.repeatPricePence, offer.repeatTerms]).toEqual([null, null]);
          continue;
        }
        repeatOffers++;
        expect(offer.repeatPricePence).toBe(Math.round(offer.pricePence * 0.95));
        expect(offer.repeatPricePence).toBeLessThan(offer.pricePence);
        expect(offer.repeatTerms?.startsWith(scheme)).toBe(true);
        expect(offer.repeatTerms!.length).toBeLessThanOrEqual(200);
      }
    }
    expect(repeatOffers).toBeGreaterThan(100);
    // Non-consumables exist and have none (toys, beds, ...).
    expect(catalogue.products.some((product) => !consumables.has(product.categorySlug))).toBe(true);
  });

  it("gives each product 2 to 5 offers at distinct comparison retailers, in integer pence", () => {
    const retailerNames = new Set<string>(comparisonRetailerNames);
    let offerCount = 0;
    let wasPrices = 0;
    let outOfStock = 0;
    for (const product of catalogue.products) {
      expect(product.offers.length).toBeGreaterThanOrEqual(2);
      expect(product.offers.length).toBeLessThanOrEqual(5);
      expectUnique(product.offers.map((o) => o.retailerName));
      for (const offer of product.offers) {
        offerCount++;
        expect(retailerNames.has(offer.retailerName)).toBe(true);
        expect(Number.isInteger(offer.pricePence) && offer.pricePence > 0).toBe(true);
        if (offer.originalPricePence !== null) {
          wasPrices++;
          expect(Number.isInteger(offer.originalPricePence)).toBe(true);
          expect(offer.originalPricePence).toBeGreaterThan(offer.pricePence);
        }
        if (!offer.inStock) outOfStock++;
        expect(offer.url).toMatch(/^https:\/\/www\.(amazon\.co\.uk|petsathome\.com|jollyes\.co\.uk|zooplus\.co\.uk|ebay\.co\.uk)\//);
      }
    }
    expect(wasPrices / offerCount).toBeGreaterThan(0.2);
    expect(wasPrices / offerCount).toBeLessThan(0.4);
    expect(outOfStock / offerCount).toBeGreaterThan(0.03);
    expect(outOfStock / offerCount).toBeLessThan(0.15);
    const withStock = catalogue.products.filter((p) => p.offers.some((o) => o.inStock)).length;
    expect(withStock / catalogue.products.length).toBeGreaterThan(0.97);
  });

  it("builds retailer URLs in each retailer's own shape", () => {
    const urls = catalogue.products.flatMap((p) => p.offers.map((o) => ({ retailer: o.retailerName, url: o.url, slug: p.slug })));
    for (const { retailer, url, slug } of urls) {
      if (retailer === "Amazon") expect(url).toMatch(/^https:\/\/www\.amazon\.co\.uk\/dp\/B0[0-9A-Z]{8}$/);
      if (retailer === "Pets at Home") expect(url).toMatch(new RegExp(`^https://www\\.petsathome\\.com/product/${slug}/P\\d+$`));
      if (retailer === "Jollyes") expect(url).toBe(`https://www.jollyes.co.uk/${slug}.html`);
      if (retailer === "Zooplus") expect(url).toMatch(new RegExp(`^https://www\\.zooplus\\.co\\.uk/shop/[a-z_]+/${slug}/\\d+$`));
      if (retailer === "eBay") expect(url).toMatch(/^https:\/\/www\.ebay\.co\.uk\/itm\/\d{12}$/);
    }
  });

  it("gives every offer 2 to 7 increasing price points within 120 days, ending at the current price", () => {
    for (const product of catalogue.products) {
      for (const offer of product.offers) {
        const points = product.history.filter((h) => h.retailerName === offer.retailerName);
        expect(points.length).toBeGreaterThanOrEqual(2);
        expect(points.length).toBeLessThanOrEqual(7);
        const times = points.map((p) => Date.parse(p.recordedAt));
        for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThan(times[i - 1] as number);
        expect(times[0]).toBeGreaterThanOrEqual(today.getTime() - 120 * dayMs - 12 * 60 * 60_000);
        expect(times.at(-1)).toBeLessThanOrEqual(today.getTime());
        expect(points.at(-1)?.pricePence).toBe(offer.pricePence);
        for (const point of points) {
          expect(Number.isInteger(point.pricePence) && point.pricePence > 0).toBe(true);
          expect(point.recordedAt).toBe(new Date(point.recordedAt).toISOString());
        }
      }
      // No history for retailers without an offer.
      const offered = new Set(product.offers.map((o) => o.retailerName));
      for (const point of product.history) expect(offered.has(point.retailerName)).toBe(true);
    }
  });

  it("dates each price point on the UTC day it stands for, also when made just after midnight", () => {
    const days = (made: string) =>
      generateCatalogue({ products: 120, today: new Date(made) }).products.flatMap((product) => product.history.map((point) => point.recordedAt.slice(0, 10)));
    const justAfterMidnight = days("2025-03-14T00:05:00.000Z");
    expect(justAfterMidnight).toEqual(days("2025-03-14T12:00:00.000Z"));
    expect(justAfterMidnight).toContain("2025-03-14");
  });

  it("ships the eight demo vouchers with future expiry dates", () => {
    const { vouchers } = catalogue;
    expect(vouchers).toHaveLength(8);
    expect(vouchers.map((v) => v.retailer).sort()).toEqual(
      ["Pets at Home", "Zooplus", "Jollyes", "Amazon", "VetUK", "Pet Planet", "Grooming Gang", "Birdfood Direct"].sort(),
    );
    const todayDay = today.toISOString().slice(0, 10);
    for (const voucher of vouchers) {
      expect(voucher.expiryDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(voucher.expiryDate > todayDay).toBe(true);
    }
    expect(vouchers.some((v) => v.discount === "£10")).toBe(true);
    expect(vouchers.some((v) => v.discount === "Free Delivery")).toBe(true);
    const retailerNames = new Set(catalogue.retailers.map((r) => r.name));
    for (const voucher of vouchers) expect(retailerNames.has(voucher.retailer)).toBe(true);
  });

  it("has the five comparison retailers first, with local logos, and default affiliate IDs", () => {
    expect(catalogue.retailers.slice(0, 5).map((r) => r.name)).toEqual([...comparisonRetailerNames]);
    for (const retailer of catalogue.retailers) {
      expect(retailer.logo).toMatch(/^\/retailers\/[a-z0-9-]+\.svg$/);
      expect(retailer.website).toMatch(/^https:\/\/www\.[a-z0-9.-]+$/);
    }
    expect(Object.keys(catalogue.affiliateIds).sort()).toEqual(["AMAZON", "EBAY", "JOLLYES", "PETS_AT_HOME", "ZOOPLUS"]);
  });

  it("gives complete dog and cat foods an energy density typical of their type and a valid guide; treats and other aisles none", () => {
    const foods = catalogue.products.filter((p) => p.categorySlug === "dog-food" || p.categorySlug === "cat-food");
    const others = catalogue.products.filter((p) => p.categorySlug !== "dog-food" && p.categorySlug !== "cat-food");
    expect(others.every((p) => p.kcalPerKg === null && p.feedingGuide === null)).toBe(true);
    for (const product of foods) {
      // Applaws and Encore tins are complementary (not a diet): no facts.
      if (/^(Applaws|Encore) /.test(product.name)) {
        expect(product.kcalPerKg, product.name).toBeNull();
        continue;
      }
      const kcal = product.kcalPerKg!;
      const wet = /\b(Wet|Tins|Pouches|Trays|Gravy|As Good As It Looks)\b/.test(product.name);
      const [low, high] = wet ? [700, 1100] : product.categorySlug === "dog-food" ? [3500, 4100] : [3600, 4100];
      expect(kcal, product.name).toBeGreaterThanOrEqual(low);
      expect(kcal, product.name).toBeLessThanOrEqual(high);
      if (/Puppy|Kitten/.test(product.name)) {
        // Their packs' guides go by age: the energy method feeds them.
        expect(product.feedingGuide, product.name).toBeNull();
        continue;
      }
      expect(feedingGuideSchema.safeParse(product.feedingGuide).success, product.name).toBe(true);
    }
    // A dry adult dog food's guide as packs print it: 110 × kg^0.75 kcal ÷ 3.62 kcal/g to 5 g (5 kg: 367.8 ÷ 3.62 = 101.6 → 100 g; 40 kg: 1749.6 ÷ 3.62 = 483.3 → 485 g).
    const lily = catalogue.products.find((p) => p.name.startsWith("Lily's Kitchen Adult Dry Dog Food"))!;
    expect(lily.kcalPerKg).toBe(3620);
    expect(lily.feedingGuide!.rows).toEqual([
      { weightKg: 5, gramsPerDay: 100 },
      { weightKg: 10, gramsPerDay: 170 },
      { weightKg: 15, gramsPerDay: 230 },
      { weightKg: 20, gramsPerDay: 285 },
      { weightKg: 30, gramsPerDay: 390 },
      { weightKg: 40, gramsPerDay: 485 },
    ]);
  });

  it("rejects a bad product count", () => {
    expect(() => generateCatalogue({ products: 0, today })).toThrow(RangeError);
    expect(() => generateCatalogue({ products: 1.5, today })).toThrow(RangeError);
    expect(() => generateCatalogue({ products: 5, today: new Date(Number.NaN) })).toThrow(RangeError);
  });

  it("still has unique slugs and names at 50,000 products", () => {
    const big: GeneratedCatalogue = generateCatalogue({ products: 50_000, today });
    expect(big.products).toHaveLength(50_000);
    expectUnique(big.products.map((p) => p.slug));
    expectUnique(big.products.map((p) => p.name));
    expect(big.products.filter((p) => p.isFeatured)).toHaveLength(12);

    // Sizes of one product share a family key: brand + line + recipe, the name's start.
    const byFamily = new Map<string, GeneratedCatalogue["products"]>();
    for (const product of big.products) byFamily.set(product.familyKey, [...(byFamily.get(product.familyKey) ?? []), product]);
    for (const product of big.products.filter((p) => !p.name.includes("#"))) expect(slugify(product.name).startsWith(`${product.familyKey}-`), product.name).toBe(true);
    for (const members of byFamily.values()) {
      expect(new Set(members.map((p) => `${p.brand}|${p.categorySlug}`)).size).toBe(1);
    }
    // A multipack is a size of its single pack's family, named by its size; the single pack keeps its slug.
    const chicken = byFamily.get("purina-pro-plan-medium-adult-dry-dog-food-chicken")!;
    const bySlug = new Map(chicken.map((p) => [p.slug, p]));
    const single = bySlug.get("purina-pro-plan-medium-adult-dry-dog-food-chicken-7kg")!;
    const twoBags = bySlug.get("purina-pro-plan-medium-adult-dry-dog-food-chicken-2-x-7kg")!;
    expect(single.name).toBe("Purina Pro Plan Medium Adult Dry Dog Food Chicken 7kg");
    expect(twoBags.name).toBe("Purina Pro Plan Medium Adult Dry Dog Food Chicken 2 x 7kg");
    expect(packSizeOf(twoBags.name)!.amount).toBe(2 * packSizeOf(single.name)!.amount);
    expect(big.products.filter((p) => p.name.includes("(Pack of")).every((p) => byFamily.get(p.familyKey)!.length > 1)).toBe(true);
  });
});

describe("multipackSize", () => {
  it("names a multipack by its size where that reads as the multiplied quantity, else as a pack of N", () => {
    expect(multipackSize("12kg", 2)).toBe("2 x 12kg");
    expect(multipackSize("1.5kg", 3)).toBe("3 x 1.5kg");
    expect(multipackSize("12 x 400g", 2)).toBe("24 x 400g");
    expect(multipackSize("2 Collars", 3)).toBe("3 x 2 Collars");
    expect(multipackSize("Large", 2)).toBe("Large (Pack of 2)");
    expect(multipackSize("Size 3", 4)).toBe("Size 3 (Pack of 4)");
  });
});

describe("slugify", () => {
  it("keeps a-z, 0-9 and single hyphens", () => {
    expect(slugify("Hill's Science Plan Adult 2.5kg")).toBe("hills-science-plan-adult-2-5kg");
    expect(slugify("Chuckit! Ultra Ball Medium 2 Pack")).toBe("chuckit-ultra-ball-medium-2-pack");
    expect(slugify("Lamb & Rice 12 x 400g #2")).toBe("lamb-and-rice-12-x-400g-2");
  });
});
