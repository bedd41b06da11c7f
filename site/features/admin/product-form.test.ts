import { describe, expect, it } from "vitest";
import { productInput as serverProductInput } from "../../../data/domain/catalogue-input.ts";
import { detailsOf } from "../../../data/domain/product-details.ts";
import { ApiError } from "../../lib/api.ts";
import type { ExtractedPrice } from "./admin-api.ts";
import {
  canExtractPrice,
  emptyOfferRow,
  extractedPriceToast,
  extractFailedToast,
  emptyProductFields,
  foodFactsProblems,
  guideText,
  missingRequired,
  offerRowFrom,
  parseGuideText,
  priceInputDisabled,
  priceNote,
  productFieldsFrom,
  productInput,
  saveProblem,
  sentOfferKeys,
  slugToSave,
  pickableCandidates,
  usablePrice,
  withExtractedPrice,
  withLegalCategory,
  withPickedCandidate,
  withOverride,
  type ProductFields,
} from "./product-form.ts";

describe("slugs", () => {
  it("derives a slug from the name with the rule the server and the seed use: & as and, other punctuation a hyphen", () => {
    const fromName = (name: string) => slugToSave({ name, slugField: "" });
    expect(fromName("Royal Canin Maxi Adult 15kg")).toBe("royal-canin-maxi-adult-15kg");
    expect(fromName("Hill's Science Plan 2.5kg")).toBe("hills-science-plan-2-5kg");
    expect(fromName("  Pets & Co  -- Treats! ")).toBe("pets-and-co-treats");
    expect(fromName("£££")).toBe("");
    // What the admin types is cleaned with the same rule.
    expect(slugToSave({ name: "Anything", slugField: "Pets & Co" })).toBe("pets-and-co");
  });

  it("keeps a stored slug unless the admin types another; empty means from the name", () => {
    expect(slugToSave({ name: "Dog Bed XL", slugField: "dog-bed" })).toBe("dog-bed");
    expect(slugToSave({ name: "Dog Bed XL", slugField: "" })).toBe("dog-bed-xl");
    expect(slugToSave({ name: "Dog Bed", slugField: "  Cosy Bed " })).toBe("cosy-bed");
  });
});

describe("price override", () => {
  const stored = offerRowFrom({
    retailerId: 2,
    affiliateUrl: "https://example.com/p",
    price: 12.99,
    originalPrice: null,
    inStock: true,
    priceOverride: true,
    manualPrice: 9.5,
    freeDelivery: false,
  });

  it("says which price shoppers see", () => {
    expect(priceNote(stored)).toBe("Override active - using custom price of £9.50");
    expect(priceNote({ ...stored, priceOverride: false })).toBe("Using extracted price: £12.99");
  });

  it("turning it off resets the price to the stored manual price", () => {
    const off = withOverride({ ...stored, manualPrice: "8" }, false);
    expect(off.priceOverride).toBe(false);
    expect(off.price).toBe("9.5");
    expect(priceNote(off)).toBe("Using extracted price: £9.50");
  });

  it("turning it on starts the manual price from the listed one when empty", () => {
    const row = { ...emptyOfferRow(), affiliateUrl: "https://x.test/", price: "5.25" };
    expect(withOverride(row, true).manualPrice).toBe("5.25");
    expect(withOverride({ ...row, manualPrice: "4" }, true).manualPrice).toBe("4");
    // No stored manual price: the listed price stays.
    expect(withOverride({ ...row, priceOverride: true }, false).price).toBe("5.25");
  });

  it("disables the price without a URL unless overriding", () => {
    expect(priceInputDisabled(emptyOfferRow())).toBe(true);
    expect(priceInputDisabled({ ...emptyOfferRow(), priceOverride: true })).toBe(false);
    expect(priceInputDisabled({ ...emptyOfferRow(), affiliateUrl: "https://x.test/" })).toBe(false);
  });
});

describe("productInput", () => {
  it("requires a name and a category", () => {
    expect(missingRequired(emptyProductFields())).toBe(true);
    expect(missingRequired({ ...emptyProductFields(), name: "A", categoryId: "" })).toBe(true);
    expect(missingRequired({ ...emptyProductFields(), name: " ", categoryId: "1" })).toBe(true);
    expect(missingRequired({ ...emptyProductFields(), name: "A", categoryId: "1" })).toBe(false);
  });

  it("sends only rows with a retailer and a URL, numbers parsed", () => {
    const fields = {
      ...emptyProductFields(),
      name: " Dog Bed ",
      categoryId: "4",
      brand: " ",
      rating: "4.2",
      reviewCount: "17",
      offers: [
        { ...emptyOfferRow(), retailerId: "1", affiliateUrl: " https://a.test/x ", price: "10.5", originalPrice: "12", multiBuy: " 3 for 2 " },
        { ...emptyOfferRow(), retailerId: "2", affiliateUrl: "https://b.test/y", price: "" },
        { ...emptyOfferRow(), retailerId: "3", affiliateUrl: "" },
        { ...emptyOfferRow(), retailerId: "", affiliateUrl: "https://c.test/" },
      ],
    };
    expect(productInput(fields)).toEqual({
      name: "Dog Bed",
      slug: "dog-bed",
      // Every product detail, sent empty (the description among them).
      ...detailsOf({}),
      description: "",
      image: "",
      brand: null,
      categoryId: 4,
      rating: 4.2,
      reviewCount: 17,
      isFeatured: false,
      retailerLinks: [
        {
          retailerId: 1,
          affiliateUrl: "https://a.test/x",
          price: 10.5,
          originalPrice: 12,
          inStock: true,
          priceOverride: false,
          manualPrice: null,
          freeDelivery: false,
          repeatPrice: null,
          repeatTerms: null,
          multiBuy: "3 for 2",
          memberPrice: null,
          memberScheme: null,
        },
        {
          retailerId: 2,
          affiliateUrl: "https://b.test/y",
          price: 0,
          originalPrice: null,
          inStock: true,
          priceOverride: false,
          manualPrice: null,
          freeDelivery: false,
          repeatPrice: null,
          repeatTerms: null,
          multiBuy: null,
          memberPrice: null,
          memberScheme: null,
        },
      ],
      familyKey: null,
      kcalPerKg: null,
      feedingGuide: null,
      legalCategory: "none",
    });
  });

  it("starts with no rating and no reviews, and sends no rating (null) until one is typed", () => {
    const fields = emptyProductFields();
    expect([fields.rating, fields.reviewCount]).toEqual(["", "0"]);
    expect(productInput({ ...fields, name: "A", categoryId: "1" })).toMatchObject({ rating: null, reviewCount: 0 });
    expect(productInput({ ...fields, name: "A", categoryId: "1", rating: " ", reviewCount: "" })).toMatchObject({ rating: null, reviewCount: 0 });
    expect(productInput({ ...fields, name: "A", categoryId: "1", rating: "4.2", reviewCount: "3" })).toMatchObject({ rating: 4.2, reviewCount: 3 });
  });

  it("loads a product without reviews with an empty rating, whatever rating is stored", () => {
    const stored = { ...productInput({ ...emptyProductFields(), name: "Kibble 2kg", categoryId: "1" }), id: 7 };
    expect(productFieldsFrom({ ...stored, rating: 4.5, reviewCount: 0 }).rating).toBe("");
    expect(productFieldsFrom({ ...stored, rating: 0, reviewCount: 0 }).rating).toBe("");
    expect(productFieldsFrom({ ...stored, rating: 4.5, reviewCount: 2 }).rating).toBe("4.5");
  });

  it("sends the family cleaned like a slug, or null for none", () => {
    const fields = { ...emptyProductFields(), name: "Kibble 2kg", categoryId: "1" };
    expect(productInput({ ...fields, familyField: " Royal Canin Maxi Adult " }).familyKey).toBe("royal-canin-maxi-adult");
    expect(productInput({ ...fields, familyField: "royal-canin-maxi-adult" }).familyKey).toBe("royal-canin-maxi-adult");
    expect(productInput({ ...fields, familyField: "  " }).familyKey).toBeNull();
    expect(productInput({ ...fields, familyField: "!!" }).familyKey).toBeNull();
  });
});

describe("legal category", () => {
  const fields = { ...emptyProductFields(), name: "Wormer Tablets", categoryId: "1" };

  it("loads and sends the stored category", () => {
    const stored = { ...productInput(fields), id: 7, legalCategory: "NFA-VPS" as const };
    expect(productFieldsFrom(stored).legalCategory).toBe("NFA-VPS");
    expect(productInput(productFieldsFrom(stored)).legalCategory).toBe("NFA-VPS");
  });

  it("clears Featured when a prescription-only category is chosen, and keeps it for any other", () => {
    const featured = { ...fields, isFeatured: true };
    expect(withLegalCategory(featured, "POM-V")).toMatchObject({ legalCategory: "POM-V", isFeatured: false });
    expect(withLegalCategory(featured, "POM-VPS")).toMatchObject({ legalCategory: "POM-VPS", isFeatured: false });
    expect(withLegalCategory(featured, "NFA-VPS")).toMatchObject({ legalCategory: "NFA-VPS", isFeatured: true });
    expect(withLegalCategory(featured, "AVM-GSL")).toMatchObject({ legalCategory: "AVM-GSL", isFeatured: true });
    // Going back from a prescription-only category does not feature it again by itself.
    expect(withLegalCategory(withLegalCategory(featured, "POM-V"), "none")).toMatchObject({ legalCategory: "none", isFeatured: false });
  });
});

describe("food facts: energy and feeding guide", () => {
  const guide = { rows: [{ weightKg: 5, gramsPerDay: 95 }, { weightKg: 7.5, gramsPerDay: 130 }, { weightKg: 10, gramsPerDay: 160 }] };

  it("reads a guide a row per line, in the ways a pack writes it, skipping blank lines", () => {
    expect(parseGuideText("5 kg: 95 g\n7.5 kg: 130 g\n10 kg: 160 g")).toEqual(guide);
    expect(parseGuideText(" 5kg 95g \n\n7,5 = 130\n10, 160")).toEqual(guide);
    expect(parseGuideText("")).toBeNull();
    expect(parseGuideText(" \n ")).toBeNull();
  });

  it("names the first line that is not a weight and grams", () => {
    expect(parseGuideText("5 kg: 95 g\n10 kg")).toEqual({ error: "Line 2: write a body weight and daily grams, e.g. 5 kg: 95 g" });
    expect(parseGuideText("five kg: 95 g")).toEqual({ error: "Line 1: write a body weight and daily grams, e.g. 5 kg: 95 g" });
    expect(parseGuideText("5 kg: 95 g: 3 cups")).toEqual({ error: "Line 1: write a body weight and daily grams, e.g. 5 kg: 95 g" });
  });

  it("shows a stored guide as the lines it reads back", () => {
    expect(guideText(guide)).toBe("5 kg: 95 g\n7.5 kg: 130 g\n10 kg: 160 g");
    expect(parseGuideText(guideText(guide))).toEqual(guide);
    expect(guideText(null)).toBe("");
  });

  it("takes kcal per kg as whole numbers from 100 to 9,000, or none", () => {
    const problem = (kcalField: string) => foodFactsProblems({ kcalField, guideField: "" }).kcal;
    for (const ok of ["", " ", "100", "3800", "9000", " 3800 "]) expect(problem(ok), ok).toBeNull();
    for (const bad of ["99", "9001", "3800.5", "3,800", "abc", "-3800"]) {
      expect(problem(bad), bad).toBe("Energy must be a whole number of kcal per kg from 100 to 9,000");
    }
    expect(foodFactsProblems({ kcalField: "", guideField: "5 kg" }).guide).toBe("Line 1: write a body weight and daily grams, e.g. 5 kg: 95 g");
  });

  it("loads a product's food facts into the form and sends them back; empty fields send none", () => {
    const product = { ...productInput({ ...emptyProductFields(), name: "Kibble 2kg", categoryId: "1" }), id: 7, kcalPerKg: 3800, feedingGuide: guide };
    const fields = productFieldsFrom(product);
    expect([fields.kcalField, fields.guideField]).toEqual(["3800", "5 kg: 95 g\n7.5 kg: 130 g\n10 kg: 160 g"]);
    expect(productInput(fields)).toMatchObject({ kcalPerKg: 3800, feedingGuide: guide });
    expect(productInput({ ...fields, kcalField: " ", guideField: "" })).toMatchObject({ kcalPerKg: null, feedingGuide: null });
  });
});

describe("the multi-buy field", () => {
  it("loads from the stored offer and is sent trimmed; blank is none", () => {
    const stored = { retailerId: 1, affiliateUrl: "https://a.test/x", price: 20, originalPrice: null, inStock: true, priceOverride: false, manualPrice: null, freeDelivery: false };
    const row = offerRowFrom({ ...stored, multiBuy: "3 for 2" });
    expect(row.multiBuy).toBe("3 for 2");
    expect(offerRowFrom(stored).multiBuy).toBe("");
    expect(offerRowFrom({ ...stored, multiBuy: null }).multiBuy).toBe("");
    const sent = (multiBuy: string) => productInput({ ...emptyProductFields(), name: "A", categoryId: "1", offers: [{ ...row, multiBuy }] }).retailerLinks[0];
    expect(sent("  2 for £20 ")).toMatchObject({ multiBuy: "2 for £20" });
    expect(sent("   ")).toMatchObject({ multiBuy: null });
  });
});

describe("repeat delivery fields", () => {
  it("load from the stored offer and are sent parsed and trimmed; blank is none", () => {
    const row = offerRowFrom({
      retailerId: 1,
      affiliateUrl: "https://a.test/x",
      price: 20,
      originalPrice: null,
      inStock: true,
      priceOverride: false,
      manualPrice: null,
      freeDelivery: false,
      repeatPrice: 19,
      repeatTerms: "5% off; cancel any time",
    });
    expect([row.repeatPrice, row.repeatTerms]).toEqual(["19", "5% off; cancel any time"]);
    const sent = (over: Partial<typeof row>) => productInput({ ...emptyProductFields(), name: "A", categoryId: "1", offers: [{ ...row, ...over }] }).retailerLinks[0];
    expect(sent({ repeatPrice: "18.5", repeatTerms: "  Subscribe & Save  " })).toMatchObject({ repeatPrice: 18.5, repeatTerms: "Subscribe & Save" });
    expect(sent({ repeatPrice: " ", repeatTerms: "   " })).toMatchObject({ repeatPrice: null, repeatTerms: null });
    const withoutRepeat = { retailerId: 1, affiliateUrl: "https://a.test/x", price: 20, originalPrice: null, inStock: true, priceOverride: false, manualPrice: null, freeDelivery: false };
    expect(offerRowFrom(withoutRepeat)).toMatchObject({ repeatPrice: "", repeatTerms: "" });
    expect(offerRowFrom({ ...withoutRepeat, repeatPrice: null, repeatTerms: null })).toMatchObject({ repeatPrice: "", repeatTerms: "" });
  });
});

describe("extract price", () => {
  const url = "https://shop.test/dog-bed";
  const row = { ...emptyOfferRow(), retailerId: "2", affiliateUrl: url, price: "20", inStock: false };
  const found: ExtractedPrice = { price: 12.5, currency: "GBP", inStock: true, source: "json-ld", evidence: null, confidence: null };
  const nothing: ExtractedPrice = { price: null, currency: null, inStock: null, source: null, evidence: null, confidence: null };

  it("needs a URL", () => {
    expect(canExtractPrice(emptyOfferRow())).toBe(false);
    expect(canExtractPrice({ affiliateUrl: "   " })).toBe(false);
    expect(canExtractPrice({ affiliateUrl: url })).toBe(true);
  });

  it("puts the found price and stock into the row, leaving override off", () => {
    const next = withExtractedPrice(row, url, found);
    expect(next).toEqual({ ...row, price: "12.50", inStock: true });
    expect(priceNote(next)).toBe("Using extracted price: £12.50");
    // Stock unknown: the row keeps its own.
    expect(withExtractedPrice(row, url, { ...found, inStock: null }).inStock).toBe(false);
  });

  it("keeps the manual price in charge when override is on", () => {
    const overridden = { ...row, priceOverride: true, manualPrice: "9" };
    const next = withExtractedPrice(overridden, url, found);
    expect(next.priceOverride).toBe(true);
    expect(next.price).toBe("12.50");
    expect(priceNote(next)).toBe("Override active - using custom price of £9.00");
  });

  it("changes nothing without a usable price, or when the URL changed meanwhile", () => {
    expect(withExtractedPrice(row, url, nothing)).toBe(row);
    expect(withExtractedPrice(row, url, { ...found, currency: "EUR" })).toBe(row);
    expect(withExtractedPrice(row, url, { ...found, price: 0 })).toBe(row);
    expect(withExtractedPrice({ ...row, affiliateUrl: "https://shop.test/other" }, url, found).price).toBe("20");
    // A price with no currency named is not taken as pounds.
    expect(usablePrice({ ...found, currency: null })).toBeNull();
    expect(extractedPriceToast({ ...found, currency: null })).toEqual({ title: "No Price Found", description: "This page names no currency", variant: "destructive" });
    expect(usablePrice({ ...found, currency: "gbp" })).toBe(12.5);
  });

  it("toasts what was found", () => {
    expect(extractedPriceToast({ ...found, price: 12.99 })).toEqual({ title: "Price Extracted", description: "Found price: £12.99" });
    expect(extractedPriceToast({ ...found, price: 7 })).toEqual({ title: "Price Extracted", description: "Found price: £7.00" });
    expect(extractedPriceToast(nothing)).toEqual({ title: "No Price Found", description: "Could not extract price from this URL", variant: "destructive" });
    expect(extractedPriceToast({ ...nothing, currency: "GBP" }).description).toBe("Could not extract price from this URL");
    expect(extractedPriceToast({ ...found, currency: "EUR" })).toEqual({ title: "No Price Found", description: "This page is priced in EUR, not pounds", variant: "destructive" });
  });

  it("toasts the rule that found the price, and a warning when it is of low confidence", () => {
    const evidence = { source: "json-ld" as const, rule: "json-ld Product offers[2] matched by pack size 4kg in h1", snippet: null };
    expect(extractedPriceToast({ ...found, price: 53, evidence, confidence: "medium" })).toEqual({
      title: "Price Extracted",
      description: "Found price: £53.00\nFound by: json-ld Product offers[2] matched by pack size 4kg in h1",
    });
    expect(extractedPriceToast({ ...found, price: 5, evidence: { ...evidence, rule: "the price printed beside the buy button" }, confidence: "low" }).description).toBe(
      "Found price: £5.00\nFound by: the price printed beside the buy button\nLow confidence: check it on the page",
    );
  });

  it("offers the listed prices in pounds to pick from when the page lists several", () => {
    const undecided = {
      ...nothing,
      reason: "3 offers at 3 different prices",
      candidates: [
        { price: 14, currency: "GBP", inStock: true, label: "800g" },
        { price: null, currency: "EUR", inStock: true, label: "EU pack" },
        { price: 53, currency: "GBP", inStock: null, label: "4kg" },
      ],
    };
    expect(pickableCandidates(undecided)).toEqual([
      { price: 14, label: "800g", inStock: true },
      { price: 53, label: "4kg", inStock: null },
    ]);
    expect(extractedPriceToast(undecided)).toEqual({ title: "Several Prices Found", description: "This page lists 2 prices and nothing on it picks one: choose one below the URL" });
    expect(withPickedCandidate(row, url, { price: 53, inStock: null })).toMatchObject({ price: "53.00" });
    expect(withPickedCandidate({ ...row, affiliateUrl: "https://shop.test/other" }, url, { price: 53, inStock: null })).toMatchObject({ price: "20" });
  });

  it("toasts a failure, with the server's reason on a second line", () => {
    const refused = new ApiError(400, JSON.stringify({ error: "Addresses inside private networks are not fetched" }), "Bad Request");
    expect(extractFailedToast(refused)).toEqual({
      title: "Error",
      description: "Failed to extract price\nAddresses inside private networks are not fetched",
      variant: "destructive",
    });
    expect(extractFailedToast(new ApiError(502, "", "Bad Gateway"))).toEqual({ title: "Error", description: "Failed to extract price", variant: "destructive" });
    expect(extractFailedToast(new TypeError("Failed to fetch"))).toEqual({ title: "Error", description: "Failed to extract price", variant: "destructive" });
  });
});

describe("saveProblem: what the server refused, under the field concerned", () => {
  const refused = (status: number, error: string) => new ApiError(status, JSON.stringify({ error }), "Bad Request");
  const row = (retailerId: string, affiliateUrl: string) => ({ ...emptyOfferRow(), retailerId, affiliateUrl });
  const withRows = () => {
    // Row 2 has no URL, so it is not sent: the server's retailerLinks.1 is the form's third row.
    const offers = [row("1", "https://www.amazon.co.uk/dp/B0"), row("2", ""), row("3", "https://www.zooplus.co.uk/x")];
    return { ...emptyProductFields(), name: "Kibble", categoryId: "4", offers, guideField: "5 kg: 95 g\n\n3 kg: 60 g" };
  };
  const names = (offer: { retailerId: string }) => ({ "1": "Amazon", "3": "Zooplus" })[offer.retailerId as "1"];

  it("puts a feeding-guide row's problem under the guide, naming the typed line, with no API path", () => {
    const fields = withRows();
    // The server's row 1 is the third typed line (a blank line between).
    const problem = saveProblem(refused(400, "feedingGuide.rows.1.weightKg: Body weights must rise row by row"), fields, "Failed");
    expect(problem).toEqual({
      at: { field: "guideField" },
      label: "Feeding guide",
      message: "Line 3: Weight must be a number of kg above 0 and at most 100, and more than on the line above",
    });
    expect(saveProblem(refused(400, "feedingGuide.rows.0.gramsPerDay: Daily grams of at most 5,000"), fields, "Failed").message).toBe(
      "Line 1: Daily grams must be a number above 0 and at most 5,000, and not less than on the line above",
    );
    expect(saveProblem(refused(400, "feedingGuide.rows: At least two rows"), fields, "Failed")).toEqual({
      at: { field: "guideField" },
      label: "Feeding guide",
      message: "The feeding guide needs 2 to 30 lines, each a body weight and daily grams, e.g. 5 kg: 95 g",
    });
  });

  it("puts an offer's problem under that row's field, counting only the rows that were sent", () => {
    const fields = withRows();
    expect(sentOfferKeys(fields)).toEqual([fields.offers[0]!.key, fields.offers[2]!.key]);
    const problem = saveProblem(refused(400, "retailerLinks.1.price: price must be an amount of at least 0 with at most two decimals"), fields, "Failed", names);
    expect(problem).toEqual({
      at: { row: fields.offers[2]!.key, field: "price" },
      label: "Offer 3 (Zooplus): Price",
      message: "Price must be an amount of at least 0 with at most two decimals",
    });
    expect(saveProblem(refused(400, "retailerLinks.0.manualPrice: manualPrice is required when priceOverride is on"), fields, "Failed", names)).toEqual({
      at: { row: fields.offers[0]!.key, field: "manualPrice" },
      label: "Offer 1 (Amazon): Manual price",
      message: "Manual price is required when Override Price is on",
    });
    expect(saveProblem(refused(400, "retailerLinks.0.affiliateUrl: the URL's host evil.example is not Amazon's (amazon.co.uk)"), fields, "Failed", names).message).toBe(
      "The URL's host evil.example is not Amazon's (amazon.co.uk)",
    );
    // A one-word field name later in a sentence is a word, not a field.
    expect(saveProblem(refused(400, "retailerLinks.0.repeatPrice: repeatPrice must not be above the one-off price (£9.99)"), fields, "Failed").message).toBe(
      "Repeat delivery price must not be above the one-off price (£9.99)",
    );
  });

  it("names the product's own fields as the form labels them", () => {
    const fields = withRows();
    const cases: [string, string, string][] = [
      ["name is required", "name", "Product name is required"],
      ["rating must be from 0 to 5", "rating", "Rating must be from 0 to 5"],
      ["rating is required when reviewCount is above 0", "rating", "Rating is required when the review count is above 0"],
      ["reviewCount must be a whole number of at least 0", "reviewCount", "Review count must be a whole number of at least 0"],
      ["categoryId: unknown category", "categoryId", "Unknown category"],
      ["familyKey must use only a-z, 0-9 and single hyphens between them", "familyField", "Family must use only a-z, 0-9 and single hyphens between them"],
      ["kcalPerKg must be a whole number from 100 to 9,000", "kcalField", "Energy must be a whole number of kcal per kg from 100 to 9,000"],
      ["image must be an http or https URL or a path on this site", "image", "Image URL must be an http or https URL or a path on this site"],
    ];
    for (const [error, field, message] of cases) expect(saveProblem(refused(400, error), fields, "Failed"), error).toMatchObject({ at: { field }, message });
    expect(saveProblem(refused(409, 'A product with the slug "kibble" already exists'), fields, "Failed")).toEqual({
      at: { field: "slugField" },
      label: "Slug",
      message: 'A product with the slug "kibble" already exists: choose another slug (or leave it empty to use the name)',
    });
  });

  it("keeps a problem of no field for the summary, and the fallback when the server said nothing", () => {
    const fields = withRows();
    expect(saveProblem(refused(400, "retailerLinks: a product can have at most 50 offers"), fields, "Failed")).toEqual({
      at: null,
      label: "Retailer offers",
      message: "A product can have at most 50 offers",
    });
    expect(saveProblem(new TypeError("Failed to fetch"), fields, "Failed to create product")).toEqual({ at: null, label: "", message: "Failed to create product" });
    expect(saveProblem(new ApiError(500, "", "Internal Server Error"), fields, "Failed to create product").message).toBe("Failed to create product");
  });
});

describe("the form's checks agree with the server's schema", () => {
  const server = (fields: ProductFields) => serverProductInput.safeParse(productInput(fields));
  const base = { ...emptyProductFields(), name: "Kibble 2kg", categoryId: "1" };

  it("accepts and refuses the same kcal per kg at both bounds", () => {
    for (const [kcal, ok] of [["99", false], ["100", true], ["9000", true], ["9001", false]] as const) {
      expect(foodFactsProblems({ kcalField: kcal, guideField: "" }).kcal === null, `form ${kcal}`).toBe(ok);
      expect(server({ ...base, kcalField: kcal }).success, `server ${kcal}`).toBe(ok);
    }
  });

  it("sends the slug the server would derive from the name itself", () => {
    for (const name of ["Pets & Co Treats", "Café Crème 2.5kg", "Hill's -- Science!"]) {
      const sent = productInput({ ...base, name });
      expect(sent.slug, name).toBe(serverProductInput.parse({ ...sent, slug: "" }).slug);
    }
  });
});
