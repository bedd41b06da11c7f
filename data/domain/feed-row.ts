/**
 * One row of an affiliate product feed (Awin's CSV layout) turned into a normalised offer, or
 * into a row error that names the problem and its line. Pure: the streaming, decoding and CSV
 * syntax live in data/feeds/awin-feed.ts; this module sees one record as header name -> text.
 *
 * Money leaves as integer pence and only ever in pounds sterling: a row priced in any other
 * currency is an error, never stored as if it were pounds.
 */
import { slugify } from "./slug.ts";
import { toPence, type Pence } from "./money.ts";
import { parsePriceText, parseSchemaPrice } from "./price-text.ts";
import { maxRepeatTermsLength } from "./repeat-delivery.ts";
import { canonicalMultiBuy } from "./multi-buy.ts";
import { registryEntry, registryEntryByName } from "./retailers.ts";
import { maxMemberSchemeLength } from "./member-price.ts";
import { legalCategories, parseLegalCategory, type LegalCategory } from "./legal-category.ts";

/** Awin's standard columns, in their usual order. */
export const standardFeedColumns = [
  "aw_deep_link",
  "product_name",
  "aw_product_id",
  "merchant_product_id",
  "merchant_image_url",
  "description",
  "merchant_category",
  "search_price",
  "merchant_name",
  "merchant_id",
  "category_name",
  "category_id",
  "aw_image_url",
  "currency",
  "store_price",
  "delivery_cost",
  "merchant_deep_link",
  "language",
  "last_updated",
  "display_price",
  "data_feed_id",
] as const;

/**
 * Repeat-delivery price columns (Subscribe & Save, Repeat, Easy Repeat), in the order they are
 * tried: the first non-empty one is the repeat price. Not Awin standard columns: a retailer that
 * exports its scheme's price uses one of these names.
 */
export const repeatPriceColumns = ["subscribe_and_save_price", "repeat_delivery_price", "subscription_price"] as const;
/** The scheme's terms: the first non-empty one. */
export const repeatTermsColumns = ["repeat_delivery_terms", "subscription_terms"] as const;

/**
 * A multi-buy ("3 for 2", "Buy 2 get 1 free", "2 for £20"): the first non-empty of these, read by
 * parseMultiBuy. Awin's promotional_text is free text, so only a text that words a multi-buy is
 * one ("Free delivery over £39" is none).
 */
export const multiBuyColumns = ["multi_buy", "multibuy", "promotional_text"] as const;

/**
 * A member (loyalty) price: the first non-empty of these; its scheme from `member_scheme`, else
 * the scheme the retailer registry knows for the merchant (Pets Club, PetCLUB, zooPoints).
 */
export const memberPriceColumns = ["member_price", "loyalty_price"] as const;
export const memberSchemeColumns = ["member_scheme", "loyalty_scheme"] as const;

/**
 * A veterinary medicine's legal category (POM-V, POM-VPS, NFA-VPS, AVM-GSL), in the order they
 * are tried: the first non-empty one is the row's. Not standard columns: a pet pharmacy that
 * exports its medicines' categories uses one of these names.
 */
export const legalCategoryColumns = ["legal_category", "vmd_category", "distribution_category"] as const;

/** Optional columns this reader uses when a feed has them. */
export const optionalFeedColumns = [
  "brand_name",
  "rrp_price",
  "product_price_old",
  "in_stock",
  "stock_status",
  "ean",
  "product_gtin",
  "upc",
  "mpn",
  "base_price_amount",
  "base_price_text",
  "parent_product_id",
  "condition",
  ...repeatPriceColumns,
  ...repeatTermsColumns,
  ...multiBuyColumns,
  ...memberPriceColumns,
  ...memberSchemeColumns,
  ...legalCategoryColumns,
] as const;

const knownColumns: ReadonlySet<string> = new Set<string>([...standardFeedColumns, ...optionalFeedColumns]);

/** Price columns, in the order they are tried: the first non-empty one is the price. */
const priceColumns = ["search_price", "store_price", "display_price"] as const;

/**
 * A feed row as an offer. Text the catalogue stores as text (merchant, ids, description, image,
 * category) is "" when the feed leaves it empty, as in the catalogue's own input; the other
 * optional facts are null when unknown.
 */
export interface FeedOffer {
  /** 1-based physical line of the file where the record starts. */
  line: number;
  merchantName: string;
  merchantId: string;
  /** The retailer key (`amazon`, `pets-at-home`, ...): see merchantKeyOf. */
  merchantKey: string;
  /** The feed's id for the product: aw_product_id, else merchant_product_id. */
  externalId: string;
  name: string;
  brand: string | null;
  /** Plain text: HTML tags removed, entities decoded. */
  description: string;
  /** merchant_image_url, else aw_image_url; http(s) only. */
  image: string;
  /** category_name, else merchant_category. */
  categoryName: string;
  /** The retailer's product page (see productUrlOf). */
  url: string;
  /** aw_deep_link: the tracked link through the affiliate network. */
  affiliateUrl: string | null;
  pricePence: Pence;
  /** rrp_price or product_price_old, only when above the price (no invented savings). */
  originalPricePence: Pence | null;
  /** Delivery for this item alone; null when unknown (see deliveryPenceOf). */
  deliveryPence: Pence | null;
  currency: "GBP";
  inStock: boolean | null;
  /** Normalised by normaliseGtin. */
  gtin: string | null;
  mpn: string | null;
  /** Normalised by packSizeOf ("2kg", "12x100g"). */
  packSize: string | null;
  lastUpdated: string | null;
  /**
   * The repeat-delivery item price. Absent when the feed has no repeat price column (the stored
   * one is kept); null when the row states none, or one that is not a sterling amount above zero
   * and at most the price (a "repeat discount" above the one-off price is no discount).
   */
  repeatPricePence?: Pence | null;
  /** The scheme's terms in one line (at most 200 characters); absent as repeatPricePence, null without a repeat price. */
  repeatTerms?: string | null;
  /**
   * The multi-buy in the site's words ("3 for 2"). Absent when the feed has no multi-buy column
   * (the stored one is kept); null when the row words none.
   */
  multiBuy?: string | null;
  /**
   * The member price and its scheme. Absent when the feed has no member price column (the stored
   * ones are kept); null when the row states none, one that is not a sterling amount above zero
   * and below the price, or no scheme is known for it.
   */
  memberPricePence?: Pence | null;
  memberScheme?: string | null;
  /** The legal category the row states (a veterinary medicine's, or "none"); absent when it states none. */
  legalCategory?: LegalCategory;
}

/** What one record of a feed becomes. An error's text starts with "line N: ". */
export type FeedItem = { kind: "offer"; offer: FeedOffer } | { kind: "error"; line: number; error: string };

/** What a row is read with besides its cells. */
export interface FeedRowContext {
  /**
   * The retailer the feed's source belongs to: a row that names no merchant (empty merchant_name
   * and merchant_id, or no such columns) is that retailer's offer. A row that names one keeps it.
   */
  retailerKey?: string | null;
}

/** A header cell as matched: trimmed and lower case ("Product_GTIN " -> "product_gtin"). */
export function normaliseHeaderName(name: string): string {
  return name
    .replace(/^\uFEFF/, "")
    .trim()
    .toLowerCase();
}

/** Whether the reader uses this (normalised) column; the others are ignored. */
export function isKnownColumn(name: string): boolean {
  return knownColumns.has(name);
}

/**
 * Why a header cannot be read as a product feed, or null when it can. A feed needs a product
 * name, a price, a merchant and a link to the product; a first line with none of the feed's
 * column names is not a feed at all.
 */
export function headerProblem(header: readonly string[], context: FeedRowContext = {}): string | null {
  const names = new Set(header.map(normaliseHeaderName));
  if (![...names].some((name) => knownColumns.has(name))) {
    return "This file is not a product feed: its first line has none of the feed's column names (product_name, search_price, merchant_name, ...)";
  }
  if (!names.has("product_name")) return "The feed has no product_name column";
  if (!priceColumns.some((name) => names.has(name))) return "The feed has no price column (search_price, store_price or display_price)";
  if (!names.has("merchant_name") && !names.has("merchant_id") && !context.retailerKey) return "The feed has no merchant_name or merchant_id column";
  if (!names.has("merchant_deep_link") && !names.has("aw_deep_link")) return "The feed has no link column (merchant_deep_link or aw_deep_link)";
  return null;
}

// ---------------------------------------------------------------------------------------------
// Text repair

/** Windows-1252's characters for bytes 0x80..0x9F (the rest of 0x80..0xFF is Latin-1). */
const cp1252High = "€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ";
const cp1252Byte = new Map<string, number>([...cp1252High].map((char, index) => [char, 0x80 + index]));
const continuation = `[\\u00A0-\\u00BF${cp1252High}]`;
/** A UTF-8 sequence that was decoded as Windows-1252: a lead byte's character, then continuations. */
const mojibakeRun = new RegExp(`[\\u00C2-\\u00DF]${continuation}|[\\u00E0-\\u00EF]${continuation}{2}|[\\u00F0-\\u00F4]${continuation}{3}`, "g");
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Repairs UTF-8 text that was decoded once too often as Windows-1252 ("Ã©" -> "é", "Â£" -> "£",
 * "â€™" -> "’"). Each suspect run is re-encoded to its bytes and kept only when they form valid
 * UTF-8, so ordinary accented text is left alone.
 * @example repairMojibake("CafÃ© Â£5") // "Café £5"
 */
export function repairMojibake(text: string): string {
  if (!/[\u00C2-\u00F4]/.test(text)) return text;
  return text.replace(mojibakeRun, (run) => {
    const bytes = Uint8Array.from(run, (char) => cp1252Byte.get(char) ?? char.charCodeAt(0));
    try {
      return strictUtf8.decode(bytes);
    } catch {
      return run;
    }
  });
}

const namedEntities: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " ", pound: "£", euro: "€" };

function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,6});/gi, (entity, body: string) => {
    if (body.startsWith("#")) {
      const code = body[1] === "x" || body[1] === "X" ? Number.parseInt(body.slice(2), 16) : Number(body.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    }
    return namedEntities[body.toLowerCase()] ?? entity;
  });
}

/** One line of display text: entities decoded, whitespace collapsed; null when empty. */
function cleanText(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  const text = decodeEntities(raw).replace(/\s+/g, " ").trim();
  return text === "" ? null : text;
}

/** A description as plain text: tags removed (block ends become spaces), then as cleanText. */
function cleanDescription(raw: string | undefined): string | null {
  if (raw === undefined || !raw.includes("<")) return cleanText(raw);
  return cleanText(raw.replace(/<(?:br|\/p|\/li|\/div|\/h\d)\b[^>]*>/gi, " ").replace(/<[^>]*>/g, ""));
}

// ---------------------------------------------------------------------------------------------
// Money

const currencySymbols: Readonly<Record<string, string>> = { "£": "GBP", "€": "EUR", $: "USD" };
const currencyCodes = new Set(["GBP", "EUR", "USD", "CHF", "SEK", "NOK", "DKK", "PLN", "CZK", "HUF", "AUD", "CAD", "NZD", "JPY", "CNY", "INR"]);

export interface ParsedPrice {
  /** Signed: a negative amount parses, so the caller can say it is not above zero. */
  pence: Pence;
  /** The currency the text names ("£", "EUR"), or null when it names none. */
  currency: string | null;
}

/**
 * The shape of a feed price: an optional currency mark, an amount (digits with "." "," space or
 * apostrophe separators, an optional leading minus), an optional currency mark or "p". Anything
 * else is refused before the amount is read: "(5.00)" (an accounting negative), "1/2" (a
 * fraction), "5.00-", "from £3", "£5 - £9", "12.99 + VAT".
 */
const pricePattern = /^(?:[£€$]|[A-Za-z]{3})?\s?-?\s?(?:[£€$]\s?)?[\d.,'’ \u00a0]*\d[\d.,'’ \u00a0]*\s?(?:[£€$]|[A-Za-z]{3}|p)?$/;

/** Zero with a currency mark before or after it ("£0", "0.00 GBP"); a bare zero is read as a plain number. */
const zeroPattern = /^(?:([£€$]|[A-Za-z]{3})\s?)?0+(?:[.,]0+)?(?:\s?([£€$]|[A-Za-z]{3}))?$/;

/**
 * Why a price cell is not a price, in words for the row's error: an accounting negative "(5.00)"
 * or "5.00-",
 * a fraction "1/2", a "from" price or a range, else "is not a price".
 * @example priceProblem("(5.00)") // "is an accounting negative (in brackets), not a price"
 */
export function priceProblem(raw: string): string {
  const text = raw.trim();
  if (/^\(.*\d.*\)$/.test(text)) return "is an accounting negative (in brackets), not a price";
  if (/\d\s?-$/.test(text)) return "is an accounting negative (a trailing minus), not a price";
  if (/\d\s*\/\s*\d/.test(text)) return "is a fraction, not a price";
  if (/\bfrom\b/i.test(text)) return "is a starting price (\"from\"), not one price";
  const code = /^([A-Z]{3})\s?[\d.,]+$|^[\d.,]+\s?([A-Z]{3})$/.exec(text);
  if (code && (code[1] ?? code[2]) !== "GBP") return `is in ${code[1] ?? code[2]}, not GBP (not imported)`;
  if (/\d\s*(?:-|–|to)\s*\D{0,4}\d/i.test(text)) return "is a range, not one price";
  return "is not a price";
}

/**
 * A feed's price cell, read by the site's one price parser (price-text.ts), with the feed
 * layout's rules on top: a plain number uses "." as the decimal point ("12.99", "12.990"), and
 * one with more than two decimals that are not zeros ("1.299", "12.995") is ambiguous, so
 * refused; a "from" price or a range is not one price, and text naming two currencies
 * ("£12.99 EUR") or an unknown code ("12.99 ABC") is refused. Zero and negative amounts are not
 * prices.
 * @example parsePrice("£12.99") // { pence: 1299, currency: "GBP" }
 * @example parsePrice("5,95 EUR") // { pence: 595, currency: "EUR" }
 * @example parsePrice("abc") // null
 */
export function parsePrice(raw: string): ParsedPrice | null {
  const text = raw.trim();
  if (!pricePattern.test(text)) return null;
  const zero = zeroPattern.exec(text);
  if (zero) {
    // "0.00 GBP": the shared parser reads no zero amounts, a delivery cost can be one.
    const mark = (zero[1] ?? zero[2])?.toUpperCase();
    const currency = mark === undefined ? null : (currencySymbols[mark] ?? mark);
    return currency === null || currencyCodes.has(currency) ? { pence: 0, currency } : null;
  }
  const plain = /^(-?)(\d*)(?:\.(\d+))?$/.exec(text);
  if (plain) {
    const [, sign, whole = "", decimals = ""] = plain;
    if (whole === "" && decimals === "") return null;
    if (decimals.replace(/0+$/, "").length > 2) return null;
    // Zero and negative amounts parse, so the caller can say they are not above zero.
    if (/^0*$/.test(whole + decimals)) return { pence: 0, currency: null };
    const pence = parseSchemaPrice(`${whole || "0"}${decimals ? `.${decimals}` : ""}`);
    return pence === null ? null : { pence: sign ? -pence : pence, currency: null };
  }
  if (/[.,]{2}/.test(text)) return null;
  const parsed = parsePriceText(text);
  if (parsed === null || parsed.from || parsed.range) return null;
  // Every currency the text names must be the one read.
  const named = [...text.matchAll(/[£€$]|\b[A-Za-z]{3}\b|(?<=\d)[A-Za-z]{3}\b|\b[A-Za-z]{3}(?=\d)/g)].map((match) => currencySymbols[match[0]] ?? match[0].toUpperCase());
  if (named.some((code) => !currencyCodes.has(code) || code !== parsed.currency)) return null;
  return { pence: parsed.pence, currency: parsed.currency };
}

/** A bare amount ("29", "1,299.00") to pence, or null. */
function amountPence(raw: string): Pence | null {
  return parsePrice(raw)?.pence ?? null;
}

function isSterling(currency: string | null): boolean {
  return currency === null || currency === "GBP";
}

/**
 * Delivery for one item bought alone, in pence, from the feed's delivery_cost text:
 * - an amount ("3.99", "£3.99", "0.00") is that amount; in another currency it is unknown (null);
 * - "Free", "free delivery", "FREE UK delivery" (free with no condition) is 0;
 * - free with a spend threshold ("Free over £29", "free delivery on orders over £29") is 0 when
 *   this item's own price meets the threshold, else unknown: below it, the cost depends on the
 *   basket and the feed does not say what it is;
 * - anything else ("", "See website", "from £2.99", "3.99-5.99") is unknown (null).
 * @example deliveryPenceOf("Free over £29", 3499) // 0
 * @example deliveryPenceOf("Free over £29", 1299) // null
 */
export function deliveryPenceOf(raw: string | undefined, pricePence: Pence): Pence | null {
  const text = (raw ?? "").trim().toLowerCase();
  if (text === "") return null;
  const conditional = /\b(?:over|above|from|orders?|spend|min(?:imum)?|when|if|basket)\b/.test(text);
  if (/\bfree\b/.test(text)) {
    if (!conditional) return 0;
    const threshold = /(?:£|gbp\s*)?(\d[\d,.]*)/.exec(text);
    const thresholdPence = threshold ? amountPence(threshold[1]!.replace(/[.,]$/, "")) : null;
    return thresholdPence !== null && pricePence >= thresholdPence ? 0 : null;
  }
  if (conditional) return null;
  const amount = parsePrice(text);
  return amount !== null && amount.pence >= 0 && isSterling(amount.currency) ? amount.pence : null;
}

// ---------------------------------------------------------------------------------------------
// Stock

const inStockWords = new Set(["1", "y", "yes", "true", "in stock", "instock", "in_stock", "available", "in stock online", "limited stock", "low stock"]);
const outOfStockWords = new Set([
  "0",
  "n",
  "no",
  "false",
  "out of stock",
  "outofstock",
  "out_of_stock",
  "sold out",
  "unavailable",
  "not available",
  "discontinued",
]);

/** One stock cell: true, false, or null when it says neither ("preorder", ""). A count > 0 is in stock. */
function stockWord(raw: string | undefined): boolean | null {
  const text = (raw ?? "").trim().toLowerCase().replace(/\s+/g, " ");
  if (inStockWords.has(text)) return true;
  if (outOfStockWords.has(text)) return false;
  if (/^\d+$/.test(text)) return Number(text) > 0;
  return null;
}

/**
 * Stock from in_stock, else from stock_status when in_stock says neither: "1"/"0", "yes"/"no",
 * "true"/"false", "in stock"/"out of stock" (any case) and a stock count. Null when unknown.
 */
export function stockOf(inStock: string | undefined, stockStatus: string | undefined): boolean | null {
  return stockWord(inStock) ?? stockWord(stockStatus);
}

// ---------------------------------------------------------------------------------------------
// Barcodes

/**
 * A barcode as one comparable string, or null when it is not a valid GTIN. Spaces and hyphens
 * are ignored; the number must have 8, 12, 13 or 14 digits with a correct check digit. A number
 * Excel turned into scientific notation ("5.01E+12") has lost digits, so it is refused, as is an
 * all-zero code.
 *
 * Padding: GTIN-8, GTIN-12 (UPC-A) and GTIN-13 are left-padded with zeros to 13 digits (the
 * EAN-13 form printed on UK packs), and a GTIN-14 with a leading 0 drops it, so one trade item
 * has one form whichever length a feed used. Zero-padding keeps the check digit valid. A GTIN-14
 * with another leading digit (an outer case) stays 14 digits.
 * @example normaliseGtin("5010394000055") // "5010394000055"
 * @example normaliseGtin("036000291452") // "0036000291452"
 * @example normaliseGtin("5.01E+12") // null
 */
export function normaliseGtin(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  let text = raw.trim();
  if (/e[+-]?\d+$/i.test(text)) return null;
  // "5010394000057.0": Excel's number format with the digits intact.
  text = text.replace(/\.0+$/, "").replace(/[\s-]/g, "");
  if (!/^(?:\d{8}|\d{12,14})$/.test(text) || /^0+$/.test(text) || !hasValidCheckDigit(text)) return null;
  if (text.length === 14) return text.startsWith("0") ? text.slice(1) : text;
  return text.padStart(13, "0");
}

/**
 * The GS1 check digit for the digits before it: from the right, weights 3, 1, 3, ...
 * @example gtinCheckDigit("501039400005") // "5"
 */
export function gtinCheckDigit(body: string): string {
  let sum = 0;
  for (let i = body.length - 1, weight = 3; i >= 0; i--, weight = 4 - weight) sum += Number(body[i]) * weight;
  return String((10 - (sum % 10)) % 10);
}

function hasValidCheckDigit(digits: string): boolean {
  return gtinCheckDigit(digits.slice(0, -1)) === digits.slice(-1);
}

// ---------------------------------------------------------------------------------------------
// Pack sizes and matching

const massUnits: Readonly<Record<string, readonly [factor: number, unit: "g" | "ml"]>> = {
  kg: [1000, "g"],
  kgs: [1000, "g"],
  kilo: [1000, "g"],
  kilos: [1000, "g"],
  kilogram: [1000, "g"],
  kilograms: [1000, "g"],
  g: [1, "g"],
  gm: [1, "g"],
  gms: [1, "g"],
  gr: [1, "g"],
  gram: [1, "g"],
  grams: [1, "g"],
  ml: [1, "ml"],
  cl: [10, "ml"],
  l: [1000, "ml"],
  ltr: [1000, "ml"],
  ltrs: [1000, "ml"],
  litre: [1000, "ml"],
  litres: [1000, "ml"],
  liter: [1000, "ml"],
  liters: [1000, "ml"],
};
const countUnits: Readonly<Record<string, readonly [one: string, many: string]>> = {
  tablet: ["tablet", "tablets"],
  tablets: ["tablet", "tablets"],
  pipette: ["pipette", "pipettes"],
  pipettes: ["pipette", "pipettes"],
  stick: ["stick", "sticks"],
  sticks: ["stick", "sticks"],
  chew: ["chew", "chews"],
  chews: ["chew", "chews"],
  pouch: ["pouch", "pouches"],
  pouches: ["pouch", "pouches"],
  sachet: ["sachet", "sachets"],
  sachets: ["sachet", "sachets"],
  tin: ["tin", "tins"],
  tins: ["tin", "tins"],
  can: ["can", "cans"],
  cans: ["can", "cans"],
  capsule: ["capsule", "capsules"],
  capsules: ["capsule", "capsules"],
  pcs: ["piece", "pieces"],
  piece: ["piece", "pieces"],
  pieces: ["piece", "pieces"],
  wipes: ["wipe", "wipes"],
  pads: ["pad", "pads"],
};

const number = String.raw`\d+(?:[.,]\d+)?`;
const unitNames = Object.keys(massUnits)
  .sort((a, b) => b.length - a.length)
  .join("|");
const countNames = Object.keys(countUnits)
  .sort((a, b) => b.length - a.length)
  .join("|");
// A number that does not follow a letter, digit, decimal point or a range's dash ("20-40kg" is a
// dog's weight, not a pack).
const start = String.raw`(?<![\w.,]|\d\s?[-–]\s?)`;
const end = String.raw`(?![\w])`;
const multipackPattern = new RegExp(
  `${start}(\\d+)\\s*[x×]\\s*(${number})\\s*(${unitNames})${end}|${start}(${number})\\s*(${unitNames})\\s*[x×]\\s*(\\d+)${end}`,
  "gi",
);
const amountPattern = new RegExp(`${start}(${number})\\s*(${unitNames})${end}`, "gi");
const packOfPattern = /\b(?:pack|case|box) of (\d+)\b|\b(\d+)[\s-]?pack\b/gi;
const countPattern = new RegExp(`${start}(\\d+)\\s*(${countNames})${end}`, "gi");

interface PackMatch {
  size: string;
  /** [start, end) spans of the name that state the size. */
  spans: [number, number][];
}

/** 2.5 kg -> "2.5kg", 500 g -> "500g", 1000 g -> "1kg", 0.75 l -> "750ml". */
function canonicalAmount(value: string, unit: string): string | null {
  const scale = massUnits[unit.toLowerCase()];
  if (!scale) return null;
  const base = Math.round(Number(value.replace(",", ".")) * scale[0] * 1000) / 1000;
  if (!(base > 0)) return null;
  const [small, large] = scale[1] === "g" ? ["g", "kg"] : ["ml", "l"];
  return base >= 1000 ? `${base / 1000}${large}` : `${base}${small}`;
}

function lastMatch(pattern: RegExp, text: string): RegExpExecArray | null {
  let last: RegExpExecArray | null = null;
  for (const match of text.matchAll(pattern)) last = match;
  return last;
}

const span = (match: RegExpExecArray): [number, number] => [match.index, match.index + match[0].length];

function findPackSize(text: string): PackMatch | null {
  const multipack = lastMatch(multipackPattern, text);
  if (multipack) {
    const [, count1, value1, unit1, value2, unit2, count2] = multipack;
    const amount = canonicalAmount(value1 ?? value2 ?? "", unit1 ?? unit2 ?? "");
    if (amount) return { size: `${Number(count1 ?? count2)}x${amount}`, spans: [span(multipack)] };
  }
  const packOf = lastMatch(packOfPattern, text);
  const packCount = packOf ? Number(packOf[1] ?? packOf[2]) : 1;
  const amount = lastMatch(amountPattern, text);
  if (amount) {
    const size = canonicalAmount(amount[1]!, amount[2]!);
    if (size) {
      if (packOf && packCount > 1) return { size: `${packCount}x${size}`, spans: [span(amount), span(packOf)] };
      return { size, spans: [span(amount)] };
    }
  }
  const count = lastMatch(countPattern, text);
  if (count) {
    const n = Number(count[1]);
    const [one, many] = countUnits[count[2]!.toLowerCase()]!;
    return { size: `${n} ${n === 1 ? one : many}`, spans: [span(count)] };
  }
  if (packOf && packCount > 1) return { size: `${packCount} pack`, spans: [span(packOf)] };
  return null;
}

/**
 * The pack size a product name (or a base-price text) states, in one form: weights and volumes
 * in g/kg and ml/l ("2 kg" -> "2kg", "1000g" -> "1kg", "0.5kg" -> "500g"), multipacks as
 * count x size ("12 x 100g", "100g x 12", "2kg (Pack of 4)" -> "12x100g", "12x100g", "4x2kg"),
 * counted packs ("28 Sticks" -> "28 sticks", "Pack of 6" -> "6 pack"). When several sizes appear
 * the last one wins (names end with the pack); a range ("20-40kg") is a dog's weight, never a pack.
 * @example packSizeOf("Felix Pouches 12 x 100g") // "12x100g"
 * @example packSizeOf("Royal Canin Maxi Adult (26-44kg) 15 kg") // "15kg"
 */
export function packSizeOf(text: string | null | undefined): string | null {
  if (!text) return null;
  return findPackSize(text)?.size ?? null;
}

/** Lower case, accents stripped, "&" as "and", apostrophes dropped (so "Lily's" = "Lilys"). */
function fold(text: string): string {
  return repairMojibake(text)
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/['’‘`´]/g, "");
}

function words(text: string): string[] {
  return text.split(/[^a-z0-9]+/).filter((word) => word !== "");
}

/**
 * A key that is equal for the same product named slightly differently: brand then name, lower
 * case, accents and punctuation removed, the brand not repeated when the name starts with (or
 * contains) it, and the pack size in packSizeOf's form at the end wherever the name stated it
 * ("12 x 100g" = "12x100g", "2 Kg" = "2kg"). Names that differ in pack size get different keys.
 * @example matchKey("Lily's Kitchen", "Lily’s Kitchen Lamb Hotpot 2.5 Kg") // "lilys kitchen lamb hotpot 2.5kg"
 */
export function matchKey(brand: string | null | undefined, name: string): string {
  const folded = fold(name);
  const pack = findPackSize(folded);
  let rest = folded;
  if (pack) {
    for (const [from, to] of [...pack.spans].sort((a, b) => b[0] - a[0])) rest = `${rest.slice(0, from)} ${rest.slice(to)}`;
  }
  const brandWords = brand ? words(fold(brand)) : [];
  const nameWords = words(rest);
  const at = brandWords.length === 0 ? -1 : nameWords.findIndex((_, i) => brandWords.every((word, j) => nameWords[i + j] === word));
  if (at >= 0) nameWords.splice(at, brandWords.length);
  return [...brandWords, ...nameWords, ...(pack ? [pack.size] : [])].join(" ");
}

// ---------------------------------------------------------------------------------------------
// Merchants

/**
 * The retailer key for a merchant name: a registry retailer by its name or the names feeds give it
 * ("Amazon UK", "Amazon.co.uk" -> "amazon"; "Jollyes - The Pet People" -> "jollyes"; "eBay UK"
 * -> "ebay"), any other merchant by the slug of its name without a web address's ending
 * ("Purely Pets" -> "purely-pets", "Bitiba.co.uk" -> "bitiba"). Empty when the name has no
 * letters or digits.
 */
export function merchantKeyOf(name: string): string {
  let key = merchantKeys.get(name);
  if (key === undefined) {
    // A feed names a handful of merchants on every row: remember them (bounded, it is only a cache).
    if (merchantKeys.size >= 10_000) merchantKeys.clear();
    key = computeMerchantKey(name);
    merchantKeys.set(name, key);
  }
  return key;
}

const merchantKeys = new Map<string, string>();

function computeMerchantKey(name: string): string {
  const withoutDomain = fold(name).replace(/\.(?:co\.uk|org\.uk|com|uk|net|org)\b/g, "");
  return registryEntryByName(fold(name))?.key ?? slugify(withoutDomain.replace(/\.(?=[a-z])/g, "-"));
}

// ---------------------------------------------------------------------------------------------
// Links

const httpUrl = /^https?:\/\/[^\s/?#]+[^\s]*$/i;

/** The destination an Awin link carries in its `ued` parameter, when it does. */
function awinDestination(affiliateUrl: string): string | null {
  if (!/[?&]ued=/.test(affiliateUrl)) return null;
  try {
    const destination = new URL(affiliateUrl).searchParams.get("ued");
    return destination !== null && httpUrl.test(destination) ? destination : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// The row

/** A cell trimmed and with mojibake repaired ("Â£4.99" is a price); undefined when empty. */
function cell(record: Readonly<Record<string, string | undefined>>, column: string): string | undefined {
  const value = record[column]?.trim();
  return value === undefined || value === "" ? undefined : repairMojibake(value);
}

/** The record with normalised header names; the first non-empty cell wins a repeated name. */
function normaliseRecord(record: Readonly<Record<string, string | undefined>>): Record<string, string | undefined> {
  const normalised: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(record)) {
    const key = normaliseHeaderName(name);
    if (normalised[key] === undefined || normalised[key]!.trim() === "") normalised[key] = value;
  }
  return normalised;
}

/**
 * One feed record (header name -> cell text; names matched case-insensitively and trimmed) as an
 * offer, or an error naming the problem. A row is refused for: no product name; no price, a price
 * that is not an amount, or one not above zero; a price in another currency than GBP (from the
 * currency column or the price text); no merchant; no link, or a link that is not http(s).
 * Everything else that is missing or unreadable is left empty on the offer ("" or null, as
 * FeedOffer says: a barcode Excel mangled, an unknown stock word, an unreadable delivery text),
 * never an error.
 */
export function parseFeedRow(record: Readonly<Record<string, string | undefined>>, line: number, context: FeedRowContext = {}): FeedItem {
  return parseFeedCells(normaliseRecord(record), line, context);
}

/**
 * parseFeedRow for a record whose header names are already normalised by normaliseHeaderName,
 * as a streaming reader has them once per file (saves normalising them on every row).
 */
export function parseFeedCells(record: Readonly<Record<string, string | undefined>>, line: number, context: FeedRowContext = {}): FeedItem {
  const error = (problem: string): FeedItem => ({ kind: "error", line, error: `line ${line}: ${problem}` });

  const name = cleanText(cell(record, "product_name"));
  if (name === null) return error("no product name");

  const priceColumn = priceColumns.find((column) => cell(record, column) !== undefined);
  if (priceColumn === undefined) return error("no price (search_price, store_price and display_price are empty)");
  const priceText = cell(record, priceColumn)!;
  const price = parsePrice(priceText);
  if (price === null) return error(`price ${JSON.stringify(priceText)} ${priceProblem(priceText)}`);
  const currencyCell = cell(record, "currency")?.toUpperCase();
  const columnCurrency = currencyCell === undefined ? null : (currencySymbols[currencyCell] ?? currencyCell);
  for (const currency of [price.currency, columnCurrency]) {
    if (!isSterling(currency)) return error(`priced in ${currency}, not GBP (not imported)`);
  }
  if (price.pence <= 0) return error(`price ${JSON.stringify(priceText)} is not above zero`);

  const merchantName = cleanText(cell(record, "merchant_name")) ?? "";
  const merchantId = cell(record, "merchant_id") ?? "";
  const retailerKey = merchantName === "" && merchantId === "" ? (context.retailerKey ?? "") : "";
  if (merchantName === "" && merchantId === "" && retailerKey === "") return error("no merchant (merchant_name and merchant_id are empty)");

  const condition = cell(record, "condition")?.toLowerCase();
  if (condition !== undefined && condition !== "new") return error(`condition ${JSON.stringify(condition)}: only new items are compared (not imported)`);

  const merchantLink = cell(record, "merchant_deep_link");
  const affiliateLink = cell(record, "aw_deep_link");
  if (merchantLink === undefined && affiliateLink === undefined) return error("no link to the product (merchant_deep_link and aw_deep_link are empty)");
  for (const link of [merchantLink, affiliateLink]) {
    if (link !== undefined && !httpUrl.test(link)) return error(`link ${JSON.stringify(link)} is not an http(s) address`);
  }
  // The retailer's page: merchant_deep_link, else the destination an Awin link carries, else the
  // Awin link itself (it redirects there).
  const url = merchantLink ?? awinDestination(affiliateLink!) ?? affiliateLink!;

  // A legal category the row states must be one we know: a medicine whose category cannot be read
  // could be a prescription-only one, which must never be promoted, so the row is not imported.
  const legalCategoryText = legalCategoryColumns.map((column) => cell(record, column)).find((value) => value !== undefined);
  const legalCategory = parseLegalCategory(legalCategoryText);
  if (legalCategory === null) {
    return error(`legal category ${JSON.stringify(legalCategoryText)} is not one of ${legalCategories.filter((category) => category !== "none").join(", ")} (not imported)`);
  }

  let originalPricePence: Pence | null = null;
  for (const column of ["rrp_price", "product_price_old"]) {
    const text = cell(record, column);
    const original = text === undefined ? null : parsePrice(text);
    if (original !== null && isSterling(original.currency) && original.pence > price.pence) {
      originalPricePence = original.pence;
      break;
    }
  }

  const image = [cell(record, "merchant_image_url"), cell(record, "aw_image_url")].find((link) => link !== undefined && httpUrl.test(link)) ?? "";
  const basePriceText = cell(record, "base_price_text");
  const packSize = packSizeOf(name) ?? (basePriceText !== undefined && !/\/|\bper\b/i.test(basePriceText) ? packSizeOf(basePriceText) : null);

  return {
    kind: "offer",
    offer: {
      line,
      merchantName,
      merchantId,
      merchantKey: retailerKey || merchantKeyOf(merchantName) || `awin-${slugify(merchantId) || "unknown"}`,
      externalId: cell(record, "aw_product_id") ?? cell(record, "merchant_product_id") ?? "",
      name,
      brand: cleanText(cell(record, "brand_name")),
      description: cleanDescription(cell(record, "description")) ?? "",
      image,
      categoryName: cleanText(cell(record, "category_name")) ?? cleanText(cell(record, "merchant_category")) ?? "",
      url,
      affiliateUrl: affiliateLink ?? null,
      pricePence: price.pence,
      originalPricePence,
      deliveryPence: deliveryPenceOf(cell(record, "delivery_cost"), price.pence),
      currency: "GBP",
      inStock: stockOf(cell(record, "in_stock"), cell(record, "stock_status")),
      gtin: normaliseGtin(cell(record, "ean")) ?? normaliseGtin(cell(record, "product_gtin")) ?? normaliseGtin(cell(record, "upc")),
      mpn: cleanText(cell(record, "mpn")),
      packSize,
      lastUpdated: cell(record, "last_updated") ?? null,
      ...repeatDeliveryOf(record, price.pence),
      ...multiBuyOf(record),
      ...memberPriceOfRow(record, price.pence, retailerKey || merchantKeyOf(merchantName)),
      ...(legalCategory === undefined ? {} : { legalCategory }),
    },
  };
}

/** The row's member price and scheme (see FeedOffer): nothing when the feed has no member price column. */
function memberPriceOfRow(record: Readonly<Record<string, string | undefined>>, pricePence: Pence, merchantKey: string): Pick<FeedOffer, "memberPricePence" | "memberScheme"> {
  if (!memberPriceColumns.some((column) => record[column] !== undefined)) return {};
  const text = memberPriceColumns.map((column) => cell(record, column)).find((value) => value !== undefined);
  const member = text === undefined ? null : parsePrice(text);
  const scheme = memberSchemeColumns.map((column) => cleanText(cell(record, column))).find((value) => value !== null) ?? registryEntry(merchantKey)?.memberScheme ?? null;
  if (member === null || !isSterling(member.currency) || member.pence <= 0 || member.pence >= pricePence || scheme === null) return { memberPricePence: null, memberScheme: null };
  return { memberPricePence: member.pence, memberScheme: scheme.slice(0, maxMemberSchemeLength).trimEnd() };
}

/** The row's multi-buy (see FeedOffer): nothing when the feed has no multi-buy column. */
function multiBuyOf(record: Readonly<Record<string, string | undefined>>): Pick<FeedOffer, "multiBuy"> {
  if (!multiBuyColumns.some((column) => record[column] !== undefined)) return {};
  return { multiBuy: canonicalMultiBuy(multiBuyColumns.map((column) => cell(record, column)).find((value) => value !== undefined)) };
}

/**
 * The row's repeat-delivery price and terms (see FeedOffer): nothing when the feed has no repeat
 * price column, else the first non-empty repeat price column's amount when it is a sterling
 * amount above zero and at most `pricePence`, with its terms cut to 200 characters.
 */
function repeatDeliveryOf(record: Readonly<Record<string, string | undefined>>, pricePence: Pence): Pick<FeedOffer, "repeatPricePence" | "repeatTerms"> {
  if (!repeatPriceColumns.some((column) => record[column] !== undefined)) return {};
  const text = repeatPriceColumns.map((column) => cell(record, column)).find((value) => value !== undefined);
  const repeat = text === undefined ? null : parsePrice(text);
  if (repeat === null || !isSterling(repeat.currency) || repeat.pence <= 0 || repeat.pence > pricePence) return { repeatPricePence: null, repeatTerms: null };
  const terms = repeatTermsColumns.map((column) => cleanText(cell(record, column))).find((value) => value !== null) ?? null;
  return { repeatPricePence: repeat.pence, repeatTerms: terms === null ? null : terms.slice(0, maxRepeatTermsLength).trimEnd() };
}
