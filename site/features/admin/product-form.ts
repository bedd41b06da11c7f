/**
 * The product form's rules, apart from its UI: the slug, the offer rows and what is sent.
 */
import { formatPrice } from "../../../data/domain/display.ts";
import { feedingGuideLimits, maxKcalPerKg, minKcalPerKg, type FeedingGuide } from "../../../data/domain/feeding.ts";
import { isPrescriptionOnly, type LegalCategory } from "../../../data/domain/legal-category.ts";
import { slugify } from "../../../data/domain/slug.ts";
import { detailsOf, productDetailList, trimmedDetails, type ProductDetailValues } from "../../../data/domain/product-details.ts";
import { ApiError } from "../../lib/api.ts";
import type { toast } from "../toast/toast.store.ts";
import type { ExtractedPrice, FeedingGuideRows, ProductInput, RetailerLink } from "./admin-api.ts";

/**
 * The slug to save. A new product's slug comes from its name. An existing product keeps the
 * slug it has (its public address, which search engines and shared links know) unless the admin
 * typed a different one; a slug field left empty is derived from the name again. Whatever is
 * typed is cleaned with the same rule as a name (`slugify`, the rule the server uses).
 * @example slugToSave({ name: "Dog Bed", slugField: "" }) // "dog-bed"
 * @example slugToSave({ name: "Dog Bed XL", slugField: "dog-bed" }) // "dog-bed"
 * @example slugToSave({ name: "Dog Bed", slugField: "Cosy Bed" }) // "cosy-bed"
 */
export function slugToSave(fields: { name: string; slugField: string }): string {
  const typed = slugify(fields.slugField.trim());
  return typed || slugify(fields.name.trim());
}

/** One offer row as the form edits it: number fields stay text until saved. */
export interface OfferRow {
  /** Stable React key for the row. */
  key: number;
  retailerId: string;
  affiliateUrl: string;
  price: string;
  originalPrice: string;
  inStock: boolean;
  priceOverride: boolean;
  manualPrice: string;
  /** The manual price as stored on the server ("" for a new row). */
  storedManualPrice: string;
  freeDelivery: boolean;
  /** Repeat-delivery item price; "" for none. */
  repeatPrice: string;
  repeatTerms: string;
  /** "3 for 2", "2 for £20"; "" for none. */
  multiBuy: string;
  /** Member (loyalty) price; "" for none. */
  memberPrice: string;
  memberScheme: string;
}

let nextRowKey = 1;

const numberText = (value: number | null | undefined) => (value === null || value === undefined ? "" : String(value));

export function emptyOfferRow(): OfferRow {
  return {
    key: nextRowKey++,
    retailerId: "",
    affiliateUrl: "",
    price: "",
    originalPrice: "",
    inStock: true,
    priceOverride: false,
    manualPrice: "",
    storedManualPrice: "",
    freeDelivery: false,
    repeatPrice: "",
    repeatTerms: "",
    multiBuy: "",
    memberPrice: "",
    memberScheme: "",
  };
}

export function offerRowFrom(link: RetailerLink): OfferRow {
  return {
    key: nextRowKey++,
    retailerId: String(link.retailerId),
    affiliateUrl: link.affiliateUrl,
    price: numberText(link.price),
    originalPrice: numberText(link.originalPrice),
    inStock: link.inStock,
    priceOverride: link.priceOverride,
    manualPrice: numberText(link.manualPrice),
    storedManualPrice: numberText(link.manualPrice),
    freeDelivery: link.freeDelivery,
    repeatPrice: numberText(link.repeatPrice),
    repeatTerms: link.repeatTerms ?? "",
    multiBuy: link.multiBuy ?? "",
    memberPrice: numberText(link.memberPrice),
    memberScheme: link.memberScheme ?? "",
  };
}

/**
 * Switches a row's price override. On: the manual price is what shoppers pay (it starts from the
 * listed price when empty). Off: the listed price is reset to the stored manual price, so the
 * shopper's price does not jump until the next price refresh replaces it.
 */
export function withOverride(row: OfferRow, on: boolean): OfferRow {
  if (on) return { ...row, priceOverride: true, manualPrice: row.manualPrice || row.price };
  return { ...row, priceOverride: false, price: row.storedManualPrice || row.price };
}

/** The listed price can be typed only when there is a URL it belongs to, or while overriding. */
export function priceInputDisabled(row: OfferRow): boolean {
  return !row.priceOverride && row.affiliateUrl.trim() === "";
}

// Extracting a row's price from its retailer page

type ToastInput = Parameters<typeof toast>[0];

/** The extract-price action needs a URL to read. */
export function canExtractPrice(row: Pick<OfferRow, "affiliateUrl">): boolean {
  return row.affiliateUrl.trim() !== "";
}

/**
 * The price the form can use from an extraction: a positive amount in pounds. A page priced in
 * another currency, or naming none, gives none, even if the server sent an amount: it must not
 * become a £ price.
 * @example usablePrice({ price: 12.99, currency: "GBP", inStock: true, source: "json-ld" }) // 12.99
 * @example usablePrice({ price: 14, currency: "EUR", inStock: null, source: "meta" }) // null
 */
export function usablePrice(result: ExtractedPrice): number | null {
  if (foreignCurrency(result) !== null) return null;
  const { price } = result;
  return typeof price === "number" && Number.isFinite(price) && price > 0 ? price : null;
}

/** The page's currency when it is not pounds ("unknown" when the page names none but gave a price). */
function foreignCurrency(result: Pick<ExtractedPrice, "currency" | "price">): string | null {
  const currency = result.currency?.trim().toUpperCase();
  if (!currency) return result.price !== null ? "unknown" : null;
  return currency !== "GBP" ? currency : null;
}

/** The offers a page listed that the admin can pick from: those in pounds. */
export function pickableCandidates(result: ExtractedPrice): { price: number; label: string; inStock: boolean | null }[] {
  if (usablePrice(result) !== null) return [];
  return (result.candidates ?? []).flatMap((candidate) =>
    candidate.price !== null && candidate.price > 0 && foreignCurrency(candidate) === null ? [{ price: candidate.price, label: candidate.label, inStock: candidate.inStock }] : [],
  );
}

/** The row after the admin picked one of the page's listed prices (the URL still the one read). */
export function withPickedCandidate(row: OfferRow, url: string, candidate: { price: number; inStock: boolean | null }): OfferRow {
  if (row.affiliateUrl.trim() !== url.trim()) return row;
  return { ...row, price: candidate.price.toFixed(2), inStock: candidate.inStock ?? row.inStock };
}

/**
 * The row after an extraction of `url`: the listed price becomes the extracted one (two
 * decimals) and In stock follows the page when it said. Price override is left as it was: with
 * it off, shoppers now see the extracted price; with it on, the manual price still wins. When
 * the row's URL changed while the page was read, or nothing usable was found, the row stays.
 */
export function withExtractedPrice(row: OfferRow, url: string, result: ExtractedPrice): OfferRow {
  const price = usablePrice(result);
  if (price === null || row.affiliateUrl.trim() !== url.trim()) return row;
  return { ...row, price: price.toFixed(2), inStock: result.inStock ?? row.inStock };
}

/**
 * The toast after an extraction answered.
 * @example extractedPriceToast({ price: 12.5, currency: "GBP", inStock: true, source: "json-ld" }) // { title: "Price Extracted", description: "Found price: £12.50" }
 */
export function extractedPriceToast(result: ExtractedPrice): ToastInput {
  const price = usablePrice(result);
  const found = result.evidence ? `\nFound by: ${result.evidence.rule}` : "";
  if (price !== null) {
    const check = result.confidence === "low" ? "\nLow confidence: check it on the page" : "";
    return { title: "Price Extracted", description: `Found price: ${formatPrice(price)}${found}${check}` };
  }
  const candidates = pickableCandidates(result);
  if (candidates.length > 0) {
    return { title: "Several Prices Found", description: `This page lists ${candidates.length} prices and nothing on it picks one: choose one below the URL` };
  }
  const currency = foreignCurrency(result);
  return {
    title: "No Price Found",
    description:
      currency === "unknown" ? "This page names no currency" : currency ? `This page is priced in ${currency}, not pounds` : "Could not extract price from this URL",
    variant: "destructive",
  };
}

/** The toast when the extraction failed: refused URL, unreachable page or no network. */
export function extractFailedToast(error: unknown): ToastInput {
  const reason = error instanceof ApiError ? error.error?.trim() : undefined;
  return { title: "Error", description: reason ? `Failed to extract price\n${reason}` : "Failed to extract price", variant: "destructive" };
}

/**
 * The line under a row's prices saying which one shoppers see.
 * @example priceNote({ ...row, priceOverride: true, manualPrice: "9.5" }) // "Override active - using custom price of £9.50"
 * @example priceNote({ ...row, priceOverride: false, price: "12.99" }) // "Using extracted price: £12.99"
 */
export function priceNote(row: Pick<OfferRow, "priceOverride" | "price" | "manualPrice">): string {
  return row.priceOverride
    ? `Override active - using custom price of ${formatPrice(parseNumber(row.manualPrice, 0))}`
    : `Using extracted price: ${formatPrice(parseNumber(row.price, 0))}`;
}

/** A number from a form field; blank or not a number gives the fallback. */
export function parseNumber<T extends number | null>(text: string, fallback: T): number | T {
  if (text.trim() === "") return fallback;
  const value = Number(text);
  return Number.isFinite(value) ? value : fallback;
}

/** The fields of the form, as text and flags; each product detail (product-details.ts) is a text field of its own name. */
export interface ProductFields extends ProductDetailValues {
  name: string;
  slugField: string;
  image: string;
  brand: string;
  categoryId: string;
  rating: string;
  reviewCount: string;
  isFeatured: boolean;
  offers: OfferRow[];
  /** The family its sizes share, as typed (cleaned like a slug when saved); "" for none. */
  familyField: string;
  /** A food's kcal per kg as typed; "" for none. */
  kcalField: string;
  /** A food's feeding guide as typed, a row per line ("5 kg: 95 g"); "" for none. */
  guideField: string;
  /** Its legal category as a veterinary medicine; "none" when it is not one. */
  legalCategory: LegalCategory;
}

export function emptyProductFields(): ProductFields {
  return {
    name: "",
    slugField: "",
    ...detailsOf({}),
    image: "",
    brand: "",
    categoryId: "",
    // No reviews, so no rating: the rating is typed only with a review count.
    rating: "",
    reviewCount: "0",
    isFeatured: false,
    offers: [],
    familyField: "",
    kcalField: "",
    guideField: "",
    legalCategory: "none",
  };
}

const thousands = (value: number) => value.toLocaleString("en-GB");
/** kcal per kg the server accepts: whole numbers from 100 to 9,000. */
const kcalProblem = `Energy must be a whole number of kcal per kg from ${thousands(minKcalPerKg)} to ${thousands(maxKcalPerKg)}`;

/**
 * A feeding guide as the form shows it: a row per line, "5 kg: 95 g".
 * @example guideText({ rows: [{ weightKg: 5, gramsPerDay: 95 }, { weightKg: 7.5, gramsPerDay: 130 }] }) // "5 kg: 95 g\n7.5 kg: 130 g"
 */
export function guideText(guide: FeedingGuide | null): string {
  return guide === null ? "" : guide.rows.map((row) => `${row.weightKg} kg: ${row.gramsPerDay} g`).join("\n");
}

/** A guide line: a body weight (kg optional) and grams a day (g optional), separated by a colon, comma, "=" or spaces. */
const guideLine = /^(\d+(?:[.,]\d+)?)\s*(?:kg)?\s*(?:[:=,;]|\s)\s*(\d+(?:[.,]\d+)?)\s*(?:g)?$/i;
const decimal = (text: string) => Number(text.replace(",", "."));

/**
 * The feeding guide typed in the form: its rows, null when the field is empty, or what is wrong
 * with the first line that is not a row. Blank lines are skipped; a decimal comma is a point.
 * Whether the weights rise and the grams do not fall is the server's check.
 * @example parseGuideText("5 kg: 95 g\n10kg 160") // { rows: [{ weightKg: 5, gramsPerDay: 95 }, { weightKg: 10, gramsPerDay: 160 }] }
 * @example parseGuideText("5 kg") // { error: "Line 1: write a body weight and daily grams, e.g. 5 kg: 95 g" }
 */
export function parseGuideText(text: string): FeedingGuideRows | null | { error: string } {
  const lines = text.split("\n").map((line) => line.trim());
  const rows: FeedingGuideRows["rows"] = [];
  for (const [index, line] of lines.entries()) {
    if (line === "") continue;
    const match = guideLine.exec(line);
    if (!match) return { error: `Line ${index + 1}: write a body weight and daily grams, e.g. 5 kg: 95 g` };
    rows.push({ weightKg: decimal(match[1]!), gramsPerDay: decimal(match[2]!) });
  }
  return rows.length === 0 ? null : { rows };
}

/**
 * What is wrong with the food facts as typed, before anything is sent: kcal per kg must be a
 * whole number from 100 to 9,000 (or empty), and every guide line a weight and grams.
 */
export function foodFactsProblems(fields: Pick<ProductFields, "kcalField" | "guideField">): { kcal: string | null; guide: string | null } {
  const kcalText = fields.kcalField.trim();
  const kcal = Number(kcalText);
  const kcalOk = kcalText === "" || (/^\d+$/.test(kcalText) && kcal >= minKcalPerKg && kcal <= maxKcalPerKg);
  const guide = parseGuideText(fields.guideField);
  return {
    kcal: kcalOk ? null : kcalProblem,
    guide: guide !== null && "error" in guide ? guide.error : null,
  };
}

/** What the form loads: the server's product (GET /api/admin/products/:id), or any product input it could save. */
export type LoadedProduct = Omit<ProductInput, "feedingGuide"> & { feedingGuide: FeedingGuide | null };

export function productFieldsFrom(product: LoadedProduct): ProductFields {
  return {
    name: product.name,
    slugField: product.slug,
    ...detailsOf(product),
    image: product.image ?? "",
    brand: product.brand ?? "",
    categoryId: String(product.categoryId),
    // A product without reviews has no rating to edit (its stored 0 or old 4.5 is shown nowhere).
    rating: product.rating === null || product.reviewCount === 0 ? "" : String(product.rating),
    reviewCount: String(product.reviewCount),
    isFeatured: product.isFeatured,
    offers: product.retailerLinks.map(offerRowFrom),
    familyField: product.familyKey ?? "",
    kcalField: product.kcalPerKg === null ? "" : String(product.kcalPerKg),
    guideField: guideText(product.feedingGuide),
    legalCategory: product.legalCategory,
  };
}

/**
 * The fields after the admin chose a legal category: a prescription-only medicine (POM-V,
 * POM-VPS) cannot be featured, so choosing one clears Featured (the server refuses both together).
 * @example withLegalCategory({ ...fields, isFeatured: true }, "POM-V") // { ...fields, legalCategory: "POM-V", isFeatured: false }
 */
export function withLegalCategory(fields: ProductFields, legalCategory: LegalCategory): ProductFields {
  return { ...fields, legalCategory, isFeatured: isPrescriptionOnly(legalCategory) ? false : fields.isFeatured };
}

/** Name and category are required; the form says so before anything is sent. */
export function missingRequired(fields: ProductFields): boolean {
  return fields.name.trim() === "" || fields.categoryId === "";
}

/**
 * What is sent: only offer rows with both a retailer and a URL; price parsed with 0 for blank.
 * A blank manual price, original price or repeat price is sent as null (no value), not as £0.00;
 * blank repeat terms as null.
 */
export function productInput(fields: ProductFields): ProductInput {
  const brand = fields.brand.trim();
  return {
    name: fields.name.trim(),
    slug: slugToSave(fields),
    ...trimmedDetails(fields),
    image: fields.image.trim(),
    brand: brand === "" ? null : brand,
    categoryId: Number(fields.categoryId),
    rating: parseNumber(fields.rating, null),
    reviewCount: Math.trunc(parseNumber(fields.reviewCount, 0)),
    isFeatured: fields.isFeatured,
    retailerLinks: fields.offers
      .filter((row) => row.retailerId !== "" && row.affiliateUrl.trim() !== "")
      .map((row) => ({
        retailerId: Number(row.retailerId),
        affiliateUrl: row.affiliateUrl.trim(),
        price: parseNumber(row.price, 0),
        originalPrice: parseNumber(row.originalPrice, null),
        inStock: row.inStock,
        priceOverride: row.priceOverride,
        manualPrice: parseNumber(row.manualPrice, null),
        freeDelivery: row.freeDelivery,
        repeatPrice: parseNumber(row.repeatPrice, null),
        repeatTerms: row.repeatTerms.trim() === "" ? null : row.repeatTerms.trim(),
        multiBuy: row.multiBuy.trim() === "" ? null : row.multiBuy.trim(),
        memberPrice: parseNumber(row.memberPrice, null),
        memberScheme: row.memberScheme.trim() === "" ? null : row.memberScheme.trim(),
      })),
    familyKey: slugify(fields.familyField.trim()) || null,
    kcalPerKg: fields.kcalField.trim() === "" ? null : Number(fields.kcalField.trim()),
    feedingGuide: guideOrNull(parseGuideText(fields.guideField)),
    legalCategory: fields.legalCategory,
  };
}

/** A parsed guide to send: a line that is not a row is caught by `foodFactsProblems` first. */
const guideOrNull = (parsed: ReturnType<typeof parseGuideText>): FeedingGuideRows | null => (parsed === null || "error" in parsed ? null : parsed);

// What the server refused, shown where it belongs

/** The form's fields a refusal can be shown under. */
export type ProblemField = Exclude<keyof ProductFields, "offers" | "isFeatured">;
/** An offer row's fields a refusal can be shown under. */
export type OfferProblemField = "retailerId" | "affiliateUrl" | "price" | "originalPrice" | "manualPrice" | "repeatPrice" | "repeatTerms" | "multiBuy" | "memberPrice" | "memberScheme";

/** Why a save failed, in plain words, and where the form shows it. */
export interface SaveProblem {
  /** Under which field: a field of the form, a field of one offer row (by its key), or none (the summary only). */
  at: { field: ProblemField } | { row: number; field: OfferProblemField } | null;
  /** The field's name as the form labels it ("Feeding guide", "Offer 2 (Zooplus): Price"). */
  label: string;
  /** What is wrong, as a sentence for the admin; never the API's field path. */
  message: string;
}

/** The API's product fields, by the form field that holds each, with the form's label. */
const productFieldNames: Readonly<Record<string, { field: ProblemField; label: string }>> = {
  name: { field: "name", label: "Product name" },
  slug: { field: "slugField", label: "Slug" },
  brand: { field: "brand", label: "Brand" },
  categoryId: { field: "categoryId", label: "Category" },
  familyKey: { field: "familyField", label: "Family" },
  kcalPerKg: { field: "kcalField", label: "Energy (kcal per kg)" },
  feedingGuide: { field: "guideField", label: "Feeding guide" },
  image: { field: "image", label: "Image URL" },
  ...Object.fromEntries(productDetailList.map((detail) => [detail.key, { field: detail.key, label: detail.label }])),
  rating: { field: "rating", label: "Rating" },
  reviewCount: { field: "reviewCount", label: "Review count" },
  legalCategory: { field: "legalCategory", label: "Legal category" },
};

/** An offer's API fields with the form's labels (the flags too, as messages may name them). */
const offerFieldLabels: Readonly<Record<string, string>> = {
  retailerId: "Retailer",
  affiliateUrl: "Product URL",
  price: "Price",
  originalPrice: "Original price",
  manualPrice: "Manual price",
  repeatPrice: "Repeat delivery price",
  repeatTerms: "Repeat delivery terms",
  multiBuy: "Multi-buy",
  memberPrice: "Member price",
  memberScheme: "Member scheme",
  priceOverride: "Override Price",
  freeDelivery: "Free delivery",
  inStock: "In stock",
};
const offerProblemFields: ReadonlySet<string> = new Set<OfferProblemField>(["retailerId", "affiliateUrl", "price", "originalPrice", "manualPrice", "repeatPrice", "repeatTerms", "multiBuy", "memberPrice", "memberScheme"]);

/** The API's names of every field, by the label a message shows instead. */
const apiNameLabels: Readonly<Record<string, string>> = {
  ...offerFieldLabels,
  ...Object.fromEntries(Object.entries(productFieldNames).map(([name, { label }]) => [name, label])),
  reviewCount: "the review count",
  retailerLinks: "offers",
  isFeatured: "Featured",
};

/**
 * A server message in the form's words: API field names become the labels the admin sees, the
 * first letter capital.
 * @example plainMessage("manualPrice is required when priceOverride is on") // "Manual price is required when Override Price is on"
 */
function plainMessage(message: string): string {
  // Names written in camelCase anywhere; a one-word name ("price", "name") only as the first word, where it names the field.
  const named = message
    .replace(/\b[a-z]+(?:[A-Z][a-z]+)+\b/g, (word) => apiNameLabels[word] ?? word)
    .replace(/^[a-z]+\b/, (word) => apiNameLabels[word] ?? word);
  const sentence = named.charAt(0).toUpperCase() + named.slice(1);
  return sentence.replace(/^The review count/, "Review count");
}

/** The typed line of the feeding guide holding the guide's row `index` (blank lines are skipped when rows are read). */
function guideLineNumber(guideField: string, index: number): number {
  let row = -1;
  const lines = guideField.split("\n");
  for (const [line, text] of lines.entries()) {
    if (text.trim() === "") continue;
    row++;
    if (row === index) return line + 1;
  }
  return index + 1;
}

/** The keys of the offer rows that are sent, in the order the server numbers them (see `productInput`). */
export function sentOfferKeys(fields: Pick<ProductFields, "offers">): number[] {
  return fields.offers.filter((row) => row.retailerId !== "" && row.affiliateUrl.trim() !== "").map((row) => row.key);
}

/**
 * Where and why the server refused a save, from its error: its message names the field by its
 * path ("feedingGuide.rows.1.weightKg: ...", "retailerLinks.0.price: ...", "rating must be ..."),
 * which becomes the form field it belongs under and a plain sentence. Anything else (a network
 * failure, a server fault) is a problem of no field, with `fallback` when the server said nothing.
 * `offerNames` names the rows' retailers for the summary.
 */
export function saveProblem(error: unknown, fields: ProductFields, fallback: string, offerNames: (row: OfferRow) => string | undefined = () => undefined): SaveProblem {
  const text = error instanceof ApiError ? error.error?.trim() : undefined;
  if (!text) return { at: null, label: "", message: fallback };
  if (error instanceof ApiError && error.status === 409 && /\bslug\b/.test(text)) {
    return { at: { field: "slugField" }, label: "Slug", message: `${text}: choose another slug (or leave it empty to use the name)` };
  }
  const prefixed = /^([A-Za-z]+(?:\.[A-Za-z0-9]+)*): ([\s\S]+)$/.exec(text);
  const path = prefixed ? prefixed[1]!.split(".") : [/^[A-Za-z]+/.exec(text)?.[0] ?? ""];
  const message = prefixed ? prefixed[2]! : text;
  const [top, ...rest] = path;

  if (top === "feedingGuide") {
    const guide = { field: "guideField" as const };
    if (rest[0] === "rows" && rest[1] !== undefined && /^\d+$/.test(rest[1])) {
      const line = guideLineNumber(fields.guideField, Number(rest[1]));
      const sentence =
        rest[2] === "gramsPerDay"
          ? `Daily grams must be a number above 0 and at most ${thousands(feedingGuideLimits.maxGramsPerDay)}, and not less than on the line above`
          : `Weight must be a number of kg above 0 and at most ${thousands(feedingGuideLimits.maxWeightKg)}, and more than on the line above`;
      return { at: guide, label: "Feeding guide", message: `Line ${line}: ${sentence}` };
    }
    return { at: guide, label: "Feeding guide", message: `The feeding guide needs ${feedingGuideLimits.minRows} to ${feedingGuideLimits.maxRows} lines, each a body weight and daily grams, e.g. 5 kg: 95 g` };
  }
  if (top === "kcalPerKg") {
    return { at: { field: "kcalField" }, label: "Energy (kcal per kg)", message: kcalProblem };
  }
  if (top === "retailerLinks") {
    const index = rest[0] !== undefined && /^\d+$/.test(rest[0]) ? Number(rest[0]) : null;
    const key = index === null ? undefined : sentOfferKeys(fields)[index];
    const row = key === undefined ? undefined : fields.offers.find((offer) => offer.key === key);
    if (row === undefined || key === undefined) return { at: null, label: "Retailer offers", message: plainMessage(message.replace(/^retailerLinks\b\s*/, "")) };
    const number = fields.offers.indexOf(row) + 1;
    const retailer = offerNames(row);
    const rowLabel = `Offer ${number}${retailer ? ` (${retailer})` : ""}`;
    const field = rest[1];
    const shown = plainMessage(message);
    if (field !== undefined && offerProblemFields.has(field)) {
      return { at: { row: key, field: field as OfferProblemField }, label: `${rowLabel}: ${offerFieldLabels[field]}`, message: shown };
    }
    return { at: { row: key, field: "affiliateUrl" }, label: rowLabel, message: shown };
  }
  const known = top === undefined ? undefined : productFieldNames[top];
  if (known) return { at: { field: known.field }, label: known.label, message: plainMessage(message) };
  return { at: null, label: "", message: plainMessage(message) };
}
